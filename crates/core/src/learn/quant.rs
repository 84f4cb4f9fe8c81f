//! The quantised network the engines run: integer weights, an int16 first layer kept as an
//! accumulator that moves update, and AVX2 kernels where the processor has them.
//!
//! Scales: the first layer's weights and biases are multiplied by 127 and stored as `i16`, so a
//! hidden value of 1.0 is 127 and the clipped activation is a `u8` in `0..=127`; W2 by 64 as `i8`
//! (the trainer keeps it within ±127/64), b2 by 127 * 64 as `i32`; the second layer's clipped
//! activation is `clamp((z + 32) >> 6, 0, 127)` (rounded); w3 and b3 by [`Q3`] (and b3 by 127 more) as `i32`. The
//! output in score units is `y * scale / (127 * Q3)`, `scale` being the score of one logit unit.
//!
//! File format (all little-endian): magic `QIYINET2`, the game the net was trained for (16 bytes,
//! ASCII, zero-padded: `checkers`, `xiangqi`) and its input layout (16 bytes likewise:
//! `checkers-128`, `xiangqi-1260`), then `inputs`, `hidden`, `l2` (u32), `scale` (i32), W1 (i16,
//! input-major), b1 (i16), W2 (i8, output-major), b2, w3 (i32), b3 (i32), and an FNV-1a 64
//! checksum of everything before it. Files written before nets were named (magic `QIYINET1`, no
//! names) are still read; their game and layout are empty, so only their input count can be
//! checked ([`QuantNet::check_for`]).

use super::features::Delta;
use super::net::{Arch, Network};
use super::LearnError;

/// The scale of the output layer's weights.
pub const Q3: i32 = 1024;
/// The first eight bytes of a network file.
pub const MAGIC: [u8; 8] = *b"QIYINET2";
/// The first eight bytes of a network file written before nets named their game.
pub const MAGIC_V1: [u8; 8] = *b"QIYINET1";
/// Bytes of each name (game, layout) in a file.
pub const NAME_BYTES: usize = 16;

/// What a network was trained for: its game and the layout of its inputs. Both are empty in a
/// file written before nets were named (`QIYINET1`).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct NetId {
    /// The game's tag (`checkers`, `xiangqi`), as self-play shards name it.
    pub game: String,
    /// The input layout (`checkers-128`, `xiangqi-1260`): which input is which.
    pub layout: String,
}

impl NetId {
    /// A name for `game` with the input `layout`; each at most 16 ASCII characters.
    pub fn new(game: &str, layout: &str) -> Result<NetId, LearnError> {
        for name in [game, layout] {
            if name.len() > NAME_BYTES || !name.is_ascii() || name.contains('\0') {
                return Err(LearnError::BadNet(format!(
                    "net name {name:?}: at most {NAME_BYTES} ASCII characters"
                )));
            }
        }
        Ok(NetId {
            game: game.to_string(),
            layout: layout.to_string(),
        })
    }

    /// `xiangqi (xiangqi-1260)`, or `an unnamed net` for an old file.
    pub fn describe(&self) -> String {
        if self.game.is_empty() {
            "an unnamed net (QIYINET1: no game or layout recorded)".to_string()
        } else {
            format!("a {} net (input layout {})", self.game, self.layout)
        }
    }
}

/// A quantised network.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct QuantNet {
    /// The game and input layout it was trained for.
    pub id: NetId,
    /// Its shape.
    pub arch: Arch,
    /// Score units per logit unit.
    pub scale: i32,
    w1: Vec<i16>,
    b1: Vec<i16>,
    w2: Vec<i8>,
    b2: Vec<i32>,
    w3: Vec<i32>,
    b3: i32,
    simd: bool,
}

pub(crate) fn fnv1a(bytes: &[u8]) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for &b in bytes {
        h ^= u64::from(b);
        h = h.wrapping_mul(0x0000_0100_0000_01b3);
    }
    h
}

fn avx2() -> bool {
    #[cfg(target_arch = "x86_64")]
    {
        std::is_x86_feature_detected!("avx2")
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        false
    }
}

