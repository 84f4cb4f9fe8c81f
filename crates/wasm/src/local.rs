//! The games of one browser: what the server's store and API do for a hot-seat game, on the
//! page's own thread (rules only; searches go to the engine worker as a [`SearchJob`]).
//!
//! Every answer is the JSON the server's API gives for the same request (`crates/web/API.md`):
//! STATE for a game, `{id, state, hotseat_token, ...}` for a new one, `{ai, played, state}`
//! after a search. A game is kept as its [`Record`] too, which the page stores so a reload (or an
//! offline visit) picks the game up again.

use crate::job::{JobKind, SearchJob};
use qiyi_web::engine::{ai_request, check_level, seats_for, DEFAULT_LEVEL};
use qiyi_web::error::ApiError;
use qiyi_web::games;
use qiyi_web::session::{AiBody, GameResult, GameSession, Progress, Seat, Snapshot, TurnView};
use serde::{Deserialize, Serialize};
use serde_json::{json, Value};
use std::collections::BTreeMap;

/// The token of a local game: every seat is played on this page (nothing to keep secret, the
/// game never leaves the browser).
pub const LOCAL_TOKEN: &str = "local";

/// The longest a solver may be given (as on the server).
const MAX_SOLVE_MS: u64 = 60_000;

/// `POST /api/games`, as far as a game on one page goes.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct CreateBody {
    game: String,
    #[serde(default)]
    seats: Option<Vec<Seat>>,
    #[serde(default)]
    level: Option<u8>,
    #[serde(default)]
    rules: Value,
    #[serde(default)]
    seed: Option<u64>,
    #[serde(default)]
    position: Option<String>,
    #[serde(default)]
    hotseat: Option<bool>,
    #[serde(default)]
    clock: Option<Value>,
}

/// Everything a local game is rebuilt from: how it was created and the moves chosen since.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Record {
    /// Game id.
    pub id: String,
    /// Game name.
    pub game: String,
    /// Rule options.
    pub rules: Value,
    /// Start position (`None`: the usual one).
    pub position: Option<String>,
    /// Seed of the dice and the AIs.
    pub seed: u64,
    /// Who sits in each seat.
    pub seats: Vec<Seat>,
    /// The moves the players chose, in order (die rolls follow from the seed).
    pub moves: Vec<String>,
    /// The end decided outside the rules (resignation, agreed draw).
    #[serde(default)]
    pub ended: Option<GameResult>,
}

/// The STATE of `GET /api/games/{id}`.
#[derive(Serialize)]
struct View<'a> {
    id: &'a str,
    seats: &'a [Seat],
    seed: u64,
    ply: usize,
    version: u64,
    hotseat: bool,
    draw_offer: Option<usize>,
    resigned: [usize; 0],
    thinking: Option<Progress>,
    clock: Option<Value>,
    #[serde(flatten)]
    snapshot: Snapshot,
}

struct Local {
    record: Record,
    session: Box<dyn GameSession>,
    version: u64,
}

impl Local {
    fn build(record: Record) -> Result<Local, ApiError> {
        let mut session = games::create(
            &record.game,
            &record.rules,
            record.position.as_deref(),
            record.seed,
        )?;
        for mv in &record.moves {
            session.play(mv)?;
        }
        Ok(Local {
            record,
            session,
            version: 1,
        })
    }

    fn to_move(&self) -> Option<usize> {
        if self.record.ended.is_some() {
            None
        } else {
            self.session.player_to_move()
        }
    }

    fn view(&self) -> Value {
        let mut snapshot = self.session.snapshot();
        if let Some(r) = &self.record.ended {
            snapshot.result = Some(r.clone());
            snapshot.turn = TurnView::Over;
            snapshot.legal.clear();
        }
        self.view_of(snapshot, self.session.ply())
    }

    fn view_of(&self, snapshot: Snapshot, ply: usize) -> Value {
        json!(View {
            id: &self.record.id,
            seats: &self.record.seats,
            seed: self.record.seed,
            ply,
            version: self.version,
            hotseat: true,
            draw_offer: None,
            resigned: [],
            thinking: None,
            clock: None,
            snapshot,
        })
    }

