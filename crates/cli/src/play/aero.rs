//! Aeroplane chess as a [`GameSession`]: the web crate has no adapter for it, so this one plugs
//! the aeroplane crate's rules and players into the web crate's generic [`Session`].

use anyhow::{anyhow, Result};
use qiyi_aeroplane::board::{HANGAR, SEAT_NAMES};
use qiyi_aeroplane::players::{make_player, PlayerKind};
use qiyi_aeroplane::{Aero, AeroMove, Rules};
use qiyi_core::{Game, Notation};
use qiyi_web::generic::{Adapter, AiChoice, Session};
use qiyi_web::session::{AiRequest, GameSession, Progress};
use qiyi_web::ApiError;
use serde_json::{json, Value};

/// The aeroplane adapter: the rule set in words.
#[derive(Clone)]
pub struct AeroAdapter {
    rules: Rules,
}

/// Where a plane is, in words: `hangar`, `home`, or its steps flown from the launch pad.
pub(super) fn progress_text(d: u8) -> String {
    if d == HANGAR {
        "hangar".into()
    } else if d == qiyi_aeroplane::board::CENTRE {
        "home".into()
    } else {
        d.to_string()
    }
}

impl Adapter for AeroAdapter {
    type G = Aero;

    fn game(&self) -> &'static str {
        "aeroplane"
    }

    fn rules(&self) -> String {
        self.rules.to_string()
    }

    fn player_names(&self, pos: &Aero) -> Vec<String> {
        (0..pos.players())
            .map(|p| SEAT_NAMES[usize::from(pos.seat(p)) % SEAT_NAMES.len()].to_string())
            .collect()
    }

    fn view(&self, pos: &Aero) -> Value {
        let planes: Vec<Vec<String>> = (0..pos.players())
            .map(|p| pos.planes(p).iter().map(|&d| progress_text(d)).collect())
            .collect();
        let choices: Vec<String> = pos
            .choices()
            .as_slice()
            .iter()
            .map(|&i| ((b'a' + i) as char).to_string())
            .collect();
        json!({
            "planes": planes,
            "roll": pos.pending_roll(),
            "to_move": pos.to_move(),
            "choices": choices,
            "places": pos.places()[..pos.players()].to_vec(),
        })
    }

    fn path(&self, pos: &Aero, mv: AeroMove) -> Vec<String> {
        vec![pos.move_to_text(mv)]
    }

    fn reason(&self, pos: &Aero) -> String {
        match pos.winner() {
            Some(p) => format!("{} brought all four planes home", self.player_names(pos)[p]),
            None => "all planes home".into(),
        }
    }

    fn engines(&self) -> Vec<String> {
        vec!["AI: the aeroplane crate's players by level (random ... expectimax)".into()]
    }

    fn choose(
        &self,
        pos: &Aero,
        request: &AiRequest,
        progress: &dyn Fn(Progress),
    ) -> Result<AiChoice<AeroMove>, ApiError> {
        let kind = if request.seed_player {
            PlayerKind::SeedGreedy
        } else {
            PlayerKind::Level(request.level)
        };
        let mut player = make_player(kind, request.seed);
        let mv = player.choose(pos);
        progress(Progress {
            depth: 1,
            score: 0,
            nodes: 1,
            pv: vec![pos.move_to_text(mv)],
        });
        Ok(AiChoice {
            mv,
            engine: format!("aeroplane player {kind}"),
            depth: 1,
            score: 0,
            nodes: pos.choices().len() as u64,
            pv: vec![mv],
        })
    }
}

/// Starts an aeroplane session: rules from `players`, `set`, `takeoff`, `three_sixes`, `end`
/// (or `ending`). Uses the web crate's adapter when it has one, else the one here.
pub fn create(rules: &Value, position: Option<&str>, seed: u64) -> Result<Box<dyn GameSession>> {
    match qiyi_web::games::create("aeroplane", rules, position, seed) {
        Ok(session) => return Ok(session),
        Err(ApiError::UnknownGame(..)) => {}
        Err(e) => return Err(anyhow!("{e}")),
    }
    let opt = |k: &str| rules.get(k).and_then(Value::as_str);
    let pos = match position {
        Some(text) => Aero::from_text(text).map_err(|e| anyhow!("bad position '{text}': {e}"))?,
        None => {
            let mut r = Rules::from_options(
                opt("set").unwrap_or("standard"),
                opt("takeoff"),
                opt("three_sixes"),
            )?;
            if let Some(e) = opt("end").or(opt("ending")) {
                r.ending = e.parse()?;
            }
            let players = rules.get("players").and_then(Value::as_u64).unwrap_or(4);
            Aero::new(r, players as usize)?
        }
    };
    let adapter = AeroAdapter { rules: pos.rules() };
    Ok(Box::new(Session::new(adapter, pos, seed)))
}

/// The roll of the player to move and the planes it can move.
pub fn roll_line(position: &str) -> String {
    let Ok(pos) = Aero::from_text(position) else {
        return String::new();
    };
    let choices: Vec<String> = pos
        .choices()
        .as_slice()
        .iter()
        .map(|&i| {
            format!(
                "{} (at {})",
                (b'a' + i) as char,
                progress_text(pos.planes(pos.to_move())[usize::from(i)])
            )
        })
        .collect();
    format!(
        "rolled {}; planes that can move: {}",
        pos.pending_roll(),
        choices.join(", ")
    )
}
