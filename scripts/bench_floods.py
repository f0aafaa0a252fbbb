"""Floods of costly requests: what 64 sockets from one address asking one question cost another match.

For each costly request (a socket question or an HTTP endpoint whose work grows with the board
or the record, docs/server.md "Costly requests"), 64 connections from one client address ask
it at the documented rate (5 a second each, the per-socket message rate) while a seat of
another match, from another address, measures its ``sync`` round trip. The flood alternates
with a flood of ``sync`` from the same 64 sockets, the baseline, in phases of ``--phase``
seconds, so both see the same machine. Prints the round trip's p50 / p99 under each, their
ratio, what the flood's requests were answered with, and the server's CPU per request.

    python scripts/bench_floods.py                       # every kind, 3 s phases
    python scripts/bench_floods.py --kinds threats hint --phase 5 --rounds 3
    python scripts/bench_floods.py --costs               # also the CPU of one computation of each kind

The server runs with the shipped limits but the per-socket message rate (lifted so that the
measuring seat can ask many times a second; the flood paces itself at the documented rate).
Each kind floods from its own loopback address (127.0.1.k), so the CPU budget one kind ran
down does not refuse the next. tests/server/test_floods.py runs the same floods, shorter,
and asserts the ratio.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import faulthandler
import http.client
import json
import multiprocessing
import os
import random
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import partial
from multiprocessing.connection import Connection
from pathlib import Path
from typing import Any

import msgspec
from bench_links import Link, lean_link
from websockets.asyncio.client import connect

from engine import GameConfig, encode_action, legal_actions, new_game, player_view, record_game, reduce

ROOT = Path(__file__).resolve().parent.parent
RATE = 5.0  # requests per second per connection: the documented per-socket message rate
SOCKETS = 64  # one address's WebSocket connections at most (sockets_per_address)
SETTLE = 0.3  # seconds at the start of each phase whose round trips are not counted
GAP = 0.005  # seconds between two round trips of the measuring seat

FLOOD_LIMITS: dict[str, Any] = {"message_burst": 1_000_000, "message_rate": 1_000_000.0}
"""The shipped limits but the per-socket message rate (see above)."""

SOCKET_KINDS = ("threats", "preview_move", "preview_attack", "explain", "hint")
HTTP_KINDS = ("replays", "evaluation", "history", "steps", "record", "fork")
KINDS = SOCKET_KINDS + HTTP_KINDS
SEATED = ("explain", "hint")  # asked by the seat to act (a spectator's answer costs nothing)

GAME = {"seed": 11}  # the default board and forces
RECORDED = {"seed": 12, "victory": {"round_limit": {"max_rounds": 3}}}  # the finished game of the HTTP kinds


@dataclass
class Plan:
    """Who floods, from where, with what."""

    kind: str
    address: str
    sockets: list[tuple[str, str | None]]  # (match id, seat token or None: a spectator)
    question: dict[str, Any] | None = None  # a socket question (its id is set per message)
    requests: list[bytes] = field(default_factory=list)  # HTTP requests, one per connection


@dataclass
class Result:
    kind: str
    baseline: list[float]  # sync round trips of the measuring seat, seconds, under the sync flood
    flood: list[float]  # ... under the kind's flood
    answers: dict[str, Counter[str]]  # phase -> what the flood's requests were answered with
    server_cpu: dict[str, float] = field(default_factory=dict)  # phase -> server CPU seconds (with its analysts)
    phase_seconds: dict[str, float] = field(default_factory=dict)


def percentile(values: list[float], fraction: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(fraction * len(ordered)))]


# -- setting up ---------------------------------------------------------------------------


def _http(base: str, method: str, path: str, body: Any, address: str) -> Any:
    """One JSON request from loopback ``address``; its decoded answer (fails unless 2xx)."""
    host, port = base.removeprefix("http://").split(":")
    conn = http.client.HTTPConnection(host, int(port), timeout=60, source_address=(address, 0))
    try:
        conn.request(method, path, body=json.dumps(body).encode(), headers={"content-type": "application/json"})
        response = conn.getresponse()
        answer = json.loads(response.read())
        if response.status >= 300:
            raise RuntimeError(f"{method} {path}: {response.status} {answer}")
        return answer
    finally:
        conn.close()


def finished_record() -> dict[str, Any]:
    """A finished game of random legal actions (the HTTP kinds replay, judge and fork it)."""
    config = msgspec.convert(RECORDED, GameConfig)
    state, actions, rng = new_game(config), [], random.Random(5)
    while state.to_act is not None:
        action = rng.choice(legal_actions(state))
        actions.append(action)
        state = reduce(state, action)
    return json.loads(msgspec.json.encode(record_game(config, actions)))


def _raw_request(method: str, path: str, body: Any = None) -> bytes:
    data = b"" if body is None else json.dumps(body).encode()
    head = f"{method} {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: {len(data)}\r\n"
    if body is not None:
        head += "Content-Type: application/json\r\n"
    return head.encode() + b"\r\n" + data


def prepare(base: str, kind: str, address: str) -> Plan:
    """Create the matches ``kind`` floods (and what it asks about), from ``address`` (at most 17: within the
    shipped ``create_burst`` of 20)."""
    if kind in SEATED:  # 16 matches x the 4 places of the seat to act
        plan = Plan(kind, address, [])
        for _ in range(SOCKETS // 4):
            created = _http(base, "POST", "/api/matches", {"config": GAME}, address)
            token = next(s["token"] for s in created["seats"] if s["seat"] == "ATTACKER")
            plan.sockets += [(created["match_id"], token)] * 4
    else:  # 8 matches x the 8 spectator places of one address
        plan = Plan(kind, address, [])
        for _ in range(SOCKETS // 8):
            plan.sockets += [(_http(base, "POST", "/api/matches", {"config": GAME}, address)["match_id"], None)] * 8
    state = new_game(msgspec.convert(GAME, GameConfig))
    view = player_view(state, None)
    attacker = next(u.id for u in view.units if u.side.value == "ATTACKER")
    defender = next(u.id for u in view.units if u.side.value == "DEFENDER")
    questions: dict[str, dict[str, Any]] = {
        "threats": {"type": "threats", "side": "DEFENDER"},
        "preview_move": {"type": "preview_move", "unit_id": defender},
        "preview_attack": {"type": "preview_attack", "attacker_id": attacker, "target_id": defender},
        "explain": {"type": "explain", "action": json.loads(encode_action(legal_actions(state)[0]))},
        "hint": {"type": "hint"},
    }
    if kind in questions:
        plan.question = questions[kind]
        return plan
    record = finished_record()
    steps = len(record["actions"])
    over = _http(base, "POST", "/api/matches", {"from_record": record}, address)["match_id"]
    plan.requests = [_request(kind, record, over, n * steps // SOCKETS) for n in range(SOCKETS)]
    return plan


def _request(kind: str, record: dict[str, Any], over: str, step: int) -> bytes:
    """Connection ``step``'s request of an HTTP ``kind`` (each asks about another step where it can)."""
    match kind:
        case "replays":
            return _raw_request("POST", "/api/replays", {"record": record, "start": step, "count": 20})
        case "evaluation":
            return _raw_request("POST", "/api/replays/evaluation", {"record": record})
        case "history":
            return _raw_request("GET", f"/api/matches/{over}/history")
        case "steps":
            return _raw_request("GET", f"/api/matches/{over}/steps/{step}")
        case "record":
            return _raw_request("GET", f"/api/matches/{over}/record")
        case "fork":
            return _raw_request("POST", f"/api/matches/{over}/fork", {"step": step})
    raise ValueError(f"not an HTTP kind: {kind}")


