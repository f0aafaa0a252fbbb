"""What a policy is asked (`Turn`) and what it answers: one of the seat's actions.

A **policy** is any callable ``policy(turn) -> action``. It is called, on a worker thread,
whenever this seat must decide, with a `Turn`: the seat's view of the game (exactly what a
person in that seat sees: ``engine.player_view``), its legal actions in the engine's order,
the match actions it may send (``RESIGN``, a ``CLAIM_VICTORY``), the clocks and a thinking
budget in seconds. It returns one of ``turn.legal`` or ``turn.match_actions``: an engine
action, or its JSON (a dict or text) as the protocol spells it.

A lab bot (``lab.bots``: anything with ``choose(view, legal, seed) -> (action, seed)``)
becomes a policy through `BotPolicy`, which threads the bot's seed from decision to
decision as ``taktik selfplay`` does, and gives a bot that can think within a time (one
with ``within(seconds, clock)``, like MCTS) the turn's budget.
"""

from __future__ import annotations

import hashlib
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Protocol, runtime_checkable

import msgspec

from engine import Action, GameState, InvalidAction, Side, decode_action
from engine.analysis import Decision

from .errors import PolicyError
from .messages import ClockView

__all__ = ["BotPolicy", "ChoosingBot", "Policy", "Turn", "checked_action", "seat_seed_of"]


@dataclass(frozen=True)
class Turn:
    """One decision of the seat."""

    match_id: str
    seat: Side
    version: int  # the match version this decision is about
    view: GameState  # engine.player_view(state, seat): the game as this seat may see it
    legal: tuple[Action, ...]  # every game action the seat may play now, in the engine's order
    match_actions: tuple[Action, ...]  # RESIGN (and CLAIM_VICTORY while allowed) the seat may send now
    decision: Decision | None  # who decides and why (engine.decision), for a policy that words it
    clock: ClockView | None  # both clocks as the state carried them (None: no clock)
    budget: float | None  # seconds this decision may take, from the clock (client.budget); None: no clock


Policy = Callable[[Turn], Action | Mapping[str, Any] | str | bytes]
"""Maps the seat's `Turn` to the action it plays."""


@runtime_checkable
class ChoosingBot(Protocol):
    """A lab bot (``lab.bots.Bot``): picks one of ``legal`` for the seat of ``view`` with its own seed."""

    def choose(self, view: GameState, legal: Sequence[Action], rng: int) -> tuple[Action, int]: ...


class BotPolicy:
    """A lab bot as a policy: its seed threaded from decision to decision, the clock's budget passed on.

    ``seed`` is the bot's starting seed. ``taktik selfplay`` starts the bot of each side with
    ``lab.bots.seat_seed(game_seed, side)``, so that seed gives the same game over the wire;
    None draws one from the match id and the seat (`seat_seed_of`), the same on every run.
    """

    def __init__(self, bot: ChoosingBot, seed: int | None = None, clock: Callable[[], float] = time.monotonic) -> None:
        self.bot = bot
        self.seed = None if seed is None else seed & 0xFFFFFFFF
        self._clock = clock

    def __call__(self, turn: Turn) -> Action:
        chooser = self.bot
        within = getattr(chooser, "within", None)
        if turn.budget is not None and callable(within):
            chooser = within(turn.budget, self._clock)
        seed = self.seed if self.seed is not None else seat_seed_of(turn.match_id, turn.seat)
        action, self.seed = chooser.choose(turn.view, list(turn.legal), seed)
        return action


def seat_seed_of(match_id: str, seat: Side) -> int:
    """A bot's starting seed for ``seat`` of match ``match_id``: 32 bits of their SHA-256."""
    return int.from_bytes(hashlib.sha256(f"{match_id}:{seat.value}".encode()).digest()[:4], "big")


def checked_action(turn: Turn, chosen: object) -> Action:
    """``chosen`` as one of the turn's actions; `PolicyError` for anything else (it is never sent)."""
    action: object = chosen
    if isinstance(chosen, (Mapping, str, bytes)):
        try:
            action = decode_action(chosen)
        except InvalidAction as err:
            raise PolicyError(f"the policy returned {_shown(chosen)}, which is not an action: {err}") from None
    for known in (*turn.legal, *turn.match_actions):
        if action == known:
            return known
    if not isinstance(action, msgspec.Struct):
        raise PolicyError(f"the policy returned {_shown(chosen)}, not an action")
    raise PolicyError(f"the policy chose {_shown(action)}, which is not one of the seat's {len(turn.legal)} "
                      f"legal actions at version {turn.version}")


def _shown(value: object) -> str:
    try:
        text = msgspec.json.encode(value).decode() if isinstance(value, msgspec.Struct) else repr(value)
    except (TypeError, msgspec.EncodeError):
        text = repr(value)
    return text if len(text) <= 120 else text[:119] + "…"