impl QuantNet {
    /// Quantises a trained network; `scale` is the score of one logit unit.
    pub fn from_network(net: &Network, scale: i32) -> QuantNet {
        let a = net.arch;
        let [w1, b1, w2, b2, w3, b3] = a.offsets();
        let p = &net.params;
        let q16 = |x: f32| (x * 127.0).round().clamp(i16::MIN as f32, i16::MAX as f32) as i16;
        QuantNet {
            id: NetId::default(),
            arch: a,
            scale,
            w1: p[w1..b1].iter().map(|&x| q16(x)).collect(),
            b1: p[b1..w2].iter().map(|&x| q16(x)).collect(),
            w2: p[w2..b2]
                .iter()
                .map(|&x| (x * 64.0).round().clamp(-127.0, 127.0) as i8)
                .collect(),
            b2: p[b2..w3]
                .iter()
                .map(|&x| (x * 127.0 * 64.0).round() as i32)
                .collect(),
            w3: p[w3..b3]
                .iter()
                .map(|&x| (x * Q3 as f32).round() as i32)
                .collect(),
            b3: (p[b3] * 127.0 * Q3 as f32).round() as i32,
            simd: avx2(),
        }
    }

    /// The same net named for `id`'s game and layout (what the file will say).
    pub fn with_id(mut self, id: NetId) -> QuantNet {
        self.id = id;
        self
    }

    /// Checks that this net fits `game` with the input `layout` of `inputs` inputs: a net named
    /// for another game or layout is refused, and so is an unnamed (old) one whose input count
    /// differs. The error says what the net is and what was expected.
    pub fn check_for(&self, game: &str, layout: &str, inputs: usize) -> Result<(), LearnError> {
        let named = !self.id.game.is_empty();
        if (named && (self.id.game != game || self.id.layout != layout))
            || self.arch.inputs != inputs
        {
            return Err(LearnError::BadNet(format!(
                "this is {} with {} inputs; {game} needs a {game} net (input layout {layout}, \
                 {inputs} inputs): train one with `qiyi train {game}`",
                self.id.describe(),
                self.arch.inputs
            )));
        }
        Ok(())
    }

    /// Whether the AVX2 kernels are in use.
    pub fn simd(&self) -> bool {
        self.simd
    }

    /// Uses the AVX2 kernels (when the processor has them: `on` is ignored otherwise) or the
    /// scalar reference.
    pub fn set_simd(&mut self, on: bool) {
        self.simd = on && avx2();
    }

