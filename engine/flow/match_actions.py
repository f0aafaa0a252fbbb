"""Match actions: resigning, running out of time, claiming an abandoned seat (issue 17).

A match ends for reasons outside the rules of play: a player gives up, a clock runs out, a
player walks away. The engine knows nothing of clocks or connections; a server decides
*when* to submit these actions, and the engine decides *what they do*, so they sit in the
log and replay like any other action.

They are listed apart from the game moves (`match_actions`, never `legal_actions`), so a
bot, a fuzzer or an RL agent choosing among legal moves can never resign by accident;
`reduce` accepts an action iff one of the two listings holds it.

- ``RESIGN``: either side, its turn or not; the other side wins by ``"resignation"``.
- ``CLAIM_VICTORY``: the side *not* to act claims the win (``"abandonment"``); the server
  allows it only when the side to act has been away long enough.
- ``TIMEOUT`` for the side to act. ``clock: "game"``: it loses on ``"time"``.
  ``clock: "turn"``: its pending decision is forced (docs/decisions.md): deploying → the
  rest placed automatically and confirmed; holding priority → it passes; choosing malus
  victims → the malus is discarded unapplied; the active side → a drawn bonus is
  discarded, a drawn malus accepted (a targeted one first waits for its victims: the server
  times the side out again right after, as its turn has no time left), then the turn ends,
  dropping any declared or pending attack as ``END_TURN`` does.
"""

from __future__ import annotations

from typing import Final

from msgspec.structs import replace

from ..actions import (
    AcceptMalus,
    Action,
    AutoDeploy,
    ClaimVictory,
    ConfirmDeployment,
    DiscardBonus,
    PassReaction,
    Resign,
    Timeout,
)
from ..cards.game import card_of
from ..errors import IllegalAction
from ..pages import APPLY
from ..state import Event, GameState
from ..types import EventKind, Phase, Side
from .phases import awaiting_victims, enter
from .victory import declare_winner

__all__ = ["MATCH_ACTION_TYPES", "acting_side", "apply_match_action", "match_actions", "match_problem"]

MATCH_ACTION_TYPES: Final[frozenset[type]] = frozenset({Resign, Timeout, ClaimVictory})

_SIDES = (Side.ATTACKER, Side.DEFENDER)


def match_actions(state: GameState) -> list[Action]:
    """Every match action `reduce` accepts now, in canonical order; empty once the game is over.

    Resignations (ATTACKER, DEFENDER), then the timeouts of the side to act (game, turn),
    then the claim of the side not to act.

    >>> from engine import GameConfig, new_game
    >>> [a.__struct_config__.tag for a in match_actions(new_game(GameConfig(seed=7)))]
    ['RESIGN', 'RESIGN', 'TIMEOUT', 'TIMEOUT', 'CLAIM_VICTORY']
    """
    actor = state.to_act
    if state.phase is Phase.VICTORY or actor is None:
        return []
    return [
        *(Resign(side=side) for side in _SIDES),
        Timeout(side=actor, clock="game"),
        Timeout(side=actor, clock="turn"),
        ClaimVictory(side=actor.other),
    ]


def acting_side(state: GameState, action: Action) -> Side | None:
    """Who plays ``action`` in ``state``: a match action's ``side``, else the side to act (a log's seat)."""
    if isinstance(action, (Resign, Timeout, ClaimVictory)):
        return action.side
    return state.to_act


def match_problem(state: GameState, action: Action) -> IllegalAction | None:
    """Why `reduce` refuses the match action ``action`` now (code and words), or None when it accepts it."""
    tag = type(action).__struct_config__.tag
    if state.phase is Phase.VICTORY or state.to_act is None:
        return IllegalAction(f"the game is over ({state.victory_reason}); {tag} is not legal", "game_over")
    if action in match_actions(state):
        return None
    if isinstance(action, Timeout):
        return IllegalAction(f"only the side to act ({state.to_act.value}) can run out of time, not "
                             f"{action.side.value}", "not_to_act")
    if isinstance(action, ClaimVictory):
        return IllegalAction(f"{action.side.value} is to act: only {state.to_act.other.value} may claim the "
                             "seat of a side that must act", "not_to_act")
    return IllegalAction(f"{action!r} is not a match action", "unknown_action")


def apply_match_action(state: GameState, action: Action) -> GameState:
    """Apply a match action (``reduce`` has checked it with `match_problem`)."""
    if isinstance(action, Resign):
        return declare_winner(state, action.side.other, "resignation")
    if isinstance(action, ClaimVictory):
        return declare_winner(state, action.side, action.reason)
    assert isinstance(action, Timeout)
    if action.clock == "game":
        return declare_winner(state, action.side.other, "time")
    return _turn_timeout(state, action.side)


def _turn_timeout(state: GameState, side: Side) -> GameState:
    """The per-turn clock of ``side`` ran out: force its pending decision (see the module docstring)."""
    pending = state.pending_card
    discarded = pending.card if pending is not None and awaiting_victims(state) else None
    event = Event(kind=EventKind.TIME_RAN_OUT, side=side, card=discarded)
    state = replace(state, events=(*state.events, event))
    if state.phase is Phase.DEPLOYMENT:
        if any(u.side is side and u.cell is None for u in state.units):
            state = APPLY[AutoDeploy](state, AutoDeploy())
        return APPLY[ConfirmDeployment](state, ConfirmDeployment())
    if discarded is not None:  # the chooser of an accepted malus's victims forfeits it
        return replace(state, pending_card=None, discard_pile=(*state.discard_pile, discarded))
    if side is not state.active:  # the reacting side holds priority
        return APPLY[PassReaction](state, PassReaction())
    if pending is not None:
        if card_of(state.rules, pending.card).kind == "bonus":
            state = APPLY[DiscardBonus](state, DiscardBonus())
        else:
            state = APPLY[AcceptMalus](state, AcceptMalus())
            if awaiting_victims(state):
                return state
    return enter(state, Phase.END_TURN)
