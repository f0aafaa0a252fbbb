"""`TaktikAECEnv`: both seats as agents, in PettingZoo's agent-environment-cycle style.

    env = TaktikAECEnv()
    env.reset(seed=7)
    for agent in env.agent_iter():
        obs, reward, termination, truncation, info = env.last()
        action = None if termination or truncation else policy(agent, obs)
        env.step(action)

Agents are ``"ATTACKER"`` and ``"DEFENDER"``; ``agent_selection`` is always the seat that
must decide (``state.to_act``; reaction windows and malus victims included), so turns do
not simply alternate. Observations, the action space and the mask are those of
`TaktikEnv`, per agent (``observe(agent)`` uses ``player_view`` of that seat). Rewards:
+1 / −1 to the winner / loser when the game ends (plus optional VP ``shaping`` to both,
zero-sum). When the game ends every agent is terminated; each is then stepped once with
``None`` and leaves ``agents``, as PettingZoo expects: that step clears the rewards of
the step before, so ``last()`` always shows exactly the rewards accumulated since the
agent last acted. ``max_steps`` truncates both.

``mask_in_observation=False`` keeps the mask out of the observation (it stays in
``infos[agent]["action_mask"]`` and ``action_mask(agent)``); ``auto_forced=True`` plays a
decision with exactly one legal action without asking its agent (as in `TaktikEnv`).
"""

from __future__ import annotations

from typing import Any, ClassVar

import numpy as np
from msgspec.structs import replace

from engine import Action, GameConfig, GameState, Side, legal_actions, new_game, player_view, reduce
from engine.analysis import encode_text, unit_vp

from .actions import ActionSpace
from .observation import FEATURES, PLANES, encode_observation
from .spaces import AECBase, make_spaces

__all__ = ["TaktikAECEnv"]

_SIDES = {"ATTACKER": Side.ATTACKER, "DEFENDER": Side.DEFENDER}


