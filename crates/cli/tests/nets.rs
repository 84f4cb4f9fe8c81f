//! `qiyi nets combine` and `qiyi nets info`: the shipped checkers net combined into a set of two
//! stages, described by `info`, read back by the engine (`analyze --eval SET`); and sets that
//! are not sets refused (exit 2, a message that says why, nothing written).

use std::path::Path;
mod common;
use common::qiyi;

/// The shipped checkers net (`QIYINET1`, 128 inputs).
const CHECKERS_NET: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/../checkers/src/engine/nets/checkers.qnet"
);
/// The shipped Xiangqi net.
const XIANGQI_NET: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/../xiangqi/src/nets/xiangqi.qnet"
);

/// A fresh temporary folder for this test process.
fn tmp(name: &str) -> String {
    let d = std::env::temp_dir().join(format!("qiyi-nets-test-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).expect("temp folder");
    d.to_string_lossy().into_owned()
}

fn join(dir: &str, name: &str) -> String {
    Path::new(dir).join(name).to_string_lossy().into_owned()
}

/// `qiyi --json ARGS`: exit code, the last line of stdout as JSON (or `Null`), stderr.
fn json(args: &[&str]) -> (i32, serde_json::Value, String) {
    let mut all = vec!["--json"];
    all.extend_from_slice(args);
    let (code, out, err) = qiyi(&all);
    let v =
        serde_json::from_str(out.lines().last().unwrap_or("")).unwrap_or(serde_json::Value::Null);
    (code, v, err)
}

#[test]
fn combine_writes_a_set_that_info_describes_and_the_engine_reads() {
    let dir = tmp("combine");
    let set = join(&dir, "set.qnet");
    let end = format!("1-8={CHECKERS_NET}");
    let mid = format!("9-24={CHECKERS_NET}");
    // Given out of order: the set is written in order of the stages.
    let (code, v, err) = json(&[
        "nets", "combine", "--stage", &mid, "--stage", &end, "--out", &set,
    ]);
    assert_eq!(code, 0, "{err}");
    let bytes = std::fs::read(&set).expect("the set is written");
    assert_eq!(&bytes[..8], b"QIYISET1");
    assert_eq!(v["bytes"], bytes.len());
    let stages: Vec<&str> = v["stages"]
        .as_array()
        .expect("stages")
        .iter()
        .map(|s| s["stage"].as_str().expect("a stage"))
        .collect();
    assert_eq!(stages, ["1-8", "9-24"]);
    assert!(
        !Path::new(&join(&dir, "set.qnet.tmp")).exists(),
        "no temporary file is left"
    );

    let (code, info, err) = json(&["nets", "info", &set]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(info["stages"], v["stages"]);
    assert_eq!(
        info["stages"][0]["shape"],
        serde_json::json!([128, 128, 32])
    );
    let (code, text, err) = qiyi(&["nets", "info", &set]);
    assert_eq!(code, 0, "{err}");
    assert!(text.contains("2 nets"), "{text}");
    assert!(text.contains("1-8") && text.contains("9-24"), "{text}");

    // A single net is a set of one net for every piece count.
    let (code, one, err) = json(&["nets", "info", CHECKERS_NET]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(one["stages"].as_array().map(Vec::len), Some(1));
    assert_eq!(one["stages"][0]["shape"], info["stages"][0]["shape"]);
    let (code, text, err) = qiyi(&["nets", "info", CHECKERS_NET]);
    assert_eq!(code, 0, "{err}");
    assert!(
        text.contains("1 net ") && text.contains("pieces     all"),
        "{text}"
    );

    // The engine searches with the set: the same move and score as with the single net (the
    // same net at every stage).
    let analyse = |eval: &str| {
        let (code, out, err) = qiyi(&[
            "--threads",
            "1",
            "analyze",
            "checkers",
            "--depth",
            "5",
            "--eval",
            eval,
        ]);
        assert_eq!(code, 0, "{err}");
        out.lines().last().unwrap_or("").to_string()
    };
    assert_eq!(analyse(&set), analyse(CHECKERS_NET));
    // A missing file is named, with the system's reason once.
    let missing = join(&dir, "missing.qnet");
    let (code, _, err) = qiyi(&["analyze", "checkers", "--depth", "1", "--eval", &missing]);
    assert_eq!(code, 2);
    assert!(err.contains("missing.qnet"), "{err}");
    assert_eq!(err.matches("os error").count(), 1, "{err}");
    // Xiangqi runs no sets, and says so.
    let (code, _, err) = qiyi(&["analyze", "xiangqi", "--depth", "1", "--eval", &set]);
    assert_eq!(code, 2);
    assert!(err.contains("set of nets by stage"), "{err}");
}

#[test]
fn combine_refuses_what_is_not_a_checkers_set() {
    let dir = tmp("refuse");
    let out = join(&dir, "set.qnet");
    let refused = |args: &[&str], want: &str| {
        let mut all = vec!["nets", "combine"];
        all.extend_from_slice(args);
        all.extend(["--out", out.as_str()]);
        let (code, stdout, err) = qiyi(&all);
        assert_eq!(code, 2, "{args:?}: {stdout} {err}");
        assert!(err.contains(want), "{args:?}: wanted {want:?} in {err}");
        assert!(!Path::new(&out).exists(), "{args:?}: nothing is written");
    };
    let s = |stage: &str, net: &str| format!("{stage}={net}");
    let missing = join(&dir, "missing.qnet");
    // Each case: its `--stage` values (MIN-MAX, net) and a part of the message it must give.
    let cases: &[(&[(&str, &str)], &str)] = &[
        // A gap between stages.
        (
            &[("1-8", CHECKERS_NET), ("10-24", CHECKERS_NET)],
            "gap: piece counts 9-9",
        ),
        // Overlapping stages.
        (&[("1-8", CHECKERS_NET), ("8-24", CHECKERS_NET)], "overlap"),
        // Stages that leave piece counts of the game without a net.
        (
            &[("1-8", CHECKERS_NET), ("9-20", CHECKERS_NET)],
            "must cover 1-24",
        ),
        // One stage is no set.
        (&[("1-24", CHECKERS_NET)], "not a set"),
        (&[("8-1", CHECKERS_NET)], "MIN <= MAX"),
        // A missing file is named.
        (
            &[("1-8", CHECKERS_NET), ("9-24", missing.as_str())],
            "missing.qnet",
        ),
        // Nets of two games, and a game whose engine runs no sets.
        (
            &[("1-8", CHECKERS_NET), ("9-24", XIANGQI_NET)],
            "one game and input layout",
        ),
        (
            &[("1-8", XIANGQI_NET), ("9-32", XIANGQI_NET)],
            "only the checkers engine runs net sets",
        ),
    ];
    for (stages, want) in cases {
        let values: Vec<String> = stages.iter().map(|(st, net)| s(st, net)).collect();
        let args: Vec<&str> = values
            .iter()
            .flat_map(|v| ["--stage", v.as_str()])
            .collect();
        refused(&args, want);
    }
    // Not MIN-MAX=NET.
    refused(&["--stage", CHECKERS_NET], "give MIN-MAX=NET");
    // A set is not a stage's net.
    let set = join(&dir, "good.qnet");
    let (code, _, err) = qiyi(&[
        "nets",
        "combine",
        "--stage",
        &s("1-8", CHECKERS_NET),
        "--stage",
        &s("9-24", CHECKERS_NET),
        "--out",
        &set,
    ]);
    assert_eq!(code, 0, "{err}");
    refused(
        &[
            "--stage",
            &s("1-8", &set),
            "--stage",
            &s("9-24", CHECKERS_NET),
        ],
        "already a set",
    );

    // `info` on a damaged set, and on a file that is no net.
    let mut bytes = std::fs::read(&set).expect("the set");
    let at = bytes.len() / 2;
    bytes[at] ^= 0x40;
    let damaged = join(&dir, "damaged.qnet");
    std::fs::write(&damaged, &bytes).expect("write");
    let (code, _, err) = qiyi(&["nets", "info", &damaged]);
    assert_eq!(code, 2);
    assert!(
        err.contains("damaged.qnet") && err.contains("checksum"),
        "{err}"
    );
    let text = join(&dir, "text.qnet");
    std::fs::write(&text, "not a net").expect("write");
    let (code, _, err) = qiyi(&["nets", "info", &text]);
    assert_eq!(code, 2);
    assert!(err.contains("text.qnet"), "{err}");
}
