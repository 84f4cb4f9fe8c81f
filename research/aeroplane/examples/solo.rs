//! Solo race statistics: turns a player of each type needs to bring its four planes home alone.
//! `solo [GAMES] [KIND...]`
use qiyi_aeroplane::players::{make_player, PlayerKind};
use qiyi_aeroplane::record::play_game;
use qiyi_aeroplane::{Aero, Rules};
fn main() {
    let a: Vec<String> = std::env::args().collect();
    let games: u64 = a.get(1).and_then(|s| s.parse().ok()).unwrap_or(10_000);
    let start = Aero::solo(Rules::STANDARD);
    for kind in a.iter().skip(2) {
        let k: PlayerKind = kind.parse().expect("kind");
        let mut hist = vec![0u64; 400];
        let mut sum = 0.0;
        let mut sq = 0.0;
        for g in 0..games {
            let mut p = vec![make_player(k, g)];
            let rec = play_game(&start, &mut p, g + 1_000_000);
            let t = rec.turns as f64;
            sum += t;
            sq += t * t;
            hist[(rec.turns as usize).min(399)] += 1;
        }
        let m = sum / games as f64;
        let sd = (sq / games as f64 - m * m).sqrt();
        let h: Vec<String> = hist.iter().map(|x| x.to_string()).collect();
        println!(
            "{kind}: mean {m:.2} sd {sd:.2}\nHIST {kind} {}",
            h.join(",")
        );
    }
}
