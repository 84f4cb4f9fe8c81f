//! Every player type plays legal moves to the end of 2-, 3-, 4- and 6-player games.

use qiyi_chinese_checkers::engine::{Player, PlayerKind};
use qiyi_chinese_checkers::tournament::{play_game, run, TournamentConfig};
use qiyi_chinese_checkers::{Options, Position, Status};
use qiyi_core::search::SearchLimits;
use qiyi_core::Game;

const KINDS: [PlayerKind; 7] = [
    PlayerKind::Random,
    PlayerKind::Seed,
    PlayerKind::AlphaBeta,
    PlayerKind::Paranoid,
    PlayerKind::Brs,
    PlayerKind::Mcts,
    PlayerKind::Race,
];

#[test]
fn every_player_type_finishes_games_with_legal_moves() {
    for players in [2, 3, 4, 6] {
        for (i, &kind) in KINDS.iter().enumerate() {
            let opts = Options {
                max_moves: 40,
                ..Options::players(players).expect("valid")
            };
            let mut kinds = vec![PlayerKind::Seed; players];
            kinds[i % players] = kind;
            let (end, history) = play_game(opts, &kinds, 1, 7 + i as u64);
            assert!(end.is_over(), "{players} players, {kind}: game did not end");
            // Replay: every move was legal.
            let mut pos = Position::start(opts).expect("valid");
            let mut legal = Vec::new();
            for mv in history {
                pos.legal_moves(&mut legal);
                assert!(legal.contains(&mv), "{kind} played an illegal move");
                pos.make(mv);
            }
            assert_eq!(pos, end);
        }
    }
}

#[test]
fn greedy_games_are_won_not_capped() {
    let (end, _) = play_game(
        Options::default(),
        &[PlayerKind::Seed, PlayerKind::Seed],
        1,
        3,
    );
    assert!(matches!(end.status(), Status::Won(_)), "{:?}", end.status());
}

#[test]
fn search_player_beats_random_and_best_resolves() {
    assert_eq!(PlayerKind::parse("best", 2), Ok(PlayerKind::AlphaBeta));
    assert_eq!(PlayerKind::parse("best", 6), Ok(PlayerKind::Race));
    assert_eq!(PlayerKind::parse("best", 3), Ok(PlayerKind::Race));
    assert!(PlayerKind::parse("nobody", 2).is_err());
    let config = TournamentConfig {
        options: Options::default(),
        seats: vec![PlayerKind::AlphaBeta, PlayerKind::Random],
        games: 4,
        seed: 1,
        level: 2,
        threads: 2,
    };
    let r = run(&config, || {});
    assert_eq!(r.games, 4);
    assert_eq!(
        r.by_type["alphabeta"].wins, 4.0,
        "alpha-beta wins every game against random"
    );
    let mut p = Player::new(PlayerKind::Seed, 5, 1);
    let pos = Position::default();
    let mut moves = Vec::new();
    pos.legal_moves(&mut moves);
    assert!(moves.contains(&p.choose(&pos)));
}

#[test]
fn the_racer_outruns_greedy_players() {
    let config = TournamentConfig {
        options: Options::players(3).expect("valid"),
        seats: vec![PlayerKind::Race, PlayerKind::Seed, PlayerKind::Seed],
        games: 6,
        seed: 5,
        level: 6,
        threads: 2,
    };
    let r = run(&config, || {});
    assert!(
        r.by_type["race"].wins >= 5.0,
        "race won {} of 6 three-player games against seed",
        r.by_type["race"].wins
    );
}

