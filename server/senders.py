"""Who sends each action: the one rule that acting on, loading and replicating a match share.

A game move is sent by the seat to act. A match action names its side and is sent for that
side whichever seat is to act (docs/protocol.md, "Match actions"): ``RESIGN`` by either seat,
its turn or not; ``CLAIM_VICTORY`` by the seat *not* to act; ``TIMEOUT`` for the seat to act
(appended by the server's clock, never sent by a client). `sender_of` says which seat that is,
and it is the seat an action's log row records (`ActionRow.seat`).

Every door a match action comes through asks `sender_of`, so no two of them can disagree:

- a socket's ``act`` (`MatchService.submit`): refused unless the socket's seat is the sender
  (`sender_problem`);
- a match loaded from its log (`server.matches.rebuild`) and a row another process committed
  (`MatchService.take_logged`): a row naming any other seat does not replay (`replay_row`);
- a fork's prefix (`server.creation`): each action is logged under the seat it names.

What the server adds for a live socket — a ``TIMEOUT`` only from its own clock, a claim only
once the seat to act has been away ``abandon_after`` — is judged once, when the action is
accepted. It is not judged again on replay: time and presence are not in the log, and the log
is the record of what was allowed.
"""

from __future__ import annotations

from engine import (
    MATCH_ACTION_ORDER,
    Action,
    GameState,
    ReplayMismatch,
    Side,
    acting_side,
    decode_action,
    reduce,
    state_hash,
)

from .protocol import ErrorCode
from .store import ActionRow

__all__ = ["replay_row", "sender_of", "sender_problem"]


def sender_of(state: GameState, action: Action) -> Side | None:
    """The seat that sends ``action`` in ``state``: a match action's side, else the seat to act.

    None once the game is over: nobody sends anything then.
    """
    if state.to_act is None:
        return None
    return acting_side(state, action)


def sender_problem(state: GameState, seat: Side, action: Action) -> tuple[ErrorCode, str] | None:
    """Why ``seat`` may not send ``action`` in ``state`` (a protocol code and a reason), or None when it may."""
    sender = sender_of(state, action)
    if sender is seat:
        return None
    if type(action) in MATCH_ACTION_ORDER:
        named = sender.value if sender is not None else "nobody"
        return "forbidden", f"this socket plays {seat.value}; it cannot act for {named}"
    who = state.to_act.value if state.to_act is not None else "nobody"
    return "not_your_turn", f"{who} must decide now, not {seat.value}"


def replay_row(state: GameState, row: ActionRow) -> tuple[GameState, Action]:
    """The position after the logged ``row`` and its action; raises when the row does not replay.

    The row must name the action's sender (`sender_of`) and lead to its stored hash
    (`ReplayMismatch` otherwise); an action the engine refuses raises as the engine does.
    """
    action = decode_action(row.action, state)
    sender = sender_of(state, action)
    if sender is None or sender.value != row.seat:
        tag = type(action).__struct_config__.tag
        raise ValueError(f"the log says {row.seat} sent {tag}, but {sender.value if sender else 'nobody'} sends it")
    after = reduce(state, action)
    digest = state_hash(after)
    if digest != row.state_hash:
        raise ReplayMismatch(row.ply, row.state_hash, digest, row.action)
    return after, action
