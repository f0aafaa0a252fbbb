"""Turn plans a bot remembers: the seat's action at each position of its turn that it foresaw.

A planning bot (MCTS, the evolutionary planner) searches once per turn, in a world sampled
from the view, and plays the whole turn it found: at a later decision whose position the
plan foresaw, it plays the plan's next action without searching again. Positions are
compared by `signature`, what the seat itself can see of them, so a plan made in a sampled
world is recognised in the real game whatever the hidden cards are. Any other position (an
enemy reaction changed something) is not in the memory and gets a fresh search.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from typing import Self

import msgspec

from engine import Action, GameState, Side

__all__ = ["MEMORY_SIZE", "Plan", "PlanMemory", "PlanningBot", "signature"]

MEMORY_SIZE = 4096
"""Remembered plan positions, over all games a shared bot plays (then the memory starts afresh)."""

_ENCODER = msgspec.json.Encoder()

Plan = tuple[tuple[bytes, Action], ...]
"""A turn plan: the seat's action at each position of the turn it foresaw (by `signature`)."""


def signature(state: GameState, side: Side) -> bytes:
    """What identifies a position for ``side``, whatever the hidden parts of the world."""
    me = state.player(side)
    return _ENCODER.encode(
        (
            state.turn,
            state.phase,
            state.to_act,
            state.units,
            state.attack_queue,
            state.pending_attack,
            state.last_roll,
            state.moves_this_turn,
            state.effects,
            state.reactions,
            me.stored,
            me.tactics,
            state.pending_card if state.pending_card is not None and state.pending_card.drawer is side else None,
        )
    )


class PlanMemory:
    """The positions a bot's chosen plans foresaw, and the action each plan plays there.

    Shared between a bot and its timed copies (``within``), so a seat that gives every
    decision its own budget keeps following the plan. Bounded by `MEMORY_SIZE`.
    """

    def __init__(self) -> None:
        self._actions: dict[bytes, Action] = {}

    def __len__(self) -> int:
        return len(self._actions)

    def planned(self, state: GameState, side: Side) -> Action | None:
        """The remembered action for ``side`` in ``state``, if a plan foresaw it."""
        return self._actions.get(signature(state, side))

    def remember(self, plan: Plan) -> None:
        """Keep every position of ``plan`` (the newest plan wins where two foresaw one position)."""
        if len(self._actions) + len(plan) > MEMORY_SIZE:
            self._actions.clear()  # one step: a server's bot threads may share the memory
        self._actions.update(plan)


class PlanningBot:
    """What the planning bots (`MCTSBot`, `EvolutionBot`) share: a time budget for a whole search (its
    `deadline`), and timed copies (`within`) that keep the remembered plan.

    A frozen dataclass with the fields ``time_budget``, ``clock`` and ``_memo`` (its `PlanMemory`)
    mixes this in.
    """

    time_budget: float | None
    clock: Callable[[], float] | None
    _memo: PlanMemory

    def deadline(self) -> float | None:
        """When a decision begun now runs out of this bot's time budget, on its ``clock`` (None: no budget)."""
        return None if self.time_budget is None or self.clock is None else self.clock() + self.time_budget

    def past(self, deadline: float | None) -> bool:
        """True once ``clock`` reads ``deadline`` or later (never without a deadline)."""
        return deadline is not None and self.clock is not None and self.clock() >= deadline

    def within(self, seconds: float, clock: Callable[[], float]) -> Self:
        """This bot searching for at most ``seconds`` of ``clock`` per decision (its search size stays the cap).

        The copy shares the turn plan this bot remembers, so a caller that gives each decision
        its own budget (a live seat's clock: `client.BotPolicy`) keeps following the plan.
        """
        # mypy cannot see that a dataclass mixes this in
        timed = replace(self, time_budget=max(0.0, seconds), clock=clock)  # type: ignore[type-var]
        object.__setattr__(timed, "_memo", self._memo)
        return timed
