//! Aeroplane chess (飞行棋): dice are rolled by the server (seeded); a move is a click on a plane
//! that the roll can move (`a`..`d`). The view carries each plane's chance of being hit before
//! its owner's next turn (the crate's exact model), shown on hover.

use crate::error::ApiError;
use crate::generic::{Adapter, AiChoice};
use crate::session::{AiRequest, Progress};
use qiyi_aeroplane::board::{CENTRE, HANGAR, SEAT_NAMES};
use qiyi_aeroplane::odds::hit_chance;
use qiyi_aeroplane::players::{make_player, PlayerKind};
use qiyi_aeroplane::{Aero, AeroMove, Ending, RuleSet, Rules, ThreeSixes};
use qiyi_core::Game;
use serde_json::{json, Value};

/// The aeroplane adapter.
#[derive(Clone, Copy, Debug)]
pub struct AeroplaneAdapter {
    /// The rules in force.
    pub rules: Rules,
}

/// The click id of plane `i` of `player`.
pub fn plane_id(player: usize, i: usize) -> String {
    format!("plane-{player}-{i}")
}

impl Adapter for AeroplaneAdapter {
    type G = Aero;

    fn game(&self) -> &'static str {
        "aeroplane"
    }

    fn rules(&self) -> String {
        let r = &self.rules;
        format!(
            "aeroplane chess, {} rules: take off on {}; three sixes: {}; {}; landing on an enemy \
             plane sends it home; exact roll into the centre (bounce back)",
            match r.set {
                RuleSet::Standard => "standard (launch pad, jumps, 18→30 flight)",
                RuleSet::Seed => "the article's (no launch pad, no flight)",
            },
            match r.takeoff {
                qiyi_aeroplane::Takeoff::Six => "a 6",
                qiyi_aeroplane::Takeoff::FiveSix => "a 5 or 6",
                qiyi_aeroplane::Takeoff::Even => "an even roll",
            },
            match r.three_sixes {
                ThreeSixes::None => "reroll without limit",
                ThreeSixes::LoseTurn => "the third six ends the turn",
                ThreeSixes::SendBack =>
                    "the third six ends the turn and sends back the planes it moved",
            },
            match r.ending {
                Ending::FirstWins => "the first player home wins",
                Ending::PlayOn => "the others play on for places",
            }
        )
    }

    fn player_names(&self, pos: &Aero) -> Vec<String> {
        (0..pos.players())
            .map(|p| SEAT_NAMES[usize::from(pos.seat(p)) % 4].to_string())
            .collect()
    }

    fn view(&self, pos: &Aero) -> Value {
        let planes: Vec<Value> = (0..pos.players())
            .flat_map(|p| {
                pos.planes(p)
                    .into_iter()
                    .enumerate()
                    .map(move |(i, d)| (p, i, d))
            })
            .map(|(p, i, d)| {
                let hit = if d == HANGAR || d == CENTRE {
                    0.0
                } else {
                    hit_chance(pos, p, i)
                };
                json!({ "id": plane_id(p, i), "player": p, "plane": i, "progress": d, "hit": hit })
            })
            .collect();
        let seats: Vec<u8> = (0..pos.players()).map(|p| pos.seat(p)).collect();
        json!({
            "planes": planes,
            "seats": seats,
            "roll": pos.pending_roll(),
            "places": pos.places(),
            "hangar": HANGAR,
            "centre": CENTRE,
        })
    }

    fn path(&self, pos: &Aero, mv: AeroMove) -> Vec<String> {
        match mv {
            AeroMove::Plane(i) => vec![plane_id(pos.to_move(), usize::from(i))],
            AeroMove::Roll(_) => vec![],
        }
    }

    fn reason(&self, pos: &Aero) -> String {
        match pos.winner() {
            Some(w) => format!(
                "{} brought all four planes home",
                SEAT_NAMES[usize::from(pos.seat(w)) % 4]
            ),
            None => "the game ended".into(),
        }
    }

    fn engines(&self) -> Vec<String> {
        vec![
            "AI: qiyi-aeroplane's levels (1 random ... 10 the self-play-tuned heuristic with exact \
             hit chances)"
                .into(),
            "seed: the article's method (greedy top-2 checked by random Monte Carlo playouts)".into(),
        ]
    }

    fn choose(
        &self,
        pos: &Aero,
        request: &AiRequest,
        _progress: &dyn Fn(Progress),
    ) -> Result<AiChoice<AeroMove>, ApiError> {
        let kind = if request.seed_player {
            PlayerKind::SeedMc
        } else {
            PlayerKind::Level(request.level.clamp(1, 10))
        };
        let mut player = make_player(kind, request.seed);
        let mv = player.choose(pos);
        Ok(AiChoice {
            mv,
            engine: format!("qiyi-aeroplane player {kind}"),
            depth: 0,
            score: 0,
            nodes: 0,
            pv: vec![mv],
        })
    }
}

/// Rules from the `rules` object of `POST /api/games`.
pub fn rules_from(
    set: &str,
    takeoff: &str,
    three_sixes: &str,
    ending: &str,
) -> Result<Rules, ApiError> {
    let mut rules = Rules::from_options(set, Some(takeoff), Some(three_sixes))
        .map_err(|e| ApiError::BadRequest(e.to_string()))?;
    rules.ending = match ending {
        "first-wins" => Ending::FirstWins,
        "play-on" => Ending::PlayOn,
        other => {
            return Err(ApiError::BadRequest(format!(
                "rules.ending must be first-wins or play-on, not '{other}'"
            )))
        }
    };
    Ok(rules)
}
