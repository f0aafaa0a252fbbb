"""The WebSocket protocol: every message as a msgspec type (docs/protocol.md).

Client messages are one tagged union (`ClientMessage`, tag field ``"type"``) decoded in
one strict pass by a module-level decoder: unknown types and fields, wrong types (``true``
is not an int), out-of-range numbers and malformed actions all fail with a reason naming
the JSON path. Server messages are encoded once per viewer kind and sent as text frames.
"""

from __future__ import annotations

from typing import Annotated, Literal

import msgspec
from msgspec import UNSET, Meta, UnsetType

from engine import Action, Event, GameState, Side
from engine.analysis import AttackPreview, Decision, MovePreview, ThreatMap
from engine.data import TerrainChar

from .catalogue import CardInfo
from .clocks import ClockView
from .jsonkeys import check_unique_keys
from .presence import PresenceView
from .rematch import RematchView
from .score import Score

__all__ = [
    "ERROR_CODES",
    "Ack",
    "Act",
    "AttackPreviewAnswer",
    "ClientMessage",
    "ClockUpdate",
    "ErrorCode",
    "EventText",
    "Explain",
    "Explanation",
    "Hello",
    "Hint",
    "HintAnswer",
    "MatchStatus",
    "MovePreviewAnswer",
    "PresenceUpdate",
    "PreviewAttack",
    "PreviewMove",
    "Query",
    "Reject",
    "RematchChoice",
    "RematchUpdate",
    "ServerMessage",
    "StateUpdate",
    "Sync",
    "Welcome",
    "decode_client",
    "encode",
]

ErrorCode = Literal[
    "bad_message",  # not JSON, wrong shape, unknown type, a reused sequence number
    "unauthenticated",  # no `hello` yet, or a wrong seat token
    "forbidden",  # a spectator acting; a read-only match (broken, or played under other rules)
    "not_your_turn",  # the other seat must decide now
    "stale_version",  # the action was based on an older version of the match
    "illegal_action",  # the engine refused the action
    "game_over",  # the match is finished
    "rate_limited",  # too many messages or connections
    "internal_error",  # the server failed; nothing changed
    "unavailable",  # the shared database cannot be reached now; nothing acknowledged, retry later
]
ERROR_CODES: tuple[str, ...] = ErrorCode.__args__  # type: ignore[attr-defined]

MatchStatus = Literal["live", "over", "broken", "other_rules"]
"""``broken``: its log no longer replays; ``other_rules``: stored under another `RULES_VERSION`.
Both are served read-only."""

MAX_VERSION = 10_000_000
MAX_SEQ = 2**53 - 1  # the largest integer a JavaScript number holds exactly
Version = Annotated[int, Meta(ge=0, le=MAX_VERSION)]
Seq = Annotated[int, Meta(ge=1, le=MAX_SEQ)]
Token = Annotated[str, Meta(min_length=1, max_length=256)]
RequestId = Annotated[int, Meta(ge=1, le=MAX_SEQ)]
UnitRef = Annotated[str, Meta(min_length=1, max_length=16)]


class _Client(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True, tag_field="type"):
    """Base of client messages."""


class Hello(_Client, frozen=True, kw_only=True, tag="hello"):
    """First message of every socket: bind it to a seat by its token, or to no seat (spectator)."""

    token: Token | None = None


class Act(_Client, frozen=True, kw_only=True, tag="act"):
    """Play ``action`` on top of match version ``version``; ``seq`` makes a resend idempotent."""

    version: Version
    seq: Seq
    action: Action


class Sync(_Client, frozen=True, kw_only=True, tag="sync"):
    """Ask for a fresh `StateUpdate` of the current version."""


class Explain(_Client, frozen=True, kw_only=True, tag="explain"):
    """Why may this seat not play ``action`` now? Answered by an `Explanation` with the same ``id``."""

    id: RequestId
    action: Action