    fn changed(&mut self) {
        self.version += 1;
    }

    fn player_name(&self, p: usize) -> String {
        self.session
            .snapshot()
            .player_names
            .get(p)
            .cloned()
            .unwrap_or_else(|| format!("player {}", p + 1))
    }

    /// The end of a two-player game decided outside the rules.
    fn decide(&mut self, winner: Option<usize>, reason: String) -> Result<(), ApiError> {
        if self.record.seats.len() != 2 {
            return Err(ApiError::NotSupported(
                "on this page a seat of a game of more than two players cannot resign: \
                 start a new game (a server's page plays on without the seat)"
                    .into(),
            ));
        }
        if self.to_move().is_none() {
            return Err(ApiError::Conflict("the game is over".into()));
        }
        let returns = (0..2)
            .map(|p| match winner {
                None => 0.0,
                Some(w) if w == p => 1.0,
                Some(_) => -1.0,
            })
            .collect();
        self.record.ended = Some(GameResult {
            returns,
            winner,
            reason,
        });
        self.changed();
        Ok(())
    }
}

/// Parses a JSON body (`""` reads as `{}`) into `T`, as the server does.
fn body<T: for<'de> Deserialize<'de>>(text: &str) -> Result<T, ApiError> {
    let text = if text.trim().is_empty() { "{}" } else { text };
    serde_json::from_str(text).map_err(|e| ApiError::BadRequest(format!("bad JSON body: {e}")))
}

/// What `solve` is asked (`POST /solve`).
#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
struct SolveBody {
    #[serde(default)]
    time_ms: Option<u64>,
}

/// The games of this page, by id.
#[derive(Default)]
pub struct LocalGames {
    games: BTreeMap<String, Local>,
    next: u64,
}

impl LocalGames {
    /// No games yet.
    pub fn new() -> Self {
        LocalGames::default()
    }

    fn get(&self, id: &str) -> Result<&Local, ApiError> {
        self.games
            .get(id)
            .ok_or_else(|| ApiError::NotFound(id.to_string()))
    }

    fn get_mut(&mut self, id: &str) -> Result<&mut Local, ApiError> {
        self.games
            .get_mut(id)
            .ok_or_else(|| ApiError::NotFound(id.to_string()))
    }

    /// `POST /api/games` (body as there; `hotseat` must not be false and `clock` must be absent:
    /// playing by links and clocks need a server). `stamp` makes the id unique across reloads
    /// (the page passes the time).
    pub fn create(&mut self, body_json: &str, stamp: u64) -> Result<Value, ApiError> {
        let req: CreateBody = body(body_json)?;
        if req.hotseat == Some(false) {
            return Err(ApiError::NotSupported(
                "playing by links needs a server (qiyi serve); this page plays every seat here"
                    .into(),
            ));
        }
        if req.clock.as_ref().is_some_and(|c| !c.is_null()) {
            return Err(ApiError::NotSupported(
                "clocks need a server (qiyi serve) on this version of the page".into(),
            ));
        }
        let level = check_level(req.level.unwrap_or(DEFAULT_LEVEL))?;
        let seed = req.seed.unwrap_or(1);
        let game = games::canonical(&req.game).to_string();
        let session = games::create(&game, &req.rules, req.position.as_deref(), seed)?;
        let players = session.snapshot().players;
        let seats = seats_for(req.seats, &game, players, level)?;
        self.next += 1;
        let id = format!("{stamp:x}{:04x}", self.next);
        let record = Record {
            id: id.clone(),
            game,
            rules: if req.rules.is_null() {
                json!({})
            } else {
                req.rules
            },
            position: req.position,
            seed,
            seats,
            moves: Vec::new(),
            ended: None,
        };
        let local = Local {
            record,
            session,
            version: 1,
        };
        let state = local.view();
        self.games.insert(id.clone(), local);
        Ok(json!({
            "id": id,
            "state": state,
            "seat_tokens": vec![Value::Null; players],
            "links": Value::Null,
            "hotseat_token": LOCAL_TOKEN,
        }))
    }

