//! Xiangqi self-play on core's driver ([`qiyi_core::learn::selfplay`]): the record encoding,
//! which positions are quiet, the network's input layout, and the one implementation behind
//! `qiyi selfplay xiangqi` and `qiyi.cluster.selfplay("xiangqi", ...)`.
//!
//! Games start from the shipped match openings ([`crate::matchplay::OPENINGS`], game `i` from
//! opening `i mod 60`), then uniformly `0..=random_plies` random legal plies, then the engine
//! (full strength, no level noise, one thread, a 16 MiB table per shard) plays both sides at a
//! fixed depth or node budget until the game ends or reaches 300 plies (scored a draw). Every
//! quiet position ([`SelfPlay::is_quiet`]: not in check, no capture that wins material by static
//! exchange) is written with the search score and the game result into `QIYIPOS1` shards. A
//! shard's bytes depend on the seed, the options and its index alone, so any split of the shards
//! between threads, processes or machines writes the same files, and a rerun skips the complete
//! ones.
//!
//! # Record encoding ([`Encode`], 46 bytes)
//!
//! | bytes | field |
//! |---|---|
//! | 0-44 | the 90 points, two per byte: point `2i` in the low nibble of byte `i`, point `2i + 1` in the high nibble; point index `rank * 9 + file` (a0 = 0, i9 = 89, as in [`crate::encode`]) |
//! | 45 | side to move: 0 Red, 1 Black |
//!
//! A nibble is 0 for an empty point, `1 + kind` for a Red piece and `8 + kind` for a Black one,
//! `kind` in [`PieceKind`] order (general 0, advisor 1, elephant 2, horse 3, chariot 4, cannon 5,
//! soldier 6); 15 never occurs. The game record (repetition history) and the 60-move counter are
//! not stored: a decoded position starts a new record.
//!
//! # Network inputs ([`XiangqiFeatures`], 1260 per perspective; defined in [`crate::nnue`])
//!
//! 14 piece kinds x 90 points: input `k * 90 + p` with `k = kind` for the perspective's own
//! pieces and `k = 7 + kind` for the opponent's, and `p` the point seen from the perspective's
//! side (Black reads rank `r` as `9 - r`, file unchanged), so one set of weights serves both
//! sides. At most 32 inputs are on; a move changes two or three (the mover leaves its point and
//! lands, a captured piece goes). `qiyi train xiangqi` trains a net over them; its file names the
//! game ([`TAG`]) and the layout ([`LAYOUT`]), and [`load`] refuses any other net. The search
//! runs it through [`crate::nnue`].

use crate::board::{Color, PieceKind, Square};
use crate::engine::{Engine, EngineConfig, Level};
use crate::matchplay::{parse_openings, OPENINGS};
pub use crate::nnue::{
    default_net, embedded, input, load, mirror_input, net_from_bytes, EvalChoice, XiangqiFeatures,
    EMBEDDED, LAYOUT, TAG,
};
use crate::position::Position;
use qiyi_core::learn::record::Encode;
use qiyi_core::learn::selfplay::ShardDone;
use qiyi_core::learn::selfplay::{self as driver, SelfPlay, SelfPlaySummary};
use qiyi_core::learn::LearnError;
use std::path::Path;

/// A game still going after this many plies is scored a draw.
pub const MAX_PLIES: usize = 300;

/// Transposition table of each shard's engine, MiB.
pub const HASH_MIB: usize = 16;

/// The nibble of a point: 0 empty, `1 + kind` Red, `8 + kind` Black.
fn nibble(pos: &Position, sq: Square) -> u8 {
    match pos.piece_at(sq) {
        None => 0,
        Some((kind, Color::Red)) => 1 + kind as u8,
        Some((kind, Color::Black)) => 8 + kind as u8,
    }
}

impl Encode for Position {
    const BYTES: usize = 46;

    fn encode(&self, out: &mut [u8]) {
        out[..Self::BYTES].fill(0);
        for i in 0..90u8 {
            if let Some(sq) = Square::from_index(i) {
                out[i as usize / 2] |= nibble(self, sq) << (4 * (i % 2));
            }
        }
        out[45] = self.side_to_move().index() as u8;
    }

