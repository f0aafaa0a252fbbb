"""The HTTP API's one error convention, and the JSON helpers every route shares.

A route raises `ApiError(status, code, reason)` wherever it finds a problem; the app maps
it, once, to ``{"code": ..., "reason": ...}`` with that status (`EXCEPTION_HANDLERS`,
registered in ``server/app.py``). Any other exception becomes a 500 ``internal_error`` in
the same shape, its traceback logged and never sent. The codes are listed in
docs/protocol.md ("HTTP errors").
"""

from __future__ import annotations

import logging
import math
from collections.abc import Mapping
from typing import Any, TypeVar

import msgspec
from starlette.requests import ClientDisconnect, Request
from starlette.responses import Response
from starlette.types import ExceptionHandler

from .costs import OverBudget
from .jsonkeys import check_unique_keys
from .store import StoreUnavailable

__all__ = ["EXCEPTION_HANDLERS", "ApiError", "BodyNotReceived", "ErrorBody", "json_response", "read_body", "read_json",
           "too_many", "whole_number"]

log = logging.getLogger("taktik.api")

T = TypeVar("T")

_ENCODER = msgspec.json.Encoder()


class ApiError(Exception):
    """A request the API refuses: the HTTP ``status``, a stable ``code`` and a ``reason`` for people."""

    def __init__(self, status: int, code: str, reason: str) -> None:
        super().__init__(reason)
        self.status, self.code, self.reason = status, code, reason


class BodyNotReceived(Exception):
    """The client went away (or was cut off at the body deadline) before its request body was complete:
    there is nobody to answer, and nothing worth a traceback."""


def whole_number(text: str | None, name: str, low: int, high: int, *, default: int | None = None) -> int:
    """``text`` (a query or path parameter called ``name``) as an integer in ``low..high``.

    Only ASCII digits count (``str.isdigit`` also takes ``"²"``, which ``int`` refuses), and
    the length is checked before conversion, so a 5,000-digit string costs nothing. A missing
    parameter (None) is ``default`` when given. Raises a 400 `ApiError` naming ``name``.
    """
    if text is None and default is not None:
        return default
    if text is None or not 0 < len(text) <= len(str(high)) or not text.isascii() or not text.isdigit():
        raise ApiError(400, "bad_request", f"{name} must be a whole number from {low} to {high}")
    value = int(text)
    if not low <= value <= high:
        raise ApiError(400, "bad_request", f"{name} must be a whole number from {low} to {high}, not {value}")
    return value


class ErrorBody(msgspec.Struct, frozen=True, kw_only=True, omit_defaults=True):
    """What every error answer holds (and a 429 for a costly request: when to retry, as in ``Retry-After``)."""

    code: str
    reason: str
    retry_after: float | None = None  # seconds


def json_response(body: Any, status: int = 200, cache_control: str = "no-store") -> Response:
    """``body`` (msgspec-encodable) as a JSON answer."""
    return Response(_ENCODER.encode(body), status_code=status, media_type="application/json",
                    headers={"Cache-Control": cache_control})


async def read_body(request: Request, limit: int) -> bytes:
    """The request's JSON body, undecoded (for work done off the event loop).

    Raises `ApiError`: 415 unless the body is ``application/json``, 413 past ``limit``
    bytes (declared or streamed); `BodyNotReceived` if the client left before it was
    complete (the server's body deadline, server/handshake.py, cuts off a stalled one).
    """
    content_type = request.headers.get("content-type", "").split(";")[0].strip().lower()
    if content_type != "application/json":
        raise ApiError(415, "unsupported_media_type", "send the body as application/json")
    declared = request.headers.get("content-length")
    if declared is not None and whole_number(declared, "Content-Length", 0, 2**63 - 1) > limit:
        raise ApiError(413, "too_large", f"the body may be at most {limit} bytes")
    chunks: list[bytes] = []
    size = 0
    try:
        async for chunk in request.stream():
            size += len(chunk)
            if size > limit:
                raise ApiError(413, "too_large", f"the body may be at most {limit} bytes")
            chunks.append(chunk)
    except ClientDisconnect:
        raise BodyNotReceived from None
    return b"".join(chunks)


async def read_json(request: Request, decoder: msgspec.json.Decoder[T], limit: int, *, empty: bytes | None = None) -> T:
    """The request's JSON body decoded by ``decoder``; an empty body reads as ``empty`` when given.

    Raises what `read_body` raises, and a 400 `ApiError` naming the JSON path of a body that
    does not decode or a key that appears twice in one object (server/jsonkeys.py).
    """
    data = await read_body(request, limit)
    if not data and empty is not None:
        data = empty
    try:
        body = decoder.decode(data)
        check_unique_keys(data)
    except msgspec.DecodeError as err:
        raise ApiError(400, "bad_request", str(err)) from None
    except RecursionError:  # msgspec counts its depth as Python does, and gives up cleanly
        raise ApiError(400, "bad_request", "the body nests deeper than any request needs") from None
    return body


async def _refused(request: Request, exc: Exception) -> Response:
    assert isinstance(exc, ApiError)
    return json_response(ErrorBody(code=exc.code, reason=exc.reason), exc.status)


def too_many(refused: OverBudget) -> tuple[bytes, dict[str, str]]:
    """The 429 for a costly request refused for now: its body and headers (``Retry-After``, whole seconds)."""
    body = _ENCODER.encode(ErrorBody(code="rate_limited", reason=refused.reason, retry_after=refused.retry_after))
    return body, {"Retry-After": str(math.ceil(refused.retry_after)), "Cache-Control": "no-store"}


async def _over_budget(request: Request, exc: Exception) -> Response:
    # Raised once the body was read (the analysts were full): server/gate.py refuses most before that.
    assert isinstance(exc, OverBudget)
    body, headers = too_many(exc)
    return Response(body, status_code=429, media_type="application/json", headers=headers)


async def _gone(request: Request, exc: Exception) -> Response:
    log.debug("%s %s: the client left before its body was complete", request.method, request.url.path)
    return Response(status_code=400, headers={"Connection": "close"})  # nobody reads it


async def _failed(request: Request, exc: Exception) -> Response:
    # Starlette re-raises the exception after this answer is sent, so the server logs it
    # once more; this line ties the traceback to the request.
    log.error("%s %s failed", request.method, request.url.path, exc_info=exc)
    return json_response(ErrorBody(code="internal_error", reason="the server failed on this request"), 500)


async def _unreachable(request: Request, exc: Exception) -> Response:
    # PostgreSQL is away (docs/deploy.md): a known, passing condition, so no traceback.
    log.warning("%s %s: %s", request.method, request.url.path, exc)
    return json_response(ErrorBody(code="unavailable", reason="the match database cannot be reached now; "
                                   "try again shortly"), 503)


EXCEPTION_HANDLERS: Mapping[Any, ExceptionHandler] = {ApiError: _refused, OverBudget: _over_budget,
                                                      BodyNotReceived: _gone, StoreUnavailable: _unreachable,
                                                      Exception: _failed}
"""For ``Starlette(exception_handlers=...)``: refusals keep their status, a costly request over its address's
budget is a 429 with ``Retry-After``, a body that never came is answered to nobody, an unreachable database is a
503, anything else is a 500."""
