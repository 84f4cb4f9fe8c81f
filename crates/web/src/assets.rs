//! The page: HTML, CSS and JavaScript from `crates/web/assets/`, embedded in the binary.

use axum::extract::Path;
use axum::http::{header, StatusCode};
use axum::response::{IntoResponse, Redirect, Response};
use rust_embed::Embed;

#[derive(Embed)]
#[folder = "assets/"]
struct Assets;

/// Answers with the embedded file `path`, or 404.
pub fn file(path: &str) -> Response {
    match Assets::get(path) {
        Some(content) => {
            let mime = content.metadata.mimetype().to_string();
            (
                [
                    (header::CONTENT_TYPE, mime),
                    (header::CACHE_CONTROL, "no-cache".to_string()),
                ],
                content.data.into_owned(),
            )
                .into_response()
        }
        None => (StatusCode::NOT_FOUND, format!("no such file: {path}")).into_response(),
    }
}

/// The names of every embedded file.
pub fn names() -> Vec<String> {
    Assets::iter().map(|p| p.to_string()).collect()
}

/// `GET /`: the home page.
pub async fn index() -> Response {
    file("index.html")
}

/// `GET /play/{game}`: the play page (the script reads the game from the address); an old
/// name of a game redirects to the page under its name.
pub async fn play(Path(game): Path<String>) -> Response {
    match crate::games::canonical(&game) {
        name if name != game => Redirect::permanent(&format!("/play/{name}")).into_response(),
        _ => file("play.html"),
    }
}

/// `GET /lab`: the Lab page (the tables and charts of `qiyi lab`).
pub async fn lab() -> Response {
    file("lab.html")
}

/// `GET /assets/{*path}`.
pub async fn asset(Path(path): Path<String>) -> Response {
    file(&path)
}

/// `GET /games`: the archive page (stored games, newest first, each replayable).
pub async fn archive() -> Response {
    file("games.html")
}

/// `GET /puzzles/{game}`: the puzzle page (the script reads the game from the address); an old
/// name of a game redirects to the page under its name.
pub async fn puzzles(Path(game): Path<String>) -> Response {
    match crate::games::canonical(&game) {
        name if name != game => Redirect::permanent(&format!("/puzzles/{name}")).into_response(),
        _ => file("puzzles.html"),
    }
}
