//! Time of the first decision of a player in a fresh process (tables loaded or solved on first
//! use): `first_decision KIND RULES [TAKEOFF] [THREE-SIXES]`.
use qiyi_aeroplane::players::{make_player, PlayerKind};
use qiyi_aeroplane::{Aero, AeroMove, Rules};
use qiyi_core::Notation;
fn main() {
    let a: Vec<String> = std::env::args().collect();
    let kind: PlayerKind = a.get(1).map_or("best", |s| s).parse().expect("kind");
    let rules = Rules::from_options(
        a.get(2).map_or("standard", |s| s),
        a.get(3).map(|s| s.as_str()),
        a.get(4).map(|s| s.as_str()),
    )
    .expect("rules");
    let text = format!(
        "{} players=4 move=0 roll=6 sixes=1 moved=0 places=0,0,0,0 planes=3,12,H,H/7,H,H,H/H,H,H,H/20,H,H,H",
        rules
    );
    let pos = Aero::from_text(&text).expect("position");
    let mut player = make_player(kind, 1);
    let t = std::time::Instant::now();
    let mv = player.choose(&pos);
    let first = t.elapsed().as_secs_f64() * 1e3;
    let t = std::time::Instant::now();
    let _ = player.choose(&pos);
    let second = t.elapsed().as_secs_f64() * 1e3;
    assert!(matches!(mv, AeroMove::Plane(_)));
    println!("{kind} under {rules}: first decision {first:.2} ms, second {second:.3} ms");
}
