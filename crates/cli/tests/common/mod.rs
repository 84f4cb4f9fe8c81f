//! What the CLI's integration tests share: running the `qiyi` binary built for them.

use std::process::Command;

/// Runs `qiyi ARGS`; returns (exit code, stdout, stderr).
pub fn qiyi(args: &[&str]) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_qiyi"))
        .args(args)
        .output()
        .expect("the qiyi binary runs");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}
