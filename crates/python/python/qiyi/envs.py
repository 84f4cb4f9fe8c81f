"""PettingZoo and Gymnasium environments over qiyi games.

* :func:`aec_env` / :class:`QiyiAECEnv`: a PettingZoo AEC environment for the four games with
  opponents (``xiangqi``, ``checkers``, ``chinese_checkers``, ``aeroplane``). Observations are
  dicts ``{"observation": float32 tensor, "action_mask": int8 mask}`` as in PettingZoo's
  classic games; dice (aeroplane) are rolled inside the environment from its seeded generator.
  Rewards come at the end: each agent's return (``State.returns()``). The observation is the
  state's tensor, which for Chinese checkers and aeroplane is relative to the player to move, so
  an agent reading it on its own turn (``env.last()`` in the AEC loop) sees itself first; the
  action mask is all zeros for the agents not to move.
* :class:`PegSolitaireEnv`: a Gymnasium environment for peg solitaire. The observation is the
  pegs (float32, one per hole); ``info["action_mask"]`` marks the legal jumps. A legal jump gives
  reward 0 until no jump is left, then the return (+1 for one peg left, else
  ``-(pegs - 1) / (holes - 1)``). An illegal jump ends the episode with reward -1 (so random
  agents, and ``check_env``, never raise).

Both need the optional dependencies ``pettingzoo`` / ``gymnasium`` (``pip install qiyi[envs]``).
"""

import numpy as np

import qiyi

MULTIPLAYER = ("xiangqi", "checkers", "chinese_checkers", "aeroplane")

try:  # pettingzoo is optional
    from gymnasium import spaces
    from pettingzoo import AECEnv
except ImportError:  # pragma: no cover - exercised only without the extras
    AECEnv = object
    spaces = None

try:
    import gymnasium
except ImportError:  # pragma: no cover
    gymnasium = None


def _resolve_chance(state, rng):
    while state.is_chance_node():
        outcomes = state.chance_outcomes()
        probs = np.array([p for _, p in outcomes])
        k = rng.choice(len(outcomes), p=probs / probs.sum())
        state.apply_action(outcomes[k][0])


class QiyiAECEnv(AECEnv):
    """A PettingZoo AEC environment for one qiyi game (see the module documentation)."""

    metadata = {"render_modes": ["ansi", "human"], "is_parallelizable": False, "render_fps": 1}

    def __init__(self, game, render_mode=None, max_steps=5000, **rules):
        if AECEnv is object:
            raise ImportError("qiyi.envs needs pettingzoo and gymnasium: pip install qiyi[envs]")
        super().__init__()
        self.game = qiyi.load_game(game, **rules)
        if self.game.name not in MULTIPLAYER:
            raise qiyi.Error(
                f"{self.game.name} is a puzzle: use qiyi.envs.PegSolitaireEnv (Gymnasium)")
        self.metadata = dict(self.metadata, name=f"qiyi_{self.game.name}_v0")
        self.render_mode = render_mode
        self.max_steps = max_steps
        n = self.game.num_players()
        self.possible_agents = [f"player_{i}" for i in range(n)]
        self.agent_name_mapping = {a: i for i, a in enumerate(self.possible_agents)}
        shape = tuple(self.game.observation_tensor_shape())
        actions = self.game.num_distinct_actions()
        self.observation_spaces = {
            a: spaces.Dict({
                "observation": spaces.Box(0.0, 1.0, shape=shape, dtype=np.float32),
                "action_mask": spaces.Box(0, 1, shape=(actions,), dtype=np.int8),
            })
            for a in self.possible_agents
        }
        self.action_spaces = {a: spaces.Discrete(actions) for a in self.possible_agents}
        self.state = None
        self._rng = np.random.default_rng()

    def observation_space(self, agent):
        return self.observation_spaces[agent]

    def action_space(self, agent):
        return self.action_spaces[agent]

    def reset(self, seed=None, options=None):
        if seed is not None:
            self._rng = np.random.default_rng(seed)
        self.state = self.game.new_initial_state()
        _resolve_chance(self.state, self._rng)
        self.agents = self.possible_agents[:]
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos = {a: {} for a in self.agents}
        self.steps = 0
        self.agent_selection = self.possible_agents[max(self.state.current_player(), 0)]

    def observe(self, agent):
        mask = np.zeros(self.game.num_distinct_actions(), dtype=np.int8)
        if (not self.state.is_terminal()
                and self.state.current_player() == self.agent_name_mapping[agent]):
            mask[:] = self.state.legal_actions_mask()
        return {"observation": self.state.observation_tensor(), "action_mask": mask}

    def step(self, action):
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        self._cumulative_rewards[agent] = 0.0
        self.state.apply_action(int(action))
        _resolve_chance(self.state, self._rng)
        self.steps += 1
        if self.state.is_terminal():
            returns = self.state.returns()
            self.rewards = {a: float(returns[i]) for a, i in self.agent_name_mapping.items()}
            self.terminations = {a: True for a in self.agents}
        else:
            self.rewards = {a: 0.0 for a in self.agents}
            if self.steps >= self.max_steps:
                self.truncations = {a: True for a in self.agents}
            self.agent_selection = self.possible_agents[self.state.current_player()]
        self._accumulate_rewards()
        if self.render_mode == "human":
            self.render()

    def render(self):
        if self.render_mode is None:
            gymnasium.logger.warn("render() called without a render_mode")
            return None
        text = str(self.state)
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def close(self):
        pass


def aec_env(game, render_mode=None, **rules):
    """The PettingZoo AEC environment of ``game`` with ``rules`` (wrapped in PettingZoo's
    order-enforcing wrapper, as PettingZoo's own ``env()`` functions do)."""
    from pettingzoo.utils import wrappers

    return wrappers.OrderEnforcingWrapper(QiyiAECEnv(game, render_mode=render_mode, **rules))


class PegSolitaireEnv(gymnasium.Env if gymnasium is not None else object):
    """Peg solitaire as a Gymnasium environment (see the module documentation)."""

    metadata = {"render_modes": ["ansi", "human"], "render_fps": 1}

    def __init__(self, render_mode=None, **rules):
        if gymnasium is None:
            raise ImportError("qiyi.envs needs gymnasium: pip install qiyi[envs]")
        self.game = qiyi.load_game("peg_solitaire", **rules)
        self.render_mode = render_mode
        shape = tuple(self.game.observation_tensor_shape())
        self.observation_space = gymnasium.spaces.Box(0.0, 1.0, shape=shape, dtype=np.float32)
        self.action_space = gymnasium.spaces.Discrete(self.game.num_distinct_actions())
        self.state = self.game.new_initial_state()

    def _info(self):
        return {"action_mask": self.state.legal_actions_mask().astype(np.int8)}

    def reset(self, *, seed=None, options=None):
        super().reset(seed=seed)
        self.state = self.game.new_initial_state()
        return self.state.observation_tensor(), self._info()

    def step(self, action):
        action = int(action)
        if self.state.is_terminal() or action not in self.state.legal_actions():
            info = self._info()
            info["illegal_action"] = True
            return self.state.observation_tensor(), -1.0, True, False, info
        self.state.apply_action(action)
        done = self.state.is_terminal()
        reward = float(self.state.returns()[0]) if done else 0.0
        if self.render_mode == "human":
            self.render()
        return self.state.observation_tensor(), reward, done, False, self._info()

    def render(self):
        if self.render_mode is None:
            return None
        if self.render_mode == "human":
            print(str(self.state))
            return None
        return str(self.state)
