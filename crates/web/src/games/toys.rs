//! Adapters for core's toy games (tic-tac-toe and Nim): small games that exercise every part of
//! the server and the page.

use crate::engine;
use crate::error::ApiError;
use crate::generic::{Adapter, AiChoice};
use crate::session::{AiRequest, Progress};
use qiyi_core::search::SearchOptions;
use qiyi_core::toys::nim::{Nim, NimEval, NimMove};
use qiyi_core::toys::tictactoe::{TicTacToe, TicTacToeEval};
use qiyi_core::Game;
use serde_json::{json, Value};

fn no_move() -> ApiError {
    ApiError::Conflict("no legal move to choose".into())
}

/// Tic-tac-toe: cells `a1`..`c3`.
#[derive(Clone, Copy, Debug, Default)]
pub struct TicTacToeAdapter;

fn square(i: u8) -> String {
    format!("{}{}", (b'a' + i % 3) as char, i / 3 + 1)
}

impl Adapter for TicTacToeAdapter {
    type G = TicTacToe;

    fn game(&self) -> &'static str {
        "tictactoe"
    }

    fn rules(&self) -> String {
        "tic-tac-toe: three in a row wins; x moves first".into()
    }

    fn player_names(&self, _pos: &TicTacToe) -> Vec<String> {
        vec!["X".into(), "O".into()]
    }

    fn view(&self, pos: &TicTacToe) -> Value {
        let cells: serde_json::Map<String, Value> = (0..9u8)
            .map(|i| {
                let mark = if pos.marks(0) & (1 << i) != 0 {
                    "x"
                } else if pos.marks(1) & (1 << i) != 0 {
                    "o"
                } else {
                    ""
                };
                (square(i), json!(mark))
            })
            .collect();
        json!({ "cells": cells })
    }

    fn path(&self, _pos: &TicTacToe, mv: u8) -> Vec<String> {
        vec![square(mv)]
    }

    fn reason(&self, pos: &TicTacToe) -> String {
        if pos.returns(0) == 0.0 {
            "the board is full: draw".into()
        } else {
            "three in a row".into()
        }
    }

    fn engines(&self) -> Vec<String> {
        vec![
            "AI: alpha-beta (core Searcher) with the open-lines evaluation".into(),
            "seed: random mover".into(),
        ]
    }

    fn choose(
        &self,
        pos: &TicTacToe,
        request: &AiRequest,
        progress: &dyn Fn(Progress),
    ) -> Result<AiChoice<u8>, ApiError> {
        let choice = if request.seed_player {
            engine::random(pos, request)
        } else {
            engine::alphabeta(
                pos,
                TicTacToeEval,
                SearchOptions::all(),
                request,
                progress,
                "alpha-beta (core Searcher)",
            )
        };
        choice.ok_or_else(no_move)
    }
}

/// Nim: heaps of stones; clicking stone `k` of a heap takes it and every stone above it.
/// Cell ids are `h{heap}s{stone}` counted from 0 at the bottom.
#[derive(Clone, Copy, Debug, Default)]
pub struct NimAdapter;

impl Adapter for NimAdapter {
    type G = Nim;

    fn game(&self) -> &'static str {
        "nim"
    }

    fn rules(&self) -> String {
        "Nim, normal play: take any number of stones from one heap; who takes the last stone wins"
            .into()
    }

    fn player_names(&self, _pos: &Nim) -> Vec<String> {
        vec!["First".into(), "Second".into()]
    }

    fn view(&self, pos: &Nim) -> Value {
        json!({ "heaps": pos.heaps(), "nim_sum": pos.nim_sum() })
    }

    fn path(&self, pos: &Nim, mv: NimMove) -> Vec<String> {
        let h = pos.heaps().get(usize::from(mv.heap)).copied().unwrap_or(0);
        vec![format!("h{}s{}", mv.heap, h.saturating_sub(mv.take))]
    }

    fn reason(&self, _pos: &Nim) -> String {
        "the last stone was taken".into()
    }

    fn engines(&self) -> Vec<String> {
        vec![
            "AI: alpha-beta (core Searcher) with the nim-sum evaluation".into(),
            "seed: random mover".into(),
        ]
    }

    fn choose(
        &self,
        pos: &Nim,
        request: &AiRequest,
        progress: &dyn Fn(Progress),
    ) -> Result<AiChoice<NimMove>, ApiError> {
        let choice = if request.seed_player {
            engine::random(pos, request)
        } else {
            engine::alphabeta(
                pos,
                NimEval,
                SearchOptions::all(),
                request,
                progress,
                "alpha-beta (core Searcher)",
            )
        };
        choice.ok_or_else(no_move)
    }
}
