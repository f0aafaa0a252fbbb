"""HTTP API: create and fork matches (seat links), summaries, the lobby, records, replay steps.

Bodies and answers are JSON described by the msgspec types below (docs/protocol.md). A
refusal is an `ApiError` (server/errors.py), answered as ``{"code": ..., "reason": ...}``
with a fitting HTTP status. Seat tokens appear only in the answer to the request that
created the match.
"""

from __future__ import annotations

import logging
from typing import Annotated, Any, Literal

import msgspec
from msgspec import Meta
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

from engine import RULES_VERSION, GameConfig, GameRecord, Side
from engine.data import CardDef, Variant, VariantError, apply_variant, decode_rules_file

from .catalogue import CardInfo, card_info
from .clocks import ClockSpec, decode_spec
from .costs import billed
from .creation import CreationError, Mode, NewMatch
from .errors import ApiError, json_response, read_json, whole_number
from .match import Match, shown_status
from .protocol import MatchStatus
from .records import NoSuchStep, RecordView, Unreadable, record_answer, step_answer
from .results import stored_answer
from .services import Services, address_of, services_of
from .store import MatchRow
from .ws import MATCH_ID

__all__ = ["CreateMatch", "ForkMatch", "Link", "MatchCreated", "MatchSummary", "SeatLink", "routes", "summary_of"]

log = logging.getLogger("taktik.api")

MAX_STEP = 10_000_000
MAX_LOBBY = 100  # matches per lobby page
Step = Annotated[int, Meta(ge=0, le=MAX_STEP)]


Opponent = Literal["human", "bot", "outside_bot"]
"""Who plays the other seat: a person, the server's bot, or a program of the creator's joining by link."""


