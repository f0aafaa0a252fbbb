"""The door of the costly HTTP endpoints: a request its address may not make now is refused there.

A costly request refused through the app (routing, a `Request`, the exception handlers)
cost about a millisecond of the event loop: 64 connections from one address asking five
times a second each, all refused, took a third of a core, and another match's round trip
went up eightfold at p99. `CostGate`, an ASGI middleware in front of the app, refuses such
a request before any of that, with the same 429 ``rate_limited`` and ``Retry-After``, while
its address is in debt (server/costs.py) or already has its share of the analysts' queue
(server/analysts.py); and a request that would create a match while the address may create
none (``create_rate``). A small body (up to `SKIPPED_BODY` bytes, declared) is read and
dropped so the connection can carry the client's next request; a larger one, or one of
unknown length, is left unread and the connection closed.

The endpoints themselves check again (`costs.billed`, `Analysts.submit`): the gate only
makes the common refusal cheap; it decides nothing they would not.
"""

from __future__ import annotations

import re

from starlette.types import ASGIApp, Message, Receive, Scope, Send

from .costs import OverBudget, retry_words
from .errors import too_many
from .services import Services

__all__ = ["DOORS", "SKIPPED_BODY", "CostGate"]

COSTLY, CREATES = 1, 2
DOORS: tuple[tuple[str, re.Pattern[str], int], ...] = (
    ("POST", re.compile(r"/api/replays(/evaluation)?"), COSTLY),
    ("GET", re.compile(r"/api/matches/[^/]+/(history|record|steps/[^/]*)"), COSTLY),
    ("POST", re.compile(r"/api/matches/[^/]+/fork"), COSTLY | CREATES),
    ("POST", re.compile(r"/api/matches"), CREATES),
    ("POST", re.compile(r"/api/challenges/[^/]+/join"), CREATES),
)
"""The endpoints the gate guards, by method and path: the costly ones (docs/server.md, "Costly requests") and
those that create a match (``create_burst``, ``create_rate``)."""

SKIPPED_BODY = 64 * 1024  # bytes of an unread body a refusal reads and drops to keep the connection


class CostGate:
    """Refuse costly requests of addresses that may not make one now, before the app sees them."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        refused = self._refusal(scope) if scope["type"] == "http" else None
        if refused is None:
            await self.app(scope, receive, send)
            return
        body, headers = too_many(refused)
        fields = [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode()),
                  *((k.lower().encode(), v.encode()) for k, v in headers.items())]
        if not await _skip_body(scope, receive):
            fields.append((b"connection", b"close"))
        await send({"type": "http.response.start", "status": 429, "headers": fields})
        await send({"type": "http.response.body", "body": body})

    @staticmethod
    def _refusal(scope: Scope) -> OverBudget | None:
        method, path = scope["method"], scope["path"]
        guarded = next((what for m, pattern, what in DOORS if method == m and pattern.fullmatch(path)), 0)
        services: Services | None = scope.get("state", {}).get("services")
        if not guarded or services is None:  # not guarded, or the app is not serving yet
            return None
        address = scope["client"][0] if scope.get("client") else "unknown"
        if guarded & CREATES and (wait := services.create_limiter.wait(address)) > 0:
            return OverBudget(f"too many new matches from this address; {retry_words(wait)}", wait)
        if guarded & COSTLY:
            return services.budget.refusal(address) or services.analysts.refusal(address)
        return None


async def _skip_body(scope: Scope, receive: Receive) -> bool:
    """Read and drop a small declared body; False when the connection must close instead."""
    declared = dict(scope["headers"]).get(b"content-length")
    if declared is None:
        return scope["method"] in ("GET", "HEAD")
    if not declared.isdigit() or len(declared) > 9 or int(declared) > SKIPPED_BODY:
        return False
    message: Message = {"more_body": int(declared) > 0}
    while message.get("more_body", False):
        message = await receive()
        if message["type"] == "http.disconnect":
            return False
    return True
