//! A set of quantised networks, one per stage of the game: each net serves a range of piece
//! counts (every piece on the board, of both sides), and the evaluator runs the net of the
//! current count ([`Accumulated`](super::Accumulated) switches nets when a capture crosses a
//! stage's edge).
//!
//! File format, version 1 (all little-endian): magic `QIYISET1`; the stage measure (16 bytes,
//! ASCII, zero-padded; only [`MEASURE_PIECES`] = `pieces`, the number of pieces on the board, is
//! defined); the number of nets `n` (u32, `1..=`[`MAX_NETS`]); then per net, in order of their
//! stages, the stage's inclusive bounds `min` and `max` (u32 each, `min <= max <= `[`MAX_PIECES`])
//! and the length (u32) and bytes of a complete single-net file (`QIYINET2` or `QIYINET1`, see
//! [`quant`](super::quant), with its own game, input layout and checksum); and last an FNV-1a 64
//! checksum of everything before it. The stages follow one another without gap or overlap
//! (each `min` is the previous `max` + 1), and every net names the same game and input layout
//! and has the same number of inputs (their hidden layers may differ).
//!
//! A single-net file (every net written before sets existed, the shipped ones included) reads as
//! a set of one net for every stage, and such a set writes back the single-net file, byte for
//! byte.

use super::quant::{NetId, QuantNet, NAME_BYTES};
use super::LearnError;
use std::ops::RangeInclusive;

/// The first eight bytes of a net-set file.
pub const SET_MAGIC: [u8; 8] = *b"QIYISET1";
/// The stage measure a set file names: the number of pieces on the board.
pub const MEASURE_PIECES: &str = "pieces";
/// The most nets one set holds.
pub const MAX_NETS: usize = 16;
/// The largest piece count a stage's bound may name.
pub const MAX_PIECES: u32 = 255;

/// The stage a net serves: piece counts `min..=max`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Stage {
    /// The fewest pieces (inclusive).
    pub min: u32,
    /// The most pieces (inclusive).
    pub max: u32,
}

impl Stage {
    /// Every piece count: what a single-net file means.
    pub const ALL: Stage = Stage {
        min: 0,
        max: MAX_PIECES,
    };

    /// Reads `MIN-MAX` (or one count `N`, meaning `N-N`), e.g. `2-8`.
    pub fn parse(text: &str) -> Result<Stage, LearnError> {
        let bad = || {
            LearnError::Config(format!(
                "stage '{text}': give piece counts MIN-MAX (e.g. 2-8), MIN <= MAX <= {MAX_PIECES}"
            ))
        };
        let number = |t: &str| t.trim().parse::<u32>().map_err(|_| bad());
        let (min, max) = match text.split_once('-') {
            Some((a, b)) => (number(a)?, number(b)?),
            None => {
                let n = number(text)?;
                (n, n)
            }
        };
        if min > max || max > MAX_PIECES {
            return Err(bad());
        }
        Ok(Stage { min, max })
    }

    /// Whether `pieces` lies in the stage.
    pub fn contains(&self, pieces: u32) -> bool {
        (self.min..=self.max).contains(&pieces)
    }
}

impl std::fmt::Display for Stage {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}-{}", self.min, self.max)
    }
}

/// A set of networks by stage (see the module documentation).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NetSet {
    stages: Vec<Stage>,
    nets: Vec<QuantNet>,
    /// The index of the net for each piece count `0..=MAX_PIECES`; counts outside the stages go
    /// to the nearest stage's net.
    table: Vec<u8>,
}

impl From<QuantNet> for NetSet {
    fn from(net: QuantNet) -> NetSet {
        NetSet {
            stages: vec![Stage::ALL],
            nets: vec![net],
            table: vec![0; MAX_PIECES as usize + 1],
        }
    }
}

