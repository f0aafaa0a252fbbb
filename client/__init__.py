"""A Python client for a Taktik server: play one seat of a live match with any policy (docs/client-api.md).

    from client import play_seat

    def policy(turn):                       # a Turn: the seat's view, legal actions, clock, budget
        return turn.legal[0]

    result = play_seat("http://127.0.0.1:8000/play/<match>#<token>", policy)
    print(result.describe())                # "match ...: DEFENDER won by round_limit ..."

It speaks the WebSocket protocol of docs/protocol.md (hello, state, act with version and
seq, acks and rejects, reconnect and resume, clocks, match actions) and depends only on
the engine's public names: never on the server's modules. A lab bot plays through
`BotPolicy`; `taktik join` is this package on the command line.
"""

from __future__ import annotations

from .budget import think_budget
from .errors import ClientError, LinkError, PolicyError, ProtocolError, SeatUnavailable, ServerGone
from .links import SeatLink, parse_seat_link
from .messages import ClockView, StateUpdate, Welcome
from .pacing import Pacer
from .play import JoinOptions, SeatResult, play, play_seat
from .policy import BotPolicy, ChoosingBot, Policy, Turn, checked_action
from .record import fetch_record
from .seat import Reply, Seat

__all__ = [
    "BotPolicy",
    "ChoosingBot",
    "ClientError",
    "ClockView",
    "JoinOptions",
    "LinkError",
    "Pacer",
    "Policy",
    "PolicyError",
    "ProtocolError",
    "Reply",
    "Seat",
    "SeatLink",
    "SeatResult",
    "SeatUnavailable",
    "ServerGone",
    "StateUpdate",
    "Turn",
    "Welcome",
    "checked_action",
    "fetch_record",
    "parse_seat_link",
    "play",
    "play_seat",
    "think_budget",
]
