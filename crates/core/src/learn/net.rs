//! The floating-point network that training changes, and its shape.
//!
//! ```text
//! inputs (sparse, per perspective) --W1--> hidden (per perspective, shared weights)
//!   [side to move's hidden, other side's hidden] clipped to [0, 1] --W2--> l2, clipped to [0, 1]
//!   --w3--> one output y, the logit of the side to move's expected result
//! ```
//!
//! Every parameter lives in one flat `Vec<f32>` ([`Network::params`]) in the order W1 (input-major:
//! the `hidden` weights of input 0, then of input 1, ...), b1, W2 (output-major: the `2 * hidden`
//! weights of output 0, ...), b2, w3, b3, so the optimiser and the checkpoint treat it as one array.

use super::LearnError;
use crate::rng::Rng;

/// The largest hidden layer (per perspective) a network may have.
pub const MAX_HIDDEN: usize = 1024;
/// The largest second layer a network may have.
pub const MAX_L2: usize = 64;
/// The largest W2 weight (and smallest, negated): what an int8 at the quantised scale 64 holds.
pub const W2_LIMIT: f32 = 127.0 / 64.0;

/// The shape of a network.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Arch {
    /// Inputs per perspective.
    pub inputs: usize,
    /// Hidden units per perspective (a multiple of 16).
    pub hidden: usize,
    /// Units of the second layer.
    pub l2: usize,
}

impl Arch {
    /// Checks the sizes.
    pub fn validate(&self) -> Result<(), LearnError> {
        if self.inputs == 0 || self.inputs > u16::MAX as usize {
            return Err(LearnError::Config(format!(
                "{} inputs: must be 1-65535",
                self.inputs
            )));
        }
        if self.hidden == 0 || self.hidden % 16 != 0 || self.hidden > MAX_HIDDEN {
            return Err(LearnError::Config(format!(
                "hidden layer of {}: must be a multiple of 16 from 16 to {MAX_HIDDEN}",
                self.hidden
            )));
        }
        if self.l2 == 0 || self.l2 > MAX_L2 {
            return Err(LearnError::Config(format!(
                "second layer of {}: must be 1-{MAX_L2}",
                self.l2
            )));
        }
        Ok(())
    }

    /// Number of parameters.
    pub fn params(&self) -> usize {
        self.inputs * self.hidden + self.hidden + self.l2 * 2 * self.hidden + self.l2 + self.l2 + 1
    }

    /// Offsets of W1, b1, W2, b2, w3, b3 in the flat parameter array.
    pub fn offsets(&self) -> [usize; 6] {
        let w1 = 0;
        let b1 = w1 + self.inputs * self.hidden;
        let w2 = b1 + self.hidden;
        let b2 = w2 + self.l2 * 2 * self.hidden;
        let w3 = b2 + self.l2;
        let b3 = w3 + self.l2;
        [w1, b1, w2, b2, w3, b3]
    }
}

/// A network in floating point.
#[derive(Clone, Debug, PartialEq)]
pub struct Network {
    /// Its shape.
    pub arch: Arch,
    /// Every parameter, laid out as the module documentation says.
    pub params: Vec<f32>,
}

/// The values of one forward pass that the backward pass needs.
#[derive(Clone, Debug, Default)]
pub struct Activations {
    /// Hidden pre-activations, side to move then the other side (`2 * hidden`).
    pub acc: Vec<f32>,
    /// Second-layer pre-activations (`l2`).
    pub z2: Vec<f32>,
    /// The output logit.
    pub y: f32,
}

impl Network {
    /// A network with random initial weights from `seed`.
    pub fn new(arch: Arch, seed: u64) -> Result<Network, LearnError> {
        arch.validate()?;
        let mut rng = Rng::new(seed);
        let mut params = vec![0.0f32; arch.params()];
        let [w1, b1, w2, b2, w3, _] = arch.offsets();
        let mut fill = |range: std::ops::Range<usize>, a: f64| {
            for p in &mut params[range] {
                *p = ((rng.unit() * 2.0 - 1.0) * a) as f32;
            }
        };
        fill(w1..b1, 0.2);
        let g2 = (6.0 / (2 * arch.hidden + arch.l2) as f64).sqrt();
        fill(w2..b2, g2);
        let g3 = (6.0 / (arch.l2 + 1) as f64).sqrt();
        fill(w3..w3 + arch.l2, g3);
        for p in &mut params[b1..w2] {
            *p = 0.1;
        }
        let _ = b2;
        Ok(Network { arch, params })
    }