impl NetSet {
    /// A set of `entries` (stage and net): at least one and at most [`MAX_NETS`], in order of
    /// their stages, without gap or overlap between stages, every net of the same game, input
    /// layout and input count.
    pub fn new(entries: Vec<(Stage, QuantNet)>) -> Result<NetSet, LearnError> {
        let bad = |why: String| Err(LearnError::BadNet(why));
        if entries.is_empty() || entries.len() > MAX_NETS {
            return bad(format!(
                "a net set holds 1 to {MAX_NETS} nets, not {}",
                entries.len()
            ));
        }
        let (stages, nets): (Vec<Stage>, Vec<QuantNet>) = entries.into_iter().unzip();
        for s in &stages {
            if s.min > s.max || s.max > MAX_PIECES {
                return bad(format!(
                    "stage {s}: bounds must satisfy MIN <= MAX <= {MAX_PIECES}"
                ));
            }
        }
        for w in stages.windows(2) {
            let (a, b) = (w[0], w[1]);
            if b.min <= a.max {
                return bad(format!(
                    "stages {a} and {b} overlap or are out of order (give them in increasing order)"
                ));
            }
            if b.min != a.max + 1 {
                return bad(format!(
                    "stages {a} and {b} leave a gap: piece counts {}-{} have no net",
                    a.max + 1,
                    b.min - 1
                ));
            }
        }
        let first = &nets[0];
        for (s, n) in stages.iter().zip(&nets).skip(1) {
            if n.id != first.id || n.arch.inputs != first.arch.inputs {
                return bad(format!(
                    "the net of stage {s} is {} with {} inputs, the first is {} with {}: \
                     every net of a set must be of one game and input layout",
                    n.id.describe(),
                    n.arch.inputs,
                    first.id.describe(),
                    first.arch.inputs
                ));
            }
        }
        let mut table = vec![0u8; MAX_PIECES as usize + 1];
        for (count, slot) in table.iter_mut().enumerate() {
            let count = count as u32;
            let i =
                stages
                    .iter()
                    .position(|s| s.contains(count))
                    .unwrap_or(if count < stages[0].min {
                        0
                    } else {
                        stages.len() - 1
                    });
            *slot = i as u8;
        }
        Ok(NetSet {
            stages,
            nets,
            table,
        })
    }

    /// Reads a set file or a single-net file (a set of one net for every stage).
    pub fn from_bytes(bytes: &[u8]) -> Result<NetSet, LearnError> {
        if bytes.len() < 8 || bytes[..8] != SET_MAGIC {
            return QuantNet::from_bytes(bytes).map(NetSet::from);
        }
        let bad = |why: &str| LearnError::BadNet(format!("net set: {why}"));
        if bytes.len() < 8 + NAME_BYTES + 4 + 8 {
            return Err(bad("the file is too short for its header"));
        }
        let (body, sum) = bytes.split_at(bytes.len() - 8);
        let mut s = [0u8; 8];
        s.copy_from_slice(sum);
        if super::quant::fnv1a(body) != u64::from_le_bytes(s) {
            return Err(bad("checksum mismatch: the file is damaged"));
        }
        let measure = &body[8..8 + NAME_BYTES];
        let end = measure.iter().position(|&b| b == 0).unwrap_or(NAME_BYTES);
        if measure[end..].iter().any(|&b| b != 0) || &measure[..end] != MEASURE_PIECES.as_bytes() {
            return Err(bad(&format!(
                "unknown stage measure {:?} (this version knows only {MEASURE_PIECES:?})",
                String::from_utf8_lossy(&measure[..end])
            )));
        }
        let mut at = 8 + NAME_BYTES;
        let u32_at = |at: &mut usize| -> Result<u32, LearnError> {
            let b = body
                .get(*at..*at + 4)
                .ok_or_else(|| bad("the file ends inside a header"))?;
            *at += 4;
            Ok(u32::from_le_bytes([b[0], b[1], b[2], b[3]]))
        };
        let n = u32_at(&mut at)? as usize;
        if n == 0 || n > MAX_NETS {
            return Err(bad(&format!("{n} nets: a set holds 1 to {MAX_NETS}")));
        }
        let mut entries = Vec::with_capacity(n);
        for k in 0..n {
            let min = u32_at(&mut at)?;
            let max = u32_at(&mut at)?;
            let len = u32_at(&mut at)? as usize;
            let net_bytes = body
                .get(at..)
                .and_then(|rest| rest.get(..len))
                .ok_or_else(|| bad(&format!("net {k} runs past the end of the file")))?;
            at += len;
            if net_bytes.starts_with(&SET_MAGIC) {
                return Err(bad(&format!("net {k} is itself a set")));
            }
            let net = QuantNet::from_bytes(net_bytes).map_err(|e| {
                LearnError::BadNet(format!("net set: net {k} (stage {min}-{max}): {e}"))
            })?;
            entries.push((Stage { min, max }, net));
        }
        if at != body.len() {
            return Err(bad(&format!(
                "{} bytes after the last net",
                body.len() - at
            )));
        }
        NetSet::new(entries).map_err(|e| match e {
            LearnError::BadNet(why) => LearnError::BadNet(format!("net set: {why}")),
            other => other,
        })
    }

