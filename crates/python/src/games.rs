//! The five games as [`GameDef`]s, and `load_game`: names, rule options, action ids,
//! observations and each game's own search.

use crate::dynamic::{DynState, GameDef, State};
use crate::error::{QiyiError, Result};
use crate::search::{
    run_expectimax, run_mcts, unsupported, Algorithm, EngineSpec, SearchOut, SearchRequest,
};
use qiyi_core::search::SearchLimits;
use std::sync::Arc;
use std::time::Instant;

/// The games, by the name `load_game` takes (aliases in [`canonical`]).
pub const GAMES: [&str; 5] = [
    "xiangqi",
    "checkers",
    "chinese_checkers",
    "peg_solitaire",
    "aeroplane",
];

/// The canonical name of `name` (`chinese-checkers` and `peg` are accepted too).
pub fn canonical(name: &str) -> Option<&'static str> {
    match name.trim().to_ascii_lowercase().replace('-', "_").as_str() {
        "xiangqi" | "chinese_chess" => Some("xiangqi"),
        "checkers" | "english_checkers" => Some("checkers"),
        "chinese_checkers" => Some("chinese_checkers"),
        "peg_solitaire" | "peg" => Some("peg_solitaire"),
        "aeroplane" | "aeroplane_chess" => Some("aeroplane"),
        _ => None,
    }
}

/// The rule options each game takes (the CLI's options, in snake case).
pub fn rule_keys(game: &str) -> &'static [&'static str] {
    match game {
        "chinese_checkers" => &["players", "pieces", "anti_spoil", "goal_lock", "max_moves"],
        "peg_solitaire" => &["board", "start", "finish"],
        "aeroplane" => &["players", "rules", "takeoff", "three_sixes", "end"],
        _ => &[],
    }
}

/// Rule options as text, by key.
pub type Rules = Vec<(String, String)>;

fn get<'a>(rules: &'a Rules, key: &str) -> Option<&'a str> {
    rules
        .iter()
        .find(|(k, _)| k == key)
        .map(|(_, v)| v.as_str())
}

fn number<T: std::str::FromStr>(rules: &Rules, key: &str, default: T) -> Result<T> {
    match get(rules, key) {
        None => Ok(default),
        Some(v) => v
            .trim()
            .parse()
            .map_err(|_| QiyiError::Rule(format!("rule {key} must be a whole number, not {v:?}"))),
    }
}

fn flag(rules: &Rules, key: &str, default: bool) -> Result<bool> {
    match get(rules, key).map(|v| v.trim().to_ascii_lowercase()) {
        None => Ok(default),
        Some(v) if v == "true" || v == "1" => Ok(true),
        Some(v) if v == "false" || v == "0" => Ok(false),
        Some(v) => Err(QiyiError::Rule(format!(
            "rule {key} must be true or false, not {v:?}"
        ))),
    }
}

/// Loads `name` with `rules`, at its first position.
pub fn load(name: &str, rules: &Rules) -> Result<Box<dyn DynState>> {
    let game = canonical(name)
        .ok_or_else(|| QiyiError::UnknownGame(name.to_string(), GAMES.join(", ")))?;
    let keys = rule_keys(game);
    for (k, _) in rules {
        if !keys.contains(&k.as_str()) {
            return Err(QiyiError::Rule(if keys.is_empty() {
                format!("{game} has no rule option {k:?} (it takes none)")
            } else {
                format!(
                    "{game} has no rule option {k:?}; its options are {}",
                    keys.join(", ")
                )
            }));
        }
    }
    Ok(match game {
        "xiangqi" => Box::new(State::new(Xiangqi)),
        "checkers" => Box::new(State::new(Checkers)),
        "chinese_checkers" => Box::new(State::new(ChineseCheckers {
            options: cc_options(rules)?,
        })),
        "peg_solitaire" => {
            let board = qiyi_peg_solitaire::load_board(get(rules, "board").unwrap_or("english"))
                .map_err(|e| QiyiError::Rule(e.to_string()))?;
            let problem =
                qiyi_peg_solitaire::Problem::new(board, get(rules, "start"), get(rules, "finish"))
                    .map_err(|e| QiyiError::Rule(e.to_string()))?;
            Box::new(State::new(Peg { problem }))
        }
        _ => {
            let (rules, players) = aero_rules(rules)?;
            Box::new(State::new(Aeroplane { rules, players }))
        }
    })
}

