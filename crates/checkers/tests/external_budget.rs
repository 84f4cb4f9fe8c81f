//! Fixed budgets for external programs in a match (issue 49, item 3): a checkers-engine protocol
//! program (GuiNN's driver speaks it) takes a depth (`GO maxdepth D`) but has no node budget,
//! so a node budget is refused with a reason rather than silently played on time.

#![cfg(unix)]

use qiyi_checkers::engine::matches::{ExternalPlayer, MatchPlayer, Protocol};
use qiyi_core::search::SearchLimits;
use std::os::unix::fs::PermissionsExt;

/// A stand-in program that greets like a checkers-engine protocol engine and then reads its
/// input to the end: enough for the budget to be given (no game is played).
fn fake_cep(dir: &std::path::Path) -> String {
    let path = dir.join("fake-cep.sh");
    std::fs::write(
        &path,
        "#!/bin/sh\necho READY\necho NAME fake\nexec cat > /dev/null\n",
    )
    .expect("script written");
    std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755)).expect("chmod");
    path.to_string_lossy().into_owned()
}

#[test]
fn a_checkers_engine_program_takes_a_depth_and_refuses_a_node_budget() {
    let dir = std::env::temp_dir().join(format!("qiyi-external-budget-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let mut p = ExternalPlayer::start(&fake_cep(&dir), Some(Protocol::Cep)).expect("started");
    assert_eq!(p.name(), "fake");
    let err = p
        .set_limits(SearchLimits {
            nodes: Some(1000),
            ..Default::default()
        })
        .expect_err("no node budget in this protocol");
    assert!(err.to_string().contains("no node budget"), "{err}");
    let err = p
        .set_limits(SearchLimits::default())
        .expect_err("an empty budget");
    assert!(err.to_string().contains("depth or a node budget"), "{err}");
    p.set_limits(SearchLimits {
        depth: Some(6),
        ..Default::default()
    })
    .expect("a depth is taken");
    drop(p);
    let _ = std::fs::remove_dir_all(&dir);
}
