"""The record of a match over HTTP, its seed checked against the commitment the server published.

``GET /api/matches/<match>/record`` (docs/protocol.md, "Records") answers with the game
record; once the game is over it reveals the seed and salt, and the client checks
``sha256("<seed>:<salt>") == seed_commitment`` (the commitment every ``welcome`` carried)
before handing the record out: a server that changed the seed mid-game is caught here.
``taktik replay`` then verifies every state hash of the record.
"""

from __future__ import annotations

import hashlib
import urllib.error
import urllib.request

import msgspec

from engine import GameRecord

from .errors import LinkError, ProtocolError, SeatUnavailable, ServerGone
from .links import SeatLink

__all__ = ["RecordAnswer", "fetch_record"]


class RecordAnswer(msgspec.Struct, frozen=True, kw_only=True):
    """The record answer (fields this client reads)."""

    match_id: str
    status: str
    seed_commitment: str
    seed: int | None  # revealed once the game is over
    salt: str | None
    record: GameRecord


_DECODER = msgspec.json.Decoder(RecordAnswer)


def fetch_record(link: SeatLink, commitment: str | None = None, timeout: float = 30.0) -> GameRecord:
    """The match's record; its seed checked against the commitment once revealed.

    ``commitment`` is the one the ``welcome`` carried (`SeatResult.seed_commitment`): the
    record must name the same.
    """
    request = urllib.request.Request(link.record_url, headers={"Accept": "application/json",
                                                                "User-Agent": "taktik-client"})
    try:
        with urllib.request.urlopen(request, timeout=timeout) as response:
            body = response.read()
    except urllib.error.HTTPError as err:
        if err.code == 404:
            raise LinkError(f"there is no match {link.match_id} on {link.base}") from None
        if err.code == 409:
            raise SeatUnavailable(f"the record of match {link.match_id} cannot be read (HTTP 409)") from None
        raise ServerGone(f"the server could not send the record of match {link.match_id} (HTTP {err.code})") from None
    except (urllib.error.URLError, OSError) as err:
        raise ServerGone(f"cannot fetch the record of match {link.match_id}: {getattr(err, 'reason', err)}") from None
    try:
        answer = _DECODER.decode(body)
    except msgspec.DecodeError as err:
        raise ProtocolError(f"cannot read the record of match {link.match_id}: {err}") from None
    if commitment is not None and answer.seed_commitment != commitment:
        raise ProtocolError(f"match {link.match_id}: the record names another seed commitment than the game did")
    if answer.seed is not None and answer.salt is not None:
        digest = hashlib.sha256(f"{answer.seed}:{answer.salt}".encode("ascii")).hexdigest()
        if digest != answer.seed_commitment:
            raise ProtocolError(f"match {link.match_id}: the revealed seed does not match the commitment "
                                "the server published before the game")
    return answer.record