/// Chinese-checkers options from rule options (the CLI's defaults).
pub fn cc_options(rules: &Rules) -> Result<qiyi_chinese_checkers::Options> {
    let options = qiyi_chinese_checkers::Options {
        players: number(rules, "players", 2)?,
        pieces: number(rules, "pieces", 10)?,
        anti_spoil: flag(rules, "anti_spoil", true)?,
        goal_lock: flag(rules, "goal_lock", false)?,
        max_moves: number(rules, "max_moves", 200)?,
    };
    options
        .validate()
        .map_err(|e| QiyiError::Rule(e.to_string()))?;
    Ok(options)
}

/// Aeroplane rules and player count from rule options (the CLI's defaults).
pub fn aero_rules(rules: &Rules) -> Result<(qiyi_aeroplane::Rules, usize)> {
    let rule_err = |e: qiyi_aeroplane::AeroError| QiyiError::Rule(e.to_string());
    let mut r = qiyi_aeroplane::Rules::from_options(
        get(rules, "rules").unwrap_or("standard"),
        get(rules, "takeoff"),
        get(rules, "three_sixes"),
    )
    .map_err(rule_err)?;
    if let Some(e) = get(rules, "end") {
        r.ending = e.parse().map_err(rule_err)?;
    }
    let players = number(rules, "players", 4)?;
    qiyi_aeroplane::Aero::new(r, players).map_err(rule_err)?;
    Ok((r, players))
}

fn engine_level(level: u32) -> u8 {
    level.clamp(1, 10) as u8
}

/// Builds an engine for one search (the uncached path of a game's `search`) and runs it.
fn search_once<D: GameDef>(
    def: &D,
    pos: &D::G,
    req: &SearchRequest,
) -> Result<SearchOut<<D::G as qiyi_core::Game>::Move>> {
    let mut engine = def.new_engine(&EngineSpec::of(req))?;
    def.engine_search(&mut engine, pos, &req.limits)
}

/// The words for a result that came without a search (a book move or a forced move).
fn unsearched(algorithm: String, nodes: u64) -> String {
    if nodes == 0 {
        format!("{algorithm}: book or forced move, no search")
    } else {
        algorithm
    }
}

/// Xiangqi: no rule options (the crate's full rules).
#[derive(Clone, Copy, Debug)]
pub struct Xiangqi;

impl GameDef for Xiangqi {
    type G = qiyi_xiangqi::Position;
    fn name(&self) -> &'static str {
        "xiangqi"
    }
    fn params(&self) -> Vec<(String, String)> {
        Vec::new()
    }
    fn initial(&self) -> Self::G {
        qiyi_xiangqi::Position::start()
    }
    fn num_actions(&self) -> usize {
        qiyi_xiangqi::encode::NUM_ACTIONS
    }
    fn id(&self, _pos: &Self::G, legal: &[qiyi_xiangqi::Move], k: usize) -> u32 {
        qiyi_xiangqi::encode::action_id(legal[k])
    }
    fn observation_shape(&self) -> Vec<usize> {
        qiyi_xiangqi::encode::OBSERVATION_SHAPE.to_vec()
    }
    fn observe(&self, pos: &Self::G, out: &mut [f32]) -> bool {
        qiyi_xiangqi::encode::observation(pos, out)
    }
    fn search(&self, pos: &Self::G, req: &SearchRequest) -> Result<SearchOut<qiyi_xiangqi::Move>> {
        match req.algorithm {
            Algorithm::Engine => search_once(self, pos, req),
            Algorithm::Mcts => Ok(run_mcts(pos, req)),
            other => Err(unsupported("xiangqi", other, "engine and mcts")),
        }
    }
    type Engine = qiyi_xiangqi::engine::Engine;
    fn new_engine(&self, spec: &EngineSpec) -> Result<Self::Engine> {
        use qiyi_xiangqi::engine::{Engine, EngineConfig, Level};
        let level = match spec.player.as_deref() {
            Some("seed") => Level::Seed,
            None | Some("engine") | Some("best") => Level::Strength(engine_level(spec.level)),
            Some(other) => {
                return Err(QiyiError::Search(format!(
                    "xiangqi players are engine (by level) and seed, not {other:?}"
                )))
            }
        };
        // `tuned` is the old name of the hand evaluation, kept so existing scripts still run;
        // the default is the shipped net, as in the CLI.
        let net = match spec.evaluation.as_deref() {
            None | Some("default") => qiyi_xiangqi::nnue::default_net(),
            Some("tuned") => None,
            Some(text) => qiyi_xiangqi::nnue::EvalChoice::parse(text)
                .map_err(|e| QiyiError::Search(format!("xiangqi evaluation {text:?}: {e}")))?
                .net(),
        };
        if spec.endgame.is_some() {
            return Err(QiyiError::Search(
                "xiangqi has no endgame database (only checkers takes endgame=)".into(),
            ));
        }
        Ok(Engine::new(EngineConfig {
            hash_mib: spec.hash_mib.unwrap_or(16),
            threads: 1,
            level,
            seed: spec.seed,
            net,
        }))
    }
    fn engine_search(
        &self,
        engine: &mut Self::Engine,
        pos: &Self::G,
        limits: &SearchLimits,
    ) -> Result<SearchOut<qiyi_xiangqi::Move>> {
        let r = engine.think(pos, limits, |_| {});
        let what = format!("qiyi-xiangqi engine ({:?})", engine.config().level);
        Ok(SearchOut::from_result(r, what))
    }
    fn clear_engine(&self, engine: &mut Self::Engine) {
        engine.new_game();
    }
}

