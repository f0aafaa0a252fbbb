"""`TaktikEnv`: a Gymnasium-style single-agent environment (the other seat is a bot).

    env = TaktikEnv(opponent="greedy")
    obs, info = env.reset(seed=7)
    while True:
        action = policy(obs)                  # an index with obs["action_mask"][action] == 1
        obs, reward, terminated, truncated, info = env.step(action)
        if terminated or truncated:
            break

* **actions**: integers of the fixed `ActionSpace` of the game's board and roster; the
  mask (``obs["action_mask"]``, also ``info["action_mask"]``: one read-only array per
  step; ``action_masks()`` gives a copy) marks exactly the legal actions that fit the space — in
  the default rules, exactly ``legal_actions``. A masked index changes nothing and
  earns ``invalid_penalty`` (``info["invalid_action"]`` is True), or raises ValueError
  with ``invalid_action="raise"``. When the only legal actions do not fit the space
  (not in the default rules), the environment plays the first of them itself.
* **observations**: ``{"board", "features", "action_mask"}`` from ``player_view`` of the
  agent's seat (`lab.rl.observation`). With ``mask_in_observation=False`` the observation
  is ``{"board", "features"}`` only, so a policy network does not take the 36,000-wide
  mask as input; the mask is still ``info["action_mask"]`` and ``action_masks()``.
* **forced steps**: with ``auto_forced=True`` a decision with exactly one legal action is
  played by the environment (its rewards still reach the agent's next step), so every
  step the agent sees is a real choice. ``info["forced"]`` counts those plays.
* **rewards**: +1 for a win and −1 for a loss when the game ends; with ``shaping`` > 0,
  also ``shaping ×`` the change in (own − opponent) unit VP at every step.
* **episodes** end when the game does (``terminated``) or after ``max_steps`` agent
  steps (``truncated``). ``reset(seed=s)`` plays game seed ``s`` with the opponent
  seeded from it, so the same seed and actions give the same episode.

numpy is needed (the ``[rl]`` extra); gymnasium is not, but when it is installed the
class is a ``gymnasium.Env`` with ``Dict``/``Box``/``Discrete`` spaces.
"""

from __future__ import annotations

from bisect import bisect_left
from typing import Any, ClassVar

import numpy as np
from msgspec.structs import replace

from engine import Action, GameConfig, GameState, Side, legal_actions, new_game, player_view, reduce
from engine.analysis import encode_text, unit_vp

from ..bots import Bot, RandomBot, get_bot, seat_seed
from .actions import ActionSpace
from .observation import FEATURES, PLANES, encode_observation
from .spaces import EnvBase, make_spaces

__all__ = ["TaktikEnv"]


