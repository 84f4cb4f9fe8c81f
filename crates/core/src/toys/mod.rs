//! Small games written for tests, benchmarks and teaching: each is tiny enough to solve exactly,
//! so every search in core can be checked against a known answer.

pub mod nim;
pub mod pig;
pub mod race;
pub mod sliding;
pub mod tictactoe;
