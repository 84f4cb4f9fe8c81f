//! `qiyi match xiangqi` records every game a player loses by failing, so it can be replayed.

use std::process::Command;

#[test]
fn a_game_lost_by_a_failure_is_written_with_its_moves() {
    let dir = std::env::temp_dir().join(format!("qiyi-match-failures-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let file = dir.join("failures.txt");
    // An engine that completes the handshake, then never gives a move.
    let broken = "uci:while read l; do case \"$l\" in uci) echo uciok;; isready) echo readyok;; \
                  go*) echo 'bestmove (none)';; quit) exit;; esac; done";
    let out = Command::new(env!("CARGO_BIN_EXE_qiyi"))
        .args([
            "match",
            "xiangqi",
            "--engine",
            "qiyi:level=1",
            "--engine",
            broken,
        ])
        .args(["--games", "2", "--movetime", "20", "--failures"])
        .arg(&file)
        .output()
        .expect("qiyi runs");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stderr}");
    assert!(stderr.contains("2 game(s) lost by a failure"), "{stderr}");
    let text = std::fs::read_to_string(&file).expect("the failures file is written");
    let replays: Vec<&str> = text
        .lines()
        .filter(|l| l.starts_with("position fen "))
        .collect();
    assert_eq!(replays.len(), 2, "{text}");
    assert!(text.contains("no legal move returned"), "{text}");
    // With A (qiyi) red the broken engine failed at its first move, after A's move: the replay
    // line carries that move; with A black it failed at once, with no moves.
    assert!(replays.iter().any(|l| l.contains(" moves ")), "{text}");
    let _ = std::fs::remove_dir_all(&dir);
}