    /// The output logit for inputs `stm` (side to move's view) and `other`, keeping the
    /// activations in `act` for [`Network::backward`].
    pub fn forward(&self, stm: &[u16], other: &[u16], act: &mut Activations) -> f32 {
        let Arch { hidden, l2, .. } = self.arch;
        let [w1, b1, w2, b2, w3, b3] = self.arch.offsets();
        let p = &self.params;
        act.acc.clear();
        act.acc.resize(2 * hidden, 0.0);
        for (half, feats) in [stm, other].into_iter().enumerate() {
            let a = &mut act.acc[half * hidden..(half + 1) * hidden];
            a.copy_from_slice(&p[b1..b1 + hidden]);
            for &f in feats {
                let row = &p[w1 + f as usize * hidden..w1 + (f as usize + 1) * hidden];
                for (x, w) in a.iter_mut().zip(row) {
                    *x += w;
                }
            }
        }
        act.z2.clear();
        let mut y = p[b3];
        for o in 0..l2 {
            let row = &p[w2 + o * 2 * hidden..w2 + (o + 1) * 2 * hidden];
            let mut z = p[b2 + o];
            for (a, w) in act.acc.iter().zip(row) {
                z += a.clamp(0.0, 1.0) * w;
            }
            act.z2.push(z);
            y += z.clamp(0.0, 1.0) * p[w3 + o];
        }
        act.y = y;
        y
    }

    /// Adds to `grad` the gradient of the loss for `dy` = d loss / d output, given the inputs and
    /// the activations of their forward pass.
    pub fn backward(
        &self,
        stm: &[u16],
        other: &[u16],
        act: &Activations,
        dy: f32,
        grad: &mut [f32],
        dh: &mut Vec<f32>,
    ) {
        let Arch { hidden, l2, .. } = self.arch;
        let [w1, b1, w2, b2, w3, b3] = self.arch.offsets();
        let p = &self.params;
        grad[b3] += dy;
        dh.clear();
        dh.resize(2 * hidden, 0.0);
        for o in 0..l2 {
            let z = act.z2[o];
            grad[w3 + o] += dy * z.clamp(0.0, 1.0);
            if z <= 0.0 || z >= 1.0 {
                continue;
            }
            let dz = dy * p[w3 + o];
            grad[b2 + o] += dz;
            let row = w2 + o * 2 * hidden;
            for i in 0..2 * hidden {
                let a = act.acc[i];
                grad[row + i] += dz * a.clamp(0.0, 1.0);
                dh[i] += dz * p[row + i];
            }
        }
        for (d, &a) in dh.iter_mut().zip(&act.acc) {
            if a <= 0.0 || a >= 1.0 {
                *d = 0.0;
            }
        }
        for (half, feats) in [stm, other].into_iter().enumerate() {
            let d = &dh[half * hidden..(half + 1) * hidden];
            for (g, x) in grad[b1..b1 + hidden].iter_mut().zip(d) {
                *g += x;
            }
            for &f in feats {
                let row = &mut grad[w1 + f as usize * hidden..w1 + (f as usize + 1) * hidden];
                for (g, x) in row.iter_mut().zip(d) {
                    *g += x;
                }
            }
        }
    }

    /// Keeps W2 inside what int8 weights at scale 64 can hold.
    pub fn clip(&mut self) {
        let [_, _, w2, b2, _, _] = self.arch.offsets();
        for w in &mut self.params[w2..b2] {
            *w = w.clamp(-W2_LIMIT, W2_LIMIT);
        }
    }
}

/// The logistic function.
#[inline]
pub fn sigmoid(x: f32) -> f32 {
    1.0 / (1.0 + (-x).exp())
}