/// English checkers (WCDF): no rule options.
#[derive(Clone, Copy, Debug)]
pub struct Checkers;

impl GameDef for Checkers {
    type G = qiyi_checkers::Checkers;
    fn name(&self) -> &'static str {
        "checkers"
    }
    fn params(&self) -> Vec<(String, String)> {
        Vec::new()
    }
    fn initial(&self) -> Self::G {
        qiyi_checkers::Checkers::start()
    }
    fn num_actions(&self) -> usize {
        qiyi_checkers::encode::NUM_ACTIONS
    }
    fn id(&self, _pos: &Self::G, legal: &[qiyi_checkers::Move], k: usize) -> u32 {
        let m = legal[k];
        // Past MAX_VARIANTS loop captures (none known) the id stays in range but may repeat;
        // applying it then plays the first of them.
        qiyi_checkers::encode::action_id(legal, m).unwrap_or(
            (qiyi_checkers::encode::NUM_ACTIONS - 1024) as u32
                + (m.from() as u32 - 1) * 32
                + m.to() as u32
                - 1,
        )
    }
    fn observation_shape(&self) -> Vec<usize> {
        qiyi_checkers::encode::OBSERVATION_SHAPE.to_vec()
    }
    fn observe(&self, pos: &Self::G, out: &mut [f32]) -> bool {
        qiyi_checkers::encode::observation(pos, out)
    }
    fn search(&self, pos: &Self::G, req: &SearchRequest) -> Result<SearchOut<qiyi_checkers::Move>> {
        match req.algorithm {
            Algorithm::Engine => search_once(self, pos, req),
            Algorithm::Mcts => Ok(run_mcts(pos, req)),
            other => Err(unsupported("checkers", other, "engine and mcts")),
        }
    }
    type Engine = qiyi_checkers::engine::Engine;
    fn new_engine(&self, spec: &EngineSpec) -> Result<Self::Engine> {
        use qiyi_checkers::engine::{
            player::TT_MIB, Engine, EvalChoice, Level, SearchChoice, SearchConfig, Weights,
        };
        let level = match spec.player.as_deref() {
            Some("seed") => Level::Seed {
                depth: Level::SEED_DEPTH,
            },
            None | Some("engine") | Some("best") => Level::Level(engine_level(spec.level)),
            Some(other) => {
                return Err(QiyiError::Search(format!(
                    "checkers players are engine (by level) and seed, not {other:?}"
                )))
            }
        };
        let eval = match spec.evaluation.as_deref() {
            None | Some("default") => EvalChoice::default(),
            Some(text) => EvalChoice::parse(text)
                .map_err(|e| QiyiError::Search(format!("checkers evaluation {text:?}: {e}")))?,
        };
        let egdb = spec.endgame.as_deref().map(load_egdb).transpose()?;
        let search = SearchChoice::Selective(SearchConfig {
            tt_mib: spec.hash_mib.unwrap_or(TT_MIB),
            ..SearchConfig::default()
        });
        let mut engine = Engine::with_search(level, 1, Weights::default(), egdb, &eval, &search);
        engine.set_noise_seed(spec.seed);
        engine.set_book(spec.book);
        Ok(engine)
    }
    fn engine_search(
        &self,
        engine: &mut Self::Engine,
        pos: &Self::G,
        limits: &SearchLimits,
    ) -> Result<SearchOut<qiyi_checkers::Move>> {
        let r = engine.think(pos, limits, |_| {});
        let what = unsearched(
            format!("qiyi-checkers engine ({:?})", engine.level()),
            r.stats.nodes,
        );
        Ok(SearchOut::from_result(r, what))
    }
    fn clear_engine(&self, engine: &mut Self::Engine) {
        engine.new_game();
    }
}

