//! The learned evaluation in the Xiangqi search: the lazily updated per-ply accumulators equal
//! accumulators computed from scratch, the AVX2 and portable kernels agree on Xiangqi-sized nets
//! with extreme weights, a net file names its game and other games' nets are refused, and the
//! search runs with a net (legal moves, deterministic, mates still found).

use qiyi_core::game::{Game, Turn};
use qiyi_core::learn::features::{Active, FeatureSet};
use qiyi_core::learn::{Arch, NetId, Network, QuantNet};
use qiyi_core::rng::Rng;
use qiyi_core::search::SearchLimits;
use qiyi_xiangqi::engine::{Engine, EngineConfig};
use qiyi_xiangqi::learn::{self, EvalChoice, XiangqiFeatures, LAYOUT, TAG};
use qiyi_xiangqi::nnue::NetStack;
use qiyi_xiangqi::Position;
use std::sync::Arc;

/// A Xiangqi-shaped net from `seed`, its float weights multiplied by `gain` (large gains push
/// the quantised weights to the ends of their ranges and the accumulators past the clip).
fn net(seed: u64, hidden: usize, gain: f32) -> QuantNet {
    let arch = Arch {
        inputs: XiangqiFeatures::INPUTS,
        hidden,
        l2: 32,
    };
    let mut n = Network::new(arch, seed).expect("a valid shape");
    for p in &mut n.params {
        *p *= gain;
    }
    QuantNet::from_network(&n, 300).with_id(NetId::new(TAG, LAYOUT).expect("short names"))
}

/// The accumulators of `pos` from scratch, scored: what the lazy stack must equal.
fn from_scratch(net: &QuantNet, pos: &Position) -> i32 {
    let h = net.arch.hidden;
    let mut acc = [vec![0i16; h], vec![0i16; h]];
    let mut active = Active::default();
    for (p, a) in acc.iter_mut().enumerate() {
        XiangqiFeatures::active(pos, p, &mut active);
        net.refresh(a, active.as_slice());
    }
    let stm = pos.side_to_move().index();
    net.evaluate(&acc[stm], &acc[1 - stm]).clamp(
        -qiyi_xiangqi::nnue::NET_SCORE_LIMIT,
        qiyi_xiangqi::nnue::NET_SCORE_LIMIT,
    )
}

/// Walks random games, evaluating at a random subset of plies (so several plies are often
/// brought up to date at once), through moves, null moves and take-backs.
#[test]
fn lazy_accumulators_equal_a_recomputation_along_random_lines() {
    for (seed, gain) in [(1u64, 1.0f32), (2, 40.0), (3, 400.0)] {
        let net = Arc::new(net(seed, 64, gain));
        let mut stack = NetStack::new(net.clone(), 120);
        let mut rng = Rng::derive(seed, 7);
        let mut checked = 0;
        for _game in 0..6 {
            let mut pos = Position::start();
            stack.reset(&pos);
            let mut line = Vec::new();
            let mut moves = Vec::new();
            for ply in 0..110 {
                if pos.turn() == Turn::Over {
                    break;
                }
                if rng.below(3) == 0 {
                    assert_eq!(stack.evaluate(&pos, ply), from_scratch(&net, &pos));
                    checked += 1;
                }
                if rng.below(9) == 0 && !pos.in_check() {
                    stack.on_null(ply);
                    let undo = pos.make_null();
                    assert_eq!(stack.evaluate(&pos, ply + 1), from_scratch(&net, &pos));
                    pos.unmake_null(undo);
                    checked += 1;
                }
                pos.legal_moves(&mut moves);
                let mv = moves[rng.below(moves.len())];
                // Sometimes a move is made and taken back first (a sibling searched before).
                if moves.len() > 1 && rng.below(4) == 0 {
                    let other = moves[rng.below(moves.len())];
                    stack.on_make(&pos, other, ply);
                    let undo = pos.make(other);
                    if rng.below(2) == 0 {
                        assert_eq!(stack.evaluate(&pos, ply + 1), from_scratch(&net, &pos));
                        checked += 1;
                    }
                    pos.unmake(other, undo);
                }
                stack.on_make(&pos, mv, ply);
                line.push(pos.make(mv));
            }
            let ply = line.len();
            assert_eq!(stack.evaluate(&pos, ply), from_scratch(&net, &pos));
        }
        assert!(checked > 200, "{checked} evaluations checked");
    }
}

