"""`ModelBot`: a policy trained on `TaktikEnv` playing as a bot, in self-play or at a live table.

Training sees the game through `TaktikEnv`: the observation of the agent's `player_view`
(`encode_observation`), an index of the `ActionSpace` of the game's board and roster, and
the mask of the legal indices. `ModelBot` encodes every decision the same way, from the
view a bot is given (which is exactly what a live seat receives: ``state.view`` of the
protocol), asks the model for an index and answers with the action at that index:

    from sb3_contrib import MaskablePPO
    from lab.rl import ModelBot

    bot = ModelBot(MaskablePPO.load("taktik_ppo.zip"))
    action, seed = bot.choose(view, legal, seed)

The model is anything with Stable-Baselines3's ``predict(obs, action_masks=mask,
deterministic=True) -> (index, state)``. Whether the observation carries the mask is read
from the model's ``observation_space`` (a model trained with ``mask_in_observation=False``
has no ``action_mask`` entry). As in the environment with ``auto_forced``, a decision with a
single legal action is played without asking, and one whose legal actions all lie outside
the space (never in the default rules) plays the first of them.

With ``deterministic=True`` (the default) the choice depends only on the view, so a game
replays exactly; the seed is passed through unchanged.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from engine import Action, GameState

from .actions import ActionSpace, roster_of
from .observation import encode_observation

__all__ = ["ModelBot"]


class ModelBot:
    """A trained model (``predict(obs, action_masks=..., deterministic=...)``) as a lab bot."""

    name = "model"

    def __init__(self, model: Any, *, deterministic: bool = True, mask_in_observation: bool | None = None) -> None:
        if not callable(getattr(model, "predict", None)):
            raise ValueError(f"a {type(model).__name__} has no predict(obs, action_masks=..., deterministic=...)")
        self.model = model
        self.deterministic = deterministic
        spaces = getattr(getattr(model, "observation_space", None), "spaces", None)
        self.mask_in_observation = (
            ("action_mask" in spaces if spaces is not None else True) if mask_in_observation is None
            else mask_in_observation
        )
        self._spaces: dict[tuple[int, int, tuple[str, ...]], ActionSpace] = {}

    def choose(self, view: GameState, legal: Sequence[Action], rng: int) -> tuple[Action, int]:
        """The model's action for the seat deciding in ``view`` (one of ``legal`` if the model obeys the mask)."""
        if not legal:
            raise ValueError("no legal action to choose from (the game is over)")
        if len(legal) == 1 or view.to_act is None:
            return legal[0], rng
        space = self.space_for(view)
        found, fitting = space.fit(legal, view)
        if not fitting:
            return legal[0], rng
        mask = np.zeros(space.size, dtype=np.int8)
        mask[np.fromiter(found, dtype=np.intp, count=len(found))] = 1
        obs = encode_observation(view, view.to_act, mask if self.mask_in_observation else None)
        predicted, _ = self.model.predict(obs, action_masks=mask, deterministic=self.deterministic)
        index = int(np.asarray(predicted).reshape(-1)[0])
        if index in found:
            return fitting[found.index(index)], rng
        return space.action_at(index, view), rng  # not legal: the caller refuses it (a live seat never sends it)

    def space_for(self, view: GameState) -> ActionSpace:
        """The action space of the game of ``view`` (its board and unit roster), numbered as the environment does."""
        key = (view.board.width, view.board.height, roster_of(view))
        space = self._spaces.get(key)
        if space is None:
            space = self._spaces[key] = ActionSpace(*key)
            size = getattr(getattr(self.model, "action_space", None), "n", None)
            if size is not None and int(size) != space.size:
                raise ValueError(f"the model was trained for {int(size)} actions; this game's board and units "
                                 f"number {space.size} (train it on this board size and forces)")
        return space