/// Chinese checkers: players, pieces, anti-spoiling, goal lock, move cap.
#[derive(Clone, Copy, Debug)]
pub struct ChineseCheckers {
    options: qiyi_chinese_checkers::Options,
}

impl GameDef for ChineseCheckers {
    type G = qiyi_chinese_checkers::Position;
    fn name(&self) -> &'static str {
        "chinese_checkers"
    }
    fn params(&self) -> Vec<(String, String)> {
        let o = &self.options;
        vec![
            ("players".into(), o.players.to_string()),
            ("pieces".into(), o.pieces.to_string()),
            ("anti_spoil".into(), o.anti_spoil.to_string()),
            ("goal_lock".into(), o.goal_lock.to_string()),
            ("max_moves".into(), o.max_moves.to_string()),
        ]
    }
    fn initial(&self) -> Self::G {
        // The options were validated by `load`.
        qiyi_chinese_checkers::Position::start(self.options).unwrap_or_default()
    }
    fn adopt(&self, pos: &Self::G) -> Self {
        ChineseCheckers {
            options: *pos.options(),
        }
    }
    fn num_actions(&self) -> usize {
        qiyi_chinese_checkers::encode::NUM_ACTIONS
    }
    fn id(&self, _pos: &Self::G, legal: &[qiyi_chinese_checkers::Move], k: usize) -> u32 {
        qiyi_chinese_checkers::encode::action_id(legal[k])
    }
    fn observation_shape(&self) -> Vec<usize> {
        qiyi_chinese_checkers::encode::observation_shape(self.options.players).to_vec()
    }
    fn observe(&self, pos: &Self::G, out: &mut [f32]) -> bool {
        qiyi_chinese_checkers::encode::observation(pos, out)
    }
    fn search(
        &self,
        pos: &Self::G,
        req: &SearchRequest,
    ) -> Result<SearchOut<qiyi_chinese_checkers::Move>> {
        match req.algorithm {
            Algorithm::Engine => search_once(self, pos, req),
            Algorithm::Mcts => Ok(run_mcts(pos, req)),
            other => Err(unsupported(
                "chinese_checkers",
                other,
                "engine (player types) and mcts",
            )),
        }
    }
    /// A player kept loaded: its searcher's table is allocated once and its random stream
    /// runs on from call to call (`clear` restarts both from the seed).
    type Engine = CcEngine;
    fn new_engine(&self, spec: &EngineSpec) -> Result<Self::Engine> {
        spec.reject("chinese_checkers")?;
        CcEngine::new(spec, self.options.players)
    }
    fn engine_search(
        &self,
        engine: &mut Self::Engine,
        pos: &Self::G,
        limits: &SearchLimits,
    ) -> Result<SearchOut<qiyi_chinese_checkers::Move>> {
        let players = pos.options().players;
        if players != engine.players {
            *engine = CcEngine::new(&engine.spec, players)?;
        }
        let t = Instant::now();
        let r = engine.player.think(pos, limits);
        Ok(SearchOut {
            best: Some(r.best_move),
            best_text: None,
            score: r.score,
            pv: r.pv,
            pv_text: Vec::new(),
            nodes: r.nodes,
            depth: r.depth,
            seconds: t.elapsed().as_secs_f64(),
            algorithm: format!(
                "chinese-checkers player {} (level {}){}",
                engine.player.kind(),
                engine.spec.level,
                if r.nodes == 0 { ": no search" } else { "" }
            ),
            exact: false,
        })
    }
    fn clear_engine(&self, engine: &mut Self::Engine) {
        engine.player.reset(engine.spec.seed);
    }
}

/// A Chinese-checkers player with the description it was built from.
pub struct CcEngine {
    spec: EngineSpec,
    players: usize,
    player: qiyi_chinese_checkers::engine::Player,
}

