//! The learning pipeline's generic parts: the record format, the network's gradient, the
//! quantised kernels (AVX2 against the scalar reference, integers against floats), incremental
//! accumulators against recomputation, the trainer's determinism and resumption.

use qiyi_core::learn::net::{sigmoid, Activations};
use qiyi_core::learn::record::{Dataset, Encode, ShardWriter};
use qiyi_core::learn::train::{Sample, TrainConfig, Trainer};
use qiyi_core::learn::{
    relabel, Accumulated, Active, Arch, Delta, FeatureSet, LearnError, Network, QuantNet,
};
use qiyi_core::toys::tictactoe::TicTacToe;
use qiyi_core::{Game, Rng};
use std::sync::Arc;

/// Tic-tac-toe inputs: 9 squares x {mine, theirs} from each player's view.
struct TttFeatures;

impl FeatureSet<TicTacToe> for TttFeatures {
    const INPUTS: usize = 18;
    fn active(pos: &TicTacToe, perspective: usize, out: &mut Active) {
        out.clear();
        for p in 0..2 {
            let m = pos.marks(p);
            for sq in 0..9 {
                if m & (1 << sq) != 0 {
                    out.push((if p == perspective { 0 } else { 9 }) + sq);
                }
            }
        }
    }
    fn delta(pos: &TicTacToe, mv: u8, out: &mut Delta) {
        out.clear();
        let p = pos.to_move() as u16;
        let sq = u16::from(mv);
        // Player p's mark: "mine" (0..9) for perspective p, "theirs" (9..18) for the other.
        let input = if p == 0 { [sq, 9 + sq] } else { [9 + sq, sq] };
        out.push(input, true);
    }
}

struct Pos(u32);
impl Encode for Pos {
    const BYTES: usize = 4;
    fn encode(&self, out: &mut [u8]) {
        out.copy_from_slice(&self.0.to_le_bytes());
    }
    fn decode(b: &[u8]) -> Option<Self> {
        Some(Pos(u32::from_le_bytes(b.try_into().ok()?)))
    }
}

