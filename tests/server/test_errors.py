"""The one error convention (server/errors.py): an `ApiError` raised anywhere, the shape mapped once."""

from __future__ import annotations

import asyncio
import json
import logging
from typing import Any

import msgspec
import pytest
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

from server.errors import EXCEPTION_HANDLERS, ApiError, json_response, read_json, whole_number


class Body(msgspec.Struct, forbid_unknown_fields=True):
    n: int = 0


_BODY = msgspec.json.Decoder(Body)


async def refuse(request: Request) -> Response:
    raise ApiError(409, "match_live", "not yet")


async def crash(request: Request) -> Response:
    raise RuntimeError("secret internals /etc/passwd")


async def echo(request: Request) -> Response:
    body = await read_json(request, _BODY, 16, empty=b"{}")
    return json_response({"n": body.n}, 201)


APP = Starlette(routes=[Route("/refuse", refuse), Route("/crash", crash), Route("/echo", echo, methods=["POST"])],
                exception_handlers=EXCEPTION_HANDLERS)


def call(path: str, body: bytes = b"", content_type: str = "application/json",
         headers: list[tuple[bytes, bytes]] | None = None) -> tuple[int, Any]:
    """One HTTP request through the app's ASGI interface: (status, decoded JSON body)."""
    sent: list[dict[str, Any]] = []
    method = "POST" if path == "/echo" else "GET"
    scope = {"type": "http", "asgi": {"version": "3.0"}, "http_version": "1.1", "method": method,
             "scheme": "http", "path": path, "raw_path": path.encode(), "query_string": b"", "root_path": "",
             "headers": [(b"content-type", content_type.encode()), (b"host", b"test"), *(headers or [])],
             "client": ("127.0.0.1", 1), "server": ("test", 80)}

    async def receive() -> dict[str, Any]:
        return {"type": "http.request", "body": body, "more_body": False}

    async def send(message: dict[str, Any]) -> None:
        sent.append(message)

    async def run() -> None:
        try:
            await APP(scope, receive, send)
        except RuntimeError as err:  # Starlette re-raises after answering, so the server logs it too
            assert "secret" in str(err)

    asyncio.run(run())
    start = next(m for m in sent if m["type"] == "http.response.start")
    data = b"".join(m.get("body", b"") for m in sent if m["type"] == "http.response.body")
    return start["status"], json.loads(data)


def test_a_raised_api_error_becomes_its_status_and_the_one_error_shape() -> None:
    assert call("/refuse") == (409, {"code": "match_live", "reason": "not yet"})


def test_an_unexpected_exception_is_a_500_in_the_same_shape_and_leaks_nothing(
        caplog: pytest.LogCaptureFixture) -> None:
    with caplog.at_level(logging.ERROR, logger="taktik.api"):
        status, body = call("/crash")
    assert status == 500 and body == {"code": "internal_error", "reason": "the server failed on this request"}
    assert "secret" not in json.dumps(body)
    assert any(r.exc_info and "secret internals" in str(r.exc_info[1]) for r in caplog.records)


@pytest.mark.parametrize(("body", "content_type", "status", "code", "needle"), [
    (b'{"n": "x"}', "application/json", 400, "bad_request", "$.n"),
    (b'{"m": 1}', "application/json", 400, "bad_request", "m"),
    (b'{"n": 1}', "text/plain", 415, "unsupported_media_type", "application/json"),
    (b'{"n": 1000000000000000}', "application/json", 413, "too_large", "16 bytes"),
])
def test_read_json_refuses_a_bad_body_naming_the_problem(body: bytes, content_type: str, status: int, code: str,
                                                         needle: str) -> None:
    got, answer = call("/echo", body, content_type)
    assert got == status and answer["code"] == code and needle in answer["reason"]


def test_read_json_decodes_a_good_body_and_reads_an_empty_one_as_the_default() -> None:
    assert call("/echo", b'{"n": 3}') == (201, {"n": 3})
    assert call("/echo") == (201, {"n": 0})


@pytest.mark.parametrize("text", ["\u00b2", "\uff15", "\u0663", "9" * 5000, "-1", "", " 1", "1.0", "+1", "11", None])
def test_whole_number_takes_only_ascii_digits_in_range_and_names_the_parameter(text: str | None) -> None:
    with pytest.raises(ApiError) as refused:
        whole_number(text, "limit", 1, 10)
    assert (refused.value.status, refused.value.code) == (400, "bad_request") and "limit" in refused.value.reason


def test_whole_number_reads_good_numbers_and_a_missing_one_as_the_default() -> None:
    assert [whole_number(t, "n", 0, 10) for t in ("0", "07", "10")] == [0, 7, 10]
    assert whole_number(None, "n", 0, 10, default=3) == 3


def test_a_declared_length_that_is_no_number_is_a_400() -> None:
    assert call("/echo", b"{}", headers=[(b"content-length", "\u00b2".encode())])[0] == 400
