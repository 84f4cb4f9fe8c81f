//! The learned evaluation for checkers: inputs updated move by move equal inputs computed from
//! scratch (captures, crowning, king moves), the record encoding round-trips, the network's
//! AVX2 and scalar paths agree on real positions, the embedded net is valid, self-play data
//! depend on the seed alone, and the engine plays legal moves with the network.

use qiyi_checkers::engine::nn::{self, CheckersFeatures, NetPosition};
use qiyi_checkers::engine::{Engine, EvalChoice, Level, Weights};
use qiyi_checkers::{Board, Checkers};
use qiyi_core::learn::record::{Dataset, Encode};
use qiyi_core::learn::selfplay::{self, SelfPlayConfig};
use qiyi_core::learn::{Active, Arch, FeatureSet, NetSet, Network, QuantNet, Stage};
use qiyi_core::search::SearchLimits;
use qiyi_core::{Game, Rng};
use std::sync::Arc;

/// A net with random weights large enough that every input matters.
fn random_net(seed: u64) -> Arc<QuantNet> {
    let arch = Arch {
        inputs: 128,
        hidden: 32,
        l2: 8,
    };
    let mut net = Network::new(arch, seed).unwrap();
    let mut rng = Rng::new(seed);
    for p in &mut net.params {
        *p += ((rng.unit() - 0.5) * 0.4) as f32;
    }
    net.clip();
    Arc::new(QuantNet::from_network(&net, 100))
}

/// Random games to the end, from the start and from king endings.
fn random_games(n: usize, seed: u64) -> Vec<Vec<Checkers>> {
    let mut rng = Rng::new(seed);
    let starts = [
        Checkers::start(),
        Checkers::from_fen("W:WK22,K27,30:BK5,9,K14").unwrap(),
        Checkers::from_fen("B:W18,19,26,K30:B6,7,10,K23").unwrap(),
    ];
    let mut games = Vec::new();
    let mut moves = Vec::new();
    for i in 0..n {
        let mut pos = starts[i % starts.len()].clone();
        let mut line = vec![pos.clone()];
        while !pos.is_over() && line.len() < 200 {
            pos.legal_moves(&mut moves);
            pos.make(moves[rng.below(moves.len())]);
            line.push(pos.clone());
        }
        games.push(line);
    }
    games
}

#[test]
fn incremental_inputs_equal_recomputed_inputs() {
    let net = random_net(3);
    let mut rng = Rng::new(11);
    let mut captures = 0;
    let mut crownings = 0;
    let mut moves = Vec::new();
    for g in 0..60 {
        let start = if g % 2 == 0 {
            Checkers::start()
        } else {
            Checkers::from_fen("B:W14,18,22,K26,31:B5,9,10,K19,K20").unwrap()
        };
        let mut pos = NetPosition::new(start, net.clone());
        let mut line = Vec::new();
        while !pos.is_over() && line.len() < 150 {
            pos.legal_moves(&mut moves);
            let mv = moves[rng.below(moves.len())];
            let kings_before = pos.inner().board().kings().count_ones();
            captures += usize::from(mv.is_capture());
            let undo = pos.make(mv);
            let kings_after = pos.inner().board().kings().count_ones();
            crownings += usize::from(kings_after > kings_before);
            let fresh = NetPosition::new(pos.inner().clone(), net.clone());
            for p in 0..2 {
                assert_eq!(pos.accumulator(p), fresh.accumulator(p), "after {mv:?}");
            }
            assert_eq!(pos.evaluate(), fresh.evaluate());
            line.push((mv, undo));
        }
        while let Some((mv, undo)) = line.pop() {
            pos.unmake(mv, undo);
        }
        let fresh = NetPosition::new(pos.inner().clone(), net.clone());
        assert_eq!(pos.accumulator(0), fresh.accumulator(0));
        assert_eq!(pos.accumulator(1), fresh.accumulator(1));
    }
    assert!(
        captures > 200 && crownings > 20,
        "{captures} captures, {crownings} crownings"
    );
}