impl CcEngine {
    fn new(spec: &EngineSpec, players: usize) -> Result<Self> {
        use qiyi_chinese_checkers::engine::{Player, PlayerKind};
        let name = spec.player.as_deref().unwrap_or("best");
        let kind =
            PlayerKind::parse(name, players).map_err(|e| QiyiError::Search(e.to_string()))?;
        Ok(CcEngine {
            spec: spec.clone(),
            players,
            player: Player::new(kind, spec.level.clamp(1, 10), spec.seed),
        })
    }
}

/// Peg solitaire: board, start hole, finish hole.
#[derive(Clone, Debug)]
pub struct Peg {
    problem: qiyi_peg_solitaire::Problem,
}

impl GameDef for Peg {
    type G = qiyi_peg_solitaire::PegPosition;
    fn name(&self) -> &'static str {
        "peg_solitaire"
    }
    fn params(&self) -> Vec<(String, String)> {
        let b = &self.problem.board;
        let finish = match self.problem.finish {
            qiyi_peg_solitaire::Finish::Hole(h) => b.hole_name(h).to_string(),
            qiyi_peg_solitaire::Finish::Any => "any".into(),
        };
        vec![
            ("board".into(), b.name().to_string()),
            ("finish".into(), finish),
        ]
    }
    fn initial(&self) -> Self::G {
        qiyi_peg_solitaire::PegPosition::new(self.problem.board.clone(), self.problem.start)
    }
    fn adopt(&self, pos: &Self::G) -> Self {
        Peg {
            problem: qiyi_peg_solitaire::Problem {
                board: pos.board().clone(),
                start: pos.pegs(),
                finish: qiyi_peg_solitaire::Finish::Any,
            },
        }
    }
    fn num_actions(&self) -> usize {
        qiyi_peg_solitaire::encode::num_actions(&self.problem.board)
    }
    fn id(&self, _pos: &Self::G, legal: &[u16], k: usize) -> u32 {
        legal[k] as u32
    }
    fn observation_shape(&self) -> Vec<usize> {
        vec![self.problem.board.len()]
    }
    fn observe(&self, pos: &Self::G, out: &mut [f32]) -> bool {
        qiyi_peg_solitaire::encode::observation(pos, out)
    }
    fn search(&self, pos: &Self::G, req: &SearchRequest) -> Result<SearchOut<u16>> {
        match req.algorithm {
            Algorithm::Engine | Algorithm::Solve => search_once(self, pos, req),
            Algorithm::Mcts => Ok(run_mcts(pos, req)),
            other => Err(unsupported("peg_solitaire", other, "solve and mcts")),
        }
    }
    /// The solver keeps nothing between searches: the engine is its description.
    type Engine = EngineSpec;
    fn new_engine(&self, spec: &EngineSpec) -> Result<Self::Engine> {
        spec.reject("peg_solitaire")?;
        Ok(spec.clone())
    }
    fn engine_search(
        &self,
        _engine: &mut Self::Engine,
        pos: &Self::G,
        limits: &SearchLimits,
    ) -> Result<SearchOut<u16>> {
        let problem = qiyi_peg_solitaire::Problem {
            board: Arc::clone(pos.board()),
            start: pos.pegs(),
            finish: self.problem.finish,
        };
        let t = Instant::now();
        let budget = limits.nodes.unwrap_or(100_000_000);
        let solve = problem.solve(budget);
        let jumps = pos.board().jumps();
        let pv: Vec<u16> = solve
            .jumps
            .iter()
            .flatten()
            .filter_map(|j| jumps.iter().position(|k| k == j).map(|i| i as u16))
            .collect();
        let (score, exact) = match (&solve.jumps, solve.proved_impossible) {
            (Some(_), _) => (1.0, true),
            (None, true) => (-1.0, true),
            (None, false) => (0.0, false),
        };
        Ok(SearchOut {
            best: pv.first().copied(),
            best_text: None,
            score,
            depth: pv.len() as u32,
            pv,
            pv_text: Vec::new(),
            nodes: solve.nodes,
            seconds: t.elapsed().as_secs_f64(),
            algorithm: "peg-solitaire solver (depth-first, dead-position memo)".into(),
            exact,
        })
    }
    fn clear_engine(&self, _engine: &mut Self::Engine) {}
}

/// Aeroplane chess: players, rule set, take-off, three sixes, ending.
#[derive(Clone, Copy, Debug)]
pub struct Aeroplane {
    rules: qiyi_aeroplane::Rules,
    players: usize,
}

