//! A position that carries its network's first layer: [`Accumulated`] wraps any [`Game`] and keeps
//! one accumulator per perspective, updated by the inputs each move turns on and off (NNUE style)
//! instead of being recomputed, so the search pays for a few rows of W1 per move and the rest of
//! the network per evaluation.

use super::features::{Active, Delta, FeatureSet};
use super::quant::QuantNet;
use crate::game::{Game, NullMove, Turn};
use std::marker::PhantomData;
use std::sync::Arc;

/// A position of `G` with the first-layer accumulators of a network over the inputs `F`.
pub struct Accumulated<G: Game, F: FeatureSet<G>> {
    pos: G,
    net: Arc<QuantNet>,
    acc: [Vec<i16>; 2],
    _f: PhantomData<fn() -> F>,
}

impl<G: Game, F: FeatureSet<G>> Clone for Accumulated<G, F> {
    fn clone(&self) -> Self {
        Accumulated {
            pos: self.pos.clone(),
            net: self.net.clone(),
            acc: self.acc.clone(),
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

/// What [`Accumulated::unmake`](Game::unmake) needs: the game's own undo and the inputs the move
/// changed.
pub struct AccUndo<U> {
    inner: U,
    delta: Delta,
}

impl<G: Game, F: FeatureSet<G>> Accumulated<G, F> {
    /// Wraps `pos`, computing both accumulators from scratch. The network must have
    /// `F::INPUTS` inputs.
    pub fn new(pos: G, net: Arc<QuantNet>) -> Self {
        debug_assert_eq!(net.arch.inputs, F::INPUTS);
        let h = net.arch.hidden;
        let mut a = Accumulated {
            pos,
            net,
            acc: [vec![0; h], vec![0; h]],
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
            self.net.refresh(&mut self.acc[p], active.as_slice());
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
        &self.acc[perspective]
    }

    /// The network's score of the position, side to move's view, in score units.
    #[inline]
    pub fn evaluate(&self) -> i32 {
        let stm = self.pos.to_move() & 1;
        self.net.evaluate(&self.acc[stm], &self.acc[1 - stm])
    }

    #[inline]
    fn apply(&mut self, delta: &Delta, forward: bool) {
        let [a0, a1] = &mut self.acc;
        self.net.update(a0, a1, delta, forward);
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
        let mut delta = Delta::default();
        F::delta(&self.pos, mv, &mut delta);
        self.apply(&delta, true);
        let inner = self.pos.make(mv);
        AccUndo { inner, delta }
    }

    #[inline]
    fn unmake(&mut self, mv: Self::Move, undo: Self::Undo) {
        self.pos.unmake(mv, undo.inner);
        self.apply(&undo.delta, false);
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
        AccUndo {
            inner: self.pos.make_null(),
            delta: Delta::default(),
        }
    }

    fn unmake_null(&mut self, undo: Self::Undo) {
        self.pos.unmake_null(undo.inner)
    }
}