    /// The file bytes.
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut out = Vec::new();
        out.extend_from_slice(&MAGIC);
        for name in [&self.id.game, &self.id.layout] {
            let mut field = [0u8; NAME_BYTES];
            let n = name.len().min(NAME_BYTES);
            field[..n].copy_from_slice(&name.as_bytes()[..n]);
            out.extend_from_slice(&field);
        }
        for x in [self.arch.inputs, self.arch.hidden, self.arch.l2] {
            out.extend_from_slice(&(x as u32).to_le_bytes());
        }
        out.extend_from_slice(&self.scale.to_le_bytes());
        for x in self.w1.iter().chain(&self.b1) {
            out.extend_from_slice(&x.to_le_bytes());
        }
        out.extend(self.w2.iter().map(|&x| x as u8));
        for x in self
            .b2
            .iter()
            .chain(&self.w3)
            .chain(std::iter::once(&self.b3))
        {
            out.extend_from_slice(&x.to_le_bytes());
        }
        let sum = fnv1a(&out);
        out.extend_from_slice(&sum.to_le_bytes());
        out
    }

    /// Reads a network file's bytes.
    pub fn from_bytes(bytes: &[u8]) -> Result<QuantNet, LearnError> {
        let bad = |why: String| LearnError::BadNet(why);
        let named = bytes.len() >= 8 && bytes[..8] == MAGIC;
        let names = if named { 2 * NAME_BYTES } else { 0 };
        if bytes.starts_with(&super::netset::SET_MAGIC) {
            return Err(bad(
                "this is a set of nets by stage (QIYISET1, see `qiyi nets info`), \
                 not a single net: only the checkers engine runs sets"
                    .into(),
            ));
        }
        if bytes.len() < 8 + names + 16 + 8 || !(named || bytes[..8] == MAGIC_V1) {
            return Err(bad(
                "not a qiyi network (no QIYINET2 or QIYINET1 header)".into()
            ));
        }
        let (body, sum) = bytes.split_at(bytes.len() - 8);
        let mut s = [0u8; 8];
        s.copy_from_slice(sum);
        if fnv1a(body) != u64::from_le_bytes(s) {
            return Err(bad("checksum mismatch: the file is damaged".into()));
        }
        let mut at = 8;
        let mut id = NetId::default();
        if named {
            let name = |field: &[u8]| -> Result<String, LearnError> {
                let end = field.iter().position(|&b| b == 0).unwrap_or(field.len());
                if field[end..].iter().any(|&b| b != 0) || !field[..end].is_ascii() {
                    return Err(LearnError::BadNet(
                        "a name in the header is not zero-padded ASCII".into(),
                    ));
                }
                Ok(String::from_utf8_lossy(&field[..end]).into_owned())
            };
            id.game = name(&body[8..8 + NAME_BYTES])?;
            id.layout = name(&body[8 + NAME_BYTES..8 + 2 * NAME_BYTES])?;
            at += 2 * NAME_BYTES;
        }
        let u32_at = |at: &mut usize| {
            let v = u32::from_le_bytes([body[*at], body[*at + 1], body[*at + 2], body[*at + 3]]);
            *at += 4;
            v
        };
        let arch = Arch {
            inputs: u32_at(&mut at) as usize,
            hidden: u32_at(&mut at) as usize,
            l2: u32_at(&mut at) as usize,
        };
        arch.validate().map_err(|e| bad(e.to_string()))?;
        let scale = u32_at(&mut at) as i32;
        let n16 = arch.inputs * arch.hidden + arch.hidden;
        let n8 = arch.l2 * 2 * arch.hidden;
        let n32 = 2 * arch.l2 + 1;
        if body.len() != at + 2 * n16 + n8 + 4 * n32 {
            return Err(bad(format!(
                "{} bytes do not fit a {}-{}-{} network",
                bytes.len(),
                arch.inputs,
                arch.hidden,
                arch.l2
            )));
        }
        let i16s: Vec<i16> = body[at..at + 2 * n16]
            .chunks_exact(2)
            .map(|c| i16::from_le_bytes([c[0], c[1]]))
            .collect();
        at += 2 * n16;
        let w2: Vec<i8> = body[at..at + n8].iter().map(|&b| b as i8).collect();
        at += n8;
        let i32s: Vec<i32> = body[at..]
            .chunks_exact(4)
            .map(|c| i32::from_le_bytes([c[0], c[1], c[2], c[3]]))
            .collect();
        let (w1, b1) = i16s.split_at(arch.inputs * arch.hidden);
        Ok(QuantNet {
            id,
            arch,
            scale,
            w1: w1.to_vec(),
            b1: b1.to_vec(),
            w2,
            b2: i32s[..arch.l2].to_vec(),
            w3: i32s[arch.l2..2 * arch.l2].to_vec(),
            b3: i32s[2 * arch.l2],
            simd: avx2(),
        })
    }

    /// Sets `acc` (one perspective, `hidden` values) to the first layer's output for `active`.
    pub fn refresh(&self, acc: &mut [i16], active: &[u16]) {
        acc.copy_from_slice(&self.b1);
        for &f in active {
            self.add(acc, f);
        }
    }

    #[inline]
    fn row(&self, input: u16) -> &[i16] {
        let h = self.arch.hidden;
        &self.w1[input as usize * h..(input as usize + 1) * h]
    }

    /// Adds input `input`'s weights to `acc` (wrapping, as the SIMD kernel does).
    #[inline]
    pub fn add(&self, acc: &mut [i16], input: u16) {
        for (a, w) in acc.iter_mut().zip(self.row(input)) {
            *a = a.wrapping_add(*w);
        }
    }

    /// Takes input `input`'s weights out of `acc`.
    #[inline]
    pub fn sub(&self, acc: &mut [i16], input: u16) {
        for (a, w) in acc.iter_mut().zip(self.row(input)) {
            *a = a.wrapping_sub(*w);
        }
    }

    /// Writes into `dst[p]` the accumulator `src[p]` of each perspective `p` with a move's
    /// input changes applied (copy-make: the parent's accumulators stay as they are, so taking
    /// the move back costs nothing): `src` plus the rows [`add`](Self::add)ed for the inputs
    /// switched on, minus those [`sub`](Self::sub)tracted for the inputs switched off.
    #[inline]
    pub fn update_into(&self, src: [&[i16]; 2], dst: [&mut [i16]; 2], delta: &Delta) {
        #[cfg(target_arch = "x86_64")]
        if self.simd {
            // SAFETY: `simd` is only true when the processor has AVX2; the kernel checks the
            // lengths of the accumulators and that every changed row lies inside W1.
            unsafe { simd::update_into(&self.w1, self.arch.hidden, src, dst, delta) };
            return;
        }
        for (p, (s, d)) in src.into_iter().zip(dst).enumerate() {
            d.copy_from_slice(s);
            for c in delta.as_slice() {
                if c.on {
                    self.add(d, c.input[p]);
                } else {
                    self.sub(d, c.input[p]);
                }
            }
        }
    }

    /// The score (score units, side to move's view) from the two accumulators: the side to
    /// move's and the other side's.
    #[inline]
    pub fn evaluate(&self, stm: &[i16], other: &[i16]) -> i32 {
        #[cfg(target_arch = "x86_64")]
        let y = if self.simd {
            // SAFETY: AVX2 is present; the accumulators have `hidden` entries and W2 rows
            // `2 * hidden`, multiples of 16 and 32 (`Arch::validate`).
            unsafe { simd::output(self, stm, other) }
        } else {
            self.output_scalar(stm, other)
        };
        #[cfg(not(target_arch = "x86_64"))]
        let y = self.output_scalar(stm, other);
        (i64::from(y) * i64::from(self.scale) / (127 * i64::from(Q3))) as i32
    }

    /// The output before scaling, by the portable path (every target without AVX2, the browser
    /// among them). The activations are clipped once, not once per output row, and each row is
    /// one multiply-add over two slices ([`dot`]: WebAssembly SIMD in the browser build).
    fn output_scalar(&self, stm: &[i16], other: &[i16]) -> i32 {
        let h = self.arch.hidden;
        let mut act = [0i16; 2 * super::net::MAX_HIDDEN];
        for (a, &x) in act.iter_mut().zip(stm.iter().chain(other)) {
            *a = x.clamp(0, 127);
        }
        let act = &act[..2 * h];
        let mut y = self.b3;
        for o in 0..self.arch.l2 {
            // Wrapping, as the SIMD kernel's 32-bit lanes: a net file's biases and output
            // weights are any i32, and a damaged or hostile file must not panic (fuzz `qnet`).
            let z = self.b2[o].wrapping_add(dot(act, &self.w2[o * 2 * h..(o + 1) * 2 * h]));
            y = y.wrapping_add(
                (z.wrapping_add(32) >> 6)
                    .clamp(0, 127)
                    .wrapping_mul(self.w3[o]),
            );
        }
        y
    }
}

