"""scripts/bench_links.py: the benchmark's lean WebSocket client against the websockets library's server."""

from __future__ import annotations

import asyncio
import sys
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import pytest
from websockets.asyncio.server import ServerConnection, serve
from websockets.http11 import Response

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "scripts"))

from bench_links import Link, lean_link, library_link

LINKS = {"lean": lean_link, "library": library_link}


@asynccontextmanager
async def server(handler: Callable[[ServerConnection], Awaitable[None]], **options: Any) -> AsyncIterator[str]:
    async with serve(handler, "127.0.0.1", 0, compression=None, **options) as running:
        port = running.sockets[0].getsockname()[1]
        yield f"ws://127.0.0.1:{port}/ws/matches/m1"


async def until(condition: Callable[[], bool]) -> None:
    async with asyncio.timeout(10):
        while not condition():
            await asyncio.sleep(0.01)


@pytest.mark.parametrize("kind", LINKS)
def test_messages_of_every_length_arrive_whole_and_in_order(kind: str) -> None:
    sizes = [0, 1, 125, 126, 65535, 65536, 300_000]  # each length encoding: 7 bits, 16 bits, 64 bits

    async def handler(ws: ServerConnection) -> None:
        asked = await ws.recv()
        assert asked == '{"type":"hello","é":1}'  # a text frame, masked, UTF-8 intact
        for size in sizes:
            await ws.send((f"{size}:" + "x" * size)[:max(size, 1)])
        await ws.send(["frag", "mented"])  # one message in three frames (the last an empty continuation)
        await ws.recv()

    async def run() -> list[bytes]:
        async with server(handler) as url, LINKS[kind](url) as link:
            got: list[bytes] = []
            link.on_frame = got.append
            await link.send('{"type":"hello","é":1}'.encode())
            await until(lambda: len(got) == len(sizes) + 1)
            return got

    got = asyncio.run(run())
    assert [len(g) for g in got[:-1]] == [max(size, 1) for size in sizes]
    assert got[-1] == b"fragmented"


def test_pings_are_answered_so_the_server_keeps_the_connection() -> None:
    async def handler(ws: ServerConnection) -> None:
        for _ in range(3):
            await asyncio.wait_for(await ws.ping(b"are you there"), 2)  # the pong must come back
        await ws.send("still here")
        await ws.wait_closed()

    async def run() -> list[bytes]:
        async with server(handler) as url, lean_link(url) as link:
            got: list[bytes] = []
            link.on_frame = got.append
            await until(lambda: bool(got))
            return got

    assert asyncio.run(run()) == [b"still here"]


def test_a_close_from_the_server_ends_the_link_with_its_code_and_reason() -> None:
    async def handler(ws: ServerConnection) -> None:
        await ws.recv()
        await ws.close(4401, "wrong token")

    async def run() -> Link:
        async with server(handler) as url, lean_link(url) as link:
            await link.send(b"{}")
            await asyncio.wait_for(link.closed, 5)
            with pytest.raises(ConnectionError, match="4401 wrong token"):
                await link.send(b"{}")
            return link

    link = asyncio.run(run())
    assert (link.close_code, link.close_reason) == (4401, "wrong token")


def test_a_refused_handshake_is_an_error_naming_the_status() -> None:
    def refuse(connection: ServerConnection, request: Any) -> Response:
        return connection.respond(403, "no\n")

    async def handler(ws: ServerConnection) -> None:
        raise AssertionError("never reached")

    async def run() -> None:
        async with server(handler, process_request=refuse) as url:
            with pytest.raises(ConnectionError, match="403"):
                async with lean_link(url):
                    pass

    asyncio.run(run())


def test_only_plain_ws_urls_are_spoken() -> None:
    async def run() -> None:
        async with lean_link("wss://example.org/ws"):
            pass

    with pytest.raises(ValueError, match="ws://"):
        asyncio.run(run())