# -- the flood (its own process) -----------------------------------------------------------


def flood(ws_base: str, http_port: int, plan: Plan, link: Connection) -> None:
    """Connect the plan's 64 sockets, then flood as told over ``link``: "sync", "flood" or "stop"."""
    faulthandler.dump_traceback_later(300, exit=True)  # a flood that hangs says where, and ends
    asyncio.run(_flood(ws_base, http_port, plan, link))


async def _flood(ws_base: str, http_port: int, plan: Plan, link: Connection) -> None:
    loop = asyncio.get_running_loop()
    answers: dict[str, Counter[str]] = {"sync": Counter(), "flood": Counter()}
    phase = ["idle"]
    async with contextlib.AsyncExitStack() as stack:
        sockets: list[Link] = []
        for match_id, token in plan.sockets:
            socket = await stack.enter_async_context(lean_link(f"{ws_base}/ws/matches/{match_id}",
                                                               local_addr=(plan.address, 0)))
            first: asyncio.Future[None] = loop.create_future()

            def heard(frame: bytes, first: asyncio.Future[None] = first) -> None:
                kind = _kind_of(frame)
                if kind == "state" and not first.done():
                    first.set_result(None)
                elif phase[0] in answers:
                    answers[phase[0]][kind] += 1

            socket.on_frame = heard
            await socket.send(json.dumps({"type": "hello", "token": token}).encode())
            await asyncio.wait_for(first, 30)
            sockets.append(socket)
        link.send("ready")
        workers = [asyncio.create_task(_ask(n, socket, plan, phase, http_port, answers))
                   for n, socket in enumerate(sockets)]
        try:
            while (command := await loop.run_in_executor(None, link.recv)) != "stop":
                phase[0] = command
        finally:
            phase[0] = "stopped"
            for worker in workers:
                worker.cancel()
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(asyncio.gather(*workers, return_exceptions=True), 10)
            link.send({name: dict(counts) for name, counts in answers.items()})