fn tmpdir(name: &str) -> std::path::PathBuf {
    let d = std::env::temp_dir().join(format!("qiyi-learn-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

#[test]
fn shards_round_trip_and_damaged_ones_are_refused() {
    let dir = tmpdir("shards");
    let path = dir.join("a.bin");
    let mut w = ShardWriter::create(&path, "toy", 4).unwrap();
    for i in 0..10u32 {
        w.push(
            &Pos(i * 7),
            i as i32 * 100 - 500,
            (i % 3) as i8 - 1,
            i as usize,
        )
        .unwrap();
    }
    // Scores beyond i16 are clamped, not wrapped.
    w.push(&Pos(99), 1_000_000, 1, 1000).unwrap();
    assert!(!path.exists(), "the shard appears only when finished");
    w.finish(3).unwrap();
    let ds = Dataset::read_dir(&dir).unwrap();
    assert_eq!((ds.len(), ds.games, ds.tag.as_str()), (11, 3, "toy"));
    let r = ds.get(4);
    assert_eq!(Pos::decode(r.position).unwrap().0, 28);
    assert_eq!((r.score, r.result, r.ply), (-100, 0, 4));
    let last = ds.get(10);
    assert_eq!((last.score, last.ply), (i16::MAX, 255));
    // Cut short: not a whole number of records.
    let bytes = std::fs::read(&path).unwrap();
    std::fs::write(dir.join("b.bin"), &bytes[..bytes.len() - 3]).unwrap();
    let err = Dataset::read_dir(&dir).unwrap_err().to_string();
    assert!(
        err.contains("b.bin") && err.contains("whole number"),
        "{err}"
    );
    // Not a shard at all.
    std::fs::write(dir.join("b.bin"), b"hello").unwrap();
    assert!(Dataset::read_dir(&dir).is_err());
    std::fs::remove_dir_all(&dir).unwrap();
}

/// Three toy shards of 20 positions each, scores `10 * i`, in `dir`.
fn toy_run(dir: &std::path::Path) {
    for s in 0..3u32 {
        let mut w = ShardWriter::create(&dir.join(format!("shard-{s:05}.bin")), "toy", 4).unwrap();
        for i in 0..20u32 {
            let n = s * 20 + i;
            w.push(&Pos(n), n as i32 * 10, (n % 3) as i8 - 1, n as usize)
                .unwrap();
        }
        w.finish(5).unwrap();
    }
}

fn relabel(
    src: &std::path::Path,
    out: &std::path::Path,
    manifest: &str,
    shards: Option<&[usize]>,
    threads: usize,
) -> Result<relabel::RelabelSummary, LearnError> {
    relabel::relabel_run::<Pos, _, _, _>(
        "toy",
        src,
        out,
        manifest,
        shards,
        threads,
        |p: &Pos| p.0 % 2 == 0,
        || |p: &Pos| Some(-(p.0 as i32)),
        |_| {},
    )
}

#[test]
fn relabelling_changes_only_the_selected_scores_and_keeps_every_record() {
    let dir = tmpdir("relabel");
    let src = dir.join("src");
    std::fs::create_dir_all(&src).unwrap();
    toy_run(&src);
    let out = dir.join("out");
    let summary = relabel(&src, &out, "toy relabel\n", None, 2).unwrap();
    assert_eq!((summary.written, summary.skipped), (3, 0));
    assert_eq!((summary.positions, summary.relabelled), (60, 30));
    // Position 0 scored 0 before and after: searched, not changed.
    assert_eq!(summary.changed, 29);
    let (before, after) = (
        Dataset::read_dir(&src).unwrap(),
        Dataset::read_dir(&out).unwrap(),
    );
    assert_eq!((after.len(), after.games), (before.len(), before.games));
    for i in 0..before.len() {
        let (b, a) = (before.get(i), after.get(i));
        assert_eq!(a.position, b.position);
        assert_eq!((a.result, a.ply), (b.result, b.ply));
        let n = Pos::decode(b.position).unwrap().0;
        let want = if n % 2 == 0 { -(n as i16) } else { b.score };
        assert_eq!(a.score, want, "record {i}");
    }
    // A rerun skips the complete shards; the same run split in parts writes the same bytes.
    let again = relabel(&src, &out, "toy relabel\n", None, 1).unwrap();
    assert_eq!((again.written, again.skipped), (0, 3));
    let split = dir.join("split");
    for part in [[2usize], [0], [1]] {
        relabel(&src, &split, "toy relabel\n", Some(&part), 1).unwrap();
    }
    for name in ["shard-00000.bin", "shard-00001.bin", "shard-00002.bin"] {
        assert_eq!(
            std::fs::read(out.join(name)).unwrap(),
            std::fs::read(split.join(name)).unwrap(),
            "{name}"
        );
    }
    // Refused: another run's directory, a shard past the source's, the source itself.
    let other = relabel(&src, &out, "another run\n", None, 1).unwrap_err();
    assert!(other.to_string().contains("another run"), "{other}");
    let past = relabel(&src, &dir.join("past"), "m\n", Some(&[3]), 1).unwrap_err();
    assert!(
        past.to_string().contains("past the source's 3 shards"),
        "{past}"
    );
    let same = relabel(&src, &src, "m\n", None, 1).unwrap_err();
    assert!(same.to_string().contains("another directory"), "{same}");
    // Shards of another game are refused before anything is written.
    let wrong = relabel::relabel_run::<Pos, _, _, _>(
        "checkers",
        &src,
        &dir.join("wrong"),
        "m\n",
        None,
        1,
        |_: &Pos| true,
        || |_: &Pos| Some(0),
        |_| {},
    )
    .unwrap_err();
    assert!(wrong.to_string().contains("not checkers"), "{wrong}");
    assert!(!dir.join("wrong").exists());
    std::fs::remove_dir_all(&dir).unwrap();
}

fn random_active(rng: &mut Rng, inputs: usize, n: usize) -> Active {
    let mut a = Active::default();
    let mut used = vec![false; inputs];
    while a.as_slice().len() < n {
        let i = rng.below(inputs);
        if !used[i] {
            used[i] = true;
            a.push(i as u16);
        }
    }
    a
}

/// The analytic gradient equals finite differences of the loss, parameter by parameter.
#[test]
fn backward_matches_finite_differences() {
    let arch = Arch {
        inputs: 20,
        hidden: 16,
        l2: 4,
    };
    let mut net = Network::new(arch, 3).unwrap();
    let mut rng = Rng::new(9);
    let a = random_active(&mut rng, 20, 5);
    let b = random_active(&mut rng, 20, 4);
    let t = 0.3f32;
    let loss = |net: &Network| -> f64 {
        let mut act = Activations::default();
        let y = net.forward(a.as_slice(), b.as_slice(), &mut act) as f64;
        let p = 1.0 / (1.0 + (-y).exp());
        -(t as f64 * p.ln() + (1.0 - t as f64) * (1.0 - p).ln())
    };
    let mut act = Activations::default();
    let y = net.forward(a.as_slice(), b.as_slice(), &mut act);
    let mut grad = vec![0.0; arch.params()];
    net.backward(
        a.as_slice(),
        b.as_slice(),
        &act,
        sigmoid(y) - t,
        &mut grad,
        &mut Vec::new(),
    );
    let mut checked = 0;
    #[allow(clippy::needless_range_loop)]
    // i indexes the parameters, their gradient and the loss probe alike
    for i in 0..arch.params() {
        let orig = net.params[i];
        let h = 1e-3;
        net.params[i] = orig + h;
        let up = loss(&net);
        net.params[i] = orig - h;
        let down = loss(&net);
        net.params[i] = orig;
        let numeric = (up - down) / (2.0 * h as f64);
        // Skip parameters sitting on a clipping kink, where the derivative is one-sided.
        if (numeric - grad[i] as f64).abs() > 2e-3 {
            let mut act2 = Activations::default();
            net.params[i] = orig + h;
            net.forward(a.as_slice(), b.as_slice(), &mut act2);
            net.params[i] = orig;
            let crossed =
                |x: &f32, y: &f32| (*x <= 0.0) != (*y <= 0.0) || (*x >= 1.0) != (*y >= 1.0);
            let kink = act2
                .acc
                .iter()
                .zip(&act.acc)
                .chain(act2.z2.iter().zip(&act.z2))
                .any(|(x, y)| crossed(x, y));
            assert!(
                kink,
                "parameter {i}: analytic {} numeric {numeric}",
                grad[i]
            );
        } else if grad[i] != 0.0 {
            checked += 1;
        }
    }
    assert!(
        checked > 50,
        "only {checked} non-zero gradients were compared"
    );
}

fn random_net(seed: u64, arch: Arch) -> Network {
    let mut net = Network::new(arch, seed).unwrap();
    let mut rng = Rng::new(seed + 1);
    // Spread the weights so that every clipping region is visited.
    for p in &mut net.params {
        *p += ((rng.unit() - 0.5) * 0.6) as f32;
    }
    net.clip();
    net
}

/// The AVX2 kernels give exactly the scalar reference's integers, and the integer network is
/// within a small tolerance of the floating-point one.
#[test]
fn quantised_kernels_agree() {
    // Hidden 64: whole 32-byte registers; 48: a 16-entry tail in each half. Second layer 16:
    // groups of four rows only; 18 and 3: rows left over after the groups.
    for (hidden, l2) in [(64, 16), (48, 16), (64, 18), (48, 3)] {
        kernels_agree(hidden, l2);
    }
}

fn kernels_agree(hidden: usize, l2: usize) {
    let arch = Arch {
        inputs: 128,
        hidden,
        l2,
    };
    let net = random_net(5, arch);
    let mut simd = QuantNet::from_network(&net, 100);
    let mut scalar = simd.clone();
    scalar.set_simd(false);
    simd.set_simd(true);
    let mut rng = Rng::new(17);
    let mut max_err = 0.0f64;
    let mut sum_err = 0.0f64;
    for _ in 0..300 {
        let a = {
            let k = 1 + rng.below(24);
            random_active(&mut rng, 128, k)
        };
        let b = {
            let k = 1 + rng.below(24);
            random_active(&mut rng, 128, k)
        };
        let mut acc = [
            vec![0i16; hidden],
            vec![0i16; hidden],
            vec![0i16; hidden],
            vec![0i16; hidden],
        ];
        simd.refresh(&mut acc[0], a.as_slice());
        simd.refresh(&mut acc[1], b.as_slice());
        scalar.refresh(&mut acc[2], a.as_slice());
        scalar.refresh(&mut acc[3], b.as_slice());
        assert_eq!(acc[0], acc[2]);
        assert_eq!(acc[1], acc[3]);
        let s = simd.evaluate(&acc[0], &acc[1]);
        assert_eq!(s, scalar.evaluate(&acc[2], &acc[3]));
        // A move's changes applied and taken back by each path.
        let mut delta = Delta::default();
        for &i in b.as_slice().iter().take(6) {
            delta.push([i, (i + 7) % 128], i % 2 == 0);
        }
        let [x0, x1, y0, y1] = &mut acc;
        // The reference: the parent's accumulators with each changed row added or subtracted.
        let mut expected = [x0.clone(), x1.clone()];
        for c in delta.as_slice() {
            for (p, e) in expected.iter_mut().enumerate() {
                if c.on {
                    scalar.add(e, c.input[p]);
                } else {
                    scalar.sub(e, c.input[p]);
                }
            }
        }
        // Copy-make on each path: the parent kept, the child as the reference.
        let mut copied = [
            vec![0i16; hidden],
            vec![0i16; hidden],
            vec![0i16; hidden],
            vec![0i16; hidden],
        ];
        let [c0, c1, c2, c3] = &mut copied;
        simd.update_into([x0, x1], [c0, c1], &delta);
        scalar.update_into([y0, y1], [c2, c3], &delta);
        assert_eq!((&copied[0], &copied[1]), (&copied[2], &copied[3]));
        assert_eq!((&copied[0], &copied[1]), (&expected[0], &expected[1]));
        assert_eq!(
            simd.evaluate(&copied[0], &copied[1]),
            scalar.evaluate(&copied[2], &copied[3])
        );
        // The inverse changes take the child back to the parent, which equals a fresh one.
        let mut inverse = Delta::default();
        for c in delta.as_slice() {
            inverse.push(c.input, !c.on);
        }
        let mut back = [vec![0i16; hidden], vec![0i16; hidden]];
        let [b0, b1] = &mut back;
        simd.update_into([&copied[0], &copied[1]], [b0, b1], &inverse);
        assert_eq!((&back[0], &back[1]), (&*x0, &*x1));
        let mut fresh = vec![0i16; hidden];
        scalar.refresh(&mut fresh, a.as_slice());
        assert_eq!(back[0], fresh);
        let y = net.forward(a.as_slice(), b.as_slice(), &mut Activations::default());
        let err = (f64::from(s) - f64::from(y) * 100.0).abs();
        max_err = max_err.max(err);
        sum_err += err;
    }
    // One logit unit is 100 here. These random weights are larger than trained ones (every
    // hidden unit and clip region in play), so rounding costs up to about a tenth of a unit.
    assert!(max_err < 15.0, "largest difference {max_err}");
    assert!(sum_err / 300.0 < 4.0, "mean difference {}", sum_err / 300.0);
    // File round trip, and a damaged file is refused.
    let bytes = simd.to_bytes();
    let back = QuantNet::from_bytes(&bytes).unwrap();
    assert_eq!(back.to_bytes(), bytes);
    let mut bad = bytes.clone();
    bad[40] ^= 1;
    assert!(QuantNet::from_bytes(&bad)
        .unwrap_err()
        .to_string()
        .contains("checksum"));
    assert!(QuantNet::from_bytes(&bytes[..30]).is_err());
}

/// Along random games, the incrementally updated accumulators equal recomputed ones after every
/// make and every unmake.
#[test]
fn incremental_accumulators_equal_recomputed_ones() {
    let arch = Arch {
        inputs: 18,
        hidden: 32,
        l2: 8,
    };
    let net = Arc::new(QuantNet::from_network(&random_net(7, arch), 100));
    let mut rng = Rng::new(3);
    for _ in 0..50 {
        let mut pos: Accumulated<TicTacToe, TttFeatures> =
            Accumulated::new(TicTacToe::default(), net.clone());
        let mut line = Vec::new();
        let mut moves = Vec::new();
        while !pos.is_over() {
            pos.legal_moves(&mut moves);
            let mv = moves[rng.below(moves.len())];
            let undo = pos.make(mv);
            let mut fresh = Accumulated::<TicTacToe, TttFeatures>::new(*pos.inner(), net.clone());
            assert_eq!(pos.accumulator(0), fresh.accumulator(0));
            assert_eq!(pos.accumulator(1), fresh.accumulator(1));
            fresh.refresh();
            assert_eq!(pos.evaluate(), fresh.evaluate());
            line.push((mv, undo));
        }
        while let Some((mv, undo)) = line.pop() {
            pos.unmake(mv, undo);
            let fresh = Accumulated::<TicTacToe, TttFeatures>::new(*pos.inner(), net.clone());
            assert_eq!(pos.accumulator(0), fresh.accumulator(0));
            assert_eq!(pos.accumulator(1), fresh.accumulator(1));
        }
    }
}

fn toy_samples(n: usize, seed: u64) -> Vec<Sample> {
    // A learnable target: the share of "mine" inputs among those on.
    let mut rng = Rng::new(seed);
    (0..n)
        .map(|_| {
            let a = {
                let k = 1 + rng.below(8);
                random_active(&mut rng, 30, k)
            };
            let b = {
                let k = 1 + rng.below(8);
                random_active(&mut rng, 30, k)
            };
            let mine = a.as_slice().iter().filter(|&&i| i < 15).count() as f32;
            let target = mine / a.as_slice().len() as f32;
            Sample {
                inputs: [a, b],
                target,
            }
        })
        .collect()
}

/// Training lowers the held-out loss; the result is the same on one and on two threads; an
/// interrupted run resumed from its checkpoint ends where an uninterrupted one does.
#[test]
fn training_learns_is_deterministic_and_resumes() {
    let arch = Arch {
        inputs: 30,
        hidden: 16,
        l2: 8,
    };
    let train = toy_samples(3000, 1);
    let held = toy_samples(500, 2);
    let cfg = TrainConfig {
        epochs: 4,
        batch: 600,
        lr: 1e-2,
        seed: 5,
        ..TrainConfig::default()
    };
    let pool = |n| {
        rayon::ThreadPoolBuilder::new()
            .num_threads(n)
            .build()
            .unwrap()
    };
    let run = |threads: usize, epochs: u32, from: Option<Trainer>| {
        let mut t = from.unwrap_or_else(|| Trainer::new(arch, cfg.seed).unwrap());
        let p = pool(threads);
        while t.epoch < epochs {
            p.install(|| t.epoch(&train, &cfg, |_| {}));
        }
        t
    };
    let before = Trainer::new(arch, cfg.seed).unwrap().loss(&held);
    let one = run(1, 4, None);
    let two = run(2, 4, None);
    assert_eq!(
        one.net.params, two.net.params,
        "thread count changed the result"
    );
    let after = one.loss(&held);
    assert!(after < before - 0.01, "held-out loss {before} -> {after}");
    let half = run(1, 2, None);
    let resumed = run(2, 4, Some(Trainer::from_bytes(&half.to_bytes()).unwrap()));
    assert_eq!(
        resumed.net.params, one.net.params,
        "resuming changed the result"
    );
    assert!(Trainer::from_bytes(&half.to_bytes()[..100]).is_err());
}

/// FNV-1a, the checksum a `.qnet` file ends with.
fn qnet_checksum(bytes: &[u8]) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for &b in bytes {
        h ^= u64::from(b);
        h = h.wrapping_mul(0x0000_0100_0000_01b3);
    }
    h
}

/// Found by the `qnet` fuzz target: a 4-16-1 net whose second-layer bias and output weight are
/// huge i32 values read and then panicked (`attempt to multiply with overflow`) in
/// `QuantNet::evaluate` of a debug build, by the SIMD tail and the portable path alike. Both now
/// wrap, as the SIMD lanes do, and agree.
#[test]
fn fuzz_regression_a_net_with_huge_output_weights_evaluates_without_overflow() {
    let hex = "514959494e455431040000001000000001000000640000000000000000000000000000000000000000000000007e000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000c96000005b004959490000";
    let mut bytes: Vec<u8> = (0..hex.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(&hex[i..i + 2], 16).expect("hex"))
        .collect();
    let sum = qnet_checksum(&bytes);
    bytes.extend_from_slice(&sum.to_le_bytes());
    let net = QuantNet::from_bytes(&bytes).expect("the damaged-but-well-formed net reads");
    // An old (QIYINET1) file is written back in the named format, with the same net in it.
    assert_eq!(&net.to_bytes()[..8], b"QIYINET2");
    assert_eq!(
        QuantNet::from_bytes(&net.to_bytes()).expect("reads back"),
        net
    );
    let h = net.arch.hidden;
    let active: Vec<u16> = bytes
        .iter()
        .step_by(7)
        .take(8)
        .map(|&b| (b as usize % net.arch.inputs) as u16)
        .collect();
    let (mut stm, mut other) = (vec![0i16; h], vec![0i16; h]);
    net.refresh(&mut stm, &active);
    net.refresh(&mut other, &active[active.len() / 2..]);
    let fast = net.evaluate(&stm, &other);
    let mut portable = net.clone();
    portable.set_simd(false);
    assert_eq!(portable.evaluate(&stm, &other), fast);
    // Every activation at its ceiling too.
    let full = vec![127i16; h];
    assert_eq!(portable.evaluate(&full, &full), net.evaluate(&full, &full));
}

/// Every shipped net file reads as a set of one net for every stage, the same net the single-net
/// reader gives; a named (QIYINET2) file writes back byte for byte, an old (QIYINET1) one writes
/// its body unchanged under the QIYINET2 header.
#[test]
fn shipped_single_net_files_read_as_sets_of_one() {
    use qiyi_core::learn::{NetSet, Stage};
    let files: [&[u8]; 2] = [
        include_bytes!("../../checkers/src/engine/nets/checkers.qnet"),
        include_bytes!("../../xiangqi/src/nets/xiangqi.qnet"),
    ];
    for bytes in files {
        let set = NetSet::from_bytes(bytes).expect("a shipped net reads as a set");
        let net = QuantNet::from_bytes(bytes).expect("and as a net");
        assert_eq!(set.len(), 1);
        assert_eq!(set.stages(), [Stage::ALL]);
        assert_eq!(set.nets()[0], net);
        assert_eq!(set.to_bytes(), net.to_bytes());
        if bytes.starts_with(b"QIYINET2") {
            assert_eq!(set.to_bytes(), bytes);
        } else {
            let out = set.to_bytes();
            assert_eq!(&out[8 + 32..out.len() - 8], &bytes[8..bytes.len() - 8]);
        }
    }
}