impl GameDef for Aeroplane {
    const HAS_CHANCE: bool = true;
    type G = qiyi_aeroplane::Aero;
    fn name(&self) -> &'static str {
        "aeroplane"
    }
    fn params(&self) -> Vec<(String, String)> {
        vec![
            ("players".into(), self.players.to_string()),
            ("rules".into(), self.rules.set.to_string()),
            ("takeoff".into(), self.rules.takeoff.to_string()),
            ("three_sixes".into(), self.rules.three_sixes.to_string()),
            ("end".into(), self.rules.ending.to_string()),
        ]
    }
    fn initial(&self) -> Self::G {
        // The player count was checked by `load`.
        qiyi_aeroplane::Aero::new(self.rules, self.players)
            .unwrap_or_else(|_| qiyi_aeroplane::Aero::solo(self.rules))
    }
    fn adopt(&self, pos: &Self::G) -> Self {
        Aeroplane {
            rules: pos.rules(),
            players: pos.players(),
        }
    }
    fn num_actions(&self) -> usize {
        qiyi_aeroplane::encode::NUM_ACTIONS
    }
    fn id(&self, _pos: &Self::G, legal: &[qiyi_aeroplane::AeroMove], k: usize) -> u32 {
        qiyi_aeroplane::encode::action_id(legal[k])
    }
    fn observation_shape(&self) -> Vec<usize> {
        vec![qiyi_aeroplane::encode::observation_len(self.players)]
    }
    fn observe(&self, pos: &Self::G, out: &mut [f32]) -> bool {
        qiyi_aeroplane::encode::observation(pos, out)
    }
    fn search(
        &self,
        pos: &Self::G,
        req: &SearchRequest,
    ) -> Result<SearchOut<qiyi_aeroplane::AeroMove>> {
        match req.algorithm {
            Algorithm::Engine => search_once(self, pos, req),
            Algorithm::Mcts => Ok(run_mcts(pos, req)),
            Algorithm::Expectimax => {
                let eval = qiyi_aeroplane::search::AeroEval::new(
                    pos,
                    qiyi_aeroplane::eval::Weights::TUNED,
                );
                Ok(run_expectimax(pos, &eval, "aeroplane evaluation", req))
            }
            other => Err(unsupported(
                "aeroplane",
                other,
                "engine (player types), mcts and expectimax",
            )),
        }
    }
    /// A player type and its seed (the player is rebuilt per move, as `State.search` always
    /// did, so a move does not depend on the moves before it).
    type Engine = (qiyi_aeroplane::players::PlayerKind, u64);
    fn new_engine(&self, spec: &EngineSpec) -> Result<Self::Engine> {
        spec.reject("aeroplane")?;
        let name = spec.player.as_deref().unwrap_or("best");
        let kind: qiyi_aeroplane::players::PlayerKind = name
            .parse()
            .map_err(|e: qiyi_aeroplane::AeroError| QiyiError::Search(e.to_string()))?;
        Ok((kind, spec.seed))
    }
    fn engine_search(
        &self,
        engine: &mut Self::Engine,
        pos: &Self::G,
        _limits: &SearchLimits,
    ) -> Result<SearchOut<qiyi_aeroplane::AeroMove>> {
        let (kind, seed) = *engine;
        let t = Instant::now();
        let mv = qiyi_aeroplane::players::make_player(kind, seed).choose(pos);
        Ok(SearchOut::choice(
            mv,
            t.elapsed().as_secs_f64(),
            format!("aeroplane player {kind}"),
        ))
    }
    fn clear_engine(&self, _engine: &mut Self::Engine) {}
}

/// The checkers endgame database in `dir`, every complete table of it (the `egdb` argument of
/// `qiyi.review`, `qiyi.puzzles.check_file` and a checkers player's `endgame`).
pub(crate) fn load_egdb(
    dir: &std::path::Path,
) -> std::result::Result<Arc<qiyi_checkers::engine::Egdb>, QiyiError> {
    use qiyi_checkers::engine::Egdb;
    let n = Egdb::complete_pieces(dir);
    if n == 0 {
        return Err(QiyiError::Search(format!(
            "no complete endgame database in {}",
            dir.display()
        )));
    }
    let db = Egdb::load(dir, n)
        .map_err(|e| QiyiError::Search(format!("endgame database {}: {e}", dir.display())))?;
    Ok(Arc::new(db))
}