/// The AVX2 kernels against the portable ones on Xiangqi nets whose weights sit at the ends of
/// their ranges, along random games with captures (the accumulators wrap as they must).
#[test]
fn avx2_and_portable_kernels_agree_on_extreme_xiangqi_nets() {
    for (seed, gain, hidden) in [(11u64, 1.0f32, 128), (12, 300.0, 128), (13, 5000.0, 256)] {
        let simd = net(seed, hidden, gain);
        if !simd.simd() {
            eprintln!("no AVX2 here: only the portable path exists, nothing to compare");
            return;
        }
        let mut scalar = simd.clone();
        scalar.set_simd(false);
        let (simd, scalar) = (Arc::new(simd), Arc::new(scalar));
        let mut a = NetStack::new(simd.clone(), 200);
        let mut b = NetStack::new(scalar.clone(), 200);
        let mut rng = Rng::derive(seed, 1);
        let mut pos = Position::start();
        a.reset(&pos);
        b.reset(&pos);
        let mut moves = Vec::new();
        for ply in 0..180 {
            if pos.turn() == Turn::Over {
                break;
            }
            assert_eq!(a.evaluate(&pos, ply), b.evaluate(&pos, ply), "ply {ply}");
            pos.legal_moves(&mut moves);
            let mv = moves[rng.below(moves.len())];
            a.on_make(&pos, mv, ply);
            b.on_make(&pos, mv, ply);
            pos.make(mv);
        }
    }
}

#[test]
fn a_net_file_names_its_game_and_other_nets_are_refused() {
    let n = net(5, 32, 1.0);
    let bytes = n.to_bytes();
    assert_eq!(&bytes[..8], b"QIYINET2");
    let back = learn::net_from_bytes(&bytes).expect("a Xiangqi net reads");
    assert_eq!(back.id.game, "xiangqi");
    assert_eq!(back.id.layout, "xiangqi-1260");
    assert_eq!(back.to_bytes(), bytes);
    // A checkers net: named for checkers, 128 inputs.
    let mut ck = Network::new(
        Arch {
            inputs: 128,
            hidden: 32,
            l2: 8,
        },
        1,
    )
    .expect("shape");
    ck.params[0] = 0.5;
    let ck = QuantNet::from_network(&ck, 100)
        .with_id(NetId::new("checkers", "checkers-128").expect("names"));
    let err = learn::net_from_bytes(&ck.to_bytes())
        .expect_err("a checkers net is refused")
        .to_string();
    assert!(
        err.contains("checkers net") && err.contains("xiangqi needs a xiangqi net"),
        "{err}"
    );
    // A net named for Xiangqi with another layout is refused too.
    let other = net(5, 32, 1.0).with_id(NetId::new(TAG, "xiangqi-other").expect("names"));
    assert!(learn::net_from_bytes(&other.to_bytes())
        .unwrap_err()
        .to_string()
        .contains("xiangqi-other"));
    // An old unnamed file of the right size still reads; one of the wrong size does not.
    let mut old = net(5, 32, 1.0).with_id(NetId::default()).to_bytes();
    old.drain(8..40);
    old[..8].copy_from_slice(b"QIYINET1");
    let body = old.len() - 8;
    let sum = fnv(&old[..body]);
    old[body..].copy_from_slice(&sum.to_le_bytes());
    assert!(learn::net_from_bytes(&old).is_ok());
    // EvalChoice: a path that does not exist, and an empty value, are errors that say so.
    let missing = EvalChoice::parse("/nonexistent/x.qnet")
        .unwrap_err()
        .to_string();
    assert!(missing.contains("/nonexistent/x.qnet"), "{missing}");
    assert!(EvalChoice::parse("").is_err());
    assert!(matches!(EvalChoice::parse("hand"), Ok(EvalChoice::Hand)));
}

/// FNV-1a 64, the net file's checksum (to write an old-format file by hand).
fn fnv(bytes: &[u8]) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for &b in bytes {
        h ^= u64::from(b);
        h = h.wrapping_mul(0x0000_0100_0000_01b3);
    }
    h
}