    /// A game from its [`Record`] (a game stored by the page); answers its id.
    pub fn restore(&mut self, record_json: &str) -> Result<String, ApiError> {
        let record: Record = serde_json::from_str(record_json)
            .map_err(|e| ApiError::BadRequest(format!("stored game unreadable: {e}")))?;
        let id = record.id.clone();
        let local = Local::build(record)?;
        self.games.insert(id.clone(), local);
        Ok(id)
    }

    /// The [`Record`] of a game, to store.
    pub fn record(&self, id: &str) -> Result<Value, ApiError> {
        Ok(json!(self.get(id)?.record))
    }

    /// Whether the game is held here.
    pub fn has(&self, id: &str) -> bool {
        self.games.contains_key(id)
    }

    /// `GET /api/games/{id}` (`ply`: as it stood after that many plies).
    pub fn state(&self, id: &str, ply: Option<usize>) -> Result<Value, ApiError> {
        let g = self.get(id)?;
        match ply {
            Some(n) if n < g.session.ply() => {
                let r = &g.record;
                let s = games::replay(
                    &r.game,
                    &r.rules,
                    r.position.as_deref(),
                    r.seed,
                    &g.session.history_from(0),
                    n,
                )?;
                Ok(g.view_of(s.snapshot(), s.ply()))
            }
            _ => Ok(g.view()),
        }
    }

    /// `POST /moves`: plays `mv` (refused when `ply` is given and is not the game's ply).
    pub fn play(&mut self, id: &str, mv: &str, ply: Option<usize>) -> Result<Value, ApiError> {
        let g = self.get_mut(id)?;
        if g.to_move().is_none() {
            return Err(ApiError::Conflict(
                "the game is over: there is no move to choose".into(),
            ));
        }
        if let Some(ply) = ply {
            if ply != g.session.ply() {
                return Err(ApiError::Conflict(format!(
                    "stale move: it was chosen at ply {ply} but the game is at ply {}",
                    g.session.ply()
                )));
            }
        }
        g.session.play(mv)?;
        g.record.moves.push(mv.to_string());
        g.changed();
        Ok(g.view())
    }

    /// `POST /undo`: takes back `plies` chosen moves (all or nothing).
    pub fn undo(&mut self, id: &str, plies: usize) -> Result<Value, ApiError> {
        if plies == 0 || plies > 10_000 {
            return Err(ApiError::BadRequest("plies must be from 1 to 10000".into()));
        }
        let g = self.get_mut(id)?;
        if plies > g.record.moves.len() {
            return Err(ApiError::Conflict(format!(
                "cannot take back {plies} move(s): not enough moves played"
            )));
        }
        for _ in 0..plies {
            g.session.undo()?;
            g.record.moves.pop();
        }
        g.record.ended = None;
        g.changed();
        Ok(g.view())
    }

    /// `POST /position`: the game restarts from a pasted position.
    pub fn position(&mut self, id: &str, text: &str) -> Result<Value, ApiError> {
        let g = self.get_mut(id)?;
        g.session.set_position(text)?;
        g.record.position = Some(text.to_string());
        g.record.moves.clear();
        g.record.ended = None;
        g.changed();
        Ok(g.view())
    }

    /// `POST /resign` (two-player games): `player` (default: the player to move) resigns.
    pub fn resign(&mut self, id: &str, body_json: &str) -> Result<Value, ApiError> {
        #[derive(Deserialize)]
        #[serde(deny_unknown_fields)]
        struct Side {
            #[serde(default)]
            player: Option<usize>,
        }
        let side: Side = body(body_json)?;
        let g = self.get_mut(id)?;
        let p = side.player.or(g.to_move()).unwrap_or(0);
        if p >= g.record.seats.len() {
            return Err(ApiError::BadRequest(format!("there is no seat {p}")));
        }
        let reason = format!("{} resigned", g.player_name(p));
        g.decide(Some(1 - p.min(1)), reason)?;
        Ok(g.view())
    }

