//! The rule sets (`standard`, `seed`) and the house-rule options of `docs/aeroplane-chess.md`.

use crate::error::AeroError;
use serde::{Deserialize, Serialize};
use std::fmt;
use std::str::FromStr;

/// The base rule set.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum RuleSet {
    /// A1-A12 as written: launch pad, jumps and the 18 -> 30 flight.
    Standard,
    /// The article's model: take-off straight to ring step 1, jumps but no flight.
    Seed,
}

/// Which rolls let a hangar plane take off (A6).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Takeoff {
    /// Only a 6.
    #[serde(rename = "6")]
    Six,
    /// A 5 or a 6.
    #[serde(rename = "5-6")]
    FiveSix,
    /// Any even roll (2, 4, 6).
    #[serde(rename = "even")]
    Even,
}

/// The "three sixes" option (A8).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum ThreeSixes {
    /// Sixes give rerolls without limit.
    None,
    /// The third consecutive 6 ends the turn (it is not played).
    LoseTurn,
    /// The third consecutive 6 ends the turn and every plane moved by the two earlier sixes of the
    /// turn goes back to its hangar.
    SendBack,
}

/// When the game ends (A12).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Ending {
    /// The game ends when the first player has all 4 planes in the centre.
    FirstWins,
    /// The others play on for places until one player is left.
    PlayOn,
}

/// A complete rule configuration: a rule set plus its options.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Rules {
    /// The base rule set.
    pub set: RuleSet,
    /// Take-off rolls.
    pub takeoff: Takeoff,
    /// Three-sixes option.
    pub three_sixes: ThreeSixes,
    /// End of the game.
    pub ending: Ending,
}

impl Rules {
    /// `standard`: take-off on 6, launch pad, flight, three sixes send back.
    pub const STANDARD: Rules = Rules {
        set: RuleSet::Standard,
        takeoff: Takeoff::Six,
        three_sixes: ThreeSixes::SendBack,
        ending: Ending::FirstWins,
    };

    /// `seed`: take-off on 6 straight to step 1, no flight, no three-sixes rule.
    pub const SEED: Rules = Rules {
        set: RuleSet::Seed,
        takeoff: Takeoff::Six,
        three_sixes: ThreeSixes::None,
        ending: Ending::FirstWins,
    };

    /// The defaults of a rule set.
    pub fn of(set: RuleSet) -> Rules {
        match set {
            RuleSet::Standard => Rules::STANDARD,
            RuleSet::Seed => Rules::SEED,
        }
    }

    /// Whether `roll` lets a hangar plane take off.
    #[inline]
    pub fn can_take_off(&self, roll: u8) -> bool {
        // Bit r of each mask: roll r takes off (a table, not a match: this is on the hot path).
        const MASKS: [u8; 3] = [1 << 6, (1 << 5) | (1 << 6), (1 << 2) | (1 << 4) | (1 << 6)];
        (MASKS[self.takeoff as usize] >> (roll & 7)) & 1 != 0
    }

    /// Whether a take-off lands on the launch pad (`standard`) rather than ring step 1 (`seed`).
    #[inline]
    pub fn launch_pad(&self) -> bool {
        self.set == RuleSet::Standard
    }

    /// Whether the 18 -> 30 flight exists.
    #[inline]
    pub fn flights(&self) -> bool {
        self.set == RuleSet::Standard
    }

    /// Builds rules from textual option values; `None` keeps the rule set's default.
    pub fn from_options(
        set: &str,
        takeoff: Option<&str>,
        three_sixes: Option<&str>,
    ) -> Result<Rules, AeroError> {
        let mut rules = Rules::of(set.parse()?);
        if let Some(t) = takeoff {
            rules.takeoff = t.parse()?;
        }
        if let Some(t) = three_sixes {
            rules.three_sixes = t.parse()?;
        }
        Ok(rules)
    }
}

impl Default for Rules {
    fn default() -> Self {
        Rules::STANDARD
    }
}

impl fmt::Display for RuleSet {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            RuleSet::Standard => "standard",
            RuleSet::Seed => "seed",
        })
    }
}

impl fmt::Display for Takeoff {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Takeoff::Six => "6",
            Takeoff::FiveSix => "5-6",
            Takeoff::Even => "even",
        })
    }
}

impl fmt::Display for ThreeSixes {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            ThreeSixes::None => "none",
            ThreeSixes::LoseTurn => "lose-turn",
            ThreeSixes::SendBack => "send-back",
        })
    }
}

impl fmt::Display for Ending {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Ending::FirstWins => "first-wins",
            Ending::PlayOn => "play-on",
        })
    }
}

impl fmt::Display for Rules {
    /// `standard takeoff=6 three-sixes=send-back end=first-wins`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} takeoff={} three-sixes={} end={}",
            self.set, self.takeoff, self.three_sixes, self.ending
        )
    }
}

fn bad(option: &'static str, value: &str, expected: &'static str) -> AeroError {
    AeroError::BadOption {
        option,
        value: value.to_string(),
        expected,
    }
}

impl FromStr for RuleSet {
    type Err = AeroError;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s {
            "standard" => Ok(RuleSet::Standard),
            "seed" => Ok(RuleSet::Seed),
            _ => Err(bad("rules", s, "standard | seed")),
        }
    }
}

impl FromStr for Takeoff {
    type Err = AeroError;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s {
            "6" => Ok(Takeoff::Six),
            "5-6" => Ok(Takeoff::FiveSix),
            "even" => Ok(Takeoff::Even),
            _ => Err(bad("takeoff", s, "6 | 5-6 | even")),
        }
    }
}

impl FromStr for ThreeSixes {
    type Err = AeroError;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s {
            "none" => Ok(ThreeSixes::None),
            "lose-turn" => Ok(ThreeSixes::LoseTurn),
            "send-back" => Ok(ThreeSixes::SendBack),
            _ => Err(bad("three-sixes", s, "none | lose-turn | send-back")),
        }
    }
}

impl FromStr for Ending {
    type Err = AeroError;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s {
            "first-wins" => Ok(Ending::FirstWins),
            "play-on" => Ok(Ending::PlayOn),
            _ => Err(bad("end", s, "first-wins | play-on")),
        }
    }
}
