//! Puzzles from Python: the shipped, proven puzzle sets (`crates/*/puzzles/*.jsonl`, embedded
//! at build time as the web server embeds them) read by core's [`qiyi_core::puzzles`] reader,
//! and `check_file`, which replays and proves a puzzle file again as `qiyi puzzles check` does.
//! The Python side (`qiyi.puzzles`) wraps them in `Puzzle` objects.

use crate::error::QiyiError;
use pyo3::prelude::*;
use qiyi_core::puzzles::{read_puzzles, read_puzzles_numbered, PuzzleRecord};
use std::path::PathBuf;

/// The games with a shipped puzzle set, by their puzzle-file names.
const SETS: [&str; 5] = [
    "xiangqi",
    "checkers",
    "chinese-checkers",
    "peg-solitaire",
    "aeroplane",
];

/// The shipped puzzle file of `game` (its puzzle-file name).
fn shipped(game: &str) -> Option<&'static str> {
    match game {
        "xiangqi" => Some(qiyi_xiangqi::puzzles::SHIPPED),
        "checkers" => Some(qiyi_checkers::puzzles::SHIPPED),
        "chinese-checkers" => Some(qiyi_chinese_checkers::puzzles::SHIPPED),
        "peg-solitaire" => Some(qiyi_peg_solitaire::puzzles::SHIPPED),
        "aeroplane" => Some(qiyi_aeroplane::puzzles::SHIPPED),
        _ => None,
    }
}

/// The puzzle-file name of a game named the Python way or the command-line way.
fn set_name(game: &str) -> Result<&'static str, QiyiError> {
    let g = game.replace('_', "-").to_ascii_lowercase();
    let g = match g.as_str() {
        "peg" => "peg-solitaire",
        other => other,
    };
    SETS.iter()
        .copied()
        .find(|s| *s == g)
        .ok_or_else(|| QiyiError::UnknownGame(game.to_string(), SETS.join(", ")))
}

/// The shipped puzzle set of `game` (`xiangqi`, `checkers`, `chinese_checkers`,
/// `peg_solitaire`, `aeroplane`) as a JSON list of puzzle records, in the file's order, read by
/// core's puzzle reader (each record validated).
#[pyfunction]
pub fn shipped_puzzles(game: &str) -> PyResult<String> {
    let name = set_name(game)?;
    let text = shipped(name).unwrap_or("");
    let puzzles = read_puzzles(text.as_bytes())
        .map_err(|e| QiyiError::Parse(format!("the shipped {name} puzzles: {e}")))?;
    serde_json::to_string(&puzzles)
        .map_err(|e| QiyiError::Parse(format!("the shipped {name} puzzles: {e}")).into())
}

/// Replays and proves again every puzzle of the JSON Lines file `path`, as `qiyi puzzles
/// check` does (`budget`: search nodes or solver positions per puzzle; `egdb`: the checkers
/// endgame database directory, for checkers puzzles proven with it), with the interpreter
/// released; returns the number of puzzles proven. A puzzle that fails raises `ParseError`
/// naming the file, the line and the puzzle.
#[pyfunction]
#[pyo3(signature = (path, *, budget=50_000_000, egdb=None))]
pub fn check_puzzle_file(
    py: Python<'_>,
    path: PathBuf,
    budget: u64,
    egdb: Option<PathBuf>,
) -> PyResult<usize> {
    let shown = path.display().to_string();
    let file = std::fs::File::open(&path)
        .map_err(|e| QiyiError::Parse(format!("opening {shown}: {e}")))?;
    let puzzles = read_puzzles_numbered(std::io::BufReader::new(file))
        .map_err(|e| QiyiError::Parse(format!("{shown}: {e}")))?;
    let fail = |line: usize, p: &PuzzleRecord, e: String| {
        QiyiError::Parse(format!(
            "{shown}: line {line}: puzzle `{}` fails: {e}",
            p.id
        ))
    };
    for (line, p) in &puzzles {
        if !SETS.contains(&p.game.as_str()) {
            return Err(QiyiError::Parse(format!(
                "{shown}: line {line}: unknown game `{}`",
                p.game
            ))
            .into());
        }
    }
    let db = egdb.as_deref().map(crate::games::load_egdb).transpose()?;
    // One endgame table holds every aeroplane puzzle: the smallest class above all of theirs.
    let mut need: Option<(usize, usize)> = None;
    for (line, p) in puzzles.iter().filter(|(_, p)| p.game == "aeroplane") {
        let c =
            qiyi_aeroplane::puzzles::puzzle_class(p).map_err(|e| fail(*line, p, e.to_string()))?;
        let (x, y) = need.unwrap_or((1, 1));
        need = Some((x.max(c.a()), y.max(c.b())));
    }
    let result: Result<usize, QiyiError> = py.detach(|| {
        let table = match need {
            None => None,
            Some((x, y)) => {
                use qiyi_aeroplane::endgame::{Endgame, EndgameClass};
                let class =
                    EndgameClass::new(x, y).map_err(|e| QiyiError::Search(e.to_string()))?;
                let t = Endgame::build(qiyi_aeroplane::Rules::STANDARD, class, 1e-13)
                    .map_err(|e| QiyiError::Search(e.to_string()))?;
                Some(t)
            }
        };
        for (line, p) in &puzzles {
            let r = match p.game.as_str() {
                "xiangqi" => {
                    qiyi_xiangqi::puzzles::check_puzzle(p, budget).map_err(|e| e.to_string())
                }
                "checkers" => qiyi_checkers::puzzles::check_puzzle(p, db.as_deref(), budget)
                    .map_err(|e| e.to_string()),
                "chinese-checkers" => qiyi_chinese_checkers::puzzles::check_puzzle(p, budget)
                    .map_err(|e| e.to_string()),
                "aeroplane" => match &table {
                    Some(t) => {
                        qiyi_aeroplane::puzzles::check_puzzle(p, t).map_err(|e| e.to_string())
                    }
                    None => Err("no endgame table".to_string()),
                },
                _ => {
                    qiyi_peg_solitaire::puzzles::check_puzzle(p, budget).map_err(|e| e.to_string())
                }
            };
            r.map_err(|e| fail(*line, p, e))?;
        }
        Ok(puzzles.len())
    });
    Ok(result?)
}
