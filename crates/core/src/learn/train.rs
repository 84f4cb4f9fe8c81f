//! The trainer: Adam on the cross-entropy between the network's predicted result and a target
//! that mixes the search score and the game result, in minibatches split into fixed chunks so the
//! result is the same for any number of threads, with a held-out loss after every epoch and a
//! checkpoint to resume from.

use super::features::{Active, FeatureSet};
use super::net::{sigmoid, Activations, Arch, Network};
use super::record::{Dataset, Encode};
use super::LearnError;
use crate::game::Game;
use crate::rng::Rng;
use rayon::prelude::*;
use std::path::Path;

/// Samples per gradient chunk: the unit of work of one thread, fixed so that sums are formed in
/// the same order whatever the thread count.
pub const CHUNK: usize = 256;
/// The first eight bytes of a checkpoint file.
pub const CHECKPOINT_MAGIC: [u8; 8] = *b"QIYICKP1";

/// One training example: the inputs of both perspectives (side to move first) and the target
/// expected result in `[0, 1]`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Sample {
    /// Inputs of the side to move, then of the other side.
    pub inputs: [Active; 2],
    /// The target: `lambda * sigmoid(score / scale) + (1 - lambda) * (result + 1) / 2`.
    pub target: f32,
}

/// How to train.
#[derive(Clone, Debug, PartialEq)]
pub struct TrainConfig {
    /// Passes over the training positions.
    pub epochs: u32,
    /// Positions per gradient step.
    pub batch: usize,
    /// Adam's step size in the first epoch.
    pub lr: f32,
    /// The step size is multiplied by this after every epoch.
    pub lr_decay: f32,
    /// Weight of the search score in the target (the rest is the game result).
    pub lambda: f32,
    /// Score units per logit unit: `sigmoid(score / scale)` is the score's expected result.
    pub scale: f32,
    /// Fraction of the positions (the last ones, i.e. the last games) held out.
    pub holdout: f32,
    /// Seed of the initial weights and the shuffles.
    pub seed: u64,
}

impl Default for TrainConfig {
    fn default() -> Self {
        TrainConfig {
            epochs: 10,
            batch: 4096,
            lr: 2e-3,
            lr_decay: 0.8,
            lambda: 0.7,
            scale: 120.0,
            holdout: 0.05,
            seed: 1,
        }
    }
}

/// Turns a dataset into samples for the inputs `F` of the game `G`, with the target mix of
/// `lambda` and `scale`. Records whose position does not decode are an error.
pub fn samples<G, F>(ds: &Dataset, lambda: f32, scale: f32) -> Result<Vec<Sample>, LearnError>
where
    G: Game + Encode,
    F: FeatureSet<G>,
{
    if ds.position_bytes != G::BYTES {
        return Err(LearnError::Config(format!(
            "the data hold {}-byte {} positions, the game writes {} bytes",
            ds.position_bytes,
            ds.tag,
            G::BYTES
        )));
    }
    let mut out = Vec::with_capacity(ds.len());
    for i in 0..ds.len() {
        let r = ds.get(i);
        let pos = G::decode(r.position).ok_or_else(|| {
            LearnError::Config(format!(
                "record {i} does not decode to a {} position",
                ds.tag
            ))
        })?;
        let stm = pos.to_move() & 1;
        let mut inputs = [Active::default(); 2];
        F::active(&pos, stm, &mut inputs[0]);
        F::active(&pos, 1 - stm, &mut inputs[1]);
        out.push(Sample {
            inputs,
            target: target(r.score, r.result, lambda, scale),
        });
    }
    Ok(out)
}

/// The training target of a score and a result (see [`Sample::target`]).
pub fn target(score: i16, result: i8, lambda: f32, scale: f32) -> f32 {
    lambda * sigmoid(f32::from(score) / scale) + (1.0 - lambda) * (f32::from(result) + 1.0) / 2.0
}

/// The scale that best predicts the results from the scores: the maximum-likelihood `s` of
/// `P(result) = sigmoid(score / s)` (draws count half), found by golden-section search over
/// `[10, 5000]`.
pub fn fit_scale(ds: &Dataset) -> f32 {
    let n = ds.len().min(500_000);
    let loss = |s: f64| -> f64 {
        let mut l = 0.0;
        for i in 0..n {
            let r = ds.get(i * ds.len() / n.max(1));
            let p = (1.0 / (1.0 + (-f64::from(r.score) / s).exp())).clamp(1e-9, 1.0 - 1e-9);
            let t = (f64::from(r.result) + 1.0) / 2.0;
            l -= t * p.ln() + (1.0 - t) * (1.0 - p).ln();
        }
        l
    };
    let (mut a, mut b) = (10.0f64.ln(), 5000.0f64.ln());
    let g = (5f64.sqrt() - 1.0) / 2.0;
    for _ in 0..40 {
        let c = b - g * (b - a);
        let d = a + g * (b - a);
        if loss(c.exp()) < loss(d.exp()) {
            b = d;
        } else {
            a = c;
        }
    }
    ((a + b) / 2.0).exp() as f32
}

