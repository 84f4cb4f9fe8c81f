//! What the CLI's integration tests share: running the `qiyi` binary built for them, fresh
//! temporary paths, the files a command wrote and a tiny checkers self-play run.

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

/// A path under the system's temporary folder for `test`'s `name`, unique to this process and
/// removed if a previous run left it (not created: the command under test creates it).
#[allow(dead_code)] // not every test file that includes this module needs it
pub fn fresh_path(test: &str, name: &str) -> String {
    let d = std::env::temp_dir().join(format!("qiyi-{test}-test-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    d.to_string_lossy().into_owned()
}

/// The files of the folder `dir` with their bytes, sorted by name.
#[allow(dead_code)] // not every test file that includes this module needs it
pub fn dir_files(dir: &str) -> Vec<(String, Vec<u8>)> {
    let mut v: Vec<(String, Vec<u8>)> = std::fs::read_dir(dir)
        .expect("the directory exists")
        .flatten()
        .map(|e| {
            (
                e.file_name().to_string_lossy().into_owned(),
                std::fs::read(e.path()).expect("readable"),
            )
        })
        .collect();
    v.sort();
    v
}

/// A tiny checkers self-play run (4 games, 2 a shard, depth 2) into `out`, `shards` of it only.
#[allow(dead_code)] // not every test file that includes this module needs it
pub fn checkers_selfplay(seed: &str, out: &str, shards: Option<&str>) {
    let mut args = vec![
        "--seed",
        seed,
        "--threads",
        "1",
        "selfplay",
        "checkers",
        "--games",
        "4",
        "--games-per-shard",
        "2",
        "--depth",
        "2",
        "--out",
        out,
    ];
    if let Some(s) = shards {
        args.extend(["--shards", s]);
    }
    let (code, _, err) = qiyi(&args);
    assert_eq!(code, 0, "{err}");
}