    /// The file bytes: a single-net file for a set of one net for every stage (so reading and
    /// writing an old file keeps its bytes), the set format otherwise.
    pub fn to_bytes(&self) -> Vec<u8> {
        if self.stages == [Stage::ALL] {
            return self.nets[0].to_bytes();
        }
        let mut out = Vec::new();
        out.extend_from_slice(&SET_MAGIC);
        let mut measure = [0u8; NAME_BYTES];
        measure[..MEASURE_PIECES.len()].copy_from_slice(MEASURE_PIECES.as_bytes());
        out.extend_from_slice(&measure);
        out.extend_from_slice(&(self.nets.len() as u32).to_le_bytes());
        for (s, net) in self.stages.iter().zip(&self.nets) {
            let bytes = net.to_bytes();
            for x in [s.min, s.max, bytes.len() as u32] {
                out.extend_from_slice(&x.to_le_bytes());
            }
            out.extend_from_slice(&bytes);
        }
        let sum = super::quant::fnv1a(&out);
        out.extend_from_slice(&sum.to_le_bytes());
        out
    }

    /// Checks that the set fits `game` with the input `layout` of `inputs` inputs (as
    /// [`QuantNet::check_for`] does for each net) and that its stages cover every piece count
    /// of `pieces` (a set of one net covers all).
    pub fn check_for(
        &self,
        game: &str,
        layout: &str,
        inputs: usize,
        pieces: RangeInclusive<u32>,
    ) -> Result<(), LearnError> {
        for net in &self.nets {
            net.check_for(game, layout, inputs)?;
        }
        let (lo, hi) = (self.stages[0].min, self.stages[self.stages.len() - 1].max);
        if lo > *pieces.start() || hi < *pieces.end() {
            return Err(LearnError::BadNet(format!(
                "the set's stages cover {lo}-{hi} pieces; {game} needs every count of {}-{}",
                pieces.start(),
                pieces.end()
            )));
        }
        Ok(())
    }

    /// The number of nets.
    pub fn len(&self) -> usize {
        self.nets.len()
    }

    /// Always false: a set holds at least one net.
    pub fn is_empty(&self) -> bool {
        self.nets.is_empty()
    }

    /// The nets, in order of their stages.
    pub fn nets(&self) -> &[QuantNet] {
        &self.nets
    }

    /// The stages, in order.
    pub fn stages(&self) -> &[Stage] {
        &self.stages
    }

    /// The game and input layout (every net's).
    pub fn id(&self) -> &NetId {
        &self.nets[0].id
    }

