"""How long a decision may take: a thinking budget from the seat's clock.

The server is the judge of time (docs/protocol.md, "Clocks on the socket"): when a seat's
clock reaches zero it appends a ``TIMEOUT`` and the seat loses the game (chess clock) or
its turn is forced (turn clock). A client that thinks must therefore keep every decision
well inside the time it has left. `think_budget` shares that time out:

* keep a **reserve** for the network and the server's own work: half a second plus a tenth
  of what is left, at most 3 s;
* a **turn clock** is shared by the seat's searched decisions of one turn
  (`SEARCHES_PER_TURN`, the handful of MOVEMENT and ATTACK decisions a turn holds);
* a **chess clock** is shared by the seat's turns still to come (up to the round limit,
  or `TURNS_AHEAD` without one), each with its searched decisions, plus the share of the
  increment one decision earns;
* no decision takes more than a quarter of what is usable.

The budget is advice for the policy: a lab bot with a time budget (MCTS) stops its search
when the budget is spent; a quick bot never needs it.

>>> from engine import GameConfig, Side, new_game, player_view
>>> from client.messages import SeatTimes
>>> view = player_view(new_game(GameConfig(seed=1)), Side.ATTACKER)
>>> clock = ClockView(initial_ms=600_000, increment_ms=5_000, per_turn_ms=None,
...     remaining_ms=SeatTimes(attacker=600_000, defender=600_000), running=Side.ATTACKER, server_time=0.0)
>>> round(think_budget(clock, Side.ATTACKER, view, waited=0.0), 2)
3.61
>>> think_budget(None, Side.ATTACKER, view, waited=0.0) is None
True
"""

from __future__ import annotations

from engine import GameState, Side

from .messages import ClockView

__all__ = ["SEARCHES_PER_TURN", "TURNS_AHEAD", "think_budget"]

SEARCHES_PER_TURN = 8
"""Decisions of one turn a bot may think about at length (the seat's moves and attacks)."""
TURNS_AHEAD = 10
"""The seat's turns still to come when no round limit says how many."""
_RESERVE_BASE, _RESERVE_SHARE, _RESERVE_MAX = 0.5, 0.1, 3.0
_MAX_SHARE = 0.25


def think_budget(clock: ClockView | None, seat: Side, view: GameState, waited: float) -> float | None:
    """Seconds ``seat`` may spend on the decision in ``view``; None when the match has no clock.

    ``waited`` is the time since the clock was read (the state's arrival): while the seat's
    clock runs, that time is already spent.
    """
    if clock is None:
        return None
    left = clock.remaining_ms.of(seat) / 1000 - (waited if clock.running is seat else 0.0)
    usable = max(0.0, left - min(_RESERVE_MAX, _RESERVE_BASE + _RESERVE_SHARE * max(0.0, left)))
    if clock.per_turn_ms is not None:
        budget = usable / SEARCHES_PER_TURN
    else:
        increment = (clock.increment_ms or 0) / 1000
        budget = usable / (SEARCHES_PER_TURN * _own_turns_left(view, seat)) + increment / SEARCHES_PER_TURN
    return min(budget, usable * _MAX_SHARE)


def _own_turns_left(view: GameState, seat: Side) -> int:
    """The seat's turns from this one to the round limit (each round is one turn of each side)."""
    limit = view.rules.victory.round_limit
    if limit is None:
        return TURNS_AHEAD
    turns_left = 2 * limit.max_rounds - view.turn + 1  # this turn included
    return max(1, (turns_left + (1 if view.active is seat else 0)) // 2)
