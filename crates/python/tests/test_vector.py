"""VectorGames: n games stepped in Rust with NumPy in and out."""

import numpy as np
import pytest

import qiyi
from conftest import GAMES


@pytest.mark.parametrize("name", GAMES)
def test_masks_observations_and_steps_agree_with_states(name):
    n = 8
    v = qiyi.VectorGames(name, n, seed=3)
    game = qiyi.load_game(name)
    obs = v.reset()
    assert obs.shape == (n, *game.observation_tensor_shape())
    assert obs.dtype == np.float32
    for _ in range(30):
        mask = v.legal_mask()
        assert mask.shape == (n, v.num_distinct_actions) and mask.dtype == bool
        players = v.current_player()
        for i in range(n):
            s = v.state(i)
            assert players[i] == s.current_player() >= 0
            assert sorted(np.flatnonzero(mask[i])) == sorted(s.legal_actions())
            assert np.array_equal(v.observations()[i], s.observation_tensor())
        actions = v.sample_actions()
        assert all(mask[i, actions[i]] for i in range(n))
        obs, rewards, done = v.step(actions)
        assert obs.shape[0] == n and rewards.shape == (n, v.num_players) and done.shape == (n,)
        assert np.all(rewards[~done] == 0)


def test_same_seed_same_games():
    runs = []
    for _ in range(2):
        v = qiyi.VectorGames("aeroplane", 16, seed=9)
        total = np.zeros(4)
        for _ in range(300):
            _, r, _ = v.step(v.sample_actions())
            total += r.sum(axis=0)
        runs.append((total.tolist(), v.episodes, v.observations().tolist()))
    assert runs[0] == runs[1]
    assert runs[0][1] > 0


def test_finished_games_report_returns_and_restart():
    v = qiyi.VectorGames("peg_solitaire", 4, seed=1)
    finished = 0
    for _ in range(40):
        _, r, d = v.step(v.sample_actions())
        for i in np.flatnonzero(d):
            finished += 1
            assert -1.0 <= r[i, 0] <= 1.0 and r[i, 0] != 0.0
            assert v.state(int(i)).observation_tensor().sum() == 32  # restarted
    assert finished >= 4
    assert v.episodes == finished


def test_step_without_observations():
    v = qiyi.VectorGames("xiangqi", 3, seed=1)
    obs, rewards, done = v.step(v.sample_actions(), observe=False)
    assert obs is None and rewards.shape == (3, 2) and done.shape == (3,)


def test_step_random_counts_moves():
    v = qiyi.VectorGames("checkers", 10, seed=2)
    assert v.step_random(50) == 500
    assert v.episodes >= 0


@pytest.mark.parametrize("name", GAMES)
def test_step_random_plays_the_games_of_sampled_steps(name):
    """`step_random` (the loop in Rust) plays the games `sample_actions` + `step` play with the
    same seed: one draw from each game's generator over the same list of legal moves."""
    n, plies = 8, 900
    fast = qiyi.VectorGames(name, n, seed=5)
    slow = qiyi.VectorGames(name, n, seed=5)
    assert fast.step_random(plies) == n * plies
    for _ in range(plies):
        slow.step(slow.sample_actions(), observe=False)
    assert fast.episodes == slow.episodes and fast.episodes > 0
    for i in range(n):
        assert fast.state(i).history() == slow.state(i).history()
        assert fast.state(i).to_text() == slow.state(i).to_text()


def _replay_chance(single, vector_history):
    """Applies to `single` the chance outcomes the vector game drew after `single`'s history."""
    played = len(single.history())
    for a in vector_history[played:]:
        assert single.is_chance_node()
        single.apply_action(a)


