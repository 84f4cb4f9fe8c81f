//! Peg solitaire: holes named as the peg-solitaire crate names them, a move is one jump
//! (`from-to`, clicked as from then to); "solve from here" runs the crate's depth-first solver.

use crate::error::ApiError;
use crate::generic::{Adapter, AiChoice};
use crate::memory::{self, Reservation};
use crate::session::{AiRequest, Progress, SolveAnswer};
use qiyi_core::platform::Instant;
use qiyi_core::{Game, Notation};
use qiyi_peg_solitaire::{Board, Finish, Lattice, PegPosition, Problem};
use serde_json::{json, Value};
use std::sync::Arc;
use std::time::Duration;

/// Solver positions examined per millisecond of budget (a conservative rate for the DFS).
const NODES_PER_MS: u64 = 2_000;

/// The smallest solver budget of an AI move (enough for the English board from most positions).
const MIN_AI_NODES: u64 = 5_000_000;

/// The node budget of a solver's first round (about 0.1 s on one core).
const FIRST_ROUND_NODES: u64 = 200_000;

/// Solver nodes per MiB of the memory budget a run is lent: `examples/memory.rs` measured a
/// 4-million-node Wiegleb solve peaking at 21 MiB (about 5 bytes a node for the dead-position
/// memo); this allows 10 bytes a node.
const NODES_PER_MIB: u64 = 100_000;

/// The most a solver run asks of the budget, in MiB.
const MAX_SOLVER_MIB: usize = 1024;

/// Draws a solver run's memory from the budget (a quarter of it, at most [`MAX_SOLVER_MIB`])
/// and caps `max_nodes` to what fits in it: the dead-position memo grows with the nodes, and a
/// 60 s solve on the Wiegleb board would otherwise grow it by hundreds of MiB.
fn solver_memory(max_nodes: u64) -> Result<(Reservation, u64), ApiError> {
    let mib = (memory::budget().total_mib() / 4).clamp(1, MAX_SOLVER_MIB);
    let lease = memory::reserve(mib, "the peg solitaire solver")?;
    let cap = (mib as u64).saturating_mul(NODES_PER_MIB);
    Ok((lease, max_nodes.min(cap)))
}

/// Runs the solver within `time`: rounds of doubling node budgets, from
/// [`FIRST_ROUND_NODES`] up to `max_nodes`, until one finds a solution or proves there is none,
/// or the next round (taken to cost twice the last) would end past `time`. Only the first round
/// may overrun a very short `time`. Before this a budget in nodes alone let a "100 ms" AI move on
/// the Wiegleb board run 5 million nodes (9 s on a loaded machine; past the server's 10 s grace
/// it was answered 500, found by the soak), and `solve` ignored its time the same way.
fn solve_in_time(
    problem: &Problem,
    time: Duration,
    max_nodes: u64,
) -> qiyi_peg_solitaire::problem::Solve {
    let start = Instant::now();
    let mut budget = FIRST_ROUND_NODES.min(max_nodes).max(1);
    let mut spent = 0u64;
    loop {
        let round = Instant::now();
        let mut solve = problem.solve(budget);
        spent = spent.saturating_add(solve.nodes);
        let settled = solve.jumps.is_some() || solve.proved_impossible;
        let next_ends = start.elapsed() + round.elapsed() * 2;
        if settled || budget >= max_nodes || next_ends > time {
            solve.nodes = spent;
            return solve;
        }
        budget = budget.saturating_mul(2).min(max_nodes);
    }
}

/// The peg solitaire adapter: the board and where the last peg should end.
#[derive(Clone, Debug)]
pub struct PegAdapter {
    board: Arc<Board>,
    finish: Finish,
}

impl PegAdapter {
    /// The game on the named board (`english`, `french`, `wiegleb`, `diamond`, `triangle`) with
    /// every hole full but `start` (default: the board's usual start).
    pub fn start(board: &str, start: Option<&str>) -> Result<(PegAdapter, PegPosition), ApiError> {
        let b = Board::named(board).map_err(|e| ApiError::BadRequest(e.to_string()))?;
        let problem =
            Problem::new(b, start, None).map_err(|e| ApiError::BadRequest(e.to_string()))?;
        let pos = PegPosition::new(problem.board.clone(), problem.start);
        Ok((
            PegAdapter {
                board: problem.board,
                finish: problem.finish,
            },
            pos,
        ))
    }

    /// The adapter for a position pasted as a picture.
    pub fn for_position(pos: &PegPosition) -> PegAdapter {
        PegAdapter {
            board: pos.board().clone(),
            finish: Finish::Any,
        }
    }

    fn finish_text(&self) -> String {
        match self.finish {
            Finish::Hole(h) => format!("one peg left in {}", self.board.hole_name(h)),
            Finish::Any => "one peg left anywhere".into(),
        }
    }

    fn problem(&self, pos: &PegPosition) -> Problem {
        Problem {
            board: pos.board().clone(),
            start: pos.pegs(),
            finish: self.finish,
        }
    }

    fn known_minimum(&self) -> Option<&'static str> {
        (self.board.name() == "english").then_some(
            "English board from the centre: 31 jumps; the fewest moves (a chain of jumps by one \
             peg counted as one move) is 18 (Bergholt 1912, proved minimal by Beasley)",
        )
    }
}

fn jump_of(pos: &PegPosition, mv: u16) -> Option<qiyi_peg_solitaire::Jump> {
    pos.board().jumps().get(usize::from(mv)).copied()
}

impl Adapter for PegAdapter {
    type G = PegPosition;