/// `sum(act[i] * w[i])` over the common length.
#[cfg(not(all(target_arch = "wasm32", target_feature = "simd128")))]
fn dot(act: &[i16], w: &[i8]) -> i32 {
    act.iter()
        .zip(w)
        .map(|(&a, &w)| i32::from(a) * i32::from(w))
        .sum()
}

/// `sum(act[i] * w[i])` over the common length, eight lanes at a time (`i32x4.dot_i16x8_s`).
#[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
fn dot(act: &[i16], w: &[i8]) -> i32 {
    use core::arch::wasm32::*;
    let len = act.len().min(w.len());
    let mut acc = i32x4_splat(0);
    let mut i = 0;
    while i + 8 <= len {
        // SAFETY: `i + 8 <= len` elements of both slices are read (8 i16 and 8 i8), and wasm
        // loads have no alignment requirement.
        let (a, b) = unsafe {
            (
                v128_load(act.as_ptr().add(i) as *const v128),
                i16x8_load_extend_i8x8(w.as_ptr().add(i)),
            )
        };
        acc = i32x4_add(acc, i32x4_dot_i16x8(a, b));
        i += 8;
    }
    let mut sum = i32x4_extract_lane::<0>(acc)
        + i32x4_extract_lane::<1>(acc)
        + i32x4_extract_lane::<2>(acc)
        + i32x4_extract_lane::<3>(acc);
    while i < len {
        sum += i32::from(act[i]) * i32::from(w[i]);
        i += 1;
    }
    sum
}

/// Checks this build's `dot` — the WebAssembly SIMD kernel where the crate is compiled for
/// `wasm32` with `simd128`, the plain sum elsewhere — against a scalar sum written out here, on
/// `cases` seeded random vectors of 0-70 elements (every remainder after the 8-lane chunks), a
/// quarter of the values extremes (`i16::MIN`, `i16::MAX`, `i8::MIN`, `i8::MAX`, 0, -1).
/// Returns how many vectors differ: the static site's test calls it in the browser
/// (`e2e/wasm-same-moves.test.mjs`), where no Rust test runner reaches the kernel.
#[doc(hidden)]
pub fn dot_self_test(seed: u64, cases: usize) -> usize {
    let mut rng = crate::Rng::new(seed);
    let mut act = Vec::new();
    let mut w = Vec::new();
    let mut differ = 0;
    for _ in 0..cases {
        let len = rng.below(71);
        act.clear();
        w.clear();
        for _ in 0..len {
            let r = rng.next_u64();
            act.push(match r % 8 {
                0 => [i16::MIN, i16::MAX, 0, -1][(r >> 8) as usize % 4],
                _ => (r >> 16) as i16,
            });
            w.push(match (r >> 3) % 8 {
                0 => [i8::MIN, i8::MAX, 0, -1][(r >> 40) as usize % 4],
                _ => (r >> 48) as i8,
            });
        }
        // 70 products of at most 2^22 each: no overflow in i64 or, summed, in i32.
        let want: i64 = act
            .iter()
            .zip(&w)
            .map(|(&a, &b)| i64::from(a) * i64::from(b))
            .sum();
        if i64::from(dot(&act, &w)) != want {
            differ += 1;
        }
    }
    differ
}