/// Cross-entropy of predicting `p = sigmoid(y)` for target `t`.
#[inline]
fn cross_entropy(y: f32, t: f32) -> f64 {
    let p = f64::from(sigmoid(y)).clamp(1e-7, 1.0 - 1e-7);
    let t = f64::from(t);
    -(t * p.ln() + (1.0 - t) * (1.0 - p).ln())
}

/// The minimum cross-entropy achievable on `samples` (that of predicting each target exactly):
/// subtract it from a loss to see how far from perfect the network is.
pub fn entropy(samples: &[Sample]) -> f64 {
    let mut s = 0.0;
    for x in samples {
        let t = f64::from(x.target).clamp(1e-7, 1.0 - 1e-7);
        s -= t * t.ln() + (1.0 - t) * (1.0 - t).ln();
    }
    s / samples.len().max(1) as f64
}

/// A network being trained, with Adam's moments and the position in the schedule.
#[derive(Clone, Debug)]
pub struct Trainer {
    /// The network.
    pub net: Network,
    m: Vec<f32>,
    v: Vec<f32>,
    /// Gradient steps taken.
    pub step: u64,
    /// Epochs completed.
    pub epoch: u32,
    grads: Vec<Vec<f32>>,
}

impl Trainer {
    /// A fresh network of shape `arch` with weights from `seed`.
    pub fn new(arch: Arch, seed: u64) -> Result<Trainer, LearnError> {
        let net = Network::new(arch, seed)?;
        let n = arch.params();
        Ok(Trainer {
            net,
            m: vec![0.0; n],
            v: vec![0.0; n],
            step: 0,
            epoch: 0,
            grads: Vec::new(),
        })
    }

    /// Mean cross-entropy of the network on `samples` (on the current rayon pool: run it inside
    /// `ThreadPool::install` to choose the threads).
    pub fn loss(&self, samples: &[Sample]) -> f64 {
        let sums: Vec<f64> = samples
            .par_chunks(CHUNK)
            .map(|chunk| {
                let mut act = Activations::default();
                chunk
                    .iter()
                    .map(|s| {
                        let y = self.net.forward(
                            s.inputs[0].as_slice(),
                            s.inputs[1].as_slice(),
                            &mut act,
                        );
                        cross_entropy(y, s.target)
                    })
                    .sum::<f64>()
            })
            .collect();
        sums.iter().sum::<f64>() / samples.len().max(1) as f64
    }

    /// One pass over `samples` in an order shuffled by the seed and the epoch number; returns
    /// the mean training loss. `on_batch` sees the fraction of the epoch done. Runs on the
    /// current rayon pool; the result does not depend on its size.
    pub fn epoch(
        &mut self,
        samples: &[Sample],
        config: &TrainConfig,
        mut on_batch: impl FnMut(f64),
    ) -> f64 {
        let mut order: Vec<u32> = (0..samples.len() as u32).collect();
        let mut rng = Rng::derive(config.seed, u64::from(self.epoch) + 1);
        for i in (1..order.len()).rev() {
            order.swap(i, rng.below(i + 1));
        }
        let lr = config.lr * config.lr_decay.powi(self.epoch as i32);
        let n = self.net.arch.params();
        let batch = config.batch.max(1);
        let chunks = batch.div_ceil(CHUNK);
        self.grads.resize_with(chunks, || vec![0.0; n]);
        let mut total = 0.0;
        let mut done = 0usize;
        for idx in order.chunks(batch) {
            let net = &self.net;
            let losses: Vec<f64> = self
                .grads
                .par_iter_mut()
                .zip(idx.par_chunks(CHUNK))
                .map(|(g, part)| {
                    g.iter_mut().for_each(|x| *x = 0.0);
                    let mut act = Activations::default();
                    let mut dh = Vec::new();
                    let mut loss = 0.0;
                    for &i in part {
                        let s = &samples[i as usize];
                        let (a, b) = (s.inputs[0].as_slice(), s.inputs[1].as_slice());
                        let y = net.forward(a, b, &mut act);
                        loss += cross_entropy(y, s.target);
                        net.backward(a, b, &act, sigmoid(y) - s.target, g, &mut dh);
                    }
                    loss
                })
                .collect();
            total += losses.iter().sum::<f64>();
            let used = idx.len().div_ceil(CHUNK);
            let (first, rest) = self.grads.split_at_mut(1);
            for g in &rest[..used - 1] {
                for (a, b) in first[0].iter_mut().zip(g) {
                    *a += b;
                }
            }
            self.adam(lr, idx.len() as f32);
            done += idx.len();
            on_batch(done as f64 / samples.len().max(1) as f64);
        }
        self.epoch += 1;
        total / samples.len().max(1) as f64
    }