/// The two perspectives see mirror images: a position and its colour-flipped twin (board turned
/// half a turn, colours swapped, the other side to move) have swapped input sets.
#[test]
fn perspectives_are_mirror_images() {
    for line in random_games(20, 5) {
        for pos in line.iter().step_by(7) {
            let b = pos.board();
            let flipped = Board::new(
                b.pieces(qiyi_checkers::Color::White).reverse_bits(),
                b.pieces(qiyi_checkers::Color::Black).reverse_bits(),
                b.kings().reverse_bits(),
                b.side_to_move().opponent(),
            )
            .unwrap();
            let twin = Checkers::from_board(flipped);
            let (mut a, mut c) = (Active::default(), Active::default());
            for p in 0..2 {
                CheckersFeatures::active(pos, p, &mut a);
                CheckersFeatures::active(&twin, 1 - p, &mut c);
                let mut x = a.as_slice().to_vec();
                let mut y = c.as_slice().to_vec();
                x.sort_unstable();
                y.sort_unstable();
                assert_eq!(x, y);
            }
            let net = random_net(9);
            assert_eq!(
                NetPosition::new(pos.clone(), net.clone()).evaluate(),
                NetPosition::new(twin, net).evaluate()
            );
        }
    }
}

#[test]
fn encoding_round_trips_and_rejects_bad_bytes() {
    let mut buf = [0u8; Checkers::BYTES];
    for line in random_games(10, 2) {
        for pos in &line {
            pos.encode(&mut buf);
            let back = Checkers::decode(&buf).unwrap();
            assert_eq!(back.board(), pos.board());
        }
    }
    // Overlapping sides, a bad side byte, the wrong length.
    let mut bad = [0u8; 13];
    bad[0] = 1;
    bad[4] = 1;
    assert!(Checkers::decode(&bad).is_none());
    Checkers::start().encode(&mut buf);
    buf[12] = 7;
    assert!(Checkers::decode(&buf).is_none());
    assert!(Checkers::decode(&buf[..5]).is_none());
}

#[test]
fn simd_and_scalar_evaluations_agree_on_game_positions() {
    let net = random_net(4);
    let mut scalar = (*net).clone();
    scalar.set_simd(false);
    let scalar = Arc::new(scalar);
    for line in random_games(20, 8) {
        for pos in &line {
            let a = NetPosition::new(pos.clone(), net.clone());
            let b = NetPosition::new(pos.clone(), scalar.clone());
            assert_eq!(a.accumulator(0), b.accumulator(0));
            assert_eq!(a.evaluate(), b.evaluate());
        }
    }
}

#[test]
fn the_embedded_net_is_valid() {
    let set = nn::embedded();
    assert_eq!(set.len(), 1, "the shipped file is one net for every stage");
    let net = &set.nets()[0];
    assert_eq!(net.arch.inputs, 128);
    assert!(QuantNet::from_bytes(nn::EMBEDDED).is_ok());
    assert!(net.scale > 0);
    // The shipped file (QIYINET2) names its game and input layout, reads as a set of one net
    // that is the net alone, and writes back byte for byte.
    assert_eq!(net.id.game, "checkers");
    assert_eq!(net.id.layout, "checkers-128");
    let alone = QuantNet::from_bytes(nn::EMBEDDED).unwrap();
    assert_eq!(*net, alone);
    assert_eq!(set.to_bytes(), alone.to_bytes());
    assert_eq!(alone.to_bytes(), nn::EMBEDDED);
}