    fn decode(bytes: &[u8]) -> Option<Self> {
        if bytes.len() != Self::BYTES {
            return None;
        }
        let side = match bytes[45] {
            0 => 'w',
            1 => 'b',
            _ => return None,
        };
        // Through FEN, so a decoded position passes every check a typed one does (one general a
        // side, pieces on their points, at most the full set).
        let mut fen = String::with_capacity(96);
        for rank in (0..10u8).rev() {
            let mut empty = 0u8;
            for file in 0..9u8 {
                let i = rank * 9 + file;
                let code = (bytes[i as usize / 2] >> (4 * (i % 2))) & 15;
                if code == 0 {
                    empty += 1;
                    continue;
                }
                let (kind, color) = match code {
                    1..=7 => (code - 1, Color::Red),
                    8..=14 => (code - 8, Color::Black),
                    _ => return None,
                };
                if empty > 0 {
                    fen.push((b'0' + empty) as char);
                    empty = 0;
                }
                fen.push(PieceKind::ALL[kind as usize].fen_char(color));
            }
            if empty > 0 {
                fen.push((b'0' + empty) as char);
            }
            if rank > 0 {
                fen.push('/');
            }
        }
        fen.push(' ');
        fen.push(side);
        Position::from_fen(&fen).ok()
    }
}

impl SelfPlay for Position {
    const TAG: &'static str = TAG;

    /// Not in check, and no capture of the side to move wins material by static exchange (so no
    /// recapture or hanging piece is pending: the static picture is the position's value).
    fn is_quiet(&self) -> bool {
        if self.in_check() {
            return false;
        }
        let list = self.legal_move_list();
        !list
            .as_slice()
            .iter()
            .any(|&mv| self.piece_at(mv.to()).is_some() && crate::search::see(self, mv) > 0)
    }
}

/// What a self-play run plays: core's options, shared with the other games. Its `eval` is read
/// by [`EvalChoice::parse`]: `hand`, `net` (the embedded network) or a net file's path.
pub use qiyi_core::learn::selfplay::SelfplayOptions;

/// The run's manifest (written to the shard directory; another run's is refused): the
/// evaluation named as given, `hand` as `tuned` (the manifests' name for it before nets existed,
/// so older runs still resume).
pub fn manifest(options: &SelfplayOptions) -> String {
    let eval = match options.eval.trim() {
        "hand" => "tuned",
        other => other,
    };
    options.manifest("xiangqi", eval, MAX_PLIES)
}

/// The shipped openings as positions (game `i` starts from number `i mod len`).
pub fn openings() -> Result<Vec<Position>, LearnError> {
    let fens = parse_openings(OPENINGS)
        .map_err(|e| LearnError::Config(format!("reading the shipped openings: {e}")))?;
    fens.iter()
        .map(|f| {
            Position::from_fen(f)
                .map_err(|e| LearnError::Config(format!("shipped opening {f}: {e}")))
        })
        .collect()
}

