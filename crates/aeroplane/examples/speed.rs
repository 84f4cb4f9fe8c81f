//! Random-game speed on one thread, for profiling: `speed [GAMES] [RULES] [move-by-move]`.
//! With `move-by-move`, the games go through the move-by-move loop over `Aero::play` (same games).
use qiyi_aeroplane::record::{random_game, random_game_move_by_move};
use qiyi_aeroplane::{Aero, Rules};
use qiyi_core::Rng;
fn main() {
    let a: Vec<String> = std::env::args().collect();
    let games: u64 = a.get(1).and_then(|s| s.parse().ok()).unwrap_or(100_000);
    let rules = Rules::from_options(a.get(2).map_or("standard", |s| s), None, None).expect("rules");
    let slow = a.get(3).is_some_and(|s| s == "move-by-move");
    let start = Aero::new(rules, 4).expect("4 players");
    let mut rng = Rng::new(1);
    let t = std::time::Instant::now();
    let mut turns = 0u64;
    for _ in 0..games {
        turns += if slow {
            random_game_move_by_move(&start, &mut rng)
        } else {
            random_game(&start, &mut rng)
        }
        .turns as u64;
    }
    let s = t.elapsed().as_secs_f64();
    println!(
        "{games} games{}, {:.1} turns/game, {:.0} games/s wall",
        if slow { " (move by move)" } else { "" },
        turns as f64 / games as f64,
        games as f64 / s
    );
}
