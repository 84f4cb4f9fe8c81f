use qiyi_peg_solitaire::*;
use std::time::Instant;
#[test]
fn scratch() {
    for name in ["english", "french", "wiegleb", "diamond", "triangle"] {
        let b = Board::named(name).unwrap();
        let t = Instant::now();
        let p = Problem::new(b, None, None).unwrap();
        let r = p.solve(50_000_000);
        println!("{name}: finish {:?} solved {} proved_imp {} nodes {} in {:?} {:?}", p.finish, r.jumps.is_some(), r.proved_impossible, r.nodes, t.elapsed(), r.class_reason);
    }
}