class PreviewMove(_Client, frozen=True, kw_only=True, tag="preview_move"):
    """Where can ``unit_id`` go this turn, and at what cost? Answered by a `MovePreviewAnswer`."""

    id: RequestId
    unit_id: UnitRef


class PreviewAttack(_Client, frozen=True, kw_only=True, tag="preview_attack"):
    """What would ``attacker_id`` firing at ``target_id`` do? Answered by an `AttackPreviewAnswer`."""

    id: RequestId
    attacker_id: UnitRef
    target_id: UnitRef


class RematchChoice(_Client, frozen=True, kw_only=True, tag="rematch"):
    """After the game: offer a rematch, or accept or decline the other seat's offer."""

    choice: Literal["offer", "accept", "decline"]


class Threats(_Client, frozen=True, kw_only=True, tag="threats"):
    """Which enemy units could reach or fire at each cell next turn? Answered by a `ThreatAnswer`.

    ``side`` is the side whose cells are asked about: by default the socket's own seat
    (a spectator must name one).
    """

    id: RequestId
    side: Side | None = None


class Hint(_Client, frozen=True, kw_only=True, tag="hint"):
    """What would the server's bot play for me now, and why? Answered by a `HintAnswer`."""

    id: RequestId


Query = Explain | PreviewMove | PreviewAttack | Threats
"""Questions about the position: each changes nothing and gets one answer carrying its ``id``."""

ClientMessage = Hello | Act | Sync | Explain | PreviewMove | PreviewAttack | Threats | RematchChoice | Hint

_CLIENT_DECODER: msgspec.json.Decoder[ClientMessage] = msgspec.json.Decoder(ClientMessage)


def decode_client(data: str | bytes) -> ClientMessage:
    """Decode one client message; raises ``msgspec.DecodeError`` naming the bad path or a duplicated key."""
    message = _CLIENT_DECODER.decode(data)
    check_unique_keys(data)
    return message


class _Server(msgspec.Struct, frozen=True, kw_only=True, tag_field="type"):
    """Base of server messages."""


class Welcome(_Server, frozen=True, kw_only=True, tag="welcome"):
    """The answer to a good `hello`: who this socket is and what the match is."""

    match_id: str
    seat: Side | None  # None: spectator
    mode: str  # human | hotseat | bot | outside_bot
    bot_side: Side | None
    seed_commitment: str  # sha256 hex of "<seed>:<salt>" (docs/protocol.md)
    rules_version: str  # the RULES_VERSION the match was played under
    server_version: str
    max_message_bytes: int
    cards: tuple[CardInfo, ...] = ()  # the match's own cards (a variant's, a card file's): read these by id first


class EventText(msgspec.Struct, frozen=True, kw_only=True):
    """One event of the last step with its sentence, as the viewer may see it."""

    event: Event
    text: str


class StateUpdate(_Server, frozen=True, kw_only=True, tag="state"):
    """The match at ``version`` as this socket's seat may see it.

    Sent to every socket after each accepted action, after `hello`, on `sync`, and in
    place of updates a slow socket missed (compare ``version`` with the one you hold).
    """

    match_id: str
    version: int  # number of accepted actions
    status: MatchStatus
    seat: Side | None
    to_act: Side | None
    legal_actions: tuple[Action, ...]  # empty unless this seat must decide now
    last_seq: int  # highest `act` seq accepted from this seat (0: none; always 0 for spectators)
    view: GameState  # engine.player_view for this seat
    events: tuple[EventText, ...]  # what the action that made this version caused
    move_limit: int  # units the active side may move this turn (5, changed by card effects)
    attack_limit: int  # attacks the active side may have declared at once
    decision: Decision  # who decides and why (engine.decision), as this seat may see it
    legend: tuple[TerrainChar, ...]  # what each map character of view.board is
    broken_reason: str | None = None
    clock: ClockView | None = None  # both clocks at `server_time` (None: the match has no clock)
    presence: PresenceView | None = None  # which seats are connected, and when a claim becomes possible
    match_actions: tuple[Action, ...] = ()  # RESIGN / CLAIM_VICTORY this seat may send now (engine.match_actions)
    rematch: RematchView | None = None  # the rematch offer after the game (None: none yet)
    score: Score | None = None  # victory points, what wins at once, the round (server/score.py)
    open_seat: Side | None = None  # an open challenge's seat nobody has joined yet (the creator waits)


