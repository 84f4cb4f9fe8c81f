//! The errors of the package, raised in Python as subclasses of `qiyi.Error` (itself a
//! `ValueError`), so bad input never crashes the interpreter.

use pyo3::create_exception;
use pyo3::exceptions::PyValueError;
use pyo3::PyErr;

create_exception!(
    qiyi,
    Error,
    PyValueError,
    "Base class of every qiyi error (a ValueError)."
);
create_exception!(qiyi, UnknownGameError, Error, "No game has this name.");
create_exception!(
    qiyi,
    RuleError,
    Error,
    "An unknown rule option, or a bad value for one."
);
create_exception!(
    qiyi,
    IllegalActionError,
    Error,
    "The action is not legal in this state."
);
create_exception!(
    qiyi,
    GameOverError,
    Error,
    "The game is over: no action can be applied."
);
create_exception!(
    qiyi,
    ParseError,
    Error,
    "A position or move in the game's notation could not be read."
);
create_exception!(
    qiyi,
    ShapeError,
    Error,
    "An array has the wrong shape or type."
);
create_exception!(qiyi, SearchError, Error, "A search could not be run.");

/// A fault, in Rust, before it becomes a Python exception.
#[derive(Debug, thiserror::Error)]
pub enum QiyiError {
    /// See [`UnknownGameError`].
    #[error("unknown game {0:?}; the games are: {1}")]
    UnknownGame(String, String),
    /// See [`RuleError`].
    #[error("{0}")]
    Rule(String),
    /// See [`IllegalActionError`].
    #[error("{0}")]
    Illegal(String),
    /// See [`GameOverError`].
    #[error("{0}")]
    GameOver(String),
    /// See [`ParseError`].
    #[error("{0}")]
    Parse(String),
    /// See [`ShapeError`].
    #[error("{0}")]
    Shape(String),
    /// See [`SearchError`].
    #[error("{0}")]
    Search(String),
}

impl From<QiyiError> for PyErr {
    fn from(e: QiyiError) -> PyErr {
        let text = e.to_string();
        match e {
            QiyiError::UnknownGame(..) => UnknownGameError::new_err(text),
            QiyiError::Rule(_) => RuleError::new_err(text),
            QiyiError::Illegal(_) => IllegalActionError::new_err(text),
            QiyiError::GameOver(_) => GameOverError::new_err(text),
            QiyiError::Parse(_) => ParseError::new_err(text),
            QiyiError::Shape(_) => ShapeError::new_err(text),
            QiyiError::Search(_) => SearchError::new_err(text),
        }
    }
}

/// Results of the Rust side.
pub type Result<T> = std::result::Result<T, QiyiError>;
