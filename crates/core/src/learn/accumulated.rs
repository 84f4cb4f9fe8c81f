//! A position that carries its network's first layer: [`Accumulated`] wraps any [`Game`] and keeps
//! one accumulator per perspective, updated by the inputs each move turns on and off (NNUE style)
//! instead of being recomputed, so the search pays for a few rows of W1 per move and the rest of
//! the network per evaluation. The accumulators of the positions on the current line sit in a
//! stack: a move writes its child's from its parent's (copy-make), and taking it back only pops.

use super::features::{Active, Delta, FeatureSet};
use super::quant::QuantNet;
use crate::game::{Game, NullMove, Turn};
use std::marker::PhantomData;
use std::sync::Arc;

/// A position of `G` with the first-layer accumulators of a network over the inputs `F`.
pub struct Accumulated<G: Game, F: FeatureSet<G>> {
    pos: G,
    net: Arc<QuantNet>,
    /// Entry k (2 × hidden values: perspective 0, then 1) holds the accumulators of the position
    /// k moves after the stack's start; `top` is the current position's entry.
    stack: Vec<i16>,
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
        let h2 = 2 * self.net.arch.hidden;
        let mut stack = Vec::with_capacity(STACK_ENTRIES * h2);
        stack.extend_from_slice(&self.stack[self.top * h2..(self.top + 1) * h2]);
        Accumulated {
            pos: self.pos.clone(),
            net: self.net.clone(),
            stack,
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
    /// Wraps `pos`, computing both accumulators from scratch. The network must have
    /// `F::INPUTS` inputs.
    pub fn new(pos: G, net: Arc<QuantNet>) -> Self {
        debug_assert_eq!(net.arch.inputs, F::INPUTS);
        let h2 = 2 * net.arch.hidden;
        let mut stack = Vec::with_capacity(STACK_ENTRIES * h2);
        stack.resize(h2, 0);
        let mut a = Accumulated {
            pos,
            net,
            stack,
            top: 0,
            scratch: Delta::default(),
            _f: PhantomData,
        };
        a.refresh();
        a
    }

    /// Recomputes both accumulators from the position.
    pub fn refresh(&mut self) {
        let mut active = Active::default();
        for p in 0..2 {
            F::active(&self.pos, p, &mut active);
            let h = self.net.arch.hidden;
            let at = (2 * self.top + p) * h;
            self.net
                .refresh(&mut self.stack[at..at + h], active.as_slice());
        }
    }

    /// The wrapped position.
    pub fn inner(&self) -> &G {
        &self.pos
    }

    /// The network.
    pub fn net(&self) -> &Arc<QuantNet> {
        &self.net
    }

    /// The accumulator of `perspective`.
    pub fn accumulator(&self, perspective: usize) -> &[i16] {
        let h = self.net.arch.hidden;
        let at = (2 * self.top + perspective) * h;
        &self.stack[at..at + h]
    }

    /// The network's score of the position, side to move's view, in score units.
    #[inline]
    pub fn evaluate(&self) -> i32 {
        let stm = self.pos.to_move() & 1;
        self.net
            .evaluate(self.accumulator(stm), self.accumulator(1 - stm))
    }

    /// Pushes the accumulators of the position after a move whose changes are in `scratch`.
    #[inline]
    fn push(&mut self) {
        let h = self.net.arch.hidden;
        let h2 = 2 * h;
        let end = (self.top + 2) * h2;
        if self.stack.len() < end {
            // Only when a line goes deeper than any before it.
            self.stack.resize(end, 0);
        }
        let (parent, child) = self.stack[self.top * h2..end].split_at_mut(h2);
        let (s0, s1) = parent.split_at(h);
        let (d0, d1) = child.split_at_mut(h);
        self.net.update_into([s0, s1], [d0, d1], &self.scratch);
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
        self.push();
        let inner = self.pos.make(mv);
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
