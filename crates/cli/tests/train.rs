//! `qiyi train checkers` (and `train xiangqi`, last test) from several workers' folders: the same network as from one folder
//! holding the same shards, what each folder gave reported, and folders of another game or
//! another run, a folder named twice, a shard found twice and an empty folder refused (exit 2,
//! naming the folder or the file, no network written).

use std::path::Path;
mod common;
use common::{checkers_selfplay as selfplay, qiyi};

/// A fresh temporary folder for this test process.
fn tmp(name: &str) -> String {
    let d = std::env::temp_dir().join(format!("qiyi-train-test-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).expect("temp folder");
    d.to_string_lossy().into_owned()
}

/// Trains a tiny network for one epoch from `data` into `out`; returns the exit code, the
/// JSON report (or `Null`) and stderr.
fn train(data: &[&str], out: &str, extra: &[&str]) -> (i32, serde_json::Value, String) {
    let mut args = vec![
        "--json",
        "--seed",
        "1",
        "--threads",
        "1",
        "train",
        "checkers",
        "--out",
        out,
        "--epochs",
        "1",
        "--hidden",
        "16",
        "--l2",
        "8",
        "--data",
    ];
    args.extend_from_slice(data);
    args.extend_from_slice(extra);
    let (code, stdout, err) = qiyi(&args);
    let v = serde_json::from_str(stdout.lines().last().unwrap_or(""))
        .unwrap_or(serde_json::Value::Null);
    (code, v, err)
}

fn join(dir: &str, name: &str) -> String {
    Path::new(dir).join(name).to_string_lossy().into_owned()
}

#[test]
fn training_from_two_workers_folders_equals_training_from_one() {
    let root = tmp("workers");
    let whole = join(&root, "whole");
    let (w0, w1) = (join(&root, "worker-0"), join(&root, "worker-1"));
    selfplay("3", &whole, None);
    // Two machines' shares of the same run, each in its own folder.
    selfplay("3", &w0, Some("0"));
    selfplay("3", &w1, Some("1"));

    let one_net = join(&root, "one.bin");
    let (code, one, err) = train(&[&whole], &one_net, &[]);
    assert_eq!(code, 0, "{err}");
    let two_net = join(&root, "two.bin");
    let (code, two, err) = train(&[&w0, &w1], &two_net, &[]);
    assert_eq!(code, 0, "{err}");

    // Each folder's share is reported, and the shares add up to the whole run.
    let whole_src = &one["sources"][0];
    assert_eq!(whole_src["shards"], 2);
    assert_eq!(whole_src["games"], 4);
    let total = whole_src["positions"].as_u64().expect("positions");
    assert!(total > 50, "{one}");
    let srcs = two["sources"].as_array().expect("sources");
    assert_eq!(srcs.len(), 2);
    assert_eq!(srcs[0]["dir"], w0.as_str());
    assert_eq!(srcs[1]["dir"], w1.as_str());
    for s in srcs {
        assert_eq!(s["shards"], 1);
        assert_eq!(s["games"], 2);
        assert_eq!(s["run"], whole_src["run"]);
    }
    let shares: u64 = srcs.iter().filter_map(|s| s["positions"].as_u64()).sum();
    assert_eq!(shares, total);
    assert!(srcs[0]["positions"].as_u64() < Some(total));
    assert_eq!(
        two["positions"].as_u64().unwrap_or(0) + two["holdout_positions"].as_u64().unwrap_or(0),
        total
    );
    // The same records in the same order and the same seed: the same network, byte for byte.
    let a = std::fs::read(&one_net).expect("network written");
    assert!(!a.is_empty());
    assert_eq!(std::fs::read(&two_net).expect("network written"), a);

    // A pattern names the workers' folders (in name order): the same network again.
    let glob_net = join(&root, "glob.bin");
    let (code, g, err) = train(&[&join(&root, "worker-*")], &glob_net, &[]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(g["sources"].as_array().map(Vec::len), Some(2));
    assert_eq!(std::fs::read(&glob_net).expect("network written"), a);

    // The human-readable report says what each folder gave.
    let (code, out, err) = qiyi(&[
        "--seed",
        "1",
        "--threads",
        "1",
        "train",
        "checkers",
        "--out",
        &glob_net,
        "--epochs",
        "1",
        "--hidden",
        "16",
        "--l2",
        "8",
        "--data",
        &w0,
        &w1,
    ]);
    assert_eq!(code, 0, "{err}");
    let line = format!(
        "data {w0}: 1 shards, {} positions from 2 games",
        srcs[0]["positions"]
    );
    assert!(out.contains(&line), "{out}");
    let _ = std::fs::remove_dir_all(root);
}

#[test]
fn folders_of_another_game_or_run_are_refused_naming_them() {
    let root = tmp("refused");
    let a = join(&root, "a");
    selfplay("3", &a, None);
    let net = join(&root, "net.bin");

    // Xiangqi shards: refused, naming the file and its game.
    let xq = join(&root, "xq");
    let (code, _, err) = qiyi(&[
        "--seed", "3", "selfplay", "xiangqi", "--games", "1", "--depth", "1", "--out", &xq,
    ]);
    assert_eq!(code, 0, "{err}");
    for data in [vec![a.as_str(), xq.as_str()], vec![xq.as_str(), a.as_str()]] {
        let (code, _, err) = train(&data, &net, &[]);
        assert_eq!(code, 2, "{err}");
        let file = join(&xq, "shard-00000.bin");
        assert!(
            err.contains(&file)
                && err.contains("xiangqi positions")
                && err.contains("not checkers"),
            "{err}"
        );
        assert!(!Path::new(&net).exists());
    }

    // Another run (another seed): refused, naming both runs; accepted with --mix-runs.
    let b = join(&root, "b");
    selfplay("4", &b, None);
    let (code, _, err) = train(&[&a, &b], &net, &[]);
    assert_eq!(code, 2, "{err}");
    assert!(
        err.contains(&format!("{b} holds the shards of another run"))
            && err.contains("seed 4")
            && err.contains("seed 3")
            && err.contains("--mix-runs"),
        "{err}"
    );
    assert!(!Path::new(&net).exists());
    let (code, v, err) = train(&[&a, &b], &net, &["--mix-runs"]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(v["sources"].as_array().map(Vec::len), Some(2));
    assert_ne!(v["sources"][0]["run"], v["sources"][1]["run"]);
    std::fs::remove_file(&net).expect("network written");

    // The same folder twice (by another spelling), or one shard of a run in two folders: its
    // positions would count twice.
    let again = format!("{root}/./a");
    let (code, _, err) = train(&[&a, &again], &net, &["--mix-runs"]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("twice"), "{err}");
    let copy = join(&root, "copy");
    std::fs::create_dir_all(&copy).expect("folder");
    for f in ["run.txt", "shard-00001.bin"] {
        std::fs::copy(join(&a, f), join(&copy, f)).expect("copied");
    }
    let (code, _, err) = train(&[&a, &copy], &net, &[]);
    assert_eq!(code, 2, "{err}");
    assert!(
        err.contains(&join(&a, "shard-00001.bin"))
            && err.contains(&join(&copy, "shard-00001.bin"))
            && err.contains("same shard"),
        "{err}"
    );

    // A folder without shards, a missing folder, a pattern matching nothing.
    let empty = join(&root, "empty");
    std::fs::create_dir_all(&empty).expect("folder");
    let missing = join(&root, "missing");
    let nothing = join(&root, "zz-*");
    for (dir, want) in [
        (&empty, "no shards"),
        (&missing, "not a folder"),
        (&nothing, "no folder matches"),
    ] {
        let (code, _, err) = train(&[&a, dir], &net, &[]);
        assert_eq!(code, 2, "{err}");
        assert!(err.contains(dir.as_str()) && err.contains(want), "{err}");
    }
    assert!(!Path::new(&net).exists());
    let _ = std::fs::remove_dir_all(root);
}

/// `qiyi train xiangqi`: trains from Xiangqi shards (resumable, the same net after a resume),
/// writes a net named for Xiangqi that `--eval` loads, refuses checkers shards, and the engines
/// refuse each other's nets.
#[test]
fn xiangqi_trains_resumes_and_nets_are_refused_by_the_other_game() {
    let root = tmp("xiangqi");
    let xq = join(&root, "xq");
    let (code, _, err) = qiyi(&[
        "--seed",
        "5",
        "--threads",
        "1",
        "selfplay",
        "xiangqi",
        "--games",
        "4",
        "--games-per-shard",
        "2",
        "--depth",
        "1",
        "--out",
        &xq,
    ]);
    assert_eq!(code, 0, "{err}");
    let run = |out: &str, epochs: &str, extra: &[&str]| {
        let mut args = vec![
            "--json",
            "--seed",
            "1",
            "--threads",
            "1",
            "train",
            "xiangqi",
            "--out",
            out,
            "--epochs",
            epochs,
            "--hidden",
            "16",
            "--l2",
            "8",
            "--data",
            &xq,
        ];
        args.extend_from_slice(extra);
        qiyi(&args)
    };
    // Two epochs at once, and one epoch then a resume from the checkpoint: the same bytes.
    let (whole, part) = (join(&root, "whole.qnet"), join(&root, "part.qnet"));
    let ckpt = join(&root, "part.ckpt");
    let (code, out, err) = run(&whole, "2", &["--mirror"]);
    assert_eq!(code, 0, "{err}");
    let v: serde_json::Value =
        serde_json::from_str(out.lines().last().unwrap_or("")).expect("json");
    assert_eq!(v["game"], "xiangqi");
    assert_eq!(v["layout"], "xiangqi-1260");
    assert_eq!(v["mirrored"], true);
    assert_eq!(v["arch"][0], 1260);
    assert_eq!(v["epochs"].as_array().map(Vec::len), Some(2));
    assert!(v["epochs"][1]["holdout_loss"]
        .as_f64()
        .is_some_and(f64::is_finite));
    let (code, _, err) = run(&part, "1", &["--mirror", "--checkpoint", &ckpt]);
    assert_eq!(code, 0, "{err}");
    let (code, _, err) = run(&part, "2", &["--mirror", "--checkpoint", &ckpt]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(
        std::fs::read(&whole).expect("net"),
        std::fs::read(&part).expect("net")
    );
    let bytes = std::fs::read(&whole).expect("net");
    assert_eq!(&bytes[..8], b"QIYINET2");
    assert_eq!(&bytes[8..15], b"xiangqi");

    // The Xiangqi engine searches with it; the checkers engine refuses it, naming it.
    let (code, out, err) = qiyi(&["analyze", "xiangqi", "--depth", "3", "--eval", &whole]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("bestmove"), "{out}");
    let (code, _, err) = qiyi(&[
        "match",
        "checkers",
        "--engine",
        &format!("qiyi:eval={whole}"),
        "--engine",
        "qiyi",
        "--games",
        "2",
        "--depth",
        "2",
    ]);
    assert_eq!(code, 2, "{err}");
    assert!(
        err.contains(&whole) && err.contains("xiangqi net") && err.contains("checkers"),
        "{err}"
    );

    // Checkers shards are refused by `train xiangqi`, naming the file; checkers has no mirror.
    let ck = join(&root, "ck");
    selfplay("3", &ck, None);
    let (code, _, err) = qiyi(&[
        "train",
        "xiangqi",
        "--out",
        &join(&root, "x.qnet"),
        "--data",
        &ck,
    ]);
    assert_eq!(code, 2, "{err}");
    assert!(
        err.contains("checkers positions") && err.contains("not xiangqi"),
        "{err}"
    );
    let (code, _, err) = train(&[&ck], &join(&root, "c.qnet"), &["--mirror"]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("no mirror symmetry"), "{err}");
    let _ = std::fs::remove_dir_all(root);
}
