"""Benchmark `taktik serve`: many concurrent matches, two scripted clients each, on loopback.

Starts a server process on a fresh data directory (unless ``--url`` points at one), creates
``--matches`` matches, connects two WebSocket clients per match and lets every client
play random legal actions taken from the messages it receives, each after a think time.
Prints the actions per second the server accepted and the act→update latency (from
sending ``act`` to receiving the ``state`` of the new version) at p50/p90/p99/max, with the
server's CPU use and memory.

    python scripts/bench_server.py --matches 500 --duration 60
    python scripts/bench_server.py --matches 50 --think 0      # closed loop: throughput
    python scripts/bench_server.py --matches 1000 --database postgresql://... --bus redis://... --workers 2

With ``--database`` and ``--bus`` it measures ``taktik serve --workers N`` on PostgreSQL and
Redis, then, in the same run and with the same load, one process on SQLite, and prints both
and their ratio. The two seats of a match connect separately, so with several workers they
are usually on different processes: "act->opponent" (from one seat's ``act`` to the state
reaching the other seat) then includes the trip through PostgreSQL and Redis. The CPU used
by PostgreSQL's and Redis's own processes is shown beside the server's (where the time goes).

Latency is measured in the client process, so it includes that process's own scheduling
delay; with a few hundred matches on two cores the clients cost about as much CPU as the
server.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import multiprocessing
import os
import random
import signal
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request
from collections import Counter
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from multiprocessing.connection import Connection
from pathlib import Path
from typing import Any

import msgspec
from bench_links import lean_link, library_link

ROOT = Path(__file__).resolve().parent.parent
BENCH_LIMITS: dict[str, float] = {"create_burst": 1_000_000, "create_rate": 1_000_000.0,
                                  "sockets_per_address": 1_000_000}  # every client of the benchmark is 127.0.0.1
UNTHROTTLED = {"message_burst": 1_000_000, "message_rate": 1_000_000.0, "action_burst": 1_000_000,
               "action_rate": 1_000_000.0}
"""Per-socket rates lifted for think times under half a second (the default allows 2 actions/s)."""


class Incoming(msgspec.Struct):
    """The parts of a server message a scripted client needs (the view is skipped unparsed)."""

    type: str
    version: int = 0
    status: str = "live"
    legal_actions: list[msgspec.Raw] = []
    last_seq: int = 0
    code: str | None = None


_DECODE = msgspec.json.Decoder(Incoming)


@dataclass
class Stats:
    latencies: list[float] = field(default_factory=list)
    opponent: list[float] = field(default_factory=list)  # act -> the other seat's update
    sent: dict[tuple[str, int], tuple[float, Any]] = field(default_factory=dict)  # (match, version) -> (when, by)
    rejects: Counter[str] = field(default_factory=Counter)
    finished: int = 0
    measuring: bool = False
    client_cpu: float = 0.0  # cores, summed over the client processes
    lag: list[float] = field(default_factory=list)  # event-loop overshoots of the client processes, seconds
    client_procs: int = 1
    failed: int = 0  # clients that could not connect, or lost their connection
    connect_seconds: float = 0.0  # from the first connection to the last client's first state

    def merge(self, other: Stats) -> None:
        self.latencies += other.latencies
        self.opponent += other.opponent
        self.rejects.update(other.rejects)
        self.finished += other.finished
        self.client_cpu += other.client_cpu
        self.lag += other.lag
        self.failed += other.failed
        self.connect_seconds = max(self.connect_seconds, other.connect_seconds)


def _cpu_of(pid: int) -> float:
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def _rss_of(pid: int) -> float:
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    except OSError:
        pass
    return 0.0


PROFILE_ENV = "TAKTIK_PROFILE"  # server/profiling.py: where a server process writes its measurements
OTHERS = ("postgres", "redis-server")  # the processes whose CPU is shown beside the server's


def pids_named(*names: str) -> list[int]:
    """Processes whose command is one of ``names`` (PostgreSQL's backends, redis-server)."""
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                if (entry / "comm").read_text().strip() in names:
                    found.append(int(entry.name))
            except OSError:
                continue
    return found


def cpu_by_pid(*names: str) -> dict[int, float]:
    """CPU seconds of each process named one of ``names``."""
    return {pid: _cpu_of(pid) for pid in pids_named(*names)}


def cpu_since(before: dict[int, float], *names: str) -> float:
    """CPU seconds the processes named ``names`` used since ``before`` (`cpu_by_pid`): a PostgreSQL backend
    that started meanwhile counts whole, one that exited is lost (a plain sum would go negative)."""
    return sum(cpu - before.get(pid, 0.0) for pid, cpu in cpu_by_pid(*names).items())


@dataclass
class Server:
    url: str
    proc: subprocess.Popen[bytes] | None = None

    def pids(self) -> list[int]:
        """The server process and, with --workers, its workers."""
        if self.proc is None:
            return []
        try:
            children = Path(f"/proc/{self.proc.pid}/task/{self.proc.pid}/children").read_text().split()
        except OSError:
            children = []
        return [self.proc.pid, *(int(c) for c in children)]

    def cpu_seconds(self) -> float:
        if self.proc is None:
            return float("nan")
        return sum(_cpu_of(pid) for pid in self.pids())

    def rss_mib(self) -> float:
        if self.proc is None:
            return float("nan")
        return sum(_rss_of(pid) for pid in self.pids())


def start_server(data_dir: Path, port: int, unthrottled: bool, cluster: tuple[str, ...] = ()) -> Server:
    data_dir.mkdir(parents=True, exist_ok=True)
    limits = data_dir.parent / f"limits-{data_dir.name}.json"
    limits.write_text(json.dumps(BENCH_LIMITS | (UNTHROTTLED if unthrottled else {})))
    arguments = ["serve", "--port", str(port), "--data", str(data_dir), "--limits", str(limits), "--log-level",
                 "warning", *cluster]
    proc = subprocess.Popen([sys.executable, "-m", "cli", *arguments], cwd=ROOT, stdout=subprocess.PIPE,
                            stderr=subprocess.STDOUT)
    assert proc.stdout is not None
    for raw in proc.stdout:
        line = raw.decode()
        if "Taktik is running" in line:
            port = int(line.split("http://")[1].split("/")[0].rsplit(":", 1)[1])
            break
    else:
        raise SystemExit("the server did not start")
    # Keep reading: with --workers every worker prints, and a closed pipe would stop it.
    threading.Thread(target=lambda: [None for _ in proc.stdout], daemon=True).start()  # type: ignore[union-attr]
    return Server(url=f"http://127.0.0.1:{port}", proc=proc)


def create(url: str, config: dict[str, Any]) -> dict[str, Any]:
    request = urllib.request.Request(f"{url}/api/matches", data=json.dumps({"config": config}).encode(),
                                     headers={"content-type": "application/json"}, method="POST")
    with urllib.request.urlopen(request, timeout=120) as response:
        answer: dict[str, Any] = json.loads(response.read())
        return answer


async def player(ws_url: str, token: str, think: float, stats: Stats, stop_at: float, rng: random.Random,
                 settled: Callable[[], None], lean: bool = True) -> None:
    """One seat: plays until cancelled; calls ``settled`` once it has its first state (or could not connect)."""
    told = False

    def first_state() -> None:
        nonlocal told
        if not told:
            told = True
            settled()

    try:
        await _play(ws_url, token, think, stats, stop_at, rng, first_state, lean)
    except Exception:
        stats.failed += 1
        first_state()
        raise


async def _play(ws_url: str, token: str, think: float, stats: Stats, stop_at: float, rng: random.Random,
                settled: Callable[[], None], lean: bool = True) -> None:
    match_id = ws_url.rsplit("/", 1)[1]
    async with (lean_link if lean else library_link)(ws_url) as ws:
        latest: list[Incoming] = []
        arrived: dict[int, float] = {}
        changed = asyncio.Event()
        rejected: list[Incoming] = []

        def receive(frame: bytes) -> None:  # called by the link as each message is read: no task per message
            now = time.perf_counter()
            message = _DECODE.decode(frame)
            if message.type == "state" and (not latest or message.version >= latest[0].version):
                if not latest:
                    settled()
                latest[:] = [message]
                arrived.setdefault(message.version, now)
                asked = stats.sent.pop((match_id, message.version), None)
                if asked is not None and asked[1] is not ws and stats.measuring:
                    stats.opponent.append(now - asked[0])
            elif message.type == "reject":
                rejected.append(message)
                if stats.measuring or not latest:
                    stats.rejects[message.code or "?" if latest else f"{message.code} (on joining)"] += 1
            changed.set()

        ws.on_frame = receive
        ws.closed.add_done_callback(lambda _: changed.set())  # closed (a refusal closes with a code): the player stops
        await ws.send(json.dumps({"type": "hello", "token": token}).encode())

        async def update() -> None:
            if ws.closed.done():
                raise ConnectionError(f"the server closed the connection ({ws.close_code} {ws.close_reason})")
            changed.clear()
            await changed.wait()
            if ws.closed.done():
                raise ConnectionError(f"the server closed the connection ({ws.close_code} {ws.close_reason})")

        seq = 0
        while time.perf_counter() < stop_at:
            while not latest or (latest[0].status == "live" and not latest[0].legal_actions):
                await update()
            state = latest[0]
            if state.status != "live":
                stats.finished += 1
                return
            if think:
                await asyncio.sleep(rng.uniform(0.5 * think, 1.5 * think))
            seq = max(seq, state.last_seq) + 1
            action = rng.choice(state.legal_actions)
            sent = time.perf_counter()
            stats.sent[match_id, state.version + 1] = (sent, ws)
            rejected.clear()
            await ws.send(b'{"type":"act","version":%d,"seq":%d,"action":%s}' % (state.version, seq, action))
            while latest[0].version <= state.version and not rejected:
                await update()
            if rejected:
                await asyncio.sleep(0.5)
            elif stats.measuring:
                stats.latencies.append(arrived[state.version + 1] - sent)


@dataclass
class Result:
    label: str
    stats: Stats
    cpu: float  # the server's processes, in cores
    others_cpu: float  # PostgreSQL's and Redis's processes, in cores
    rss: float

    @property
    def rate(self) -> float:
        return len(self.stats.latencies) / self.duration

    duration: float = 1.0


async def lag_probe(stats: Stats, period: float = 0.01) -> None:
    """Record how late the event loop wakes a task sleeping ``period`` (its lag) while measuring."""
    loop = asyncio.get_running_loop()
    while True:
        before = loop.time()
        await asyncio.sleep(period)
        if stats.measuring:
            stats.lag.append(loop.time() - before - period)


async def run_clients(ws_base: str, matches: list[dict[str, Any]], args: argparse.Namespace, seed: float,
                      conn: Connection) -> Stats:
    """Play ``matches`` from this process. Tells the parent (``conn``) when every client has its first state,
    gets from it when to start measuring (`time.monotonic`), and measures for ``args.duration``."""
    stats = Stats()
    stop_at = time.perf_counter() + 24 * 3600  # the clients are cancelled after the window
    rng = random.Random(seed)
    probe = asyncio.create_task(lag_probe(stats))
    total = 2 * len(matches)
    pending = [total]
    everyone = asyncio.Event()

    def settled() -> None:
        pending[0] -= 1
        if pending[0] == 0:
            everyone.set()

    began = time.perf_counter()
    tasks = [
        asyncio.create_task(player(f"{ws_base}/ws/matches/{m['match_id']}", seat["token"], args.think, stats, stop_at,
                                   random.Random(rng.random()), settled, args.client == "lean"))
        for m in matches for seat in m["seats"]
    ]
    while not everyone.is_set():
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(everyone.wait(), 10)
        if not everyone.is_set():
            print(f"  [client process {os.getpid()}] {pending[0]} of {total} clients still waiting for their first "
                  f"state", flush=True)
    stats.connect_seconds = time.perf_counter() - began
    conn.send(stats.connect_seconds)
    measure_at: float = await asyncio.get_running_loop().run_in_executor(None, conn.recv)
    await asyncio.sleep(max(0.0, measure_at - time.monotonic()))
    stats.measuring = True
    own0, t0 = time.process_time(), time.perf_counter()
    await asyncio.sleep(args.duration)
    stats.measuring = False
    stats.client_cpu = (time.process_time() - own0) / (time.perf_counter() - t0)
    for task in [*tasks, probe]:
        task.cancel()
    await asyncio.gather(*tasks, probe, return_exceptions=True)
    stats.sent.clear()  # holds sockets, which do not cross back to the parent
    return stats


def client_process(ws_base: str, matches: list[dict[str, Any]], args: argparse.Namespace, seed: float,
                   conn: Connection) -> None:
    """One client process: its share of the matches (both seats of each, so act->opponent is measured here)."""
    conn.send(asyncio.run(run_clients(ws_base, matches, args, seed, conn)))


def default_client_procs() -> int:
    """One client process per core: one process driving thousands of sockets saturates its core and its
    own event-loop lag lands in the latency it measures."""
    return max(1, os.cpu_count() or 1)


def drive(server: Server, matches: list[dict[str, Any]], args: argparse.Namespace) -> tuple[Stats, float, float]:
    """Spread the matches over ``args.client_procs`` processes; once every client is connected, warm up, then
    measure. The stats of all, and the server's and PostgreSQL/Redis's CPU (cores) over the measured window."""
    count = max(1, min(args.client_procs, len(matches)))
    context = multiprocessing.get_context("spawn")
    rng = random.Random(args.seed)
    ws_base = server.url.replace("http://", "ws://")
    links = []
    for i in range(count):
        ours, theirs = context.Pipe()
        process = context.Process(target=client_process, args=(ws_base, matches[i::count], args, rng.random(), theirs),
                                  daemon=True)
        process.start()
        theirs.close()  # the child's end lives in the child only: if it dies, `recv` here fails instead of waiting
        links.append((process, ours))
    connected = max(_from(process, link) for process, link in links)
    print(f"  every client connected in {connected:.1f} s; warming up {args.warmup:.0f} s", flush=True)
    measure_at = time.monotonic() + args.warmup
    for _, link in links:
        link.send(measure_at)
    time.sleep(max(0.0, measure_at - time.monotonic()))
    profiled = server.pids()[1:] or server.pids()  # the workers (or the one process)
    if args.profile:
        signal_all(profiled, signal.SIGUSR1)  # start the CPU profile (server/profiling.py)
    cpu0, others0, t0 = server.cpu_seconds(), cpu_by_pid(*OTHERS), time.monotonic()
    time.sleep(args.duration)
    elapsed = time.monotonic() - t0
    if args.profile:
        signal_all(profiled, signal.SIGUSR1)  # and write it
    cpu = (server.cpu_seconds() - cpu0) / elapsed
    others = cpu_since(others0, *OTHERS) / elapsed
    stats = Stats(client_procs=count)
    for process, link in links:
        stats.merge(_from(process, link))
        process.join(30)
    if args.profile:
        written(Path(os.environ[PROFILE_ENV]), profiled)
    return stats, cpu, others


def _from(process: multiprocessing.process.BaseProcess, link: Connection) -> Any:
    """The next thing a client process sends; a clear error if it died instead (never a silent wait)."""
    try:
        return link.recv()
    except EOFError:
        process.join(5)
        raise SystemExit(f"client process {process.pid} died (exit code {process.exitcode}); "
                         "its traceback is above") from None


def written(directory: Path, pids: list[int], timeout: float = 120.0) -> None:
    """Wait until each profiled process has written its measurements (a loaded worker takes a while,
    and stopping it first loses them)."""
    deadline = time.monotonic() + timeout
    while not all((directory / f"gc-{pid}.json").exists() for pid in pids):
        if time.monotonic() > deadline:
            print(f"  (no measurements from some of the processes {pids} after {timeout:.0f} s)", flush=True)
            return
        time.sleep(0.2)


def signal_all(pids: list[int], sig: signal.Signals) -> None:
    for pid in pids:
        with contextlib.suppress(ProcessLookupError):
            os.kill(pid, sig)


def percentile(values: list[float], fraction: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(fraction * len(ordered)))]