#[cfg(target_arch = "x86_64")]
mod simd {
    use super::{Delta, QuantNet};
    use std::arch::x86_64::*;

    /// Copy-make: each 16-lane chunk of `src` is loaded once, every changed row added or
    /// subtracted in registers, and the sum stored to `dst`.
    ///
    /// # Safety
    /// The processor must support AVX2. The lengths are checked here (every slice `h` long,
    /// every changed row inside `w1`; `h` a multiple of 16, as `Arch::validate` ensures), so
    /// every load and store is in bounds.
    #[target_feature(enable = "avx2")]
    pub unsafe fn update_into(
        w1: &[i16],
        h: usize,
        src: [&[i16]; 2],
        dst: [&mut [i16]; 2],
        delta: &Delta,
    ) {
        let changes = delta.as_slice();
        let nc = changes.len();
        let [s0, s1] = src;
        let [d0, d1] = dst;
        assert!(s0.len() == h && s1.len() == h && d0.len() == h && d1.len() == h);
        // Every changed row bounds-checked once, then walked by pointer. (Plain loops: iterator
        // adapters are not inlined into this AVX2 function.)
        let mut c = 0;
        while c < nc {
            let [i0, i1] = changes[c].input;
            assert!((usize::from(i0.max(i1)) + 1) * h <= w1.len());
            c += 1;
        }
        for (p, (s, d)) in [(s0, d0), (s1, d1)].into_iter().enumerate() {
            let mut i = 0;
            while i + 16 <= h {
                let mut x = _mm256_loadu_si256(s.as_ptr().add(i) as *const __m256i);
                let mut c = 0;
                while c < nc {
                    let change = changes[c];
                    let row = w1.as_ptr().add(change.input[p] as usize * h + i);
                    let y = _mm256_loadu_si256(row as *const __m256i);
                    x = if change.on {
                        _mm256_add_epi16(x, y)
                    } else {
                        _mm256_sub_epi16(x, y)
                    };
                    c += 1;
                }
                _mm256_storeu_si256(d.as_mut_ptr().add(i) as *mut __m256i, x);
                i += 16;
            }
        }
    }

    /// `clamp(acc, 0, 127)` of 32 accumulator entries as 32 bytes, in order.
    ///
    /// # Safety
    /// AVX2 must be present, and `acc` must point to 32 readable `i16`s.
    #[inline(always)]
    unsafe fn clip32(acc: *const i16) -> __m256i {
        let a = _mm256_loadu_si256(acc as *const __m256i);
        let b = _mm256_loadu_si256(acc.add(16) as *const __m256i);
        // packus works per 128-bit lane: a0 b0 a1 b1; the permute restores a0 a1 b0 b1.
        let packed = _mm256_permute4x64_epi64(_mm256_packus_epi16(a, b), 0b11_01_10_00);
        _mm256_min_epu8(packed, _mm256_set1_epi8(127))
    }

    /// Horizontal sum of eight i32 lanes.
    ///
    /// # Safety
    /// AVX2 must be present (no memory is touched).
    #[inline(always)]
    unsafe fn hsum(v: __m256i) -> i32 {
        let s = _mm_add_epi32(_mm256_castsi256_si128(v), _mm256_extracti128_si256(v, 1));
        let s = _mm_add_epi32(s, _mm_shuffle_epi32(s, 0b01_00_11_10));
        let s = _mm_add_epi32(s, _mm_shuffle_epi32(s, 0b10_11_00_01));
        _mm_cvtsi128_si32(s)
    }

    /// Four 8-lane partial sums reduced to one `__m128i` of four row sums (row order kept).
    ///
    /// # Safety
    /// AVX2 must be present (no memory is touched).
    #[inline(always)]
    unsafe fn haddx4(s: [__m256i; 4]) -> __m128i {
        let a = _mm256_hadd_epi32(s[0], s[1]);
        let b = _mm256_hadd_epi32(s[2], s[3]);
        let c = _mm256_hadd_epi32(a, b);
        _mm_add_epi32(_mm256_castsi256_si128(c), _mm256_extracti128_si256(c, 1))
    }

    /// 32 bytes of W2 at `p`, or (`tail`) the 16 there zero-padded to 32, matching the layout of
    /// the activation registers.
    ///
    /// # Safety
    /// AVX2 must be present, and `p` must point to 32 readable bytes (16 with `tail`).
    #[inline(always)]
    unsafe fn weights(p: *const i8, tail: bool) -> __m256i {
        if tail {
            _mm256_zextsi128_si256(_mm_loadu_si128(p as *const __m128i))
        } else {
            _mm256_loadu_si256(p as *const __m256i)
        }
    }