    /// `POST /draw` (two-player games): every seat is on this page, so an offer is agreed.
    pub fn draw(&mut self, id: &str, body_json: &str) -> Result<Value, ApiError> {
        #[derive(Deserialize)]
        #[serde(deny_unknown_fields)]
        struct Draw {
            #[serde(default)]
            player: Option<usize>,
            #[serde(default)]
            action: Option<String>,
        }
        let req: Draw = body(body_json)?;
        let _ = req.player;
        let g = self.get_mut(id)?;
        match req.action.as_deref().unwrap_or("offer") {
            "offer" | "accept" => g.decide(None, "draw agreed".into())?,
            "decline" => {
                return Err(ApiError::Conflict(
                    "there is no draw offer to decline".into(),
                ))
            }
            other => {
                return Err(ApiError::BadRequest(format!(
                    "action must be offer, accept or decline, not '{other}'"
                )))
            }
        }
        Ok(g.view())
    }

    /// The search `POST /ai` asks for, as a job for the engine worker.
    pub fn ai_job(&self, id: &str, body_json: &str) -> Result<SearchJob, ApiError> {
        let req: AiBody = body(body_json)?;
        let g = self.get(id)?;
        let player = g.to_move().ok_or_else(|| {
            ApiError::Conflict("the game is over: there is no move to choose".into())
        })?;
        let seat = g.record.seats.get(player).cloned().unwrap_or(Seat::Human);
        let request = ai_request(
            &seat,
            req.level,
            req.time_ms,
            req.seed_player,
            g.record.seed,
            g.session.ply(),
        )?;
        Ok(SearchJob {
            game: g.record.game.clone(),
            rules: g.record.rules.clone(),
            position: g.record.position.clone(),
            seed: g.record.seed,
            moves: g.record.moves.clone(),
            kind: JobKind::Ai {
                level: request.level,
                seed_player: request.seed_player,
                time_ms: request.time.as_millis() as u64,
                request_seed: request.seed,
                play: req.play.unwrap_or(true),
            },
        })
    }

    /// The search `POST /solve` asks for, as a job for the engine worker.
    pub fn solve_job(&self, id: &str, body_json: &str) -> Result<SearchJob, ApiError> {
        let req: SolveBody = body(body_json)?;
        let g = self.get(id)?;
        if g.to_move().is_none() {
            return Err(ApiError::Conflict("the game is over".into()));
        }
        let time_ms = req.time_ms.unwrap_or(10_000).min(MAX_SOLVE_MS);
        Ok(SearchJob {
            game: g.record.game.clone(),
            rules: g.record.rules.clone(),
            position: g.record.position.clone(),
            seed: g.record.seed,
            moves: g.record.moves.clone(),
            kind: JobKind::Solve { time_ms },
        })
    }