def measure(label: str, server: Server, args: argparse.Namespace) -> Result:
    config = {"victory": {"round_limit": {"max_rounds": args.rounds}}}
    began = time.perf_counter()
    with ThreadPoolExecutor(8) as pool:
        matches = list(pool.map(lambda _: create(server.url, config), range(args.matches)))
    print(f"[{label}] created {len(matches)} matches in {time.perf_counter() - began:.1f} s", flush=True)
    stats, cpu, others = drive(server, matches, args)
    return Result(label, stats, cpu, others, server.rss_mib(), args.duration)


def stop(server: Server) -> None:
    if server.proc is not None:
        server.proc.terminate()
        server.proc.wait(60)


def report(result: Result, args: argparse.Namespace) -> None:
    stats = result.stats
    lat = [x * 1000 for x in stats.latencies]
    print(f"[{result.label}] matches {args.matches}, clients {2 * args.matches}, think {args.think} s, "
          f"measured {args.duration:.0f} s")
    print(f"  actions/s {result.rate:.1f}  (games finished: {stats.finished // 2})")
    for name, values in (("act->update", lat), ("act->opponent", [x * 1000 for x in stats.opponent])):
        if values:
            print(f"  {name} latency ms: p50 {statistics.median(values):.2f}  p90 {percentile(values, 0.9):.2f}  "
                  f"p99 {percentile(values, 0.99):.2f}  max {max(values):.2f}")
    print(f"  server CPU per action {result.cpu * 1000 / max(result.rate, 1e-9):.3f} ms; "
          f"server CPU {result.cpu * 100:.0f}% of one core, RSS {result.rss:.0f} MiB; PostgreSQL+Redis CPU "
          f"{result.others_cpu * 100:.0f}%; clients' CPU {stats.client_cpu * 100:.0f}%; "
          f"load average {os.getloadavg()[0]:.1f}; rejects {dict(stats.rejects) or 'none'}"
          + (f"; clients failed {stats.failed}" if stats.failed else ""))
    if stats.lag:
        lag = [x * 1000 for x in stats.lag]
        print(f"  client event-loop lag ms ({stats.client_procs} client processes, in every latency above): "
              f"p50 {statistics.median(lag):.2f}  p99 {percentile(lag, 0.99):.2f}  max {max(lag):.2f}")