class TaktikEnv(EnvBase):  # type: ignore[misc]  # gymnasium.Env when installed, else object
    """One seat of a Taktik game, the other played by a bot from the registry."""

    metadata: ClassVar[dict[str, Any]] = {"render_modes": ["ansi"], "name": "taktik-v0"}

    def __init__(
        self,
        config: GameConfig | None = None,
        agent_side: Side = Side.ATTACKER,
        opponent: str | Bot = "random",
        opponent_options: dict[str, Any] | None = None,
        shaping: float = 0.0,
        max_steps: int | None = None,
        render_mode: str | None = None,
        invalid_action: str = "penalty",
        invalid_penalty: float = -0.1,
        mask_in_observation: bool = True,
        auto_forced: bool = False,
    ) -> None:
        if invalid_action not in ("penalty", "raise"):
            raise ValueError("invalid_action must be 'penalty' or 'raise'")
        self.invalid_action = invalid_action
        self.invalid_penalty = invalid_penalty
        self.config = config or GameConfig()
        self.agent_side = agent_side
        self.opponent: Bot = get_bot(opponent, **(opponent_options or {})) if isinstance(opponent, str) else opponent
        self.shaping = shaping
        self.max_steps = max_steps
        self.render_mode = render_mode
        self.mask_in_observation = mask_in_observation
        self.auto_forced = auto_forced
        probe = new_game(self.config)
        self.space = ActionSpace.for_state(probe)
        self.action_space, self.observation_space = make_spaces(
            self.space.size, probe.board.height, probe.board.width, PLANES, FEATURES, with_mask=mask_in_observation
        )
        self.state: GameState = probe
        self._seed = self.config.seed if self.config.seed is not None else 1
        self._opponent_seed = 0
        self._steps = 0
        self._found: list[int] = []  # indices of the agent's legal actions, in listing order
        self._fitting: list[Action] = []  # those actions
        self._mask: np.ndarray[Any, np.dtype[np.int8]] | None = None
        self._forced = 0

    # --- Gymnasium API ----------------------------------------------------------------

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[dict[str, np.ndarray[Any, Any]], dict[str, Any]]:
        """Start a game: ``seed`` picks the game (and the opponent's choices); None: the next seed."""
        if EnvBase is not object:
            super().reset(seed=seed)  # gymnasium's bookkeeping (its np_random is not used)
        if seed is not None:
            self._seed = seed & 0xFFFFFFFF
        elif self._steps or self.state.actions_taken:
            self._seed = (self._seed + 1) & 0xFFFFFFFF
        self.state = new_game(replace(self.config, seed=self._seed))
        self._opponent_seed = seat_seed(self._seed, self.agent_side.other)
        self._steps = 0
        self._forced = 0
        self._settle()
        return self._observe(), self._info()

    def step(
        self, action: int | np.integer[Any]
    ) -> tuple[dict[str, np.ndarray[Any, Any]], float, bool, bool, dict[str, Any]]:
        """Play the agent's action, then the opponent's until the agent must act again or the game ends."""
        index = int(action)
        found = self._found
        at = bisect_left(found, index)  # listings come in index order; else a scan
        try:
            chosen = self._fitting[at if at < len(found) and found[at] == index else found.index(index)]
        except ValueError:
            if self.invalid_action == "raise" or self.state.to_act is None:
                shown = self.space.describe(index) if 0 <= index < self.space.size else "out of range"
                raise ValueError(f"action {index} ({shown}) is not legal now") from None
            self._steps += 1
            truncated = self.max_steps is not None and self._steps >= self.max_steps
            self._mask = None  # the same decision again, but every step hands out new arrays
            return self._observe(), self.invalid_penalty, False, truncated, self._info() | {"invalid_action": True}
        before = self._vp_margin() if self.shaping else 0
        self.state = reduce(self.state, chosen)
        self._steps += 1
        self._settle()
        terminated = self.state.to_act is None
        truncated = not terminated and self.max_steps is not None and self._steps >= self.max_steps
        reward = self.shaping * (self._vp_margin() - before) if self.shaping else 0.0
        if terminated:
            reward += 1.0 if self.state.winner is self.agent_side else -1.0
        return self._observe(), float(reward), terminated, truncated, self._info()

    def render(self) -> str | None:
        """The agent's view as text (render mode ``"ansi"``)."""
        return encode_text(player_view(self.state, self.agent_side)) if self.render_mode == "ansi" else None

    def close(self) -> None:
        """Nothing to release."""

    # --- helpers ------------------------------------------------------------------------

    def action_masks(self) -> np.ndarray[Any, np.dtype[np.int8]]:
        """A copy of the current legal-action mask, the caller's to change (sb3-contrib's MaskablePPO calls this)."""
        return self._current_mask().copy()

    def _current_mask(self) -> np.ndarray[Any, np.dtype[np.int8]]:
        """The decision's mask: one read-only array, handed out as ``obs["action_mask"]`` and ``info["action_mask"]``.

        Read-only, so no caller can change what another reads, and no step copies it.
        """
        if self._mask is None:
            mask = np.zeros(self.space.size, dtype=np.int8)
            found = self._found
            if found:  # an index array first: numpy converts a list item by item, far slower
                mask[np.fromiter(found, dtype=np.intp, count=len(found))] = 1
            mask.flags.writeable = False
            self._mask = mask
        return self._mask

    def legal_action_indices(self) -> list[int]:
        """Indices of the legal actions that fit the space, ascending."""
        return sorted(self._found)

    def _settle(self) -> None:
        """Let the opponent (and forced or unfit actions) play until the agent decides or the game ends."""
        self._mask = None
        drawer = self.opponent if isinstance(self.opponent, RandomBot) else None
        while self.state.to_act is not None:
            if self.state.to_act is not self.agent_side:
                if drawer is not None:  # the same pick as `choose`, without listing every action
                    action, self._opponent_seed = drawer.draw(self.state, self._opponent_seed)
                else:
                    view = player_view(self.state, self.state.to_act)
                    legal = legal_actions(self.state)
                    action, self._opponent_seed = self.opponent.choose(view, legal, self._opponent_seed)
                self.state = reduce(self.state, action)
                continue
            legal = legal_actions(self.state)
            if self.auto_forced and len(legal) == 1:  # forced: played here, never indexed for a mask
                if self.space.index_of(legal[0], self.state) is not None:
                    self._forced += 1
                self.state = reduce(self.state, legal[0])
                continue
            found, fitting = self.space.fit(legal, self.state)
            if fitting:
                self._found, self._fitting = found, fitting
                return
            self.state = reduce(self.state, legal[0])
        self._found, self._fitting = [], []

    def _vp_margin(self) -> int:
        return unit_vp(self.state, self.agent_side) - unit_vp(self.state, self.agent_side.other)

    def _observe(self) -> dict[str, np.ndarray[Any, Any]]:
        view = player_view(self.state, self.agent_side)
        if self.mask_in_observation:
            return encode_observation(view, self.agent_side, self._current_mask())
        return encode_observation(view, self.agent_side, None)

    def _info(self) -> dict[str, Any]:
        return {
            "action_mask": self._current_mask(),
            "forced": self._forced,
            "turn": self.state.turn,
            "phase": self.state.phase.value,
            "winner": self.state.winner.value if self.state.winner else None,
            "victory_reason": self.state.victory_reason,
        }