class Ack(_Server, frozen=True, kw_only=True, tag="ack"):
    """Your `act` with ``seq`` is durable; the match is now at ``version``."""

    seq: int
    version: int


class Reject(_Server, frozen=True, kw_only=True, tag="reject"):
    """Your message changed nothing: ``code`` is stable, ``reason`` is for people."""

    code: ErrorCode
    reason: str
    seq: int | None = None  # the `act` this answers, when known
    # Sent only when they apply (UNSET fields are left out of the JSON):
    id: int | UnsetType = UNSET  # the question (`explain`, `threats`, `hint` ...) this refuses
    retry_after: float | UnsetType = UNSET  # with `rate_limited`: seconds until that may be sent again


class Explanation(_Server, frozen=True, kw_only=True, tag="explanation"):
    """The answer to `explain` ``id`` at match ``version``: legal, or why not (``code`` and words).

    ``code`` is the engine's (`IllegalAction.code`: ``wrong_phase``, ``unreachable`` ...), or
    ``not_your_turn`` / ``forbidden`` when the other seat or nobody may act here.
    """

    id: int
    version: int
    legal: bool
    code: str | None = None
    reason: str | None = None


class MovePreviewAnswer(_Server, frozen=True, kw_only=True, tag="move_preview"):
    """The answer to `preview_move` ``id``: engine.move_preview on this seat's view, or the problem."""

    id: int
    version: int
    preview: MovePreview | None
    problem: str | None = None


class AttackPreviewAnswer(_Server, frozen=True, kw_only=True, tag="attack_preview"):
    """The answer to `preview_attack` ``id``: engine.attack_preview on this seat's view, or the problem."""

    id: int
    version: int
    preview: AttackPreview | None
    problem: str | None = None


class ClockUpdate(_Server, frozen=True, kw_only=True, tag="clock"):
    """The clocks started or stopped without an action (both seats connected for the first time)."""

    clock: ClockView


class PresenceUpdate(_Server, frozen=True, kw_only=True, tag="presence"):
    """A seat connected or went away."""

    presence: PresenceView


class RematchUpdate(_Server, frozen=True, kw_only=True, tag="rematch"):
    """The rematch offer changed: offered, declined, or accepted (``match_id`` set)."""

    rematch: RematchView


class ThreatAnswer(_Server, frozen=True, kw_only=True, tag="threat_map"):
    """The answer to `threats` ``id``: engine.threat_map on this seat's view, or the problem."""

    id: int
    version: int
    threats: ThreatMap | None
    problem: str | None = None


class HintAnswer(_Server, frozen=True, kw_only=True, tag="hint"):
    """The answer to `hint` ``id`` at match ``version``: the bot's choice and its reason, or the problem.

    Worked out from the asking seat's own `player_view` only, so it reveals nothing the seat
    could not see; ``action`` is one of the seat's legal actions at ``version``.
    """

    id: int
    version: int
    action: Action | None
    reason: str | None = None
    problem: str | None = None


ServerMessage = (
    Welcome | StateUpdate | Ack | Reject | Explanation | MovePreviewAnswer | AttackPreviewAnswer | ThreatAnswer
    | ClockUpdate | PresenceUpdate | RematchUpdate | HintAnswer
)

_ENCODER = msgspec.json.Encoder()


def encode(message: ServerMessage) -> str:
    """A server message as the text of one WebSocket frame."""
    return _ENCODER.encode(message).decode()
