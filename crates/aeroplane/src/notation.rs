//! Text for moves and positions.
//!
//! Moves: `r1`..`r6` for a roll, `a`..`d` for a plane of the player to move.
//!
//! Positions: space-separated `key=value` fields after the rule set, for example
//! `standard takeoff=6 three-sixes=send-back end=first-wins players=2 move=0 roll=0 sixes=0
//! moved=0 places=0,0 planes=H,H,H,H/H,3,H,H` (one group of four progress values per player, `H`
//! for the hangar).

use crate::board::{HANGAR, PLANES};
use crate::error::AeroError;
use crate::position::{Aero, AeroMove};
use crate::rules::Rules;
use qiyi_core::{Game, Notation, Turn};

fn progress_text(d: u8) -> String {
    if d == HANGAR {
        "H".to_string()
    } else {
        d.to_string()
    }
}

fn parse_progress(s: &str) -> Result<u8, AeroError> {
    if s == "H" || s == "h" {
        return Ok(HANGAR);
    }
    match s.parse::<u8>() {
        Ok(d) if d <= 56 => Ok(d),
        _ => Err(AeroError::BadPosition(format!(
            "progress {s:?} is not H or 0..=56"
        ))),
    }
}

impl Notation for Aero {
    type Error = AeroError;

    fn move_to_text(&self, mv: AeroMove) -> String {
        match mv {
            AeroMove::Roll(f) => format!("r{f}"),
            AeroMove::Plane(i) => ((b'a' + i.min(25)) as char).to_string(),
        }
    }

    fn parse_move(&self, text: &str) -> Result<AeroMove, AeroError> {
        let t = text.trim();
        let mv = match t.as_bytes() {
            [b'r' | b'R', f @ b'1'..=b'6'] => AeroMove::Roll(f - b'0'),
            [c @ b'a'..=b'd'] => AeroMove::Plane(c - b'a'),
            [c @ b'A'..=b'D'] => AeroMove::Plane(c - b'A'),
            _ => return Err(AeroError::BadMoveText(text.to_string())),
        };
        match (mv, self.turn()) {
            (AeroMove::Roll(_), Turn::Chance) => Ok(mv),
            (AeroMove::Plane(i), Turn::Player(p)) => {
                // Planes at the same progress are one move: read any of them as the listed one.
                let d = self.planes(p)[i as usize];
                let choices = self.choices();
                choices
                    .as_slice()
                    .iter()
                    .find(|&&c| self.planes(p)[c as usize] == d)
                    .map(|&c| AeroMove::Plane(c))
                    .ok_or_else(|| AeroError::IllegalMove(text.to_string()))
            }
            _ => Err(AeroError::IllegalMove(text.to_string())),
        }
    }

    fn to_text(&self) -> String {
        let n = self.players();
        let places: Vec<String> = self.places()[..n].iter().map(|p| p.to_string()).collect();
        let planes: Vec<String> = (0..n)
            .map(|p| {
                self.planes(p)
                    .iter()
                    .map(|&d| progress_text(d))
                    .collect::<Vec<_>>()
                    .join(",")
            })
            .collect();
        format!(
            "{} players={} move={} roll={} sixes={} moved={} places={} planes={}",
            self.rules(),
            n,
            self.to_move(),
            self.pending_roll(),
            self.sixes(),
            self.six_moved(),
            places.join(","),
            planes.join("/")
        )
    }

    fn from_text(text: &str) -> Result<Aero, AeroError> {
        let bad = |m: String| AeroError::BadPosition(m);
        let mut fields = text.split_whitespace();
        let set = fields
            .next()
            .ok_or_else(|| bad("empty position".to_string()))?;
        let mut rules = Rules::of(set.parse()?);
        let mut players = None;
        let mut to_move = 0usize;
        let mut roll = 0u8;
        let mut sixes = 0u8;
        let mut moved = 0u8;
        let mut places_text = None;
        let mut planes_text = None;
        for field in fields {
            let (key, value) = field
                .split_once('=')
                .ok_or_else(|| bad(format!("field {field:?} is not key=value")))?;
            let num = |v: &str| {
                v.parse::<u8>()
                    .map_err(|_| bad(format!("{key}={v:?} is not a small number")))
            };
            match key {
                "takeoff" => rules.takeoff = value.parse()?,
                "three-sixes" => rules.three_sixes = value.parse()?,
                "end" => rules.ending = value.parse()?,
                "players" => players = Some(num(value)? as usize),
                "move" => to_move = num(value)? as usize,
                "roll" => roll = num(value)?,
                "sixes" => sixes = num(value)?,
                "moved" => moved = num(value)?,
                "places" => places_text = Some(value),
                "planes" => planes_text = Some(value),
                _ => return Err(bad(format!("unknown field {key:?}"))),
            }
        }
        let n = players.ok_or_else(|| bad("missing players=".to_string()))?;
        if !(2..=4).contains(&n) {
            return Err(AeroError::BadPlayerCount(n));
        }
        let mut places = [0u8; 4];
        if let Some(pt) = places_text {
            let list: Vec<&str> = pt.split(',').collect();
            if list.len() != n {
                return Err(bad(format!("places= needs {n} values")));
            }
            for (p, v) in list.iter().enumerate() {
                places[p] = v
                    .parse::<u8>()
                    .map_err(|_| bad(format!("place {v:?} is not a number")))?;
            }
        }
        let pt = planes_text.ok_or_else(|| bad("missing planes=".to_string()))?;
        let groups: Vec<&str> = pt.split('/').collect();
        if groups.len() != n {
            return Err(bad(format!("planes= needs {n} groups")));
        }
        let mut planes = [[HANGAR; PLANES]; 4];
        for (p, g) in groups.iter().enumerate() {
            let vals: Vec<&str> = g.split(',').collect();
            if vals.len() != PLANES {
                return Err(bad(format!("player {p} needs {PLANES} planes")));
            }
            for (i, v) in vals.iter().enumerate() {
                planes[p][i] = parse_progress(v)?;
            }
        }
        Aero::from_parts(rules, n, planes, to_move, roll, sixes, moved, places)
    }
}