def _kind_of(frame: bytes) -> str:
    """A server message's type, and its code for a reject (read from the head of the frame only)."""
    head = frame[:200]
    kind = head.split(b'"type":"', 1)[-1].split(b'"', 1)[0].decode() if b'"type":"' in head else "?"
    if kind == "reject":
        kind += ":" + head.split(b'"code":"', 1)[-1].split(b'"', 1)[0].decode()
    return kind


async def _ask(n: int, socket: Link, plan: Plan, phase: list[str], http_port: int,
               answers: dict[str, Counter[str]]) -> None:
    """One connection's share: a request every 1/RATE s, from a random offset."""
    loop = asyncio.get_running_loop()
    await asyncio.sleep(random.Random(n).random() / RATE)
    next_at = loop.time()
    asked = 0
    http: tuple[asyncio.StreamReader, asyncio.StreamWriter] | None = None
    while True:
        next_at = max(next_at + 1 / RATE, loop.time())
        await asyncio.sleep(next_at - loop.time())
        now = phase[0]
        if now == "sync":
            await socket.send(b'{"type":"sync"}')
        elif now == "flood" and plan.question is not None:
            asked += 1
            await socket.send(json.dumps({**plan.question, "id": asked}).encode())
        elif now == "flood":
            try:
                if http is None:
                    http = await asyncio.open_connection("127.0.0.1", http_port, local_addr=(plan.address, 0))
                status, close = await _exchange(http, plan.requests[n])
                answers["flood"][f"http {status}"] += 1
            except (OSError, asyncio.IncompleteReadError, ValueError):
                answers["flood"]["http dropped"] += 1
                close = True
            if close and http is not None:
                http[1].close()
                http = None


async def _exchange(http: tuple[asyncio.StreamReader, asyncio.StreamWriter], request: bytes) -> tuple[int, bool]:
    """Send one request and read its whole answer: (status, whether the server closes the connection)."""
    reader, writer = http
    writer.write(request)
    head = (await asyncio.wait_for(reader.readuntil(b"\r\n\r\n"), 30)).decode("latin-1").lower()
    status = int(head.split(" ", 2)[1])
    length = int(head.split("content-length: ", 1)[1].split("\r\n", 1)[0]) if "content-length: " in head else 0
    await reader.readexactly(length)
    return status, "connection: close" in head


# -- measuring ------------------------------------------------------------------------------


async def round_trips(ws_url: str, token: str, address: str, samples: list[tuple[float, float]],
                      stop: asyncio.Event) -> None:
    """A seat's sync round trips, (when sent, seconds), until ``stop``."""
    async with connect(ws_url, local_addr=(address, 0), max_size=2**22, compression=None) as ws:
        await ws.send(json.dumps({"type": "hello", "token": token}))
        while json.loads(await ws.recv())["type"] != "state":
            pass
        loop = asyncio.get_running_loop()
        while not stop.is_set():
            sent = loop.time()
            await ws.send('{"type":"sync"}')
            while not (await asyncio.wait_for(ws.recv(), 30)).startswith('{"type":"state"'):
                pass
            samples.append((sent, loop.time() - sent))
            await asyncio.sleep(GAP)


