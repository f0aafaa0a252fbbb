"""Play one seat to the end with a policy: `play_seat(link, policy)` (or ``await play(...)``).

The loop asks the policy whenever the seat has legal actions at a version it has not
decided yet, checks the answer is one of the seat's actions (anything else is a
`PolicyError`, never sent), plays it, and goes on with whatever the server says next:

* ``stale_version``, ``not_your_turn``, ``game_over``: the match moved (a timeout, a
  claim); the next state decides;
* ``illegal_action`` for an action the server itself listed, or ``bad_message``: this
  client and the server disagree on the protocol or the rules (`ProtocolError`); the
  action is never sent again;
* ``forbidden``: the seat may not act any more (`SeatUnavailable`).

When the other seat has abandoned the game and the server offers this seat
``CLAIM_VICTORY``, the seat claims it (``claim=False`` waits instead). The loop ends when
the match is over, with a `SeatResult`.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import threading
import time
from dataclasses import dataclass

from engine import RULES_VERSION, Action, ClaimVictory, Side, encode_action

from .budget import think_budget
from .errors import PolicyError, ProtocolError, SeatUnavailable
from .links import SeatLink, parse_seat_link
from .messages import READ_ONLY, Ack, StateUpdate
from .pacing import DEFAULT_ACTION_BURST, DEFAULT_ACTION_RATE, Pacer
from .policy import Policy, Turn, checked_action
from .seat import Reply, Seat

__all__ = ["JoinOptions", "SeatResult", "play", "play_seat"]

log = logging.getLogger("taktik.client")

_MOVED_ON = ("stale_version", "not_your_turn", "game_over")


@dataclass(frozen=True)
class JoinOptions:
    """How a seat is played over the wire."""

    reconnect_for: float = 300.0  # seconds to keep reconnecting after the socket is lost (a server restart)
    connect_for: float = 10.0  # seconds to keep trying to reach the server at first (at most reconnect_for)
    action_rate: float | None = DEFAULT_ACTION_RATE  # actions a second after the burst (None: no pacing)
    action_burst: int = DEFAULT_ACTION_BURST
    claim: bool = True  # claim the win when the server allows it (the other seat abandoned the game)


@dataclass(frozen=True)
class SeatResult:
    """How the game ended for the seat."""

    match_id: str
    seat: Side
    winner: Side | None
    reason: str | None  # engine.VICTORY_REASONS
    actions: int  # actions in the match's log
    reconnects: int  # times the socket was lost and opened again
    seed_commitment: str  # as the welcome carried it: `fetch_record` checks the revealed seed against it

    @property
    def won(self) -> bool:
        """True when the seat won."""
        return self.winner is self.seat

    def describe(self) -> str:
        """One line for people."""
        outcome = "won" if self.won else "lost"
        winner = self.winner.value if self.winner is not None else "nobody"
        return (f"match {self.match_id}: {winner} won by {self.reason or 'no reason given'} after {self.actions} "
                f"actions; this seat ({self.seat.value}) {outcome}")


def play_seat(link: SeatLink | str, policy: Policy, options: JoinOptions | None = None) -> SeatResult:
    """Play the seat ``link`` opens to the end with ``policy``; raises a `client.ClientError` when it cannot."""
    return asyncio.run(play(link, policy, options))


async def play(link: SeatLink | str, policy: Policy, options: JoinOptions | None = None) -> SeatResult:
    """`play_seat` on the running event loop."""
    options = options or JoinOptions()
    seat = Seat(parse_seat_link(link) if isinstance(link, str) else link, reconnect_for=options.reconnect_for,
                connect_for=min(options.connect_for, options.reconnect_for),
                pacer=Pacer(options.action_rate, options.action_burst))
    await seat.open()
    try:
        return await _play(seat, policy, options)
    finally:
        await seat.close()


async def _play(seat: Seat, policy: Policy, options: JoinOptions) -> SeatResult:
    assert seat.welcome is not None
    me, match_id = seat.welcome.seat, seat.link.match_id
    if me is None:
        raise SeatUnavailable(f"the link opens no seat of match {match_id}")
    first = seat.state
    if first.status in READ_ONLY:
        raise SeatUnavailable(f"match {match_id} is read-only: {first.broken_reason or first.status}")
    if first.status == "over":
        raise SeatUnavailable(f"match {match_id} is already over: {_ending(first)}")
    if seat.welcome.rules_version != RULES_VERSION:
        log.warning("match %s is played under rules %s; this client's engine is %s: its bots may misjudge",
                    match_id, seat.welcome.rules_version, RULES_VERSION)
    log.info("joined match %s as %s at version %d", match_id, me.value, first.version)
    decided = claimed = -1
    while True:
        generation, state = seat.generation, seat.state
        if state.status == "over":
            return SeatResult(match_id=match_id, seat=me, winner=state.view.winner, reason=state.view.victory_reason,
                              actions=state.version, reconnects=seat.reconnects,
                              seed_commitment=seat.welcome.seed_commitment)
        if state.status in READ_ONLY:
            raise SeatUnavailable(f"match {match_id} became read-only: {state.broken_reason or state.status}")
        if state.legal_actions and state.to_act is me and state.version > decided:
            decided = state.version
            turn = _turn(seat, me, state)
            action = checked_action(turn, await _think(policy, turn))
            if seat.state.version == turn.version:  # else the match moved on while the policy thought
                _judge(await seat.act(action), action)
            continue
        claim = next((a for a in state.match_actions if isinstance(a, ClaimVictory) and a.side is me), None)
        if claim is not None and options.claim and state.version > claimed:
            claimed = state.version
            reply = await seat.act(claim)
            answer = "accepted" if isinstance(reply, Ack) else f"refused ({reply.code}: {reply.reason})"
            log.info("match %s: claimed the win (the other seat abandoned it): %s", match_id, answer)
            continue
        await seat.changed(generation)


def _turn(seat: Seat, me: Side, state: StateUpdate) -> Turn:
    waited = time.monotonic() - seat.received_at
    return Turn(match_id=state.match_id, seat=me, version=state.version, view=state.view, legal=state.legal_actions,
                match_actions=state.match_actions, decision=state.decision, clock=state.clock,
                budget=think_budget(state.clock, me, state.view, waited))


def _judge(reply: Reply, action: Action) -> None:
    """Go on after ``reply`` to ``action``, or raise what it means."""
    if isinstance(reply, Ack) or reply.code in _MOVED_ON:
        return
    shown = encode_action(action)
    if reply.code == "forbidden":
        raise SeatUnavailable(f"the server refuses this seat's actions: {reply.reason}")
    if reply.code == "illegal_action":
        raise ProtocolError(f"the server refused {shown}, which it had listed as legal ({reply.reason}); "
                            "is it another taktik release?")
    raise ProtocolError(f"the server refused {shown} ({reply.code}: {reply.reason})")


async def _think(policy: Policy, turn: Turn) -> object:
    """``policy(turn)`` on a daemon thread (a policy that never returns cannot keep the process alive),
    while this loop goes on reading the socket and answering pings."""
    loop = asyncio.get_running_loop()
    done: asyncio.Future[object] = loop.create_future()

    def settle(result: object, error: PolicyError | None) -> None:
        if done.done():
            return
        if error is not None:
            done.set_exception(error)
        else:
            done.set_result(result)

    def work() -> None:
        error: PolicyError | None = None
        result: object = None
        try:
            result = policy(turn)
        except BaseException as err:  # whatever the policy raised (SystemExit too) is its failure, said in one line
            error = PolicyError(f"the policy raised {type(err).__name__}: {_first_line(err)}")
            error.__cause__ = err
        with contextlib.suppress(RuntimeError):  # the loop is gone: nobody waits any more
            loop.call_soon_threadsafe(settle, result, error)

    threading.Thread(target=work, name="taktik-policy", daemon=True).start()
    return await done


def _first_line(err: BaseException) -> str:
    text = str(err).strip().splitlines()[0] if str(err).strip() else "(no message)"
    return text if len(text) <= 200 else text[:199] + "…"


def _ending(state: StateUpdate) -> str:
    winner = state.view.winner.value if state.view.winner is not None else "nobody"
    return f"{winner} won by {state.view.victory_reason or 'no reason given'} after {state.version} actions"