    /// The network's output after the first layer, as [`QuantNet::output_scalar`] computes it.
    ///
    /// # Safety
    /// The processor must support AVX2; `stm` and `other` must hold `net.arch.hidden` entries
    /// and W2's rows `2 * hidden`, multiples of 16 and 32 (`Arch::validate`).
    #[target_feature(enable = "avx2")]
    pub unsafe fn output(net: &QuantNet, stm: &[i16], other: &[i16]) -> i32 {
        use std::mem::MaybeUninit;
        let h = net.arch.hidden;
        // The clipped activations, 32 bytes a register: at most 2 * MAX_HIDDEN / 32 of them.
        // Only the first `n` are written and read, so the array is not zeroed on every call.
        let mut act =
            [const { MaybeUninit::<__m256i>::uninit() }; 2 * super::super::net::MAX_HIDDEN / 32];
        let mut n = 0;
        for half in [stm, other] {
            let mut i = 0;
            while i + 32 <= h {
                act[n].write(clip32(half.as_ptr().add(i)));
                n += 1;
                i += 32;
            }
            if i < h {
                // A 16-entry tail (hidden is a multiple of 16): pad with zero activations.
                let a = _mm256_loadu_si256(half.as_ptr().add(i) as *const __m256i);
                let packed = _mm256_permute4x64_epi64(
                    _mm256_packus_epi16(a, _mm256_setzero_si256()),
                    0b11_01_10_00,
                );
                act[n].write(_mm256_min_epu8(packed, _mm256_set1_epi8(127)));
                n += 1;
            }
        }
        let per_half = n / 2;
        let tail = h % 32 != 0;
        let ones = _mm256_set1_epi16(1);
        // Activation register k = half * per_half + j sits at offset half * h + 32 * j of a W2
        // row; the last of each half is a 16-byte tail when `tail`. (Plain loops: iterator
        // adapters and closures are not inlined into this AVX2 function.)
        let l2 = net.arch.l2;
        let mut o = 0;
        // Four rows at a time: each activation register is loaded once for four rows, and the
        // four sums are reduced together.
        let mut yv = _mm_setzero_si128();
        while o + 4 <= l2 {
            let base = net.w2.as_ptr().add(o * 2 * h);
            let mut s = [_mm256_setzero_si256(); 4];
            let mut k = 0;
            for half in 0..2 {
                let mut j = 0;
                while j < per_half {
                    let off = half * h + j * 32;
                    let t = tail && j + 1 == per_half;
                    let a = act[k].assume_init();
                    let mut r = 0;
                    while r < 4 {
                        let w = weights(base.add(r * 2 * h + off), t);
                        s[r] = _mm256_add_epi32(
                            s[r],
                            _mm256_madd_epi16(_mm256_maddubs_epi16(a, w), ones),
                        );
                        r += 1;
                    }
                    k += 1;
                    j += 1;
                }
            }
            let b2 = _mm_loadu_si128(net.b2.as_ptr().add(o) as *const __m128i);
            let z = _mm_add_epi32(haddx4(s), b2);
            let z = _mm_srai_epi32(_mm_add_epi32(z, _mm_set1_epi32(32)), 6);
            let z = _mm_min_epi32(_mm_max_epi32(z, _mm_setzero_si128()), _mm_set1_epi32(127));
            let w3 = _mm_loadu_si128(net.w3.as_ptr().add(o) as *const __m128i);
            yv = _mm_add_epi32(yv, _mm_mullo_epi32(z, w3));
            o += 4;
        }
        let yv = _mm_add_epi32(yv, _mm_shuffle_epi32(yv, 0b01_00_11_10));
        let yv = _mm_add_epi32(yv, _mm_shuffle_epi32(yv, 0b10_11_00_01));
        let mut y = net.b3.wrapping_add(_mm_cvtsi128_si32(yv));
        // The rows left over, one at a time.
        while o < l2 {
            let row = net.w2.as_ptr().add(o * 2 * h);
            let mut sum = _mm256_setzero_si256();
            let mut k = 0;
            for half in 0..2 {
                let mut j = 0;
                while j < per_half {
                    let w = weights(row.add(half * h + j * 32), tail && j + 1 == per_half);
                    sum = _mm256_add_epi32(
                        sum,
                        _mm256_madd_epi16(_mm256_maddubs_epi16(act[k].assume_init(), w), ones),
                    );
                    k += 1;
                    j += 1;
                }
            }
            // Wrapping, as the vector lanes above (and the portable path).
            let z = net.b2[o].wrapping_add(hsum(sum));
            y = y.wrapping_add(
                (z.wrapping_add(32) >> 6)
                    .clamp(0, 127)
                    .wrapping_mul(net.w3[o]),
            );
            o += 1;
        }
        y
    }
}

