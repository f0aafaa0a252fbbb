"""Hostile clients against a real server: one test per class of attack on connections.

The classes that did not hold (issue 19) each have a test here; the classes that already
held are pinned by thin tests that run their existing checks in test_ws.py, so a regression
in any of them fails here too. Every client runs on this machine, so the tests tell
addresses apart by binding their sockets to different loopback addresses (127.0.0.0/8).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import re
import socket
from collections.abc import Callable, Iterator
from typing import Any
from urllib.parse import quote

import pytest
from websockets.exceptions import ConnectionClosed

from server.ws import close_reason

from . import test_ws
from .conftest import LiveServer, Peer, arun, create_match, http_json, tokens_of, wait_until
from .test_ws import two_seats, unchanged_and_playable

HOSTILE_LIMITS: dict[str, Any] = {
    "create_burst": 1_000_000, "create_rate": 1_000_000.0,
    "message_burst": 5, "message_rate": 0.5, "flood_close_after": 10,
    "sockets_per_address": 12,
    "bad_token_burst": 3, "bad_token_window": 60.0, "bad_token_backoff": 0.5, "bad_token_backoff_max": 0.5,
    "handshake_timeout": 1.0, "body_timeout": 1.0,
}
"""The shipped defaults for seats and spectators (4 per seat, 32 spectators, 8 per address);
small caps elsewhere so each limit is reached in a few steps."""


@pytest.fixture(scope="module")
def hostile(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    live = LiveServer(tmp_path_factory.mktemp("hostile") / "data", HOSTILE_LIMITS).start()
    yield live
    assert live.stop() == 0, live.log_text()
    assert "Traceback" not in live.log_text(), live.log_text()


def source(host: str) -> dict[str, Any]:
    """Connection options making a client come from loopback address ``host``."""
    return {"local_addr": (host, 0)}


async def hello(server: LiveServer, match_id: str, token: str | None, host: str = "127.0.0.1") -> Peer:
    """Connect from ``host`` and say hello; the caller reads the answer."""
    peer = await Peer.open(server, match_id, **source(host))
    with contextlib.suppress(ConnectionClosed):  # an address over its cap is refused before it says hello
        await peer.send({"type": "hello", "token": token})
    return peer


async def admitted(peer: Peer) -> bool:
    """True for a welcome; False for a `rate_limited` refusal followed by a 4429 close."""
    first = await peer.recv()
    if first["type"] == "welcome":
        return True
    assert first == {"type": "reject", "code": "rate_limited", "reason": first["reason"], "seq": None}
    assert await test_ws.closes_with(peer) == 4429
    return False


async def closed_frame(peer: Peer) -> tuple[int, str]:
    """The code and reason of the close frame the server sent (fails if the connection just dropped)."""
    with pytest.raises(ConnectionClosed) as closed:
        while True:
            await peer.recv()
    received = closed.value.rcvd
    assert received is not None, "the connection dropped without a close frame"
    return received.code, received.reason


# -- what did not hold ---------------------------------------------------------------------


def test_a_spectator_flood_cannot_lock_a_seat_out(hostile: LiveServer) -> None:
    async def run() -> None:
        created = create_match(hostile)
        match_id, tokens = created["match_id"], tokens_of(created)
        flood = [await hello(hostile, match_id, None, f"127.0.1.{i // 8 + 1}") for i in range(40)]
        outcomes = [await admitted(peer) for peer in flood]
        assert outcomes == [True] * 32 + [False] * 8  # the spectators' places are full...
        assert "32 spectators" in flood[-1].messages[0]["reason"]
        seats: dict[str, list[Peer]] = {}
        for seat, token in tokens.items():  # ...but every place of every seat is still there
            seats[seat] = [await hello(hostile, match_id, token) for _ in range(4)]
            assert [await admitted(peer) for peer in seats[seat]] == [True] * 4
        for peers in seats.values():
            await peers[0].expect("state")
        await unchanged_and_playable(hostile, match_id, {seat: peers[0] for seat, peers in seats.items()}, 0)

    arun(run())


def test_spectators_are_capped_per_address(hostile: LiveServer) -> None:
    async def run() -> None:
        created = create_match(hostile)
        match_id, tokens = created["match_id"], tokens_of(created)
        crowd = [await hello(hostile, match_id, None, "127.0.2.1") for _ in range(9)]
        assert [await admitted(peer) for peer in crowd] == [True] * 8 + [False]
        assert "your address already watches" in crowd[-1].messages[0]["reason"]
        assert await admitted(await hello(hostile, match_id, None, "127.0.2.2"))  # another address: room
        assert await admitted(await hello(hostile, match_id, tokens["ATTACKER"], "127.0.2.1"))  # a seat: its own

    arun(run())


def test_connections_are_capped_per_address_across_matches(hostile: LiveServer) -> None:
    async def run() -> None:
        matches = [create_match(hostile)["match_id"] for _ in range(2)]
        held = [await hello(hostile, matches[i % 2], None, "127.0.3.1") for i in range(12)]
        assert all([await admitted(peer) for peer in held])
        other = create_match(hostile)
        over = await hello(hostile, other["match_id"], other["seats"][0]["token"], "127.0.3.1")
        assert not await admitted(over)  # even with a seat token: the address is at its cap
        assert "already has 12 connections" in over.messages[0]["reason"]
        assert await admitted(await hello(hostile, other["match_id"], None, "127.0.3.2"))
        await held[0].close()
        for _ in range(100):  # the server counts the socket out once its handler has ended
            if await admitted(await hello(hostile, matches[0], None, "127.0.3.1")):
                return
            await asyncio.sleep(0.05)
        raise AssertionError("a closed connection was never counted out")

    arun(run())


def test_wrong_tokens_make_an_address_back_off(hostile: LiveServer) -> None:
    async def run() -> None:
        created = create_match(hostile)
        match_id, token = created["match_id"], created["seats"][0]["token"]
        for _ in range(3):
            guess = await hello(hostile, match_id, token[:-2] + "xx", "127.0.4.1")
            assert (await guess.recv())["code"] == "unauthenticated"
            assert await test_ws.closes_with(guess) == 4401
        locked = await hello(hostile, match_id, token, "127.0.4.1")  # the right token, but too soon
        refused = await locked.recv()
        assert refused["code"] == "rate_limited" and "wrong tokens" in refused["reason"]
        code, reason = await closed_frame(locked)
        assert code == 4429 and reason == refused["reason"]
        assert await admitted(await hello(hostile, match_id, token, "127.0.4.2"))  # other addresses are not locked
        assert await admitted(await hello(hostile, match_id, None, "127.0.4.1"))  # watching needs no token
        retry = re.search(r"retry in ([0-9.]+) s", reason)
        assert retry is not None and 0 < float(retry.group(1)) <= 0.5
        await asyncio.sleep(float(retry.group(1)))
        assert await admitted(await hello(hostile, match_id, token, "127.0.4.1"))

    arun(run())


def test_a_long_non_ascii_match_id_gets_a_close_frame_with_a_cut_reason(hostile: LiveServer) -> None:
    async def run() -> None:
        match_id = "\N{PLAYING CARD ACE OF SPADES}é" * 60
        peer = await Peer.open(hostile, quote(match_id))
        assert (await peer.recv())["code"] == "forbidden"
        code, reason = await closed_frame(peer)
        assert code == 4404 and reason.startswith("no match '\N{PLAYING CARD ACE OF SPADES}é")
        assert len(reason.encode()) <= 123 and reason.endswith("\N{HORIZONTAL ELLIPSIS}")

    arun(run())


def test_close_reasons_are_cut_to_123_bytes_between_characters() -> None:
    assert close_reason("x" * 123) == "x" * 123
    for text in ("x" * 124, "é" * 100, "x" + "\N{PLAYING CARD ACE OF SPADES}" * 40):
        cut = close_reason(text)
        assert len(cut.encode()) <= 123 and cut.endswith("\N{HORIZONTAL ELLIPSIS}")
        assert text.startswith(cut[:-1]) and len(cut.encode()) > 117  # whole characters, as many as fit


def test_a_half_sent_upgrade_request_is_closed(hostile: LiveServer) -> None:
    def until_closed(raw: socket.socket) -> bytes:
        answer = b""
        while chunk := raw.recv(4096):  # until the server closes (the socket timeout fails the test first)
            answer += chunk
        return answer

    with socket.create_connection(("127.0.0.1", hostile.port), timeout=20) as half, \
            socket.create_connection(("127.0.0.1", hostile.port), timeout=20) as silent:
        half.sendall(b"GET /ws/matches/abc HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\n")
        assert until_closed(half).startswith(b"HTTP/1.1 408 ")
        assert until_closed(silent) == b""  # a connection that never says anything is closed too


async def _stalled(port: int, head: bytes, start: bytes, trickle: float | None) -> tuple[bytes, float]:
    """Send ``head`` and the ``start`` of a body that never ends (a byte every ``trickle`` s); all the server
    answered before it closed, and after how many seconds."""
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    began = asyncio.get_running_loop().time()
    writer.write(head + start)

    async def drip() -> None:
        while trickle is not None:
            await asyncio.sleep(trickle)
            writer.write(b" ")

    dripping = asyncio.create_task(drip())
    try:
        answer = await asyncio.wait_for(reader.read(), 20)  # until the server closes
    finally:
        dripping.cancel()
        writer.close()
    return answer, asyncio.get_running_loop().time() - began


def test_a_stalled_or_trickling_body_is_answered_408_and_closed_with_one_line_in_the_log(hostile: LiveServer) -> None:
    post = (b"POST /api/replays HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
            b"Content-Length: 100000\r\n\r\n")
    get = b"GET /api/bots HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 100\r\n\r\n"  # answered, never finished
    logged_before = hostile.log_text().count("did not arrive within 1 s")

    async def run() -> list[tuple[bytes, float]]:
        cases = [_stalled(hostile.port, post, b'{"record": ', None) for _ in range(20)]
        cases += [_stalled(hostile.port, post, b'{"record": ', 0.2) for _ in range(5)]
        cases += [_stalled(hostile.port, get, b"{", 0.2) for _ in range(5)]
        return await asyncio.gather(*cases)

    outcomes = arun(run())
    for answer, seconds in outcomes[:25]:
        head, _, body = answer.partition(b"\r\n\r\n")
        assert head.startswith(b"HTTP/1.1 408 ") and b"connection: close" in head.lower(), answer
        assert json.loads(body) == {"code": "timeout", "reason": "the request body did not arrive within 1 s"}
        assert 0.9 < seconds < 10
    for answer, seconds in outcomes[25:]:
        assert answer.startswith(b"HTTP/1.1 200 ") and 0.9 < seconds < 10  # answered, then cut off all the same
    wait_until(lambda: hostile.log_text().count("did not arrive within 1 s") == logged_before + 30)
    lines = [line for line in hostile.log_text().splitlines() if "did not arrive within 1 s" in line]
    assert all(line.startswith("INFO") and "127.0.0.1" in line for line in lines)
    assert "Traceback" not in hostile.log_text() and "Exception" not in hostile.log_text()
    assert http_json(hostile, "GET", "/api/bots")[0] == 200


# -- what already held ---------------------------------------------------------------------


def test_a_socket_that_floods_is_rate_limited_then_closed(hostile: LiveServer) -> None:
    async def run() -> None:
        match_id, seats, tokens = await two_seats(hostile)
        flooder = seats["DEFENDER"]
        for _ in range(30):
            await flooder.send({"type": "sync"})
        limited = 0
        with pytest.raises(ConnectionClosed) as closed:
            while True:
                message = await flooder.recv()
                limited += message["type"] == "reject" and message["code"] == "rate_limited"
        assert closed.value.rcvd is not None and closed.value.rcvd.code == 4429
        assert limited >= 1  # answered (what was still queued at the close is dropped)
        heard = [m for m in await seats["ATTACKER"].quiet() if m["type"] != "presence"]
        assert heard == []  # the other socket heard nothing of it (but that the DEFENDER came and went)
        seats["DEFENDER"] = await Peer.seated(hostile, match_id, tokens["DEFENDER"])
        await unchanged_and_playable(hostile, match_id, seats, 0)

    arun(run())


HELD: dict[str, Callable[[LiveServer], None]] = {
    "framing: not UTF-8": test_ws.test_invalid_utf8_closes_that_socket_only,
    "framing: oversized": test_ws.test_an_oversized_message_closes_that_socket_only,
    "framing: binary and malformed": test_ws.test_bad_shapes_are_rejected_with_the_path_and_change_nothing,
    "slow readers: the outbox coalesces": test_ws.test_a_reader_that_never_reads_does_not_hold_up_the_game,
    "origins: a foreign Origin is refused": test_ws.test_a_foreign_origin_is_refused_at_the_handshake,
    "tokens: none or wrong": test_ws.test_acting_before_hello_or_with_a_wrong_token_is_unauthenticated,
}
"""Classes that held before issue 19, each pinned by the test in test_ws.py that shows it."""


@pytest.mark.parametrize("check", HELD.values(), ids=HELD.keys())
def test_what_already_held_still_holds(server: LiveServer, check: Callable[[LiveServer], None]) -> None:
    check(server)
