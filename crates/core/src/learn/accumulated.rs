//! A position that carries its network's first layer: [`Accumulated`] wraps any [`Game`] and keeps
//! one accumulator per perspective, updated by the inputs each move turns on and off (NNUE style)
//! instead of being recomputed, so the search pays for a few rows of W1 per move and the rest of
//! the network per evaluation. The accumulators of the positions on the current line sit in a
//! stack: a move writes its child's from its parent's (copy-make), and taking it back only pops.
//!
//! With a [`NetSet`] of several nets (one per stage: a range of piece counts), each stack entry
//! holds the accumulators of the net of its position's stage. A move that keeps the stage (every
//! move but a capture across a stage's edge) updates them as above; one that changes it computes
//! the child's accumulators from scratch with the new stage's net (a capture already changes
//! three or more inputs, and stage changes are rare on a line). Taking the move back pops, as
//! always. A set of one net never looks at the piece count.

use super::features::{Active, Delta, FeatureSet};
use super::netset::NetSet;
use super::quant::QuantNet;
use crate::game::{Game, NullMove, Turn};
use std::marker::PhantomData;
use std::sync::Arc;

/// A position of `G` with the first-layer accumulators of a network (or a set of networks by
/// stage) over the inputs `F`.
pub struct Accumulated<G: Game, F: FeatureSet<G>> {
    pos: G,
    nets: Arc<NetSet>,
    /// Values per stack entry: 2 × the largest hidden layer of the set (perspective 0, then 1;
    /// a smaller net uses the first `hidden` values of each half).
    stride: usize,
    /// Entry k holds the accumulators of the position k moves after the stack's start; `top` is
    /// the current position's entry.
    stack: Vec<i16>,
    /// Entry k's net (its index in the set).
    which: Vec<u8>,
    top: usize,
    /// The changes of the move being made (kept here so a move does not build a fresh list).
    scratch: Delta,
    _f: PhantomData<fn() -> F>,
}

/// Entries the stack holds before it first grows (deeper lines grow it once, then reuse it).
const STACK_ENTRIES: usize = 64;

impl<G: Game, F: FeatureSet<G>> Clone for Accumulated<G, F> {
    fn clone(&self) -> Self {
        // The copy starts its own stack at the current position.
        let h2 = self.stride;
        let mut stack = Vec::with_capacity(STACK_ENTRIES * h2);
        stack.extend_from_slice(&self.stack[self.top * h2..(self.top + 1) * h2]);
        let mut which = Vec::with_capacity(STACK_ENTRIES);
        which.push(self.which[self.top]);
        Accumulated {
            pos: self.pos.clone(),
            nets: self.nets.clone(),
            stride: self.stride,
            stack,
            which,
            top: 0,
            scratch: Delta::default(),
            _f: PhantomData,
        }
    }
}

impl<G: Game + std::fmt::Debug, F: FeatureSet<G>> std::fmt::Debug for Accumulated<G, F> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Accumulated")
            .field("pos", &self.pos)
            .finish()
    }
}

/// What [`Accumulated::unmake`](Game::unmake) needs: the game's own undo (the parent's
/// accumulators are still on the stack).
pub struct AccUndo<U> {
    inner: U,
}

impl<G: Game, F: FeatureSet<G>> Accumulated<G, F> {
    /// Wraps `pos`, computing both accumulators from scratch with one network for every stage.
    /// The network must have `F::INPUTS` inputs.
    pub fn new(pos: G, net: Arc<QuantNet>) -> Self {
        let net = Arc::try_unwrap(net).unwrap_or_else(|shared| (*shared).clone());
        Self::with_set(pos, Arc::new(NetSet::from(net)))
    }

    /// Wraps `pos` with a set of networks by stage, computing the accumulators of its stage's
    /// net from scratch. Every net must have `F::INPUTS` inputs.
    pub fn with_set(pos: G, nets: Arc<NetSet>) -> Self {
        debug_assert!(nets.nets().iter().all(|n| n.arch.inputs == F::INPUTS));
        let stride = 2 * nets.max_hidden();
        let mut stack = Vec::with_capacity(STACK_ENTRIES * stride);
        stack.resize(stride, 0);
        let mut which = Vec::with_capacity(STACK_ENTRIES);
        which.push(0);
        let mut a = Accumulated {
            pos,
            nets,
            stride,
            stack,
            which,
            top: 0,
            scratch: Delta::default(),
            _f: PhantomData,
        };
        a.refresh();
        a
    }

    /// Recomputes both accumulators from the position (with its stage's net).
    pub fn refresh(&mut self) {
        self.which[self.top] = if self.nets.len() == 1 {
            0
        } else {
            self.nets.index_for(F::pieces(&self.pos)) as u8
        };
        self.refresh_entry(self.top);
    }

