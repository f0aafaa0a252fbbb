"""Seat links: ``http(s)://host[:port][/prefix]/play/<match>#<token>``, as the server hands them out.

The token rides in the URL fragment, which a browser never sends to the server; this
client sends it only inside the socket's ``hello`` (docs/protocol.md). A `SeatLink` keeps
it out of every ``repr``, ``str`` and error message, so printing or logging a link never
leaks it.

>>> link = parse_seat_link("http://127.0.0.1:8000/play/hXvVb9WRDCv2066m#f7_LMGK4secret")
>>> link.socket_url, link.match_id
('ws://127.0.0.1:8000/ws/matches/hXvVb9WRDCv2066m', 'hXvVb9WRDCv2066m')
>>> link
SeatLink('http://127.0.0.1:8000/play/hXvVb9WRDCv2066m#…')
>>> parse_seat_link("http://127.0.0.1:8000/watch/hXvVb9WRDCv2066m#f7_LMGK4secret")
Traceback (most recent call last):
...
client.errors.LinkError: not a seat link: the path must be /play/<match> (this one is /watch/hXvVb9WRDCv2066m)
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from urllib.parse import urlsplit

from .errors import LinkError

__all__ = ["SeatLink", "parse_seat_link"]

_MATCH_ID = re.compile(r"[A-Za-z0-9_-]{1,64}")  # the server's match ids (secrets.token_urlsafe)
_TOKEN = re.compile(r"[A-Za-z0-9_-]{1,256}")  # a seat token (secrets.token_urlsafe(32) is 43 characters)
_SCHEMES = {"http": "ws", "https": "wss"}


@dataclass(frozen=True)
class SeatLink:
    """Where a seat is played and the secret that opens it."""

    base: str  # the server's HTTP root, e.g. ``http://127.0.0.1:8000`` (with any path prefix)
    match_id: str
    token: str = field(repr=False)  # the seat's secret: sent only in ``hello``

    @property
    def socket_url(self) -> str:
        """The match's WebSocket (``ws://`` or ``wss://``)."""
        scheme, rest = self.base.split("://", 1)
        return f"{_SCHEMES[scheme]}://{rest}/ws/matches/{self.match_id}"

    @property
    def record_url(self) -> str:
        """The match's record over HTTP (its seed is revealed there once the game is over)."""
        return f"{self.base}/api/matches/{self.match_id}/record"

    @property
    def shown(self) -> str:
        """The link as it may be printed: the token replaced by ``…``."""
        return f"{self.base}/play/{self.match_id}#…"

    def __repr__(self) -> str:
        return f"SeatLink({self.shown!r})"

    __str__ = __repr__


def parse_seat_link(url: str) -> SeatLink:
    """The `SeatLink` of ``url``; `LinkError` says what is wrong with it (never echoing the token)."""
    text = url.strip()
    if "#" not in text:
        raise LinkError("not a seat link: it has no #<token> at the end (copy the whole link the lobby shows)")
    address, token = text.split("#", 1)
    try:
        parts = urlsplit(address)
        parts.port  # noqa: B018 - a port that is not a number raises here
    except ValueError as err:
        raise LinkError(f"not a seat link: {err}") from None
    if parts.scheme not in _SCHEMES or not parts.hostname:
        raise LinkError(f"not a seat link: it must start with http:// or https:// and a host (got {address[:60]!r})")
    if parts.query:
        raise LinkError("not a seat link: it has a ?query; a seat link is /play/<match>#<token>")
    prefix, play, match_id = parts.path.rpartition("/play/")
    if not play or not _MATCH_ID.fullmatch(match_id):
        raise LinkError(f"not a seat link: the path must be /play/<match> (this one is {parts.path or '/'})")
    if "." in token:
        raise LinkError("this link holds two seats (a hot-seat link); give the link of one seat")
    if not _TOKEN.fullmatch(token):
        raise LinkError("not a seat link: the part after # is not a seat token (letters, digits, - and _)")
    return SeatLink(base=f"{parts.scheme}://{parts.netloc}{prefix}", match_id=match_id, token=token)