def _cpu_of_tree(pid: int) -> float:
    """CPU seconds of ``pid`` and its children (the server and its analyst processes)."""
    total = 0.0
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if stat.parent.name == str(pid) or fields[1] == str(pid):
            total += (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    return total


async def run_kind(base: str, kind: str, measurer: tuple[str, str], address: str, *, phase_seconds: float,
                   rounds: int, server_pid: int | None = None) -> Result:
    """Flood ``kind`` from ``address`` in ``rounds`` pairs of phases (sync, then the kind) while ``measurer``
    (a match id and its seat token, asked from 127.0.0.2) measures its sync round trip."""
    loop = asyncio.get_running_loop()
    plan = await loop.run_in_executor(None, prepare, base, kind, address)
    ws_base = base.replace("http://", "ws://")
    mine, theirs = multiprocessing.get_context("spawn").Pipe()
    flooder = multiprocessing.get_context("spawn").Process(
        target=flood, args=(ws_base, int(base.rsplit(":", 1)[1]), plan, theirs), daemon=True)
    flooder.start()
    samples: list[tuple[float, float]] = []
    stop = asyncio.Event()
    phases: list[tuple[str, float, float]] = []
    cpu: Counter[str] = Counter()
    try:
        if await _receive(loop, mine, 120) != "ready":
            raise RuntimeError("the flood did not connect")
        measuring = asyncio.create_task(round_trips(f"{ws_base}/ws/matches/{measurer[0]}", measurer[1],
                                                    "127.0.0.2", samples, stop))
        for name in ("sync", "flood") * rounds:
            mine.send(name)
            start = loop.time()
            before = _cpu_of_tree(server_pid) if server_pid else 0.0
            flooding = _cpu_of_tree(flooder.pid) if flooder.pid else 0.0
            await asyncio.sleep(phase_seconds)
            cpu[name] += (_cpu_of_tree(server_pid) - before) if server_pid else 0.0
            cpu["client " + name] += (_cpu_of_tree(flooder.pid) - flooding) if flooder.pid else 0.0
            phases.append((name, start, loop.time()))
        mine.send("stop")
        answers = await _receive(loop, mine, 60)
        stop.set()
        await measuring
    finally:
        stop.set()
        flooder.join(10)
        if flooder.is_alive():
            flooder.kill()
        mine.close()
        theirs.close()
    split: dict[str, list[float]] = {"sync": [], "flood": []}
    for sent, seconds in samples:
        for name, start, end in phases:
            if start + SETTLE <= sent < end:
                split[name].append(seconds)
    return Result(kind, split["sync"], split["flood"], {k: Counter(v) for k, v in answers.items()},
                  dict(cpu), {"sync": phase_seconds * rounds, "flood": phase_seconds * rounds})


async def _receive(loop: asyncio.AbstractEventLoop, link: Connection, timeout: float) -> Any:
    ready = await loop.run_in_executor(None, link.poll, timeout)
    if not ready:
        raise TimeoutError("the flood process did not answer")
    return link.recv()


def measuring_seat(base: str) -> tuple[str, str]:
    """Another match (from another address) whose seat measures: (match id, its ATTACKER token)."""
    created = _http(base, "POST", "/api/matches", {"config": GAME}, "127.0.0.2")
    return created["match_id"], next(s["token"] for s in created["seats"] if s["seat"] == "ATTACKER")


def ratio(result: Result, floor: float) -> float:
    """The flood's p99 over the baseline's (at least ``floor`` seconds)."""
    return percentile(result.flood, 0.99) / max(floor, percentile(result.baseline, 0.99))


def report(result: Result) -> None:
    ms = 1000
    line = (f"{result.kind:15s} sync flood p50 / p99 {percentile(result.baseline, 0.5) * ms:6.2f} / "
            f"{percentile(result.baseline, 0.99) * ms:6.2f} ms   {result.kind} flood "
            f"{percentile(result.flood, 0.5) * ms:6.2f} / {percentile(result.flood, 0.99) * ms:6.2f} ms   "
            f"p99 ratio {ratio(result, 1e-3):5.2f}   ({len(result.baseline)} / {len(result.flood)} round trips)")
    print(line)
    asked = sum(result.answers.get("flood", Counter()).values())
    answered = ", ".join(f"{k} {v}" for k, v in sorted(result.answers.get("flood", Counter()).items()))
    print(f"{'':15s} the flood's {asked} requests were answered: {answered}")
    if result.server_cpu:
        for name in ("sync", "flood"):
            got = sum(result.answers.get(name, Counter()).values())
            seconds = result.server_cpu.get(name, 0.0)
            per = f"{seconds / got * 1e6:.0f} µs per request" if got else "-"
            client = result.server_cpu.get("client " + name, 0.0) / result.phase_seconds[name]
            print(f"{'':15s} server CPU under the {name} flood: {seconds / result.phase_seconds[name]:.0%} "
                  f"of a core, {per} (the flooding client: {client:.0%})")


# -- one computation of each kind, in this process -----------------------------------------


def costs() -> None:
    """The CPU of one computation of each costly kind (median of positions of a random default game)."""
    from engine import Attack, GameRecord, Side
    from engine.analysis import attack_preview, explain, move_preview, threat_map
    from lab.bots import hint, win_chance
    from server.history import history_of
    from server.replays import ReplayRequest, evaluation, replay_page

    def cpu(work: Callable[[], object], repeat: int = 3) -> float:
        times = []
        for _ in range(repeat):
            start = time.thread_time()
            work()
            times.append(time.thread_time() - start)
        return min(times)

    config = msgspec.convert(GAME, GameConfig)
    rng = random.Random(3)
    state = new_game(config)
    positions, actions = [], []
    while state.to_act is not None and len(actions) < 400:
        action = rng.choice(legal_actions(state))
        actions.append(action)
        state = reduce(state, action)
        if len(actions) % 25 == 0:
            positions.append(state)
    found: dict[str, list[float]] = {k: [] for k in ("threats", "preview_move", "preview_attack", "explain", "hint")}
    for position in positions:
        if position.to_act is None:
            continue
        view = player_view(position, Side.ATTACKER)
        units = [u for u in position.units if u.cell is not None]
        mine = next(u.id for u in units if u.side is Side.ATTACKER)
        theirs = next(u.id for u in units if u.side is Side.DEFENDER)
        legal = legal_actions(position)
        found["threats"].append(cpu(partial(threat_map, view, Side.DEFENDER)))
        found["preview_move"].append(cpu(partial(move_preview, view, mine)))
        found["preview_attack"].append(cpu(partial(attack_preview, view, Attack(attacker=mine, target=theirs))))
        found["explain"].append(cpu(partial(explain, position, legal[-1])))
        found["hint"].append(cpu(partial(hint, player_view(position, position.to_act), legal, 5), 1))
    print(f"one computation on the default board (median / max of {len(positions)} positions, CPU ms):")
    for name, values in found.items():
        print(f"  {name:15s} {statistics.median(values) * 1000:8.2f} / {max(values) * 1000:8.2f}")
    record = GameRecord(config=config, actions=tuple(actions))
    texts = [encode_action(a) for a in actions]
    print(f"one computation on a record of {len(actions)} actions (CPU ms):")
    for name, work in (("replays", lambda: replay_page(ReplayRequest(record=record))),
                       ("evaluation", lambda: evaluation(record, win_chance)),
                       ("history", lambda: history_of("m", config, texts))):
        print(f"  {name:15s} {cpu(work, 1) * 1000:8.2f}")


# -- the command ----------------------------------------------------------------------------


def start_server(data: Path) -> tuple[subprocess.Popen[bytes], str]:
    limits = data.parent / "limits.json"
    limits.write_text(json.dumps(FLOOD_LIMITS))
    proc = subprocess.Popen([sys.executable, "-m", "cli", "serve", "--port", "0", "--data", str(data),
                             "--limits", str(limits), "--log-level", "warning"], cwd=ROOT,
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    assert proc.stdout is not None
    for raw in proc.stdout:
        line = raw.decode()
        if "Taktik is running" in line:
            threading.Thread(target=_echo, args=(proc.stdout,), daemon=True).start()  # a full pipe would stop it
            return proc, "http://" + line.split("http://")[1].split("/")[0]
    raise SystemExit("the server did not start")


def _echo(stream: Any) -> None:
    for raw in stream:
        sys.stdout.write(raw.decode())


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--kinds", nargs="+", choices=KINDS, default=list(KINDS))
    parser.add_argument("--phase", type=float, default=3.0, help="seconds of each phase")
    parser.add_argument("--rounds", type=int, default=2, help="pairs of phases (sync, then the kind) per kind")
    parser.add_argument("--costs", action="store_true", help="also time one computation of each kind")
    args = parser.parse_args()
    if args.costs:
        costs()
    with tempfile.TemporaryDirectory() as temp:
        proc, base = start_server(Path(temp) / "data")
        try:
            measurer = measuring_seat(base)
            print(f"64 connections from one address, {RATE:g} requests/s each; a seat of another match "
                  f"measures its sync round trip ({args.rounds} x {args.phase:g} s per phase)")
            for n, kind in enumerate(args.kinds):
                result = asyncio.run(run_kind(base, kind, measurer, f"127.0.1.{n + 1}", phase_seconds=args.phase,
                                              rounds=args.rounds, server_pid=proc.pid))
                report(result)
        finally:
            proc.terminate()
            proc.wait(30)


if __name__ == "__main__":
    main()
