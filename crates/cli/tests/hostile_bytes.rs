//! Bytes a GUI may send that are not UTF-8 (a Chinese Xiangqi GUI speaking GBK), NUL bytes and
//! absurd numbers, piped into `qiyi uci`, `qiyi ucci`, `qiyi hub` and `qiyi play`: each keeps
//! running and answers the next `isready` / `ping` / command.

use std::io::Write;
use std::process::{Command, Stdio};

/// Runs `qiyi ARGS` with `input` (bytes) on stdin; returns (exit code, stdout, stderr).
fn qiyi(args: &[&str], input: &[u8]) -> (i32, String, String) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_qiyi"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the qiyi binary starts");
    child
        .stdin
        .take()
        .expect("stdin is piped")
        .write_all(input)
        .expect("input is written");
    let out = child.wait_with_output().expect("qiyi ends");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// GBK for "setoption name 棋谱 value C:\象棋", then bytes that are no encoding at all.
const GBK: &[u8] = b"setoption name \xc6\xe5\xc6\xd7 value C:\\\xcf\xf3\xc6\xe5\n\xff\xfe\0\n";

#[test]
fn uci_and_ucci_answer_readyok_after_invalid_bytes() {
    for (cmd, hello) in [("uci", "uciok"), ("ucci", "ucciok")] {
        let mut input = format!("{cmd}\n").into_bytes();
        input.extend_from_slice(GBK);
        // Hash past the maximum is clamped to 4 GiB (allocated once, in the UCI run only).
        if cmd == "uci" {
            input.extend_from_slice(b"setoption name Hash value 99999999\n");
        }
        input.extend_from_slice(b"go depth 99999999999999999999 nodes 500\nisready\nquit\n");
        let (code, out, err) = qiyi(&[cmd, "--level", "1"], &input);
        assert_eq!(code, 0, "qiyi {cmd}: {err}\n{out}");
        assert!(out.contains(hello), "{out}");
        assert!(out.contains("info string error: unknown option"), "{out}");
        if cmd == "uci" {
            assert!(out.contains("Hash 99999999 clamped to 4096"), "{out}");
        }
        assert!(out.contains("clamped to 120"), "{out}");
        assert!(out.lines().any(|l| l == "readyok"), "{out}");
        assert!(out.lines().any(|l| l.starts_with("bestmove ")), "{out}");
    }
}

#[test]
fn hub_answers_pong_after_invalid_bytes() {
    let input = b"hub\nset-param name=\xc6\xe5 value=\xff\n\xff\xfe\0\nlevel move-time=1e300 depth=1\ngo think\nping\nquit\n";
    let (code, out, err) = qiyi(&["hub", "--level", "1"], input);
    assert_eq!(code, 0, "qiyi hub: {err}\n{out}");
    assert!(out.lines().any(|l| l == "pong"), "{out}");
    assert!(out.lines().any(|l| l.starts_with("done move=")), "{out}");
}

#[test]
fn play_refuses_invalid_bytes_as_a_move_and_goes_on() {
    let input = b"\xb3\xb5\xb0\xcb\xbd\xf8\xbe\xc5\n\xff\0\nquit\n";
    let (code, out, err) = qiyi(&["play", "xiangqi", "--seats", "human"], input);
    assert_eq!(code, 0, "qiyi play: {err}\n{out}");
    assert!(out.contains("not a legal move or command"), "{out}");
    assert!(out.contains("line with a NUL byte ignored"), "{out}");
}