    fn game(&self) -> &'static str {
        "peg-solitaire"
    }

    fn rules(&self) -> String {
        format!(
            "peg solitaire on the {} board: jump a peg over a neighbour into an empty hole and \
             remove the jumped peg; goal: {}",
            self.board.name(),
            self.finish_text()
        )
    }

    fn player_names(&self, _pos: &PegPosition) -> Vec<String> {
        vec!["Player".into()]
    }

    fn view(&self, pos: &PegPosition) -> Value {
        let b = pos.board();
        let tri = b.lattice() == Lattice::Triangular;
        let holes: Vec<Value> = b
            .coords()
            .iter()
            .enumerate()
            .map(|(i, &(x, y))| {
                let (fx, fy) = if tri {
                    (f64::from(x) + f64::from(y) / 2.0, f64::from(y) * 0.866)
                } else {
                    (f64::from(x), f64::from(y))
                };
                json!({ "id": b.hole_name(i), "x": fx, "y": fy, "peg": pos.pegs() & (1u128 << i) != 0 })
            })
            .collect();
        json!({
            "board": b.name(),
            "holes": holes,
            "pegs": pos.peg_count(),
            "goal": self.finish_text(),
            "known_minimum": self.known_minimum(),
        })
    }

    fn path(&self, pos: &PegPosition, mv: u16) -> Vec<String> {
        match jump_of(pos, mv) {
            Some(j) => vec![
                pos.board().hole_name(usize::from(j.from)).to_string(),
                pos.board().hole_name(usize::from(j.to)).to_string(),
            ],
            None => vec![],
        }
    }

    fn reason(&self, pos: &PegPosition) -> String {
        let n = pos.peg_count();
        let goal = self.finish;
        let solved = n == 1
            && match goal {
                Finish::Any => true,
                Finish::Hole(h) => pos.pegs() == 1u128 << h,
            };
        if solved {
            format!("solved: {}", self.finish_text())
        } else {
            format!("no jump left with {n} peg(s) on the board")
        }
    }

    fn engines(&self) -> Vec<String> {
        vec![
            "AI move / solve: qiyi-peg-solitaire's depth-first solver (dead-position memo, \
             symmetry); the AI plays the first jump of a solution, or any jump if none is found"
                .into(),
        ]
    }

    fn choose(
        &self,
        pos: &PegPosition,
        request: &AiRequest,
        _progress: &dyn Fn(Progress),
    ) -> Result<AiChoice<u16>, ApiError> {
        let budget = (request.time.as_millis() as u64)
            .saturating_mul(NODES_PER_MS)
            .max(MIN_AI_NODES);
        let (_lease, budget) = solver_memory(budget)?;
        let solve = solve_in_time(&self.problem(pos), request.time, budget);
        let mut legal = Vec::new();
        pos.legal_moves(&mut legal);
        let first = solve
            .jumps
            .as_ref()
            .and_then(|js| js.first())
            .and_then(|j| {
                legal
                    .iter()
                    .copied()
                    .find(|&m| jump_of(pos, m).is_some_and(|k| k == *j))
            });
        let (mv, engine, score) = match first {
            Some(mv) => (mv, "solver: first jump of a solution", 1),
            None => {
                let mv = *legal
                    .first()
                    .ok_or_else(|| ApiError::Conflict("no jump left".into()))?;
                let why = if solve.proved_impossible {
                    "solver: no solution exists from here; playing any jump"
                } else {
                    "solver: no solution found within the budget; playing any jump"
                };
                (mv, why, 0)
            }
        };
        Ok(AiChoice {
            mv,
            engine: engine.into(),
            depth: solve.jumps.as_ref().map_or(0, |j| j.len() as u32),
            score,
            nodes: solve.nodes,
            pv: vec![mv],
        })
    }

    fn has_solver(&self) -> bool {
        true
    }

    fn solve(&self, pos: &PegPosition, budget: Duration) -> Option<Result<SolveAnswer, ApiError>> {
        let start = Instant::now();
        let nodes = (budget.as_millis() as u64).saturating_mul(NODES_PER_MS);
        let (_lease, nodes) = match solver_memory(nodes) {
            Ok(x) => x,
            Err(e) => return Some(Err(e)),
        };
        let solve = solve_in_time(&self.problem(pos), budget, nodes);
        let mut moves = Vec::new();
        let mut paths = Vec::new();
        let mut p = pos.clone();
        let mut legal = Vec::new();
        for j in solve.jumps.iter().flatten() {
            p.legal_moves(&mut legal);
            let Some(mv) = legal
                .iter()
                .copied()
                .find(|&m| jump_of(&p, m).is_some_and(|k| k == *j))
            else {
                return Some(Err(ApiError::Internal(
                    "the solver's solution does not replay".into(),
                )));
            };
            moves.push(p.move_to_text(mv));
            paths.push(self.path(&p, mv));
            p.make(mv);
        }
        let mut note = if solve.jumps.is_some() {
            format!("solved: {} jumps to {}", moves.len(), self.finish_text())
        } else if let Some(reason) = &solve.class_reason {
            format!("impossible (position class): {reason}")
        } else if solve.proved_impossible {
            "impossible: the exhaustive search found no solution".into()
        } else {
            "no solution found within the budget (not proved impossible)".into()
        };
        if let Some(k) = self.known_minimum() {
            note.push_str(&format!("\nknown: {k}"));
        }
        Some(Ok(SolveAnswer {
            solved: solve.jumps.is_some(),
            moves,
            paths,
            nodes: solve.nodes,
            note,
            time_ms: start.elapsed().as_millis() as u64,
        }))
    }
}
