//! The [`Player`] trait, below every player of the crate: the one-ply players
//! ([`crate::oneply`]), the searches ([`crate::search`]), the rollouts ([`crate::rollout`]) and
//! the game records ([`crate::record`]) all stand on it without importing one another for it.

use crate::position::{Aero, AeroMove};

/// A player: picks the plane to move at a decision node.
pub trait Player: Send {
    /// Picks one of the legal moves of `pos` (`pos.turn()` is a player's turn).
    fn choose(&mut self, pos: &Aero) -> AeroMove;
}