/// The AVX2 kernels against the portable path on networks and accumulators of any values (what a
/// damaged or hostile `.qnet` file can hold, and what wrapping accumulators reach), not only the
/// trainer's ranges: `crates/core/tests/learn.rs` covers trained-looking networks. Small enough
/// to run under Miri (`cfg(miri)` takes fewer cases): docs/reliability.md, item 5.
#[cfg(test)]
mod tests {
    use super::*;
    use crate::learn::features::MAX_CHANGES;
    use crate::learn::net::{MAX_HIDDEN, MAX_L2};
    use crate::rng::Rng;

    /// Cases per test: Miri interprets every lane, about a thousand times slower.
    const CASES: usize = if cfg!(miri) { 6 } else { 400 };

    /// An `i32` with the extremes and the activation's clipping edges drawn often.
    fn any_i32(rng: &mut Rng) -> i32 {
        match rng.below(8) {
            0 => i32::MIN,
            1 => i32::MAX,
            2 => [0, 1, -1, 31, 32, 63, 64][rng.below(7)],
            3 => rng.below(200) as i32 - 100,
            _ => rng.next_u64() as i32,
        }
    }

    /// An `i16`: the extremes, the clip edges 0 and 127 and their neighbours, or anything.
    fn any_i16(rng: &mut Rng) -> i16 {
        match rng.below(6) {
            0 => i16::MIN,
            1 => i16::MAX,
            2 => [-1, 0, 1, 126, 127, 128, 255, 256][rng.below(8)],
            3 => rng.below(160) as i16 - 16,
            _ => rng.next_u64() as i16,
        }
    }

    /// An `i8`, `-128` (which a file may hold though the trainer never writes it) included.
    fn any_i8(rng: &mut Rng) -> i8 {
        match rng.below(5) {
            0 => i8::MIN,
            1 => i8::MAX,
            _ => rng.next_u64() as i8,
        }
    }

    /// A shape: hidden a multiple of 16 (whole 32-entry registers or a 16-entry tail), the
    /// second layer with and without rows left over after the groups of four.
    fn any_arch(rng: &mut Rng) -> Arch {
        let max_h = if cfg!(miri) { 64 } else { MAX_HIDDEN };
        let max_l2 = if cfg!(miri) { 9 } else { MAX_L2 };
        let hidden = match rng.below(4) {
            0 => 16,
            1 => max_h,
            _ => 16 * (1 + rng.below(max_h / 16)),
        };
        let l2 = match rng.below(4) {
            0 => 1,
            1 => max_l2,
            _ => 1 + rng.below(max_l2),
        };
        let arch = Arch {
            inputs: 1 + rng.below(40),
            hidden,
            l2,
        };
        arch.validate().expect("a valid shape");
        arch
    }

    /// A network of any weights, built as [`QuantNet::from_bytes`] would accept it.
    fn any_net(rng: &mut Rng) -> QuantNet {
        let arch = any_arch(rng);
        let (h, l2) = (arch.hidden, arch.l2);
        let mut net = QuantNet {
            id: NetId::default(),
            arch,
            scale: any_i32(rng),
            w1: (0..arch.inputs * h).map(|_| any_i16(rng)).collect(),
            b1: (0..h).map(|_| any_i16(rng)).collect(),
            w2: (0..l2 * 2 * h).map(|_| any_i8(rng)).collect(),
            b2: (0..l2).map(|_| any_i32(rng)).collect(),
            w3: (0..l2).map(|_| any_i32(rng)).collect(),
            b3: any_i32(rng),
            simd: false,
        };
        // Sometimes every W2 weight at one extreme: the largest sums the 16-bit pair sums of
        // `maddubs` can reach (127 * -128 * 2).
        match rng.below(6) {
            0 => net.w2.fill(i8::MIN),
            1 => net.w2.fill(i8::MAX),
            _ => {}
        }
        // The file round trip keeps every value (the reader is what a hostile file goes through).
        let back = QuantNet::from_bytes(&net.to_bytes()).expect("the writer's bytes read back");
        assert_eq!((&back.w1, &back.w2, &back.b2), (&net.w1, &net.w2, &net.b2));
        net
    }

    /// An accumulator: all at one extreme, around the clip edges, or anything.
    fn any_acc(rng: &mut Rng, h: usize) -> Vec<i16> {
        match rng.below(5) {
            0 => vec![i16::MAX; h],
            1 => vec![i16::MIN; h],
            2 => (0..h).map(|_| rng.below(132) as i16 - 2).collect(),
            _ => (0..h).map(|_| any_i16(rng)).collect(),
        }
    }

