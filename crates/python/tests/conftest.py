import random

import pytest

import qiyi

GAMES = ["xiangqi", "checkers", "chinese_checkers", "peg_solitaire", "aeroplane"]


def random_playout(state, rng, max_steps=3000, check=None):
    """Plays random actions (chance outcomes by their probabilities) until the end."""
    steps = 0
    while not state.is_terminal() and steps < max_steps:
        if check is not None:
            check(state)
        if state.is_chance_node():
            outcomes = state.chance_outcomes()
            actions = [a for a, _ in outcomes]
            probs = [p for _, p in outcomes]
            state.apply_action(rng.choices(actions, probs)[0])
        else:
            state.apply_action(rng.choice(state.legal_actions()))
        steps += 1
    return steps


@pytest.fixture
def rng():
    return random.Random(27)


@pytest.fixture(params=GAMES)
def game_name(request):
    return request.param


@pytest.fixture
def game(game_name):
    return qiyi.load_game(game_name)


@pytest.fixture(scope="module")
def local_ray():
    """A local Ray with 2 CPUs for one test module, shut down after it (the cluster tests use it
    through `pytestmark = pytest.mark.usefixtures("local_ray")`)."""
    ray = pytest.importorskip("ray", reason="ray is not installed")
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
    yield
    ray.shutdown()
