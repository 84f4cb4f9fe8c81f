"""PettingZoo's and Gymnasium's own checkers on the environments."""

import numpy as np
import pytest

pettingzoo = pytest.importorskip("pettingzoo", reason="pettingzoo is not installed")
gymnasium = pytest.importorskip("gymnasium", reason="gymnasium is not installed")

from gymnasium.utils.env_checker import check_env  # noqa: E402
from pettingzoo.test import api_test  # noqa: E402

from qiyi.envs import MULTIPLAYER, PegSolitaireEnv, aec_env  # noqa: E402


@pytest.mark.parametrize("name", MULTIPLAYER)
def test_pettingzoo_api(name):
    api_test(aec_env(name), num_cycles=300)


def test_pettingzoo_rules_and_a_full_game():
    env = aec_env("chinese_checkers", players=3, max_moves=30)
    env.reset(seed=4)
    assert env.possible_agents == ["player_0", "player_1", "player_2"]
    rng = np.random.default_rng(0)
    total = {a: 0.0 for a in env.possible_agents}
    for agent in env.agent_iter():
        obs, reward, term, trunc, _ = env.last()
        total[agent] += reward
        if term or trunc:
            env.step(None)
            continue
        legal = np.flatnonzero(obs["action_mask"])
        env.step(int(rng.choice(legal)))
    assert max(total.values()) > 0, "someone is ranked first when the cap stops the game"


def test_aeroplane_same_seed_same_game():
    def play(seed):
        env = aec_env("aeroplane", players=2)
        env.reset(seed=seed)
        moves = []
        for agent in env.agent_iter():
            obs, _, term, trunc, _ = env.last()
            if term or trunc:
                env.step(None)
                continue
            a = int(np.flatnonzero(obs["action_mask"])[0])
            moves.append((agent, a))
            env.step(a)
        return moves

    assert play(5) == play(5)
    assert play(5) != play(6)


def test_puzzle_is_refused_by_the_aec_env():
    import qiyi
    from qiyi.envs import QiyiAECEnv

    with pytest.raises(qiyi.Error, match="puzzle"):
        QiyiAECEnv("peg_solitaire")


def test_gymnasium_check_env():
    check_env(PegSolitaireEnv(), skip_render_check=True)
    check_env(PegSolitaireEnv(board="triangle", render_mode="ansi"))


def test_gymnasium_episode_and_illegal_action():
    env = PegSolitaireEnv()
    obs, info = env.reset(seed=0)
    assert obs.sum() == 32 and info["action_mask"].sum() == 4
    illegal = int(np.flatnonzero(info["action_mask"] == 0)[0])
    _, reward, terminated, truncated, info = env.step(illegal)
    assert (reward, terminated, truncated, info["illegal_action"]) == (-1.0, True, False, True)
    obs, info = env.reset()
    done, total = False, 0.0
    while not done:
        a = int(np.flatnonzero(info["action_mask"])[0])
        obs, reward, done, _, info = env.step(a)
        total += reward
    pegs = obs.sum()
    assert total == (1.0 if pegs == 1 else -(pegs - 1) / 32)
