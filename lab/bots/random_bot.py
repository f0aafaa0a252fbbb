"""The random bot: a uniform pick among the legal actions (the baseline every bot must beat)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from engine import Action, GameState, draw_index

__all__ = ["RandomBot", "pick_by_type"]


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