class CreateMatch(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """``POST /api/matches``: a new game (``config``) or a fork of a posted record prefix."""

    config: GameConfig | None = None  # seed left out: the server draws one
    opponent: Opponent = "human"
    bot_side: Side = Side.DEFENDER  # the bot's seat when opponent is "bot"
    bot: str | None = None  # the bot's policy (server/bots.py); default: the server's --bot
    hotseat: bool = False  # both seats will be played from one client
    from_record: GameRecord | None = None  # start from this record's first `step` actions
    step: Step | None = None  # with from_record: actions to keep (default: all)
    clock: ClockSpec | None = None  # {"initial": S, "increment": S} or {"per_turn": S}; None: no clock
    open: bool = False  # an open challenge: listed in /api/challenges until someone joins
    side: Side = Side.ATTACKER  # with open: the creator's seat
    rules: dict[str, Any] | None = None  # a card file or a variant file (as uploaded) the match plays with
    rules_name: Annotated[str, Meta(max_length=80)] = "playtest"  # the uploaded file's name: names a card file's rules


class ForkMatch(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """``POST /api/matches/{id}/fork``: a new match from step ``step`` of a finished match."""

    step: Step | None = None  # default: the whole game
    opponent: Opponent = "human"
    bot_side: Side = Side.DEFENDER
    bot: str | None = None
    hotseat: bool = False
    clock: ClockSpec | None = None


class Link(msgspec.Struct, frozen=True, kw_only=True):
    path: str
    url: str


class SeatLink(msgspec.Struct, frozen=True, kw_only=True):
    seat: Side
    token: str  # secret: give it only to the person who plays this seat
    path: str  # /play/<match>#<token>
    url: str


class Parent(msgspec.Struct, frozen=True, kw_only=True):
    match_id: str
    step: int


class Online(msgspec.Struct, frozen=True, kw_only=True):
    attacker: int = 0
    defender: int = 0
    spectators: int = 0


class MatchSummary(msgspec.Struct, frozen=True, kw_only=True):
    match_id: str
    status: MatchStatus  # live | over | broken | other_rules (read only: played under another rules version)
    mode: str  # human | hotseat | bot | outside_bot
    bot_side: Side | None
    bot: str | None  # the bot's policy in bot mode
    created_at: float  # seconds since the epoch
    updated_at: float
    rules_version: str  # the RULES_VERSION the match was played under
    version: int
    turn: int
    phase: str
    to_act: Side | None
    winner: Side | None
    victory_reason: str | None
    seed_commitment: str
    parent: Parent | None
    broken_reason: str | None
    online: Online
    clock: ClockSpec | None = None  # the clock chosen at creation (None: no clock)
    open_seat: Side | None = None  # an open challenge's seat nobody has joined yet


class MatchCreated(msgspec.Struct, frozen=True, kw_only=True):
    match_id: str
    seats: tuple[SeatLink, ...]  # one per human seat
    spectator: Link  # /watch/<match>
    summary: MatchSummary


_CREATE = msgspec.json.Decoder(CreateMatch)
_RECORD = msgspec.json.Decoder(RecordView)
_FORK = msgspec.json.Decoder(ForkMatch)


def _stored_side(text: str | None) -> Side | None:
    """A side as the store holds it; a value that names no side (an edited database) reads as none,
    so one damaged row cannot take the whole lobby down."""
    return Side(text) if text is not None and text in Side.__members__ else None


def summary_of(row: MatchRow, match: Match | None) -> MatchSummary:
    p = row.progress
    status = shown_status(row)
    online = Online()
    if match is not None:
        seats = [v.seat for v in match.viewers]
        online = Online(attacker=seats.count(Side.ATTACKER), defender=seats.count(Side.DEFENDER),
                        spectators=seats.count(None))
    return MatchSummary(
        match_id=row.id, status=status, mode=row.mode, bot_side=_stored_side(row.bot_side),
        bot=row.bot_policy if row.bot_side else None,
        created_at=row.created_at, updated_at=row.updated_at, rules_version=row.rules_version, version=p.version,
        turn=p.turn, phase=p.phase, to_act=_stored_side(p.to_act),
        winner=_stored_side(p.winner), victory_reason=p.victory_reason,
        seed_commitment=row.seed_commitment,
        parent=Parent(match_id=row.parent_id, step=row.parent_step or 0) if row.parent_id else None,
        broken_reason=row.broken_reason if status == "broken" else None, online=online,
        clock=_stored_clock(row.clock), open_seat=_stored_side(row.open_seat),
    )


def _stored_clock(text: str | None) -> ClockSpec | None:
    """A stored clock; one that no longer decodes (an edited database) reads as none, like `_stored_side`."""
    try:
        return decode_spec(text)
    except msgspec.DecodeError:
        return None


def _match_id(request: Request) -> str:
    match_id = str(request.path_params["match_id"])
    if not MATCH_ID.fullmatch(match_id):
        raise ApiError(404, "not_found", "no such match")
    return match_id


def _admit(request: Request, services: Services) -> None:
    if not services.create_limiter.take(address_of(request)):
        raise ApiError(429, "rate_limited", "too many new matches from this address; try again shortly")


async def _created(request: Request, services: Services, new: NewMatch, *, stored: bool = False) -> Response:
    """Create ``new``; ``stored``: it comes from a stored match, whose failure to replay is no bad request."""
    if new.open_side is not None:
        await services.challenges.admit(request, services.db)
    try:
        # A fork replays its prefix: costly work, charged to the asking address (server/costs.py).
        with billed(services.budget, address_of(request), admit=bool(new.prefix)):
            created = await services.creator.create(new)
    except CreationError as err:
        if stored:
            raise ApiError(409, "unavailable", f"cannot go on from the stored match: {err}") from None
        raise ApiError(400, "bad_request", str(err)) from None
    match = created.match
    base = str(request.base_url).rstrip("/")
    seats = tuple(
        SeatLink(seat=seat, token=token, path=f"/play/{match.id}#{token}", url=f"{base}/play/{match.id}#{token}")
        for seat, token in sorted(created.tokens.items())
    )
    log.info("created match %s (%s)", match.id, match.row.mode)
    if new.open_side is not None:
        services.challenges.opened(request, match.id)
    return json_response(MatchCreated(match_id=match.id, seats=seats,
                              spectator=Link(path=f"/watch/{match.id}", url=f"{base}/watch/{match.id}"),
                              summary=summary_of(match.row, match)), 201)


def _policy(name: str | None, services: Services) -> str:
    """The bot policy a request asks for (the server's default when it names none)."""
    policies = services.settings.bots.policies
    name = name or services.settings.default_bot
    if name is None:
        raise ApiError(400, "bad_request", "this server seats no bots")
    if name not in policies:
        raise ApiError(400, "bad_request", f"unknown bot {name!r}; choose one of {', '.join(policies)}")
    return name


def _mode(opponent: str, bot_side: Side, hotseat: bool) -> tuple[Mode, Side | None]:
    if opponent == "bot":
        return "bot", bot_side
    if opponent == "outside_bot":  # two seat links, like a match between people: the server plays neither
        if hotseat:
            raise ApiError(400, "bad_request", "a match against your own bot is not a hot-seat match")
        return "outside_bot", None
    return ("hotseat" if hotseat else "human"), None


async def create_match(request: Request) -> Response:
    services = services_of(request)
    _admit(request, services)
    body = await read_json(request, _CREATE, services.settings.limits.max_body_bytes, empty=b"{}")
    mode, bot_side = _mode(body.opponent, body.bot_side, body.hotseat)
    policy = _policy(body.bot, services)
    if body.open and mode != "human":
        raise ApiError(400, "bad_request", "an open challenge is a match between people (opponent human, no hotseat)")
    if body.from_record is not None:
        if body.config is not None:
            raise ApiError(400, "bad_request", "give either config or from_record, not both")
        record = body.from_record
        if record.rules_version != RULES_VERSION:
            raise ApiError(400, "bad_request", f"the record is for rules version {record.rules_version}; "
                                               f"this server plays {RULES_VERSION}")
        step = len(record.actions) if body.step is None else body.step
        if step > len(record.actions):
            raise ApiError(400, "bad_request", f"step {step} is past the record's {len(record.actions)} actions")
        config = record.config if record.config.seed is not None else msgspec.structs.replace(record.config, seed=1)
        new = NewMatch(config=config, mode=mode, bot_side=bot_side, bot_policy=policy,
                       prefix=record.actions[:step], prefix_hashes=record.hashes[:step] if record.hashes else None,
                       clock=body.clock, open_side=body.side if body.open else None)
    else:
        if body.step is not None:
            raise ApiError(400, "bad_request", "step only goes with from_record")
        config = body.config or GameConfig()
        if body.rules is not None:
            if config.rules is not None:
                raise ApiError(400, "bad_request", "give either rules (a file) or config.rules, not both")
            config = apply_variant(config, _rules_file(msgspec.json.encode(body.rules), body.rules_name))
        elif services.settings.rules is not None and config.rules is None:
            config = apply_variant(config, services.settings.rules)  # the server's playtest rules (serve --rules)
        new = NewMatch(config=config, mode=mode, bot_side=bot_side, bot_policy=policy,
                       clock=body.clock, open_side=body.side if body.open else None)
    return await _created(request, services, new)


async def fork_match(request: Request) -> Response:
    services = services_of(request)
    _admit(request, services)
    match_id = _match_id(request)
    body = await read_json(request, _FORK, services.settings.limits.max_body_bytes, empty=b"{}")
    with billed(services.budget, address_of(request)):
        view = _RECORD.decode(await _stored_record(services, match_id))
    if view.status == "other_rules":
        raise ApiError(409, "unavailable", f"the match was played under rules version {view.record.rules_version}; "
                                           f"this server plays {RULES_VERSION}, so it cannot go on from there")
    if view.status == "broken":
        raise ApiError(409, "unavailable", "the match is broken (its log no longer replays), so it cannot go on")
    if view.status != "over":
        raise ApiError(409, "match_live", "a match can be forked once it is over (its seed is secret until then)")
    record = view.record
    step = len(record.actions) if body.step is None else body.step
    if step > len(record.actions):
        raise ApiError(400, "bad_request", f"step {step} is past the match's {len(record.actions)} actions")
    mode, bot_side = _mode(body.opponent, body.bot_side, body.hotseat)
    new = NewMatch(config=record.config, mode=mode, bot_side=bot_side, bot_policy=_policy(body.bot, services),
                   prefix=record.actions[:step], prefix_hashes=record.hashes[:step] if record.hashes else None,
                   parent_id=match_id, parent_step=step, clock=body.clock)
    return await _created(request, services, new, stored=True)


def _rules_file(raw: bytes, name: str) -> Variant:
    """An uploaded card or variant file, checked; a 400 ``bad_rules`` lists every problem with its JSON path."""
    try:
        return decode_rules_file(raw, name)
    except VariantError as err:
        raise ApiError(400, "bad_rules", "\n".join(err.problems)) from None


class RulesSummary(msgspec.Struct, frozen=True, kw_only=True):
    """``POST /api/rules/check``: what an uploaded rules file would play with."""

    name: str
    description: str
    cards: tuple[CardInfo, ...]  # its cards, changed or new, as players will read them
    abilities: tuple[str, ...]  # its abilities (keys) and terrain changes
    removed: tuple[str, ...]  # the cards and abilities it takes out


_ANY_JSON = msgspec.json.Decoder(dict[str, Any])


async def check_rules(request: Request) -> Response:
    """``POST /api/rules/check``: check a card or variant file before creating a match with it."""
    services = services_of(request)
    _admit(request, services)
    name = request.query_params.get("name", "playtest")[:80]
    body = await read_json(request, _ANY_JSON, services.settings.limits.max_body_bytes)
    variant = _rules_file(msgspec.json.encode(body), name)
    cards = tuple(card_info(msgspec.convert(card, CardDef)) for card in variant.rules.cards)
    rules = variant.rules
    return json_response(RulesSummary(
        name=variant.name, description=variant.description, cards=cards,
        abilities=tuple(str(a.get("id", "?")) if a.get("unit") is None else f"{a['unit']}.{a.get('id', '?')}"
                        for a in rules.abilities),
        removed=(*rules.removed, *rules.removed_abilities),
    ))


class BotInfo(msgspec.Struct, frozen=True, kw_only=True):
    name: str
    about: str


class BotList(msgspec.Struct, frozen=True, kw_only=True):
    default: str | None  # used when a new bot match names none (None: this server seats no bots)
    bots: tuple[BotInfo, ...]


async def list_bots(request: Request) -> Response:
    """``GET /api/bots``: the policies a bot match may use, and the default."""
    services = services_of(request)
    roster = services.settings.bots
    bots = tuple(BotInfo(name=name, about=roster.describe(name)) for name in roster.policies)
    return json_response(BotList(default=services.settings.default_bot, bots=bots))


async def list_matches(request: Request) -> Response:
    services = services_of(request)
    limit = whole_number(request.query_params.get("limit"), "limit", 1, MAX_LOBBY, default=20)
    rows = await services.db.recent(limit)
    return json_response([summary_of(row, services.matches.loaded(row.id)) for row in rows])


async def match_summary(request: Request) -> Response:
    services = services_of(request)
    match_id = _match_id(request)
    row = await services.db.match_row(match_id)
    if row is None:
        raise ApiError(404, "not_found", "no such match")
    return json_response(summary_of(row, services.matches.loaded(match_id)))


async def match_record(request: Request) -> Response:
    services = services_of(request)
    match_id = _match_id(request)
    with billed(services.budget, address_of(request)):
        return json_response(msgspec.Raw(await _stored_record(services, match_id)))


async def _stored_record(services: Services, match_id: str) -> bytes:
    """The encoded `RecordView` of a stored match: 404 if there is none, 409 ``unavailable`` if these rules cannot
    read it."""
    try:
        view = await stored_answer(services.db, services.results, services.analysts,
                                   services.matches.loaded(match_id), "record", match_id,
                                   record_answer)
    except Unreadable as err:
        raise ApiError(409, "unavailable", f"the match cannot be read: {err}") from None
    if view is None:
        raise ApiError(404, "not_found", "no such match")
    return view


async def match_step(request: Request) -> Response:
    services = services_of(request)
    match_id = _match_id(request)
    step = whole_number(str(request.path_params["step"]), "step", 0, MAX_STEP)
    with billed(services.budget, address_of(request)):
        try:
            found = await stored_answer(services.db, services.results, services.analysts,
                                        services.matches.loaded(match_id), "step", match_id, step_answer, step)
        except Unreadable as err:
            raise ApiError(409, "unavailable", f"the match cannot be read: {err}") from None
        except NoSuchStep:
            found = None
    if found is None:
        raise ApiError(404, "not_found", "no such match or step")
    return json_response(msgspec.Raw(found))


routes = [
    Route("/api/bots", list_bots, methods=["GET"]),
    Route("/api/rules/check", check_rules, methods=["POST"]),
    Route("/api/matches", create_match, methods=["POST"]),
    Route("/api/matches", list_matches, methods=["GET"]),
    Route("/api/matches/{match_id}", match_summary, methods=["GET"]),
    Route("/api/matches/{match_id}/record", match_record, methods=["GET"]),
    Route("/api/matches/{match_id}/steps/{step}", match_step, methods=["GET"]),
    Route("/api/matches/{match_id}/fork", fork_match, methods=["POST"]),
]