    #[test]
    fn avx2_output_equals_portable_on_any_values() {
        if !avx2() {
            eprintln!(
                "no AVX2 on this processor: only the portable path exists, nothing to compare"
            );
            return;
        }
        let mut rng = Rng::new(465);
        for case in 0..CASES {
            let mut net = any_net(&mut rng);
            let h = net.arch.hidden;
            let (stm, other) = (any_acc(&mut rng, h), any_acc(&mut rng, h));
            let portable = net.output_scalar(&stm, &other);
            // SAFETY: AVX2 is present (checked above); both accumulators hold `hidden` entries
            // and W2 `2 * hidden` per row, as `any_arch` validated.
            let fast = unsafe { simd::output(&net, &stm, &other) };
            assert_eq!(fast, portable, "case {case}: {:?}", net.arch);
            // The public entry point, both ways (the scaling after the kernels is shared).
            net.set_simd(false);
            let slow = net.evaluate(&stm, &other);
            net.set_simd(true);
            assert!(net.simd());
            assert_eq!(net.evaluate(&stm, &other), slow, "case {case}");
        }
    }

    #[test]
    fn avx2_update_into_equals_portable_on_any_values() {
        if !avx2() {
            eprintln!(
                "no AVX2 on this processor: only the portable path exists, nothing to compare"
            );
            return;
        }
        let mut rng = Rng::new(466);
        for case in 0..CASES {
            let mut net = any_net(&mut rng);
            let (h, n) = (net.arch.hidden, net.arch.inputs);
            let src = [any_acc(&mut rng, h), any_acc(&mut rng, h)];
            let mut delta = Delta::default();
            // Up to the most changes a move may have; the first and last rows of W1 often.
            for _ in 0..rng.below(MAX_CHANGES + 1) {
                let mut row = || match rng.below(4) {
                    0 => 0,
                    1 => (n - 1) as u16,
                    _ => rng.below(n) as u16,
                };
                let input = [row(), row()];
                delta.push(input, rng.below(2) == 0);
            }
            let mut want = [vec![0i16; h], vec![0i16; h]];
            let mut got = [vec![1i16; h], vec![1i16; h]];
            net.set_simd(false);
            let [w0, w1] = &mut want;
            net.update_into([&src[0], &src[1]], [w0, w1], &delta);
            let [g0, g1] = &mut got;
            // SAFETY: AVX2 is present (checked above); the kernel checks the slices' lengths and
            // that every changed row lies inside W1.
            unsafe { simd::update_into(&net.w1, h, [&src[0], &src[1]], [g0, g1], &delta) };
            let first = (0..2 * h).find(|&i| got[i / h][i % h] != want[i / h][i % h]);
            assert_eq!(
                first, None,
                "case {case}: {:?} {:?}: first difference (perspective * hidden + entry)",
                net.arch, delta
            );
            // And through the public entry point.
            net.set_simd(true);
            let mut again = [vec![2i16; h], vec![2i16; h]];
            let [a0, a1] = &mut again;
            net.update_into([&src[0], &src[1]], [a0, a1], &delta);
            assert!(again == want, "case {case}: the public entry point differs");
        }
    }

    /// The kernel's bounds checks are what make its pointer reads sound: a changed row past the
    /// end of W1, or a short accumulator, stops it with a panic before any load.
    #[test]
    fn avx2_update_into_refuses_a_row_outside_w1_and_short_slices() {
        if !avx2() {
            eprintln!("no AVX2 on this processor: the kernel cannot be called");
            return;
        }
        let mut rng = Rng::new(467);
        let net = any_net(&mut rng);
        let (h, n) = (net.arch.hidden, net.arch.inputs);
        let src = [vec![0i16; h], vec![0i16; h]];
        let run = |delta: Delta, short: bool| {
            let mut dst = [vec![0i16; h], vec![0i16; if short { h - 1 } else { h }]];
            let [d0, d1] = &mut dst;
            std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                // SAFETY: AVX2 is present; the kernel's own checks are what is under test.
                unsafe { simd::update_into(&net.w1, h, [&src[0], &src[1]], [d0, d1], &delta) }
            }))
            .is_err()
        };
        let mut outside = Delta::default();
        outside.push([0, n as u16], true);
        assert!(run(outside, false), "row {n} of {n} was read");
        let mut inside = Delta::default();
        inside.push([0, (n - 1) as u16], true);
        assert!(!run(inside, false), "the last row is inside W1");
        assert!(run(inside, true), "a short accumulator was written");
    }
}