    /// Computes entry `k`'s accumulators from the current position with its net.
    fn refresh_entry(&mut self, k: usize) {
        let net = &self.nets.nets()[self.which[k] as usize];
        let h = net.arch.hidden;
        let mut active = Active::default();
        for p in 0..2 {
            F::active(&self.pos, p, &mut active);
            let at = k * self.stride + p * (self.stride / 2);
            net.refresh(&mut self.stack[at..at + h], active.as_slice());
        }
    }

    /// The wrapped position.
    pub fn inner(&self) -> &G {
        &self.pos
    }

    /// The set of networks.
    pub fn nets(&self) -> &Arc<NetSet> {
        &self.nets
    }

    /// The network of the current position's stage.
    #[inline]
    pub fn net(&self) -> &QuantNet {
        &self.nets.nets()[self.which[self.top] as usize]
    }

    /// The accumulator of `perspective` (of the current stage's net).
    #[inline]
    pub fn accumulator(&self, perspective: usize) -> &[i16] {
        let h = self.net().arch.hidden;
        let at = self.top * self.stride + perspective * (self.stride / 2);
        &self.stack[at..at + h]
    }

    /// The network's score of the position, side to move's view, in score units.
    #[inline]
    pub fn evaluate(&self) -> i32 {
        let stm = self.pos.to_move() & 1;
        self.net()
            .evaluate(self.accumulator(stm), self.accumulator(1 - stm))
    }

    /// Pushes the accumulators of the position after a move whose changes are in `scratch`
    /// (`self.pos` is already that position), with net `next`: updated from the parent's when
    /// the net stays, computed from scratch when it changes.
    #[inline]
    fn push(&mut self, next: u8) {
        let h2 = self.stride;
        let end = (self.top + 2) * h2;
        if self.stack.len() < end {
            // Only when a line goes deeper than any before it.
            self.stack.resize(end, 0);
        }
        if self.which.len() < self.top + 2 {
            self.which.resize(self.top + 2, 0);
        }
        self.which[self.top + 1] = next;
        if next != self.which[self.top] {
            self.top += 1;
            self.refresh_entry(self.top);
            return;
        }
        let net = &self.nets.nets()[next as usize];
        let h = net.arch.hidden;
        let (parent, child) = self.stack[self.top * h2..end].split_at_mut(h2);
        let (s0, s1) = parent.split_at(h2 / 2);
        let (d0, d1) = child.split_at_mut(h2 / 2);
        net.update_into(
            [&s0[..h], &s1[..h]],
            [&mut d0[..h], &mut d1[..h]],
            &self.scratch,
        );
        self.top += 1;
    }
}

impl<G: Game, F: FeatureSet<G>> Game for Accumulated<G, F> {
    type Move = G::Move;
    type Undo = AccUndo<G::Undo>;

    fn num_players(&self) -> usize {
        self.pos.num_players()
    }

    #[inline]
    fn turn(&self) -> Turn {
        self.pos.turn()
    }

    #[inline]
    fn to_move(&self) -> usize {
        self.pos.to_move()
    }

    #[inline]
    fn legal_moves(&self, moves: &mut Vec<Self::Move>) {
        self.pos.legal_moves(moves)
    }

    #[inline]
    fn make(&mut self, mv: Self::Move) -> Self::Undo {
        self.scratch.clear();
        F::delta(&self.pos, mv, &mut self.scratch);
        let inner = self.pos.make(mv);
        let next = if self.nets.len() == 1 {
            0
        } else {
            self.nets.index_for(F::pieces(&self.pos)) as u8
        };
        self.push(next);
        AccUndo { inner }
    }

    #[inline]
    fn unmake(&mut self, mv: Self::Move, undo: Self::Undo) {
        self.pos.unmake(mv, undo.inner);
        self.top -= 1;
    }

    fn returns(&self, player: usize) -> f64 {
        self.pos.returns(player)
    }

    #[inline]
    fn hash(&self) -> u64 {
        self.pos.hash()
    }

    fn hash_from_scratch(&self) -> u64 {
        self.pos.hash_from_scratch()
    }

    fn chance_outcomes(&self, out: &mut Vec<(Self::Move, f64)>) {
        self.pos.chance_outcomes(out)
    }
}

impl<G: NullMove, F: FeatureSet<G>> NullMove for Accumulated<G, F> {
    fn make_null(&mut self) -> Self::Undo {
        // No piece moves: the accumulators stay (each evaluation picks its perspective).
        AccUndo {
            inner: self.pos.make_null(),
        }
    }

    fn unmake_null(&mut self, undo: Self::Undo) {
        self.pos.unmake_null(undo.inner)
    }
}