@pytest.mark.parametrize("name", GAMES)
def test_trajectories_match_single_states(name):
    """Each vector game is the game a lone State plays with the same actions (and, for
    aeroplane, the same dice): same positions, same returns, same restarts."""
    n = 6
    game = qiyi.load_game(name)
    v = qiyi.VectorGames(name, n, seed=11)
    singles = [game.new_initial_state() for _ in range(n)]
    for i, s in enumerate(singles):
        _replay_chance(s, v.state(i).history())
    ended = 0
    for _ in range(400):
        actions = v.sample_actions()
        obs, rewards, done = v.step(actions)
        for i, s in enumerate(singles):
            s.apply_action(int(actions[i]))
            if done[i]:
                ended += 1
                assert s.is_terminal()
                assert rewards[i].tolist() == pytest.approx(s.returns())
                s = singles[i] = game.new_initial_state()
            else:
                assert not rewards[i].any()
            _replay_chance(s, v.state(i).history())
            assert s.to_text() == v.state(i).to_text()
            assert s.current_player() == v.state(i).current_player()
            assert np.array_equal(obs[i], s.observation_tensor())
    assert ended > 0  # restarts are checked too (every game ends within 400 steps here)


@pytest.mark.parametrize("name", ["checkers", "aeroplane", "chinese_checkers"])
def test_threads_do_not_change_the_games(name):
    runs = []
    for threads in (1, 2, 3):
        v = qiyi.VectorGames(name, 300, seed=4, threads=threads)
        trace = []
        for _ in range(60):
            a = v.sample_actions()
            obs, r, d = v.step(a)
            trace.append((a.tobytes(), r.tobytes(), d.tobytes(), obs.tobytes()))
        moves = v.step_random(40)
        runs.append((trace, moves, v.episodes, v.observations().tobytes()))
    assert runs[0] == runs[1] == runs[2]


def test_bad_thread_counts_are_errors():
    for threads in (0, 10_000):
        with pytest.raises(qiyi.ShapeError):
            qiyi.VectorGames("checkers", 4, threads=threads)


def test_step_into_out_arrays_matches_new_arrays():
    a = qiyi.VectorGames("peg_solitaire", 8, seed=5)
    b = qiyi.VectorGames("peg_solitaire", 8, seed=5)
    obs = np.full((8, *qiyi.load_game("peg_solitaire").observation_tensor_shape()), 7, np.float32)
    rewards = np.full((8, 1), 7, np.float32)
    done = np.ones(8, bool)
    ended = 0
    for _ in range(60):
        actions = a.sample_actions()
        assert np.array_equal(actions, b.sample_actions())
        want = a.step(actions)
        got = b.step(actions, out=(obs, rewards, done))
        assert got[0] is obs and got[1] is rewards and got[2] is done
        for w, g in zip(want, got):
            assert np.array_equal(w, g)  # every row rewritten, stale values included
        ended += done.sum()
    assert ended > 0
    got = b.step(b.sample_actions(), observe=False, out=(None, rewards, done))
    assert got[0] is None and got[1] is rewards


def test_bad_out_arrays_are_errors():
    v = qiyi.VectorGames("checkers", 4, seed=1)
    obs = np.zeros((4, 5, 32), np.float32)
    good = (obs, np.zeros((4, 2), np.float32), np.zeros(4, bool))
    read_only = np.zeros((4, 2), np.float32)
    read_only.flags.writeable = False
    for out in [
        (obs, np.zeros((4, 3), np.float32), good[2]),  # wrong shape
        (obs, np.zeros((4, 2), np.float64), good[2]),  # wrong dtype
        (obs, good[1], np.zeros(5, bool)),
        (None, good[1], good[2]),  # observations asked for, no array for them
        (np.zeros((4, 5, 31), np.float32), good[1], good[2]),
        (obs, np.zeros((2, 4), np.float32).T, good[2]),  # not C-contiguous
        (obs, read_only, good[2]),
        (obs, good[1]),
        "rewards",
    ]:
        with pytest.raises(qiyi.ShapeError):
            v.step(v.sample_actions(), out=out)
    v.step(v.sample_actions(), out=good)
