"""The random bot: a uniform pick among the legal actions (the baseline every bot must beat)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from engine import Action, GameState, draw_index, legal_actions, random_legal_action

__all__ = ["RandomBot", "SeedSource", "pick_by_type"]


def pick_by_type(legal: Sequence[Action], rng: int) -> tuple[Action, int]:
    """Pick an action type uniformly, then an action of that type uniformly (two LCG steps).

    Much better coverage than a flat pick when one type has hundreds of actions (moves,
    deployments) and another only one (NEXT_PHASE, PLAY_TACTIC).
    """
    kinds: dict[type, list[Action]] = {}
    for action in legal:
        kinds.setdefault(type(action), []).append(action)
    groups = list(kinds.values())
    g, rng = draw_index(len(groups), rng)
    i, rng = draw_index(len(groups[g]), rng)
    return groups[g][i], rng


class SeedSource:
    """A bot's LCG seed as an index source for `engine.random_legal_action`.

    ``randrange(n)`` is `draw_index` (one LCG step), except that a forced choice
    (``n == 1``) spends no step, exactly as `RandomBot.choose` does.
    """

    def __init__(self, seed: int) -> None:
        self.seed = seed

    def randrange(self, stop: int, /) -> int:
        """A uniform index in ``0..stop-1``; advances ``seed`` unless ``stop`` is 1."""
        if stop == 1:
            return 0
        index, self.seed = draw_index(stop, self.seed)
        return index


@dataclass(frozen=True)
class RandomBot:
    """Pick uniformly among the legal actions (``by_type``: first uniformly among action types)."""

    by_type: bool = False
    name: str = "random"

    def choose(self, view: GameState, legal: Sequence[Action], rng: int) -> tuple[Action, int]:
        """Return a uniformly chosen legal action and the next seed (one LCG step; none when forced)."""
        if not legal:
            raise ValueError("no legal action to choose from (the game is over)")
        if len(legal) == 1:
            return legal[0], rng
        if self.by_type:
            return pick_by_type(legal, rng)
        index, rng = draw_index(len(legal), rng)
        return legal[index], rng

    def draw(self, state: GameState, rng: int) -> tuple[Action, int]:
        """``choose(view, legal_actions(state), rng)`` without listing every legal action.

        The same action and next seed (the flat pick draws the same index over the same
        listing); a simulator that holds the full state (self-play, RL, fuzzing) uses this
        to skip building hundreds of MOVE_UNIT actions per position. ``by_type`` needs the
        listing, so it lists.
        """
        if self.by_type:
            return self.choose(state, legal_actions(state), rng)
        source = SeedSource(rng)
        action = random_legal_action(state, source)
        if action is None:
            raise ValueError("no legal action to choose from (the game is over)")
        return action, source.seed
