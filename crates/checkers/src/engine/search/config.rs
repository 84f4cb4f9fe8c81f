//! Which selective ideas the checkers search uses, each switchable so that a match can measure it.

use std::fmt;

/// The switches and sizes of the checkers search. [`SearchConfig::default`] is the engine as
/// shipped; every field can be turned off from a match spec (`qiyi:nolmr`, `qiyi:noprune`, ...)
/// to measure what it is worth.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SearchConfig {
    /// Late-move reductions of quiet moves (history-guided; re-searched at full depth when they
    /// beat alpha).
    pub lmr: bool,
    /// Eval-margin pruning verified by a shallower search: at a non-PV node whose static score is
    /// `prune_margin` above beta, a null-window search `prune_reduction` plies shallower must also
    /// fail high above beta + margin before the node is cut.
    pub prune: bool,
    /// The same on the other side: a non-PV node whose static score is `prune_margin` below
    /// alpha is cut as a fail-low if a search `prune_reduction` plies shallower also stays
    /// below alpha − margin (it saves every move of an all-node, where the fail-high side saves
    /// one).
    pub razor: bool,
    /// Captures on the principal variation and recaptures do not use up depth.
    pub capture_extension: bool,
    /// A horizon node where the opponent threatens a capture is searched one ply more.
    pub threat_extension: bool,
    /// A node with a single legal move does not use up depth.
    pub single_reply_extension: bool,
    /// Internal iterative deepening when the table has no move for a deep node.
    pub iid: bool,
    /// The counter-move table (the reply that refuted the opponent's last move is tried early).
    pub countermoves: bool,
    /// Aspiration windows around the previous iteration's score.
    pub aspiration: bool,
    /// Cut-offs on stored bounds (off, the table only orders moves: the value at a fixed depth
    /// is then exactly minimax's, which the tests check).
    pub tt_cutoffs: bool,
    /// The pruning margin, in hundredths of a man.
    pub prune_margin: i32,
    /// How many plies shallower the pruning's verification search is.
    pub prune_reduction: i32,
    /// Late-move reduction divisor: a move `m` at depth `d` is reduced by
    /// `round(ln d × ln m / lmr_divisor)` (tenths: 25 = 2.5).
    pub lmr_divisor_tenths: u32,
    /// Transposition-table size in MiB.
    pub tt_mib: usize,
    /// Search threads (Lazy SMP when more than one).
    pub threads: usize,
}

impl Default for SearchConfig {
    fn default() -> Self {
        SearchConfig {
            lmr: true,
            prune: true,
            razor: true,
            capture_extension: true,
            threat_extension: true,
            single_reply_extension: true,
            iid: true,
            countermoves: true,
            aspiration: true,
            tt_cutoffs: true,
            prune_margin: 30,
            prune_reduction: 4,
            lmr_divisor_tenths: 25,
            tt_mib: 64,
            threads: 1,
        }
    }
}

/// Why a search option in a spec was not understood.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("unknown search option {0:?} (known: lmr, prune, razor, capext, threat, single, iid, cm, asp, ttcut with an optional `no` in front; margin=N, vred=N, lmrdiv=N, hash=MIB)")]
pub struct ConfigError(pub String);

impl SearchConfig {
    /// Every selective idea off: full-width alpha-beta with capture resolution, the table,
    /// killers and history (the search before the selective ideas, on the same code).
    pub fn plain() -> Self {
        SearchConfig {
            lmr: false,
            prune: false,
            razor: false,
            capture_extension: false,
            threat_extension: false,
            single_reply_extension: false,
            iid: false,
            countermoves: false,
            ..SearchConfig::default()
        }
    }