/// Plays the shards `shards` of the run `options` (all of them when `None`) into `dir` on
/// `threads` threads, skipping complete ones; `on_shard` sees each shard as it finishes. The
/// options are checked and `dir` claimed for the run before anything is played.
pub fn selfplay(
    dir: &Path,
    options: &SelfplayOptions,
    shards: Option<&[usize]>,
    threads: usize,
    on_shard: impl Fn(ShardDone) + Sync,
) -> Result<SelfPlaySummary, LearnError> {
    options.check()?;
    let net = EvalChoice::parse(&options.eval)?.net();
    let openings = openings()?;
    let limits = options.limits();
    driver::play_run(
        dir,
        options,
        &manifest(options),
        MAX_PLIES,
        &openings,
        shards,
        threads,
        || {
            let mut engine = Engine::new(EngineConfig {
                hash_mib: HASH_MIB,
                threads: 1,
                level: Level::Strength(10),
                seed: options.seed,
                net: net.clone(),
            });
            let limits = limits.clone();
            move |pos: &Position| {
                let r = engine.think(pos, &limits, |_| {});
                r.best_move.map(|m| (m, r.score))
            }
        },
        on_shard,
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use qiyi_core::learn::features::{Active, Delta};
    use qiyi_core::learn::record::{shard_paths, Dataset};
    use qiyi_core::learn::selfplay::SelfPlayConfig;
    use qiyi_core::Game;

    fn tmp(name: &str) -> std::path::PathBuf {
        let d = std::env::temp_dir().join(format!("qiyi-xq-learn-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&d);
        d
    }

    #[test]
    fn encoding_round_trips_along_games() {
        let mut pos = Position::start();
        let mut moves = Vec::new();
        let mut rng = qiyi_core::rng::Rng::derive(3, 0);
        let mut buf = [0u8; 46];
        for _ in 0..200 {
            pos.encode(&mut buf);
            let back = Position::decode(&buf).expect("an encoded position decodes");
            assert_eq!(
                back.to_fen().split(' ').next(),
                pos.to_fen().split(' ').next()
            );
            assert_eq!(back.side_to_move(), pos.side_to_move());
            assert_eq!(back.zobrist(), pos.zobrist());
            let mut again = [0u8; 46];
            back.encode(&mut again);
            assert_eq!(again, buf);
            if pos.turn() == qiyi_core::game::Turn::Over {
                break;
            }
            pos.legal_moves(&mut moves);
            pos.make(moves[rng.below(moves.len())]);
        }
    }

    #[test]
    fn the_start_encoding_is_the_documented_layout() {
        let mut buf = [0u8; 46];
        Position::start().encode(&mut buf);
        // a0 (index 0) Red chariot: 1 + 4 = 5, low nibble; b0 (1) Red horse: 1 + 3 = 4, high.
        assert_eq!(buf[0], 5 | (4 << 4));
        // e0 (index 4) Red general 1, low nibble of byte 2; d0 (3) Red advisor 2, high of byte 1.
        assert_eq!(buf[2] & 15, 1);
        assert_eq!(buf[1] >> 4, 2);
        // e9 (index 85) Black general: 8, high nibble of byte 42.
        assert_eq!(buf[42] >> 4, 8);
        assert_eq!(buf[45], 0);
    }

    #[test]
    fn bad_bytes_are_refused() {
        let mut buf = [0u8; 46];
        Position::start().encode(&mut buf);
        assert!(Position::decode(&buf[..45]).is_none());
        let mut side = buf;
        side[45] = 2;
        assert!(Position::decode(&side).is_none());
        let mut nib = buf;
        nib[20] = 0xFF;
        assert!(Position::decode(&nib).is_none());
        // No Red general.
        let mut no_king = buf;
        no_king[2] &= 0xF0;
        assert!(Position::decode(&no_king).is_none());
    }

    #[test]
    fn features_follow_moves_and_mirror_the_sides() {
        use qiyi_core::learn::features::FeatureSet;
        let start = Position::start();
        let mut red = Active::default();
        let mut black = Active::default();
        XiangqiFeatures::active(&start, 0, &mut red);
        XiangqiFeatures::active(&start, 1, &mut black);
        assert_eq!(red.as_slice().len(), 32);
        // The start is symmetric: each side sees the same inputs.
        let (mut a, mut b) = (red.as_slice().to_vec(), black.as_slice().to_vec());
        a.sort_unstable();
        b.sort_unstable();
        assert_eq!(a, b);
        // Incremental changes equal a recomputation along a random game with captures.
        let mut pos = start;
        let mut rng = qiyi_core::rng::Rng::derive(9, 1);
        let mut moves = Vec::new();
        let mut sets: [Vec<u16>; 2] = [a.clone(), b.clone()];
        let mut captures = 0;
        for _ in 0..150 {
            if pos.turn() == qiyi_core::game::Turn::Over {
                break;
            }
            pos.legal_moves(&mut moves);
            let mv = moves[rng.below(moves.len())];
            captures += usize::from(pos.piece_at(mv.to()).is_some());
            let mut d = Delta::default();
            XiangqiFeatures::delta(&pos, mv, &mut d);
            for c in d.as_slice() {
                for (p, set) in sets.iter_mut().enumerate() {
                    if c.on {
                        set.push(c.input[p]);
                    } else {
                        let i = set.iter().position(|&x| x == c.input[p]).expect("was on");
                        set.swap_remove(i);
                    }
                }
            }
            pos.make(mv);
            for (p, set) in sets.iter_mut().enumerate() {
                let mut fresh = Active::default();
                XiangqiFeatures::active(&pos, p, &mut fresh);
                let mut f = fresh.as_slice().to_vec();
                f.sort_unstable();
                set.sort_unstable();
                assert_eq!(*set, f);
                assert!(f.iter().all(|&i| (i as usize) < XiangqiFeatures::INPUTS));
            }
        }
        assert!(captures > 0, "the game exercised captures");
    }

    #[test]
    fn quiet_excludes_check_and_winning_captures() {
        assert!(Position::start().is_quiet());
        // Red chariot can take an undefended Black chariot.
        let hanging = Position::from_fen("3k5/9/9/9/r8/9/9/9/9/R3K4 w").unwrap();
        assert!(!hanging.is_quiet());
        let check = Position::from_fen("3k5/9/9/9/9/9/9/9/9/3RK4 b").unwrap();
        assert!(check.in_check() && !check.is_quiet());
    }

    #[test]
    fn shards_are_the_same_for_any_split_and_resume() {
        let opts = SelfplayOptions {
            games: 4,
            games_per_shard: 2,
            seed: 11,
            depth: 2,
            nodes: 0,
            random_plies: 4,
            eval: "hand".into(),
        };
        let (one, two) = (tmp("one"), tmp("two"));
        let a = selfplay(&one, &opts, None, 1, |_| {}).unwrap();
        assert_eq!(a.written, 2);
        assert!(a.positions > 20, "{a:?}");
        assert_eq!(a.results.iter().sum::<u64>(), 4);
        // Shard 1 first, in its own call, then shard 0 on two threads.
        selfplay(&two, &opts, Some(&[1]), 1, |_| {}).unwrap();
        let b = selfplay(&two, &opts, None, 2, |_| {}).unwrap();
        assert_eq!((b.written, b.skipped), (1, 1));
        for s in 0..2 {
            let p = SelfPlayConfig::shard_path(&one, s);
            let q = SelfPlayConfig::shard_path(&two, s);
            assert_eq!(std::fs::read(&p).unwrap(), std::fs::read(&q).unwrap());
        }
        // Every record decodes to a quiet, legal position with a sane label.
        let mut ds = Dataset::default();
        for p in shard_paths(&one).unwrap() {
            ds.add_shard(&p).unwrap();
        }
        assert_eq!(ds.tag, "xiangqi");
        assert_eq!(ds.games, 4);
        assert_eq!(ds.len() as u64, a.positions);
        for i in 0..ds.len() {
            let r = ds.get(i);
            let pos = Position::decode(r.position).expect("decodes");
            assert!(!pos.in_check());
            assert!((-1..=1).contains(&r.result));
        }
        // Another run's options are refused in the same directory; nothing is written.
        let other = SelfplayOptions {
            seed: 12,
            ..opts.clone()
        };
        let err = selfplay(&one, &other, None, 1, |_| {}).unwrap_err();
        assert!(err.to_string().contains("another run"), "{err}");
        let bad = SelfplayOptions {
            depth: 0,
            ..opts.clone()
        };
        assert!(selfplay(&tmp("bad"), &bad, None, 1, |_| {}).is_err());
        assert!(selfplay(&one, &opts, Some(&[2]), 1, |_| {}).is_err());
        let _ = std::fs::remove_dir_all(&one);
        let _ = std::fs::remove_dir_all(&two);
    }

    #[test]
    fn selfplay_searches_with_the_chosen_evaluation() {
        let hand = SelfplayOptions {
            games: 2,
            games_per_shard: 2,
            seed: 5,
            depth: 2,
            nodes: 0,
            random_plies: 2,
            eval: "hand".into(),
        };
        // The hand evaluation keeps the manifests' old name, so existing runs still resume.
        assert!(
            manifest(&hand).contains(" eval tuned "),
            "{}",
            manifest(&hand)
        );
        let net = SelfplayOptions {
            eval: "net".into(),
            ..hand.clone()
        };
        assert!(manifest(&net).contains(" eval net "), "{}", manifest(&net));
        let (a, b) = (tmp("eval-hand"), tmp("eval-net"));
        selfplay(&a, &hand, None, 1, |_| {}).unwrap();
        selfplay(&b, &net, None, 1, |_| {}).unwrap();
        let shard = |d: &Path| std::fs::read(SelfPlayConfig::shard_path(d, 0)).unwrap();
        assert_ne!(
            shard(&a),
            shard(&b),
            "the net's games and labels are its own"
        );
        // A net run does not resume in a hand run's directory.
        let err = selfplay(&a, &net, None, 1, |_| {}).unwrap_err();
        assert!(err.to_string().contains("another run"), "{err}");
        // A missing net file is refused before the directory is claimed.
        let missing = SelfplayOptions {
            eval: "/nonexistent/x.qnet".into(),
            ..hand.clone()
        };
        let c = tmp("eval-missing");
        assert!(selfplay(&c, &missing, None, 1, |_| {}).is_err());
        assert!(!c.exists(), "nothing claimed for a refused run");
        for d in [a, b] {
            let _ = std::fs::remove_dir_all(d);
        }
    }
}