#[test]
fn the_search_runs_with_a_net_deterministically_and_still_mates() {
    let n = Arc::new(net(21, 64, 20.0));
    let engine = || {
        Engine::new(EngineConfig {
            hash_mib: 4,
            net: Some(n.clone()),
            ..EngineConfig::default()
        })
    };
    let pos = Position::start();
    let a = engine().think(&pos, &SearchLimits::depth(5), |_| {});
    let b = engine().think(&pos, &SearchLimits::depth(5), |_| {});
    assert_eq!(
        (a.best_move, a.score, a.stats.nodes),
        (b.best_move, b.score, b.stats.nodes)
    );
    let mv = a.best_move.expect("a move");
    assert!(pos.legal_move_list().as_slice().contains(&mv));
    // The hand evaluation searches another tree.
    let mut hand = Engine::new(EngineConfig {
        hash_mib: 4,
        ..EngineConfig::default()
    });
    let h = hand.think(&pos, &SearchLimits::depth(5), |_| {});
    assert_ne!(h.stats.nodes, a.stats.nodes);
    // A mate is found whatever the net says (two chariots against a bare general).
    let mate = Position::from_fen("4k4/R8/9/9/9/9/9/9/9/3K4R w - - 0 1").expect("fen");
    let r = engine().think(&mate, &SearchLimits::depth(4), |_| {});
    assert!(qiyi_core::eval::is_mate_score(r.score), "{}", r.score);
    // Two threads (Lazy SMP) with a net give a legal move.
    let mut smp = Engine::new(EngineConfig {
        hash_mib: 4,
        threads: 2,
        net: Some(n.clone()),
        ..EngineConfig::default()
    });
    let r = smp.think(&pos, &SearchLimits::depth(4), |_| {});
    assert!(pos
        .legal_move_list()
        .as_slice()
        .contains(&r.best_move.expect("a move")));
}

/// The FEN of `pos`'s mirror image (files a-i read i-a).
fn mirrored_fen(pos: &Position) -> String {
    let fen = pos.to_fen();
    let mut parts = fen.split(' ');
    let board = parts.next().expect("a board");
    let ranks: Vec<String> = board
        .split('/')
        .map(|r| {
            // Expand digits, reverse, compress again.
            let cells: String = r
                .chars()
                .flat_map(|c| match c.to_digit(10) {
                    Some(n) => vec!['1'; n as usize],
                    None => vec![c],
                })
                .collect::<String>()
                .chars()
                .rev()
                .collect();
            let mut out = String::new();
            let mut empty = 0;
            for c in cells.chars() {
                if c == '1' {
                    empty += 1;
                } else {
                    if empty > 0 {
                        out.push_str(&empty.to_string());
                        empty = 0;
                    }
                    out.push(c);
                }
            }
            if empty > 0 {
                out.push_str(&empty.to_string());
            }
            out
        })
        .collect();
    let rest: Vec<&str> = parts.collect();
    format!("{} {}", ranks.join("/"), rest.join(" "))
}

#[test]
fn mirror_inputs_are_the_mirror_images_inputs() {
    let mut rng = Rng::derive(31, 0);
    let mut pos = Position::start();
    let mut moves = Vec::new();
    for _ in 0..80 {
        if pos.turn() == Turn::Over {
            break;
        }
        let mirror = Position::from_fen(&mirrored_fen(&pos)).expect("the mirror is legal");
        for p in 0..2 {
            let (mut a, mut b) = (Active::default(), Active::default());
            XiangqiFeatures::active(&pos, p, &mut a);
            XiangqiFeatures::active(&mirror, p, &mut b);
            let mut flipped: Vec<u16> = a
                .as_slice()
                .iter()
                .map(|&i| learn::mirror_input(i))
                .collect();
            let mut want = b.as_slice().to_vec();
            flipped.sort_unstable();
            want.sort_unstable();
            assert_eq!(flipped, want);
        }
        pos.legal_moves(&mut moves);
        pos.make(moves[rng.below(moves.len())]);
    }
    for i in 0..XiangqiFeatures::INPUTS as u16 {
        assert_eq!(learn::mirror_input(learn::mirror_input(i)), i);
    }
}

#[test]
fn the_embedded_net_is_a_xiangqi_net_and_evaluates_the_start_near_even() {
    let n = learn::embedded();
    assert_eq!((n.id.game.as_str(), n.id.layout.as_str()), (TAG, LAYOUT));
    assert_eq!(n.arch.inputs, XiangqiFeatures::INPUTS);
    assert!(matches!(EvalChoice::parse("net"), Ok(EvalChoice::Net)));
    let mut stack = NetStack::new(n, 4);
    let start = Position::start();
    stack.reset(&start);
    // The start is symmetric: whoever moves first has a small edge at most.
    let s = stack.evaluate(&start, 0);
    assert!(s.abs() < 150, "start scored {s}");
}