    fn adam(&mut self, lr: f32, count: f32) {
        const B1: f32 = 0.9;
        const B2: f32 = 0.999;
        const EPS: f32 = 1e-8;
        self.step += 1;
        let c1 = 1.0 - B1.powi(self.step.min(i32::MAX as u64) as i32);
        let c2 = 1.0 - B2.powi(self.step.min(i32::MAX as u64) as i32);
        let moments = self.m.iter_mut().zip(self.v.iter_mut());
        for ((p, g), (m, v)) in self.net.params.iter_mut().zip(&self.grads[0]).zip(moments) {
            let gi = g / count;
            *m = B1 * *m + (1.0 - B1) * gi;
            *v = B2 * *v + (1.0 - B2) * gi * gi;
            let mh = *m / c1;
            let vh = *v / c2;
            *p -= lr * mh / (vh.sqrt() + EPS);
        }
        self.net.clip();
    }

    /// The checkpoint bytes: the network, Adam's moments, step and epoch.
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut out = Vec::with_capacity(32 + 12 * self.m.len());
        out.extend_from_slice(&CHECKPOINT_MAGIC);
        let a = self.net.arch;
        for x in [a.inputs, a.hidden, a.l2] {
            out.extend_from_slice(&(x as u32).to_le_bytes());
        }
        out.extend_from_slice(&self.epoch.to_le_bytes());
        out.extend_from_slice(&self.step.to_le_bytes());
        for x in self.net.params.iter().chain(&self.m).chain(&self.v) {
            out.extend_from_slice(&x.to_le_bytes());
        }
        out
    }

    /// Reads checkpoint bytes written by [`Trainer::to_bytes`].
    pub fn from_bytes(bytes: &[u8]) -> Result<Trainer, LearnError> {
        let bad = |why: &str| LearnError::BadNet(format!("checkpoint: {why}"));
        if bytes.len() < 32 || bytes[..8] != CHECKPOINT_MAGIC {
            return Err(bad("no QIYICKP1 header"));
        }
        let u = |i: usize| {
            u32::from_le_bytes([bytes[i], bytes[i + 1], bytes[i + 2], bytes[i + 3]]) as usize
        };
        let arch = Arch {
            inputs: u(8),
            hidden: u(12),
            l2: u(16),
        };
        arch.validate().map_err(|e| bad(&e.to_string()))?;
        let epoch = u(20) as u32;
        let mut s = [0u8; 8];
        s.copy_from_slice(&bytes[24..32]);
        let step = u64::from_le_bytes(s);
        let n = arch.params();
        if bytes.len() != 32 + 12 * n {
            return Err(bad("length does not fit its network"));
        }
        let floats: Vec<f32> = bytes[32..]
            .chunks_exact(4)
            .map(|c| f32::from_le_bytes([c[0], c[1], c[2], c[3]]))
            .collect();
        Ok(Trainer {
            net: Network {
                arch,
                params: floats[..n].to_vec(),
            },
            m: floats[n..2 * n].to_vec(),
            v: floats[2 * n..].to_vec(),
            step,
            epoch,
            grads: Vec::new(),
        })
    }

    /// Writes a checkpoint to `path` (through a temporary file, so a crash leaves the old one).
    pub fn save(&self, path: &Path) -> Result<(), LearnError> {
        let tmp = path.with_extension("tmp");
        std::fs::write(&tmp, self.to_bytes()).map_err(|e| LearnError::io(&tmp, e))?;
        std::fs::rename(&tmp, path).map_err(|e| LearnError::io(path, e))
    }

    /// Reads the checkpoint at `path`.
    pub fn load(path: &Path) -> Result<Trainer, LearnError> {
        let bytes = std::fs::read(path).map_err(|e| LearnError::io(path, e))?;
        Self::from_bytes(&bytes)
    }
}
