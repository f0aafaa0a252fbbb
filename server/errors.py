"""The HTTP API's one error convention, and the JSON helpers every route shares.

A route raises `ApiError(status, code, reason)` wherever it finds a problem; the app maps
it, once, to ``{"code": ..., "reason": ...}`` with that status (`EXCEPTION_HANDLERS`,
registered in ``server/app.py``). Any other exception becomes a 500 ``internal_error`` in
the same shape, its traceback logged and never sent. The codes are listed in
docs/protocol.md ("HTTP errors").
"""

from __future__ import annotations

import logging
from collections.abc import Mapping
from typing import Any, TypeVar

import msgspec
from starlette.requests import Request
from starlette.responses import Response
from starlette.types import ExceptionHandler

from engine.data import json_too_deep

from .jsonkeys import check_unique_keys
from .store import StoreUnavailable

__all__ = ["EXCEPTION_HANDLERS", "ApiError", "ErrorBody", "json_response", "read_json", "whole_number"]

log = logging.getLogger("taktik.api")

T = TypeVar("T")

_ENCODER = msgspec.json.Encoder()
MAX_BODY_NESTING = 64
"""The deepest nesting of arrays and objects a request body may have (no valid request comes near it)."""


class ApiError(Exception):
    """A request the API refuses: the HTTP ``status``, a stable ``code`` and a ``reason`` for people."""

    def __init__(self, status: int, code: str, reason: str) -> None:
        super().__init__(reason)
        self.status, self.code, self.reason = status, code, reason


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


class ErrorBody(msgspec.Struct, frozen=True, kw_only=True):
    """What every error answer holds."""

    code: str
    reason: str


def json_response(body: Any, status: int = 200, cache_control: str = "no-store") -> Response:
    """``body`` (msgspec-encodable) as a JSON answer."""
    return Response(_ENCODER.encode(body), status_code=status, media_type="application/json",
                    headers={"Cache-Control": cache_control})


async def read_json(request: Request, decoder: msgspec.json.Decoder[T], limit: int, *, empty: bytes | None = None) -> T:
    """The request's JSON body decoded by ``decoder``; an empty body reads as ``empty`` when given.

    Raises `ApiError`: 415 unless the body is ``application/json``, 413 past ``limit``
    bytes (declared or streamed), 400 naming the JSON path of a body that does not decode
    or a key that appears twice in one object (server/jsonkeys.py).
    """
    content_type = request.headers.get("content-type", "").split(";")[0].strip().lower()
    if content_type != "application/json":
        raise ApiError(415, "unsupported_media_type", "send the body as application/json")
    declared = request.headers.get("content-length")
    if declared is not None and whole_number(declared, "Content-Length", 0, 2**63 - 1) > limit:
        raise ApiError(413, "too_large", f"the body may be at most {limit} bytes")
    chunks: list[bytes] = []
    size = 0
    async for chunk in request.stream():
        size += len(chunk)
        if size > limit:
            raise ApiError(413, "too_large", f"the body may be at most {limit} bytes")
        chunks.append(chunk)
    data = b"".join(chunks)
    if not data and empty is not None:
        data = empty
    if json_too_deep(data, MAX_BODY_NESTING):  # a decoder recurses per level: refuse before it does
        raise ApiError(400, "bad_request", f"the body nests deeper than {MAX_BODY_NESTING} levels")
    try:
        body = decoder.decode(data)
        check_unique_keys(data)
    except msgspec.DecodeError as err:
        raise ApiError(400, "bad_request", str(err)) from None
    return body


async def _refused(request: Request, exc: Exception) -> Response:
    assert isinstance(exc, ApiError)
    return json_response(ErrorBody(code=exc.code, reason=exc.reason), exc.status)


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


EXCEPTION_HANDLERS: Mapping[Any, ExceptionHandler] = {ApiError: _refused, StoreUnavailable: _unreachable,
                                                      Exception: _failed}
"""For ``Starlette(exception_handlers=...)``: refusals keep their status, an unreachable database is a 503,
anything else is a 500."""