    /// The worker's answer to `job` for game `id`: `{ai, played, state}` (the move is played
    /// when the job says so and the game is still where the search started), or
    /// `{solve, state}`.
    pub fn finish(&mut self, id: &str, job: &SearchJob, answer: &str) -> Result<Value, ApiError> {
        let g = self.get_mut(id)?;
        let same = g.record.moves == job.moves && g.to_move().is_some();
        match &job.kind {
            JobKind::Ai { play, .. } => {
                let ai: Value = serde_json::from_str(answer)
                    .map_err(|e| ApiError::Internal(format!("the engine's answer: {e}")))?;
                let mv = ai["move"]
                    .as_str()
                    .ok_or_else(|| ApiError::Internal("the engine answered no move".into()))?;
                if *play {
                    if !same {
                        return Err(ApiError::Conflict(
                            "the game changed during the search".into(),
                        ));
                    }
                    g.session.play(mv)?;
                    g.record.moves.push(mv.to_string());
                    g.changed();
                }
                Ok(json!({ "ai": ai, "played": play, "state": g.view() }))
            }
            JobKind::Solve { .. } => {
                let solve: Value = serde_json::from_str(answer)
                    .map_err(|e| ApiError::Internal(format!("the solver's answer: {e}")))?;
                Ok(json!({ "solve": solve, "state": g.view() }))
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn new_game(games: &mut LocalGames, body: &str) -> (String, Value) {
        let created = games.create(body, 7).unwrap();
        (created["id"].as_str().unwrap().to_string(), created)
    }

    #[test]
    fn a_game_is_played_undone_and_rebuilt_from_its_record() {
        let mut games = LocalGames::new();
        let (id, created) = new_game(&mut games, r#"{"game":"xiangqi","seed":3}"#);
        assert_eq!(created["hotseat_token"], LOCAL_TOKEN);
        assert_eq!(created["state"]["turn"]["player"], 0);
        let st = games.play(&id, "h2e2", Some(0)).unwrap();
        assert_eq!(st["ply"], 1);
        assert_eq!(st["history"][0]["label"], "炮二平五");
        // A stale or illegal move is refused and changes nothing.
        assert!(matches!(
            games.play(&id, "h9g7", Some(0)),
            Err(ApiError::Conflict(_))
        ));
        assert!(matches!(
            games.play(&id, "a0a5", None),
            Err(ApiError::IllegalMove(..))
        ));
        games.play(&id, "h9g7", Some(1)).unwrap();
        // Replay shows the position after one ply.
        let at1 = games.state(&id, Some(1)).unwrap();
        assert_eq!(at1["ply"], 1);
        // The record rebuilds the same game elsewhere (a reload).
        let record = games.record(&id).unwrap().to_string();
        let mut other = LocalGames::new();
        other.restore(&record).unwrap();
        let a = games.state(&id, None).unwrap();
        let b = other.state(&id, None).unwrap();
        assert_eq!(a["position"], b["position"]);
        assert_eq!(a["history"], b["history"]);
        let st = games.undo(&id, 2).unwrap();
        assert_eq!(st["ply"], 0);
        assert!(matches!(games.undo(&id, 1), Err(ApiError::Conflict(_))));
    }

    #[test]
    fn dice_games_replay_their_rolls_from_the_seed() {
        let mut games = LocalGames::new();
        let (id, created) = new_game(
            &mut games,
            r#"{"game":"aeroplane","rules":{"players":2},"seed":5}"#,
        );
        let history = created["state"]["history"].clone();
        let record = games.record(&id).unwrap().to_string();
        let mut other = LocalGames::new();
        other.restore(&record).unwrap();
        assert_eq!(other.state(&id, None).unwrap()["history"], history);
    }

    #[test]
    fn what_needs_a_server_is_refused_with_a_reason() {
        let mut games = LocalGames::new();
        for body in [
            r#"{"game":"xiangqi","hotseat":false}"#,
            r#"{"game":"xiangqi","clock":{"base_ms":60000}}"#,
            r#"{"game":"go"}"#,
            r#"{"game":"xiangqi","level":11}"#,
            r#"{"game":"xiangqi","colour":"red"}"#,
            "not json",
        ] {
            let err = games.create(body, 1).unwrap_err();
            assert!(!err.to_string().is_empty(), "{body}");
        }
        assert!(matches!(
            games.state("nope", None),
            Err(ApiError::NotFound(_))
        ));
        let (id, _) = new_game(&mut games, r#"{"game":"aeroplane","rules":{"players":3}}"#);
        assert!(matches!(
            games.resign(&id, "{}"),
            Err(ApiError::NotSupported(_))
        ));
    }

    #[test]
    fn resign_and_draw_end_a_two_player_game() {
        let mut games = LocalGames::new();
        let (id, _) = new_game(&mut games, r#"{"game":"checkers"}"#);
        let st = games.resign(&id, r#"{"player":0}"#).unwrap();
        assert_eq!(st["result"]["winner"], 1);
        assert_eq!(st["turn"]["kind"], "over");
        assert!(games.draw(&id, "{}").is_err());
        let (id, _) = new_game(&mut games, r#"{"game":"checkers"}"#);
        let st = games.draw(&id, "").unwrap();
        assert_eq!(st["result"]["reason"], "draw agreed");
        assert!(st["result"]["winner"].is_null());
        // Undo takes the decided end back with the move.
        let (id, _) = new_game(&mut games, r#"{"game":"checkers"}"#);
        games.play(&id, "11-15", None).unwrap();
        games.resign(&id, "{}").unwrap();
        let st = games.undo(&id, 1).unwrap();
        assert_eq!(st["turn"]["kind"], "player");
    }
}