def profile_into(args: argparse.Namespace, name: str) -> None:
    """With --profile, the next server started measures itself into the directory ``name`` under it."""
    if args.profile:
        os.environ[PROFILE_ENV] = str((Path(args.profile) / name).resolve())


def report_pauses(directory: Path) -> None:
    """The collection pauses the server processes recorded (server/profiling.py), per generation."""
    pauses: dict[int, list[float]] = {}
    cpus: dict[int, list[float]] = {}  # the same pauses in CPU time: what they cost without preemption
    collected: Counter[int] = Counter()
    for path in sorted(directory.glob("gc-*.json")):
        found = json.loads(path.read_text())
        young, middle, old, frozen = found["tracked"]
        print(f"  {path.stem}: objects tracked at the end: generation 0 {young}, 1 {middle}, 2 {old}, frozen {frozen}; "
              f"generation 0 refers to {found['references']} objects; collections since start of generation 0, 1, 2: "
              + ", ".join(str(n) for n in found["since_start"])
              + "; small blocks allocated {} -> {}".format(*found["blocks"]))
        lag = [x * 1000 for x in found["lag"]]
        if lag:
            print(f"  {path.stem}: event-loop lag ms p50 {statistics.median(lag):.2f}  "
                  f"p99 {percentile(lag, 0.99):.2f}  max {max(lag):.2f}; {sum(1 for x in lag if x > 20)} of {len(lag)} "
                  "over 20 ms")
        print(f"  {path.stem}: young generations hold " + ", ".join(f"{n} {kind}" for kind, n in found["young"]))
        if found.get("tuple_holders"):
            print(f"  {path.stem}: what holds a sample of those tuples: "
                  + ", ".join(f"{n} {chain}" for chain, n in found["tuple_holders"]))
        for generation, seconds, freed, cpu in found["pauses"]:
            pauses.setdefault(generation, []).append(seconds * 1000)
            cpus.setdefault(generation, []).append(cpu * 1000)
            collected[generation] += freed
        path.unlink()
    for generation, values in sorted(pauses.items()):
        print(f"  collections of generation {generation}: {len(values)}, pause ms p50 "
              f"{statistics.median(values):.2f}  max {max(values):.2f}  total {sum(values):.0f}; CPU ms p50 "
              f"{statistics.median(cpus[generation]):.2f}  max {max(cpus[generation]):.2f}  total "
              f"{sum(cpus[generation]):.0f}; objects freed {collected[generation]}")