    /// Applies one option token: a switch (`lmr`, `nolmr`, `prune`, `noprune`, `razor`, `capext`,
    /// `threat`, `single`, `iid`, `cm`, `asp`, `ttcut`, each with or without `no`), or `margin=N`,
    /// `vred=N`, `lmrdiv=N` (tenths), `hash=MIB`. Returns false when the token is not a search
    /// option (so the caller can try its own), and an error when it looks like one but is bad.
    pub fn apply(&mut self, token: &str) -> Result<bool, ConfigError> {
        let bad = || ConfigError(token.to_string());
        if let Some((key, value)) = token.split_once('=') {
            let n = || value.parse::<i64>().map_err(|_| bad());
            match key {
                "margin" => self.prune_margin = n()?.clamp(0, 1000) as i32,
                "vred" => self.prune_reduction = n()?.clamp(1, 10) as i32,
                "lmrdiv" => self.lmr_divisor_tenths = n()?.clamp(5, 100) as u32,
                "hash" => self.tt_mib = n()?.clamp(1, 65_536) as usize,
                _ => return Ok(false),
            }
            return Ok(true);
        }
        let (on, name) = match token.strip_prefix("no") {
            Some(rest) => (false, rest),
            None => (true, token),
        };
        let field = match name {
            "lmr" => &mut self.lmr,
            "prune" => &mut self.prune,
            "razor" => &mut self.razor,
            "capext" => &mut self.capture_extension,
            "threat" => &mut self.threat_extension,
            "single" => &mut self.single_reply_extension,
            "iid" => &mut self.iid,
            "cm" => &mut self.countermoves,
            "asp" => &mut self.aspiration,
            "ttcut" => &mut self.tt_cutoffs,
            _ => return Ok(false),
        };
        *field = on;
        Ok(true)
    }

    /// The options that differ from the default, as spec tokens (`nolmr:margin=40`), or
    /// `default`.
    pub fn diff_from_default(&self) -> String {
        let d = SearchConfig::default();
        let mut out = Vec::new();
        let switches = [
            ("lmr", self.lmr, d.lmr),
            ("prune", self.prune, d.prune),
            ("razor", self.razor, d.razor),
            ("capext", self.capture_extension, d.capture_extension),
            ("threat", self.threat_extension, d.threat_extension),
            (
                "single",
                self.single_reply_extension,
                d.single_reply_extension,
            ),
            ("iid", self.iid, d.iid),
            ("cm", self.countermoves, d.countermoves),
            ("asp", self.aspiration, d.aspiration),
            ("ttcut", self.tt_cutoffs, d.tt_cutoffs),
        ];
        for (name, v, dv) in switches {
            if v != dv {
                out.push(if v {
                    name.to_string()
                } else {
                    format!("no{name}")
                });
            }
        }
        if self.prune_margin != d.prune_margin {
            out.push(format!("margin={}", self.prune_margin));
        }
        if self.prune_reduction != d.prune_reduction {
            out.push(format!("vred={}", self.prune_reduction));
        }
        if self.lmr_divisor_tenths != d.lmr_divisor_tenths {
            out.push(format!("lmrdiv={}", self.lmr_divisor_tenths));
        }
        if self.tt_mib != d.tt_mib {
            out.push(format!("hash={}", self.tt_mib));
        }
        if out.is_empty() {
            "default".to_string()
        } else {
            out.join(":")
        }
    }
}

impl fmt::Display for SearchConfig {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.diff_from_default())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tokens_switch_options_and_print_back() {
        let mut c = SearchConfig::default();
        assert_eq!(c.to_string(), "default");
        assert_eq!(c.apply("nolmr"), Ok(true));
        assert_eq!(c.apply("margin=45"), Ok(true));
        assert_eq!(c.apply("level=7"), Ok(false));
        assert_eq!(c.apply("eval=hand"), Ok(false));
        assert!(c.apply("margin=x").is_err());
        assert!(!c.lmr);
        assert_eq!(c.prune_margin, 45);
        assert_eq!(c.to_string(), "nolmr:margin=45");
        assert_eq!(c.apply("lmr"), Ok(true));
        assert_eq!(c.to_string(), "margin=45");
    }
}