class TaktikAECEnv(AECBase):  # type: ignore[misc]  # pettingzoo.AECEnv when installed, else object
    """Two agents, one per seat, taking turns as the rules say."""

    metadata: ClassVar[dict[str, Any]] = {"render_modes": ["ansi"], "name": "taktik_aec_v0", "is_parallelizable": False}

    def __init__(
        self,
        config: GameConfig | None = None,
        shaping: float = 0.0,
        max_steps: int | None = None,
        render_mode: str | None = None,
        mask_in_observation: bool = True,
        auto_forced: bool = False,
    ) -> None:
        self.config = config or GameConfig()
        self.mask_in_observation = mask_in_observation
        self.auto_forced = auto_forced
        self.shaping = shaping
        self.max_steps = max_steps
        self.render_mode = render_mode
        self.possible_agents = ["ATTACKER", "DEFENDER"]
        probe = new_game(self.config)
        self.space = ActionSpace.for_state(probe)
        action_space, observation_space = make_spaces(
            self.space.size, probe.board.height, probe.board.width, PLANES, FEATURES, with_mask=mask_in_observation
        )
        self.action_spaces = dict.fromkeys(self.possible_agents, action_space)
        self.observation_spaces = dict.fromkeys(self.possible_agents, observation_space)
        self.state: GameState = probe
        self._seed = self.config.seed if self.config.seed is not None else 1
        self._started = False
        self._steps = 0
        self._by_index: dict[int, Action] = {}
        self._mask = np.zeros(self.space.size, dtype=np.int8)
        self._no_mask = np.zeros(self.space.size, dtype=np.int8)
        self._no_mask.flags.writeable = False  # handed out to every caller: nobody may change it
        self.agents: list[str] = []
        self.rewards: dict[str, float] = {}
        self._cumulative_rewards: dict[str, float] = {}
        self.terminations: dict[str, bool] = {}
        self.truncations: dict[str, bool] = {}
        self.infos: dict[str, dict[str, Any]] = {}
        self.agent_selection = "ATTACKER"

    # --- PettingZoo API -----------------------------------------------------------------

    def observation_space(self, agent: str) -> Any:
        """The observation space of ``agent``."""
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> Any:
        """The action space of ``agent``."""
        return self.action_spaces[agent]

    @property
    def num_agents(self) -> int:
        """Agents still in the episode."""
        return len(self.agents)

    @property
    def max_num_agents(self) -> int:
        """Two seats."""
        return len(self.possible_agents)

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """Start a game: ``seed`` picks the game; None: the next seed."""
        if seed is not None:
            self._seed = seed & 0xFFFFFFFF
        elif self._started:
            self._seed = (self._seed + 1) & 0xFFFFFFFF
        self._started = True
        self.state = new_game(replace(self.config, seed=self._seed))
        self._steps = 0
        self.agents = list(self.possible_agents)
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos = {a: {} for a in self.agents}
        self._refresh()

    def observe(self, agent: str) -> dict[str, np.ndarray[Any, Any]]:
        """``agent``'s observation; its mask (unless kept out) is empty unless it must decide now."""
        side = _SIDES[agent]
        mask = self.action_mask(agent) if self.mask_in_observation else None
        return encode_observation(player_view(self.state, side), side, mask)

    def action_mask(self, agent: str) -> np.ndarray[Any, np.dtype[np.int8]]:
        """1 at each legal action of ``agent`` now; all 0 unless it must decide."""
        return self._mask if self.state.to_act is _SIDES[agent] else self._no_mask

    def last(self, observe: bool = True) -> tuple[Any, float, bool, bool, dict[str, Any]]:
        """``(observation, cumulative reward, termination, truncation, info)`` of the selected agent."""
        agent = self.agent_selection
        obs = self.observe(agent) if observe else None
        return (
            obs,
            self._cumulative_rewards[agent],
            self.terminations[agent],
            self.truncations[agent],
            self.infos[agent],
        )

    def agent_iter(self, max_iter: int = 2**63) -> Any:
        """Yield the selected agent until every agent has left (or ``max_iter`` times)."""
        for _ in range(max_iter):
            if not self.agents:
                return
            yield self.agent_selection

    def step(self, action: int | np.integer[Any] | None) -> None:
        """Play the selected agent's action (``None`` for an agent that is done)."""
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            if action is not None:
                raise ValueError(f"{agent} is done: step it with None")
            self._remove(agent)
            # Rewards are per step: the ones of the step that ended the game were accumulated
            # then, and must not be counted again for the agents still to leave.
            self.rewards = dict.fromkeys(self.agents, 0.0)
            return
        if action is None or int(action) not in self._by_index:
            shown = "None" if action is None else self.space.describe(int(action))
            raise ValueError(f"action {action} ({shown}) is not legal for {agent} now")
        before = self._margin()
        self._cumulative_rewards[agent] = 0.0
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self.state = reduce(self.state, self._by_index[int(action)])
        self._steps += 1
        self._refresh()
        gain = self.shaping * (self._margin() - before)
        self.rewards["ATTACKER"] += gain
        self.rewards["DEFENDER"] -= gain
        if self.state.to_act is None:
            winner = self.state.winner.value if self.state.winner else None
            for a in self.agents:
                self.rewards[a] += 1.0 if a == winner else -1.0
                self.terminations[a] = True
        elif self.max_steps is not None and self._steps >= self.max_steps:
            for a in self.agents:
                self.truncations[a] = True
        for a in self.agents:
            self._cumulative_rewards[a] += self.rewards[a]

    def render(self) -> str | None:
        """The spectator's view as text (render mode ``"ansi"``)."""
        return encode_text(player_view(self.state, None)) if self.render_mode == "ansi" else None

    def close(self) -> None:
        """Nothing to release."""

    # --- helpers ------------------------------------------------------------------------

    def _margin(self) -> int:
        return unit_vp(self.state, Side.ATTACKER) - unit_vp(self.state, Side.DEFENDER)

    def _refresh(self) -> None:
        """Play forced (with ``auto_forced``) and unfit actions, then select the agent that must decide."""
        while self.state.to_act is not None:
            legal = legal_actions(self.state)
            fitting = self.space.indices(legal, self.state)
            if fitting and not (self.auto_forced and len(legal) == 1):
                self._by_index = fitting
                self._mask = np.zeros(self.space.size, dtype=np.int8)
                self._mask[list(fitting)] = 1
                self._mask.flags.writeable = False  # shared by observe(), infos and action_mask()
                self.agent_selection = self.state.to_act.value
                for a in self.agents:
                    self.infos[a] = {"action_mask": self._mask} if a == self.agent_selection else {}
                return
            self.state = reduce(self.state, legal[0])
        self._by_index = {}
        self._mask = self._no_mask
        self.infos = {a: {} for a in self.agents}  # nobody decides any more

    def _remove(self, agent: str) -> None:
        self.agents.remove(agent)
        for table in (self.rewards, self._cumulative_rewards, self.terminations, self.truncations, self.infos):
            table.pop(agent, None)
        if self.agents:
            self.agent_selection = self.agents[0]