def p99(result: Result) -> float:
    return percentile(result.stats.latencies, 0.99) * 1000 if result.stats.latencies else float("nan")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--matches", type=int, default=500)
    parser.add_argument("--duration", type=float, default=60.0, help="measured seconds")
    parser.add_argument("--warmup", type=float, default=10.0,
                        help="seconds between the last client connecting and the measured window")
    parser.add_argument("--think", type=float, default=1.0,
                        help="mean seconds a client waits before acting (uniform in 0.5x..1.5x; 0: none)")
    parser.add_argument("--rounds", type=int, default=15, help="round limit of the benchmark games")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--url", default=None, help="use a running server instead of starting one")
    parser.add_argument("--database", default=None, metavar="URL", help="postgresql://...: also measure a cluster")
    parser.add_argument("--bus", default=None, metavar="URL", help="redis://... (with --database)")
    parser.add_argument("--workers", type=int, default=2, help="cluster processes (with --database)")
    parser.add_argument("--client-procs", type=int, default=default_client_procs(), metavar="K",
                        help="processes the clients are spread over (default: one per core)")
    parser.add_argument("--client", choices=("lean", "websockets"), default="lean",
                        help="the clients' WebSocket implementation: the benchmark's lean one (default: the least "
                             "CPU on the machine it shares with the server) or the websockets library "
                             "(scripts/bench_links.py)")
    parser.add_argument("--only", choices=("cluster", "single"), default=None,
                        help="measure only the cluster or only the single SQLite process")
    parser.add_argument("--profile", default=None, metavar="DIR",
                        help="record each server process's collection pauses over the measured window in DIR")
    parser.add_argument("--profile-cpu", nargs="?", const="cprofile", choices=("cprofile", "sample"), default=None,
                        help="with --profile: also a CPU profile per process: cProfile (the default, slows the server "
                             "severalfold) or 'sample' (the stack every ms of CPU, collapsed, about 1%% slower)")
    args = parser.parse_args()
    if args.profile:
        # inherited by the servers (server/profiling.py)
        os.environ["TAKTIK_PROFILE_CPU"] = {"cprofile": "1", "sample": "sample"}.get(args.profile_cpu or "", "0")
    if (args.database is None) != (args.bus is None):
        parser.error("--database and --bus go together")

    results: list[Result] = []
    with tempfile.TemporaryDirectory(prefix="taktik-bench-") as tmp:
        unthrottled = args.think < 0.5
        if args.database is not None and args.only != "single":
            cluster = ("--database", args.database, "--bus", args.bus, "--workers", str(args.workers))
            profile_into(args, "cluster")
            server = start_server(Path(tmp) / "cluster", 0, unthrottled, cluster)
            try:
                results.append(measure(f"PostgreSQL+Redis, {args.workers} workers", server, args))
            finally:
                stop(server)
        if args.only != "cluster":
            profile_into(args, "single")
            server = Server(url=args.url) if args.url else start_server(Path(tmp) / "data", 0, unthrottled)
            try:
                results.append(measure("SQLite, one process", server, args))
            finally:
                stop(server)
    for result in results:
        report(result, args)
        if args.profile:
            report_pauses(Path(args.profile) / ("single" if result.label.startswith("SQLite") else "cluster"))
    if len(results) == 2:
        cluster_result, single = results
        print(f"cluster / single: actions/s {cluster_result.rate / max(single.rate, 1e-9):.2f}x, "
              f"act->update p99 {p99(cluster_result) / p99(single):.2f}x")


if __name__ == "__main__":
    main()
