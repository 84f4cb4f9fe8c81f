//! Quick tournament runner for measurements: `quick_tourney RULES SEATS GAMES SEED`.
use qiyi_aeroplane::tournament::{parse_seats, run, TournamentSpec};
use qiyi_aeroplane::Rules;
fn main() {
    let a: Vec<String> = std::env::args().collect();
    let rules = Rules::from_options(&a[1], None, None).unwrap();
    let n = a[2].split(',').count();
    let spec = TournamentSpec {
        rules,
        seats: parse_seats(&a[2], n).unwrap(),
        games: a[3].parse().unwrap(),
        seed: a[4].parse().unwrap(),
    };
    let t = std::time::Instant::now();
    let r = run(&spec, &|| {}).unwrap();
    println!("{}", serde_json::to_string_pretty(&r).unwrap());
    eprintln!("{:.1}s", t.elapsed().as_secs_f64());
}