/// The racer's level hands a falling share of its moves to the greedy move: 75% at level 1,
/// 15% at level 5, none from level 6 up; levels outside 1-10 are clamped.
#[test]
fn racer_levels_scale_the_greedy_share() {
    use qiyi_chinese_checkers::engine::race_greedy_share;
    let shares: Vec<f64> = (1..=10).map(race_greedy_share).collect();
    assert!((shares[0] - 0.75).abs() < 1e-9 && (shares[4] - 0.15).abs() < 1e-9);
    assert!(shares.windows(2).all(|w| w[0] >= w[1]));
    assert!(shares[5..].iter().all(|&s| s == 0.0));
    assert_eq!(race_greedy_share(0), race_greedy_share(1));
    // A level-1 racer and a full racer disagree on some moves of the same games.
    let pos = Position::start(Options::players(3).expect("valid")).expect("start");
    let mut weak = Player::new(PlayerKind::Race, 1, 9);
    let mut full = Player::new(PlayerKind::Race, 6, 9);
    let mut p = pos.clone();
    let mut differ = 0;
    for _ in 0..30 {
        if p.status() != Status::Ongoing {
            break;
        }
        let a = full.choose(&p);
        if weak.choose(&p) != a {
            differ += 1;
        }
        p = p.after(a);
    }
    assert!(
        differ > 0,
        "the level-1 racer always agreed with the full racer"
    );
}

#[test]
fn games_played_by_index_and_summarized_equal_the_whole_tournament() {
    use qiyi_chinese_checkers::tournament::{play_indexed, summarize};
    let config = TournamentConfig {
        options: Options::players(3).expect("3 players"),
        seats: vec![PlayerKind::Seed, PlayerKind::Random, PlayerKind::Random],
        games: 6,
        seed: 27,
        level: 2,
        threads: 2,
    };
    let whole = run(&config, || {});
    let records: Vec<_> = (0..6)
        .rev()
        .map(|g| play_indexed(&config, g))
        .rev()
        .collect();
    let parts = summarize(&config, records);
    assert_eq!(parts.mean_plies, whole.mean_plies);
    for (name, t) in &whole.by_type {
        assert_eq!(parts.by_type[name].wins, t.wins, "{name}");
    }
    let plies: Vec<u32> = parts.records.iter().map(|r| r.plies).collect();
    let whole_plies: Vec<u32> = whole.records.iter().map(|r| r.plies).collect();
    assert_eq!(plies, whole_plies);
}

#[test]
fn think_honours_depth_and_node_limits_and_reports_what_it_searched() {
    for players in [2, 3] {
        let pos = Position::start(Options::players(players).expect("valid")).expect("valid");
        for kind in [PlayerKind::AlphaBeta, PlayerKind::Paranoid, PlayerKind::Brs] {
            let mut p = Player::new(kind, 10, 1);
            let t = p.think(&pos, &SearchLimits::depth(1));
            assert_eq!(t.depth, 1, "{kind} {players}p");
            assert!(t.nodes > 0, "{kind} {players}p");
            // Depth 1 visits the root's children, not the level-10 budget.
            assert!(t.nodes < 1_000, "{kind} {players}p: {} nodes", t.nodes);
            // The searches look at the clock and the node count every 1,024 nodes.
            let t = p.think(&pos, &SearchLimits::nodes(3_000));
            assert!(t.nodes <= 4_100, "{kind} {players}p: {} nodes", t.nodes);
            assert!(t.depth >= 1, "{kind} {players}p");
        }
        let mut p = Player::new(PlayerKind::Mcts, 10, 1);
        let t = p.think(&pos, &SearchLimits::nodes(50));
        // 50 playouts (not the level's 25,600) grow a tree of a few hundred nodes.
        assert!(
            t.nodes > 0 && t.nodes <= 2_000,
            "mcts {players}p: {} nodes",
            t.nodes
        );
        for kind in [PlayerKind::Random, PlayerKind::Seed, PlayerKind::Race] {
            let t = Player::new(kind, 10, 1).think(&pos, &SearchLimits::depth(1));
            assert_eq!((t.nodes, t.depth), (0, 0), "{kind} does not search");
        }
    }
}

#[test]
fn a_reset_player_repeats_a_new_players_choice() {
    let pos = Position::start(Options::players(2).expect("valid")).expect("valid");
    for kind in KINDS {
        let fresh = Player::new(kind, 3, 9).think(&pos, &SearchLimits::default());
        let mut p = Player::new(kind, 3, 9);
        let first = p.choose(&pos);
        let other = pos.after(first);
        p.think(&other, &SearchLimits::depth(2));
        p.reset(9);
        let again = p.think(&pos, &SearchLimits::default());
        assert_eq!(again, fresh, "{kind}");
        assert_eq!(
            Player::new(kind, 3, 9).choose(&pos),
            fresh.best_move,
            "{kind}"
        );
    }
}