    /// The index of the net that serves `pieces` pieces (the nearest stage's outside them).
    #[inline]
    pub fn index_for(&self, pieces: usize) -> usize {
        self.table[pieces.min(MAX_PIECES as usize)] as usize
    }

    /// The net that serves `pieces` pieces.
    #[inline]
    pub fn net_for(&self, pieces: usize) -> &QuantNet {
        &self.nets[self.index_for(pieces)]
    }

    /// The largest hidden layer of the nets (what an accumulator must hold).
    pub fn max_hidden(&self) -> usize {
        self.nets.iter().map(|n| n.arch.hidden).max().unwrap_or(0)
    }

    /// Uses the AVX2 kernels in every net (when the processor has them) or the scalar reference.
    pub fn set_simd(&mut self, on: bool) {
        for n in &mut self.nets {
            n.set_simd(on);
        }
    }

    /// `a checkers net (input layout checkers-128), 128-128-32` or, for a set, the stages and
    /// shapes: `a set of 2 checkers nets: 1-8 pieces 128-64-16, 9-24 pieces 128-128-32`.
    pub fn describe(&self) -> String {
        let shape = |n: &QuantNet| format!("{}-{}-{}", n.arch.inputs, n.arch.hidden, n.arch.l2);
        if self.len() == 1 && self.stages[0] == Stage::ALL {
            return format!("{}, {}", self.nets[0].id.describe(), shape(&self.nets[0]));
        }
        let parts: Vec<String> = self
            .stages
            .iter()
            .zip(&self.nets)
            .map(|(s, n)| format!("{s} pieces {}", shape(n)))
            .collect();
        format!(
            "a set of {} nets, {}: {}",
            self.len(),
            self.nets[0].id.describe(),
            parts.join(", ")
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::learn::net::{Arch, Network};
    use proptest::prelude::*;

    fn net(seed: u64, hidden: usize, game: &str) -> QuantNet {
        let arch = Arch {
            inputs: 20,
            hidden,
            l2: 4,
        };
        QuantNet::from_network(&Network::new(arch, seed).expect("a valid shape"), 100)
            .with_id(NetId::new(game, "test-20").expect("short names"))
    }

    fn stage(min: u32, max: u32) -> Stage {
        Stage { min, max }
    }

    fn three() -> NetSet {
        NetSet::new(vec![
            (stage(1, 6), net(1, 16, "g")),
            (stage(7, 12), net(2, 32, "g")),
            (stage(13, 24), net(3, 16, "g")),
        ])
        .expect("a good set")
    }

    #[test]
    fn a_set_round_trips_and_picks_nets_by_piece_count() {
        let set = three();
        let bytes = set.to_bytes();
        assert_eq!(&bytes[..8], &SET_MAGIC);
        let back = NetSet::from_bytes(&bytes).expect("reads back");
        assert_eq!(back, set);
        assert_eq!(back.to_bytes(), bytes);
        assert_eq!(set.max_hidden(), 32);
        for (pieces, want) in [
            (0, 0),
            (1, 0),
            (6, 0),
            (7, 1),
            (12, 1),
            (13, 2),
            (24, 2),
            (99, 2),
        ] {
            assert_eq!(set.index_for(pieces), want, "{pieces} pieces");
        }
        assert!(set.check_for("g", "test-20", 20, 1..=24).is_ok());
        let err = set
            .check_for("g", "test-20", 20, 1..=30)
            .unwrap_err()
            .to_string();
        assert!(err.contains("cover 1-24"), "{err}");
        let err = set
            .check_for("h", "test-20", 20, 1..=24)
            .unwrap_err()
            .to_string();
        assert!(err.contains("h needs"), "{err}");
        assert!(
            set.describe().contains("7-12 pieces 20-32-4"),
            "{}",
            set.describe()
        );
    }

    #[test]
    fn a_single_net_file_is_a_set_of_one_and_keeps_its_bytes() {
        let one = net(4, 16, "g");
        let bytes = one.to_bytes();
        let set = NetSet::from_bytes(&bytes).expect("a single net reads as a set");
        assert_eq!(set.len(), 1);
        assert_eq!(set.stages(), [Stage::ALL]);
        assert_eq!(set.nets()[0], one);
        assert_eq!(set.to_bytes(), bytes);
        assert_eq!(set.index_for(0), 0);
        assert_eq!(set.index_for(usize::MAX), 0);
    }

    #[test]
    fn bad_sets_are_refused() {
        let err = |entries: Vec<(Stage, QuantNet)>| NetSet::new(entries).unwrap_err().to_string();
        let gap = err(vec![
            (stage(1, 6), net(1, 16, "g")),
            (stage(8, 24), net(2, 16, "g")),
        ]);
        assert!(gap.contains("gap: piece counts 7-7"), "{gap}");
        let overlap = err(vec![
            (stage(1, 8), net(1, 16, "g")),
            (stage(8, 24), net(2, 16, "g")),
        ]);
        assert!(overlap.contains("overlap"), "{overlap}");
        let game = err(vec![
            (stage(1, 8), net(1, 16, "g")),
            (stage(9, 24), net(2, 16, "x")),
        ]);
        assert!(game.contains("one game and input layout"), "{game}");
        assert!(err(vec![]).contains("1 to 16 nets"));
        assert!(err(vec![(stage(5, 4), net(1, 16, "g"))]).contains("MIN <= MAX"));
        assert!(Stage::parse("9-2").is_err());
        assert!(Stage::parse("1-256").is_err());
        assert!(Stage::parse("a-b").is_err());
        assert_eq!(Stage::parse(" 3 - 7").ok(), Some(stage(3, 7)));
        assert_eq!(Stage::parse("5").ok(), Some(stage(5, 5)));
        // A damaged set, and one with a wrong count, are refused by the reader.
        let mut bytes = three().to_bytes();
        bytes[30] ^= 1;
        assert!(NetSet::from_bytes(&bytes)
            .unwrap_err()
            .to_string()
            .contains("checksum"));
    }

    /// `bytes` under a set header with a right checksum (so the reader gets past it).
    fn sealed(mut body: Vec<u8>) -> Vec<u8> {
        let sum = super::super::quant::fnv1a(&body);
        body.extend_from_slice(&sum.to_le_bytes());
        body
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(if cfg!(miri) { 4 } else { 256 }))]

        /// Any bytes, after a set header or not, with their checksum made right or not: the
        /// reader returns an error or a set that writes back the same bytes, never panics.
        #[test]
        fn the_reader_never_panics(tail in proptest::collection::vec(any::<u8>(), 0..200),
                                   n in 0u32..20, header in any::<bool>()) {
            let mut body = SET_MAGIC.to_vec();
            let mut measure = [0u8; NAME_BYTES];
            measure[..MEASURE_PIECES.len()].copy_from_slice(MEASURE_PIECES.as_bytes());
            if header {
                body.extend_from_slice(&measure);
                body.extend_from_slice(&n.to_le_bytes());
            }
            body.extend_from_slice(&tail);
            for bytes in [body.clone(), sealed(body), tail.clone()] {
                if let Ok(set) = NetSet::from_bytes(&bytes) {
                    prop_assert_eq!(set.to_bytes(), bytes);
                }
            }
        }

        /// A good set with one byte changed (and its checksum made right): refused or read,
        /// never a panic.
        #[test]
        fn a_mutated_set_never_panics(at in 0usize..10_000, value in any::<u8>()) {
            let good = three().to_bytes();
            let mut body = good[..good.len() - 8].to_vec();
            let at = at % body.len();
            body[at] = value;
            let bytes = sealed(body);
            if let Ok(set) = NetSet::from_bytes(&bytes) {
                prop_assert_eq!(set.to_bytes(), bytes);
            }
        }
    }
}