#[test]
fn bad_net_files_are_refused_with_their_path() {
    let dir = std::env::temp_dir().join(format!("qiyi-nn-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("bad.qnet");
    std::fs::write(&path, b"not a net").unwrap();
    let err = nn::load(&path).unwrap_err().to_string();
    assert!(err.contains("bad.qnet"), "{err}");
    assert!(EvalChoice::parse(path.to_str().unwrap()).is_err());
    assert!(EvalChoice::parse("/no/such/file.qnet").is_err());
    // A net for another game (wrong input count).
    let other = QuantNet::from_network(
        &Network::new(
            Arch {
                inputs: 90,
                hidden: 16,
                l2: 4,
            },
            1,
        )
        .unwrap(),
        100,
    );
    std::fs::write(&path, other.to_bytes()).unwrap();
    let err = nn::load(&path).unwrap_err().to_string();
    assert!(err.contains("90 inputs"), "{err}");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn the_engine_plays_legal_moves_with_a_network() {
    let eval = EvalChoice::NetFile(Arc::new(NetSet::from((*random_net(6)).clone())));
    let mut engine = Engine::with_eval(Level::MAX, 1, Weights::default(), None, &eval);
    assert_eq!(engine.eval_name(), "net");
    for line in random_games(6, 4) {
        for pos in line.iter().step_by(9) {
            if pos.is_over() {
                continue;
            }
            let r = engine.analyse(pos, &SearchLimits::depth(5), |_| {});
            let mv = r.best_move.expect("a move");
            assert!(pos.moves().contains(&mv));
            assert!(r.stats.nodes > 0);
        }
    }
    let hand = Engine::with_eval(Level::MAX, 1, Weights::default(), None, &EvalChoice::Hand);
    assert_eq!(hand.eval_name(), "hand");
}

/// Self-play: the same seed writes the same bytes on one thread and on two, quiet positions
/// only, results from the side to move's view; a rerun skips complete shards.
#[test]
fn selfplay_is_seeded_resumable_and_quiet() {
    let base = std::env::temp_dir().join(format!("qiyi-sp-{}", std::process::id()));
    let openings = vec![Checkers::start()];
    let run = |dir: &std::path::Path, threads: usize| {
        let config = SelfPlayConfig {
            games: 6,
            games_per_shard: 2,
            seed: 42,
            threads,
            random_plies: 4,
            max_plies: 120,
        };
        selfplay::run(
            dir,
            &openings,
            &config,
            || {
                let mut e = Engine::new(Level::MAX, 1);
                move |p: &Checkers| {
                    let r = e.analyse(p, &SearchLimits::depth(3), |_| {});
                    r.best_move.map(|m| (m, r.score))
                }
            },
            |_| {},
        )
        .unwrap()
    };
    let (one, two) = (base.join("one"), base.join("two"));
    let s1 = run(&one, 1);
    let s2 = run(&two, 2);
    assert_eq!((s1.written, s1.games), (3, 6));
    assert_eq!(s1.positions, s2.positions);
    for s in 0..3 {
        let a = std::fs::read(SelfPlayConfig::shard_path(&one, s)).unwrap();
        let b = std::fs::read(SelfPlayConfig::shard_path(&two, s)).unwrap();
        assert_eq!(a, b, "shard {s} differs between one and two threads");
    }
    let ds = Dataset::read_dir(&one).unwrap();
    assert_eq!(ds.games, 6);
    assert_eq!(ds.len() as u64, s1.positions);
    for i in 0..ds.len() {
        let r = ds.get(i);
        let pos = Checkers::decode(r.position).unwrap();
        assert!(
            !pos.board().has_capture(),
            "record {i} has a capture pending"
        );
        assert!((-1..=1).contains(&r.result));
    }
    // Resume: remove one shard; the rerun writes only that one.
    std::fs::remove_file(SelfPlayConfig::shard_path(&one, 1)).unwrap();
    let again = run(&one, 2);
    assert_eq!((again.written, again.skipped), (1, 2));
    let a = std::fs::read(SelfPlayConfig::shard_path(&one, 1)).unwrap();
    let b = std::fs::read(SelfPlayConfig::shard_path(&two, 1)).unwrap();
    assert_eq!(a, b);
    std::fs::remove_dir_all(&base).unwrap();
}

/// A drawn self-play game is recorded as a draw (0) for both sides, not as a win for the first
/// player: two kings shuffle in their own corners until the position repeats three times.
#[test]
fn a_drawn_self_play_game_records_draws() {
    let start = Checkers::from_fen("B:WK32:BK1").expect("king against king");
    let config = SelfPlayConfig {
        games: 1,
        games_per_shard: 1,
        seed: 1,
        threads: 1,
        random_plies: 0,
        max_plies: 300,
    };
    // Black goes to its lowest square and White to its highest: 1-5 5-1 against 32-28 28-32.
    fn shuffle(pos: &Checkers) -> Option<(qiyi_checkers::Move, i32)> {
        let to = |m: &qiyi_checkers::Move| {
            let t = qiyi_checkers::notation::move_to_pdn(m);
            t.rsplit(['-', 'x'])
                .next()
                .and_then(|x| x.parse::<u32>().ok())
                .unwrap_or(0)
        };
        let moves = pos.moves();
        let black = pos.to_move() == 0;
        let m = if black {
            moves.iter().min_by_key(|m| to(m))
        } else {
            moves.iter().max_by_key(|m| to(m))
        };
        m.map(|&m| (m, 0))
    }
    let (seen, result) =
        selfplay::play_game(std::slice::from_ref(&start), 0, &config, &mut shuffle);
    assert_eq!(
        result,
        0,
        "a draw by repetition after {} positions",
        seen.len()
    );
    assert!(seen.len() >= 8, "{} positions", seen.len());
    // And through the shard writer: every record says draw.
    let dir = std::env::temp_dir().join(format!("qiyi-draw-test-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("temp dir");
    selfplay::run_shards(&dir, &[start], &config, &[0], || shuffle, |_| {}).expect("the shard");
    let data = Dataset::read_dir(&dir).expect("the shard reads");
    assert_eq!(data.len(), seen.len());
    assert!((0..data.len()).all(|i| data.get(i).result == 0));
    let _ = std::fs::remove_dir_all(&dir);
}

/// A set of the given nets by stage.
fn set_of(stages: &[(u32, u32)], nets: Vec<QuantNet>) -> Arc<NetSet> {
    let entries = stages
        .iter()
        .map(|&(min, max)| Stage { min, max })
        .zip(nets)
        .collect();
    Arc::new(NetSet::new(entries).expect("a good set"))
}

/// With a different net per stage, the accumulators the search keeps (updated move by move,
/// recomputed when a capture crosses a stage's edge) equal those of the position computed from
/// scratch, after every move and every take-back, and the net in use is the stage's.
#[test]
fn stage_switches_across_captures_equal_a_fresh_computation() {
    let named = |seed| {
        (*random_net(seed))
            .clone()
            .with_id(qiyi_core::learn::NetId::new("checkers", nn::LAYOUT).unwrap())
    };
    let set = set_of(
        &[(1, 7), (8, 15), (16, 24)],
        vec![named(21), named(22), named(23)],
    );
    assert!(nn::from_bytes(&set.to_bytes()).is_ok());
    let mut switches = 0;
    let mut rng = Rng::new(5);
    for line in random_games(40, 17) {
        let mut pos = NetPosition::with_set(line[0].clone(), set.clone());
        let mut made = Vec::new();
        let mut moves = Vec::new();
        while !pos.is_over() && made.len() < 200 {
            pos.legal_moves(&mut moves);
            let mv = moves[rng.below(moves.len())];
            let before = pos.net() as *const QuantNet;
            let undo = pos.make(mv);
            switches += usize::from(!std::ptr::eq(before, pos.net()));
            let pieces = CheckersFeatures::pieces(pos.inner());
            assert!(std::ptr::eq(pos.net(), set.net_for(pieces)));
            let fresh = NetPosition::with_set(pos.inner().clone(), set.clone());
            for p in 0..2 {
                assert_eq!(pos.accumulator(p), fresh.accumulator(p), "after {mv:?}");
            }
            assert_eq!(pos.evaluate(), fresh.evaluate());
            // A copy starts from the current entry and goes on the same way.
            let copy = pos.clone();
            assert_eq!(copy.evaluate(), fresh.evaluate());
            made.push((mv, undo));
        }
        while let Some((mv, undo)) = made.pop() {
            pos.unmake(mv, undo);
            let fresh = NetPosition::with_set(pos.inner().clone(), set.clone());
            assert_eq!(pos.accumulator(0), fresh.accumulator(0));
            assert_eq!(pos.accumulator(1), fresh.accumulator(1));
            assert_eq!(pos.evaluate(), fresh.evaluate());
        }
    }
    assert!(switches > 20, "only {switches} stage switches");
}

/// The shipped net copied into each stage of a 2- and a 3-stage set searches exactly as the
/// single net does: the same nodes, scores and moves.
#[test]
fn a_set_of_identical_nets_searches_as_the_single_net() {
    let one = nn::embedded().nets()[0].clone();
    let sets = [
        set_of(&[(1, 8), (9, 24)], vec![one.clone(); 2]),
        set_of(&[(1, 6), (7, 12), (13, 24)], vec![one.clone(); 3]),
    ];
    let fens = [
        "B:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,11,12",
        "W:W9,13,17,18,22,25,26,27,30:B1,2,3,6,7,11,12,14,15",
        "B:WK10,18,K23,26,27,30:BK7,14,15,K19,22",
        "W:W14,18,22,K26,31:B5,9,10,K19,K20",
    ];
    for fen in fens {
        let pos = Checkers::from_fen(fen).unwrap();
        let run = |eval: &EvalChoice| {
            let mut e = Engine::with_eval(Level::MAX, 1, Weights::default(), None, eval);
            let r = e.analyse(&pos, &SearchLimits::depth(9), |_| {});
            (r.stats.nodes, r.score, r.best_move, r.pv)
        };
        let want = run(&EvalChoice::Net);
        for set in &sets {
            let got = run(&EvalChoice::NetFile(set.clone()));
            assert_eq!(got, want, "{fen}: {} stages", set.len());
        }
    }
}

/// A set file loads with `--eval PATH` like a single net; sets that leave piece counts without a
/// net, or hold another game's net, are refused.
#[test]
fn set_files_load_and_bad_sets_are_refused() {
    let dir = std::env::temp_dir().join(format!("qiyi-set-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("set.qnet");
    let one = nn::embedded().nets()[0].clone();
    let set = set_of(&[(1, 8), (9, 24)], vec![one.clone(); 2]);
    std::fs::write(&path, set.to_bytes()).unwrap();
    assert_eq!(*nn::load(&path).unwrap(), *set);
    assert!(matches!(
        EvalChoice::parse(path.to_str().unwrap()),
        Ok(EvalChoice::NetFile(_))
    ));
    // Stages from 2: one piece has no net.
    let short = set_of(&[(2, 8), (9, 24)], vec![one.clone(); 2]);
    std::fs::write(&path, short.to_bytes()).unwrap();
    let err = nn::load(&path).unwrap_err().to_string();
    assert!(
        err.contains("set.qnet") && err.contains("cover 2-24"),
        "{err}"
    );
    // Another game's nets.
    let other = (*random_net(8))
        .clone()
        .with_id(qiyi_core::learn::NetId::new("draughts", "draughts-128").unwrap());
    let foreign = set_of(&[(1, 8), (9, 24)], vec![other.clone(), other]);
    std::fs::write(&path, foreign.to_bytes()).unwrap();
    let err = nn::load(&path).unwrap_err().to_string();
    assert!(err.contains("draughts"), "{err}");
    std::fs::remove_dir_all(&dir).unwrap();
}
