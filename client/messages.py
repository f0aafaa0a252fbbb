"""The WebSocket messages this client sends and reads, as its own msgspec types (docs/protocol.md).

The wire is the contract, not the server's Python classes: a client may run against a
server of another release, on another machine, and the server's modules are free to move.
So the client declares the messages it uses from the documented JSON, and reads them as a
tolerant reader:

* a field the client does not know is skipped (a newer server may add fields);
* a message type the client does not know is skipped (`decode_server` returns None), so
  answers to questions it never asks, or a future notification, never stop a game;
* the game's own types (`GameState`, `Action`, `Decision`, `Event`) are the engine's, which
  the client shares with the server (the welcome's ``rules_version`` says whether they agree).

``tests/client/test_messages.py`` decodes every server message type, as the server encodes
it, with these types, and checks that every field declared here is one the server sends.
"""

from __future__ import annotations

from typing import Literal

import msgspec

from engine import Action, Event, GameState, Side
from engine.analysis import Decision

__all__ = [
    "Ack",
    "Act",
    "ClockUpdate",
    "ClockView",
    "EventText",
    "Hello",
    "PresenceUpdate",
    "PresenceView",
    "Reject",
    "SeatTimes",
    "ServerMessage",
    "StateUpdate",
    "Welcome",
    "decode_server",
    "encode_client",
]

MatchStatus = Literal["live", "over", "broken", "other_rules"]
READ_ONLY: frozenset[str] = frozenset({"broken", "other_rules"})
"""Statuses of a match served read-only: every act is refused."""


# --- client → server -------------------------------------------------------------------


class _Client(msgspec.Struct, frozen=True, kw_only=True, tag_field="type"):
    """Base of the messages this client sends."""


class Hello(_Client, frozen=True, kw_only=True, tag="hello"):
    """First message of every socket: the seat token (None: watch as a spectator)."""

    token: str | None


class Act(_Client, frozen=True, kw_only=True, tag="act"):
    """Play ``action``, decided at match ``version``; ``seq`` makes a resend idempotent."""

    version: int
    seq: int
    action: Action


_ENCODER = msgspec.json.Encoder()


def encode_client(message: Hello | Act) -> str:
    """The text frame of a client message."""
    return _ENCODER.encode(message).decode()


# --- server → client -------------------------------------------------------------------


class _Server(msgspec.Struct, frozen=True, kw_only=True, tag_field="type"):
    """Base of the server messages this client reads."""


class Welcome(_Server, frozen=True, kw_only=True, tag="welcome"):
    """The answer to a good ``hello``."""

    match_id: str
    seat: Side | None  # None: a spectator
    mode: str  # human | hotseat | bot | outside_bot
    seed_commitment: str
    rules_version: str
    server_version: str
    max_message_bytes: int


class SeatTimes(msgspec.Struct, frozen=True, kw_only=True):
    """Each seat's time, in milliseconds."""

    attacker: int
    defender: int

    def of(self, side: Side) -> int:
        """The time of ``side``."""
        return self.attacker if side is Side.ATTACKER else self.defender


class ClockView(msgspec.Struct, frozen=True, kw_only=True):
    """Both clocks at ``server_time``: a chess clock (``initial_ms``, ``increment_ms``) or a turn clock."""

    initial_ms: int | None
    increment_ms: int | None
    per_turn_ms: int | None
    remaining_ms: SeatTimes
    running: Side | None  # the seat whose clock runs (None: no clock runs now)
    server_time: float


class PresenceView(msgspec.Struct, frozen=True, kw_only=True):
    """Which seats are connected, and when the seat not to act may claim the win."""

    attacker: bool
    defender: bool
    claim_at: float | None


class EventText(msgspec.Struct, frozen=True, kw_only=True):
    """An event of the last step with its sentence, as this seat may see it."""

    event: Event
    text: str


class StateUpdate(_Server, frozen=True, kw_only=True, tag="state"):
    """The match at ``version`` as this seat may see it."""

    match_id: str
    version: int
    status: MatchStatus
    seat: Side | None
    to_act: Side | None
    legal_actions: tuple[Action, ...]  # empty unless this seat must decide now
    last_seq: int  # the highest `act` seq the server accepted from this seat
    view: GameState  # engine.player_view for this seat
    events: tuple[EventText, ...] = ()
    decision: Decision | None = None
    broken_reason: str | None = None
    clock: ClockView | None = None
    presence: PresenceView | None = None
    match_actions: tuple[Action, ...] = ()  # RESIGN / CLAIM_VICTORY this seat may send now


class Ack(_Server, frozen=True, kw_only=True, tag="ack"):
    """The `act` with ``seq`` is durable; the match is at ``version``."""

    seq: int
    version: int


class Reject(_Server, frozen=True, kw_only=True, tag="reject"):
    """A message changed nothing: ``code`` is stable, ``reason`` is for people."""

    code: str
    reason: str
    seq: int | None = None


class ClockUpdate(_Server, frozen=True, kw_only=True, tag="clock"):
    """The clocks started or stopped without an action."""

    clock: ClockView


class PresenceUpdate(_Server, frozen=True, kw_only=True, tag="presence"):
    """A seat connected or went away."""

    presence: PresenceView


ServerMessage = Welcome | StateUpdate | Ack | Reject | ClockUpdate | PresenceUpdate


class _Kind(msgspec.Struct):
    type: str


_KIND = msgspec.json.Decoder(_Kind)
_READ = (Welcome, StateUpdate, Ack, Reject, ClockUpdate, PresenceUpdate)
_KNOWN = frozenset(str(cls.__struct_config__.tag) for cls in _READ)
_DECODER: msgspec.json.Decoder[ServerMessage] = msgspec.json.Decoder(ServerMessage)


def decode_server(frame: str | bytes) -> ServerMessage | None:
    """One server frame as its message; None for a type this client does not read.

    Raises ``msgspec.DecodeError`` for a frame that is not a server message at all.
    """
    if _KIND.decode(frame).type not in _KNOWN:
        return None
    return _DECODER.decode(frame)
