//! `qiyi completions` and `qiyi man` are generated from the command line's own definitions.

use std::process::Command;

fn qiyi(args: &[&str]) -> String {
    let out = Command::new(env!("CARGO_BIN_EXE_qiyi"))
        .args(args)
        .output()
        .expect("qiyi runs");
    assert!(
        out.status.success(),
        "qiyi {args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).expect("UTF-8")
}

#[test]
fn completions_know_every_subcommand_and_game() {
    let bash = qiyi(&["completions", "bash"]);
    assert!(bash.contains("_qiyi()"), "{bash}");
    for word in [
        "serve",
        "play",
        "match",
        "completions",
        "peg-solitaire",
        "--seats",
    ] {
        assert!(bash.contains(word), "bash completion lacks {word}");
    }
    assert!(qiyi(&["completions", "zsh"]).contains("#compdef qiyi"));
    assert!(qiyi(&["completions", "fish"]).contains("complete -c qiyi"));
    let out = Command::new(env!("CARGO_BIN_EXE_qiyi"))
        .args(["completions", "tcsh"])
        .output()
        .expect("qiyi runs");
    assert_eq!(out.status.code(), Some(2), "an unknown shell is refused");
}

#[test]
fn man_page_lists_the_subcommands() {
    let man = qiyi(&["man"]);
    assert!(man.contains(".TH qiyi 1"), "{man}");
    for word in ["serve", "play", "uci", "solve"] {
        assert!(man.contains(word), "the man page lacks {word}");
    }
}
