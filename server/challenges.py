"""``/api/challenges``: matches waiting for a second player, listed and joined over HTTP.

A match created with ``"open": true`` stores only the creator's seat token; its other seat
(``open_seat``) has none until someone joins. Joining makes a **new** token for the joiner
and stores its hash in one conditional write, so of two joiners racing exactly one gets the
seat; the creator's token is never sent to anyone else. An address may have at most
``open_challenges_per_address`` challenges waiting at once (docs/server.md).
"""

from __future__ import annotations

import dataclasses
import logging
import secrets

import msgspec
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

from engine import Side

from .api import Link, MatchCreated, MatchSummary, SeatLink, summary_of
from .challenge_book import client_address
from .errors import ApiError, json_response, read_json
from .match import hash_token
from .services import Services, services_of
from .store import MatchRow, StoreConflict
from .ws import MATCH_ID

__all__ = ["ROUTES", "ChallengeList", "JoinChallenge"]

log = logging.getLogger("taktik.challenges")

MAX_LISTED = 50


class JoinChallenge(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """``POST /api/challenges/{id}/join``: no fields yet."""


class ChallengeList(msgspec.Struct, frozen=True, kw_only=True):
    """``GET /api/challenges``: live matches waiting for a second player, newest first."""

    challenges: tuple[MatchSummary, ...]


_JOIN = msgspec.json.Decoder(JoinChallenge)


async def list_challenges(request: Request) -> Response:
    services = services_of(request)
    rows = await services.db.open_challenges(MAX_LISTED)
    summaries = tuple(summary_of(row, services.matches.loaded(row.id)) for row in rows)
    return json_response(ChallengeList(challenges=summaries))


async def join_challenge(request: Request) -> Response:
    services = services_of(request)
    if not services.create_limiter.take(client_address(request)):
        raise ApiError(429, "rate_limited", "too many new matches from this address; try again shortly")
    match_id = str(request.path_params["match_id"])
    if not MATCH_ID.fullmatch(match_id):
        raise ApiError(404, "not_found", "no such match")
    await read_json(request, _JOIN, services.settings.limits.max_body_bytes, empty=b"{}")
    row = await services.db.match_row(match_id)
    if row is None:
        raise ApiError(404, "not_found", "no such match")
    if row.open_seat is None or row.open_seat not in Side.__members__ or row.progress.status != "live":
        raise ApiError(409, "taken", "this match is not waiting for a player (joined already, or not a challenge)")
    seat = Side(row.open_seat)
    token = secrets.token_urlsafe(32)
    try:
        await services.db.join_seat(match_id, seat.value, hash_token(token))
    except StoreConflict:
        raise ApiError(409, "taken", "someone else joined this challenge first") from None
    row = dataclasses.replace(row, open_seat=None)
    await _seat_joined(services, match_id, seat, token, row)
    base = str(request.base_url).rstrip("/")
    link = SeatLink(seat=seat, token=token, path=f"/play/{match_id}#{token}", url=f"{base}/play/{match_id}#{token}")
    log.info("challenge %s joined (%s)", match_id, seat.value)
    return json_response(MatchCreated(match_id=match_id, seats=(link,),
                                      spectator=Link(path=f"/watch/{match_id}", url=f"{base}/watch/{match_id}"),
                                      summary=summary_of(row, services.matches.loaded(match_id))), 201)


async def _seat_joined(services: Services, match_id: str, seat: Side, token: str, row: MatchRow) -> None:
    """Tell a loaded match that its free seat now has a token."""
    match = services.matches.loaded(match_id)
    if match is not None:
        match.row = row
        match.token_hashes[seat] = hash_token(token)
        services.matches.time.seat_joined(match)


ROUTES = [
    Route("/api/challenges", list_challenges, methods=["GET"]),
    Route("/api/challenges/{match_id}/join", join_challenge, methods=["POST"]),
]
