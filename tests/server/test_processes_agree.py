"""Processes agree: the same scripted matches on one SQLite process and on three processes over PostgreSQL + Redis.

Every match action of issue 17 is in the script — a resignation from the seat not to act, a
claim of an abandoned seat, a game clock and a per-turn clock running out — and a rematch
offered on one process and accepted on another. Both runs are real `taktik serve` processes
talked to over real WebSockets. Each viewer kind has a socket in three places: on the cluster
those are the three processes (the ATTACKER moves from process 0, the DEFENDER from process 1,
and the off-turn actions, the claim and the acceptance go through process 2); on SQLite all
three are sockets of the one process. Then every place of every match must show the same final
`state` (to both seats and a spectator), the same record and the same summary, and the SQLite
run the same as the cluster.

What is normalised, and why:

- between the two runs: match ids, seed commitments and salts (fresh randomness of each
  creation), creation/update times, and the clock measurements (``remaining_ms``,
  ``elapsed_ms``, a record's ``clocks``), which are real durations measured as the test ran.
  A rematch draws a fresh seed by design, so its game differs between runs: there only its
  config but the seed, its clock, its seats and how it ended are compared;
- between processes of one run: only ``clock.server_time``, the instant each process wrote
  its message; and in summaries, ``online``, which counts the sockets of the process asked.
"""

from __future__ import annotations

import asyncio
import random
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .cluster import Postgres, Redis
from .conftest import FAST_LIMITS, LiveServer, Peer, arun, create_match, http_json, tokens_of
from .test_clocks import synced

LIMITS = {**FAST_LIMITS, "abandon_after": 1.0}  # a seat to act away for a second may be claimed
PLACES = 3  # where each viewer kind has a socket: the three processes, or three sockets of the one
HOME = {"ATTACKER": 0, "DEFENDER": 1}  # the place each seat moves from
AWAY = 2  # the place of every off-turn action, claim and rematch acceptance
KINDS = ("ATTACKER", "DEFENDER", "spectator")
QUICK = {"victory": {"round_limit": {"max_rounds": 2}}}
MEASURED_OR_RANDOM = ("seed_commitment", "salt", "created_at", "updated_at", "remaining_ms", "elapsed_ms", "clocks")
"""The fields that differ between two runs by nature (see the module docstring)."""


@contextmanager
def servers(tmp_path: Path, name: str, count: int, *args: str) -> Iterator[list[LiveServer]]:
    """``count`` `taktik serve` processes started together (each takes seconds to import the engine)."""
    made = [LiveServer(tmp_path / f"{name}{i}", LIMITS, *args) for i in range(count)]
    try:
        with ThreadPoolExecutor(count) as pool:
            list(pool.map(LiveServer.start, made))
        yield made
    finally:
        for live in made:
            if live.proc is not None and live.proc.poll() is None:
                assert live.stop() == 0, live.log_text()
            assert "Traceback" not in live.log_text(), live.log_text()


@dataclass
class Table:
    """One match and its sockets: ``peers[kind][place]``; the script drives it through `act`."""

    run: Run
    match_id: str
    tokens: dict[str, str]
    peers: dict[str, list[Peer]] = field(default_factory=dict)
    version: int = 0
    seqs: dict[str, int] = field(default_factory=lambda: {"ATTACKER": 0, "DEFENDER": 0})

    async def sit(self, kind: str) -> None:
        token = self.tokens.get(kind)  # the spectator has none
        self.peers[kind] = [await Peer.seated(self.run.at(p), self.match_id, token) for p in range(PLACES)]

    def everyone(self) -> list[Peer]:
        return [peer for peers in self.peers.values() for peer in peers]

    async def reached(self, version: int, timeout: float = 15) -> None:
        for kind, peers in self.peers.items():
            for place, peer in enumerate(peers):
                try:
                    await peer.until_version(version, timeout)
                except TimeoutError:
                    shown = peer.state or {}
                    raise AssertionError(f"the {kind} at place {place} never saw version {version}: it shows "
                                         f"version {shown.get('version')}, {shown.get('status')} "
                                         f"({shown.get('broken_reason')})") from None
        self.version = max(self.version, version)

    async def act(self, seat: str, place: int, action: dict[str, Any]) -> None:
        peer = self.peers[seat][place]
        await peer.until_version(self.version)
        self.seqs[seat] += 1
        seq = await peer.act(action, seq=self.seqs[seat])
        reply = await peer.reply(seq)
        assert reply == {"type": "ack", "seq": seq, "version": self.version + 1}, reply
        await self.reached(self.version + 1)

    def latest(self) -> dict[str, Any]:
        state = self.peers["spectator"][0].state
        assert state is not None
        return state

    async def moves(self, count: int, rng: random.Random) -> None:
        """``count`` game moves, each from the home socket of the seat to act, chosen by ``rng``."""
        for _ in range(count):
            seat = self.latest()["to_act"]
            mover = self.peers[seat][HOME[seat]]
            await mover.until_version(self.version)
            assert mover.state is not None
            await self.act(seat, HOME[seat], rng.choice(mover.state["legal_actions"]))

    async def resign_off_turn(self) -> None:
        """The seat *not* to act resigns, through the third place."""
        waiting = "DEFENDER" if self.latest()["to_act"] == "ATTACKER" else "ATTACKER"
        await self.act(waiting, AWAY, {"type": "RESIGN", "side": waiting})

    async def final_states(self) -> list[dict[str, dict[str, Any]]]:
        """What each place shows each viewer kind at the end (a fresh `state` for each socket)."""
        return [{kind: await synced(self.peers[kind][p]) for kind in KINDS} for p in range(PLACES)]


class Run:
    """One run of the script: on 1 server (SQLite) or 3 (the cluster); place ``p`` is server ``p % count``."""

    def __init__(self, live: list[LiveServer]) -> None:
        self.live = live

    def at(self, place: int) -> LiveServer:
        return self.live[place % len(self.live)]

    async def table(self, seed: int, **body: Any) -> Table:
        created = create_match(self.live[0], config={**QUICK, "seed": seed}, **body)
        table = Table(self, created["match_id"], tokens_of(created))
        for kind in KINDS:
            await table.sit(kind)
        return table

    async def script(self) -> dict[str, Table]:
        """Every scenario at once (the clocks' waits overlap); the tables by name."""
        names = ("resign", "claim", "game clock", "turn clock", "rematch")
        played = await asyncio.gather(self.resign_and_rematch(), self.claim(), self.game_clock(), self.turn_clock())
        resigned, rematch = played[0]
        return dict(zip(names, [resigned, *played[1:], rematch], strict=True))

    async def resign_and_rematch(self) -> tuple[Table, Table]:
        table = await self.table(101)
        await table.moves(5, random.Random(1))
        await table.resign_off_turn()
        await table.peers["ATTACKER"][HOME["ATTACKER"]].send({"type": "rematch", "choice": "offer"})
        await rematch_news(table, offered_by="ATTACKER")
        await table.peers["DEFENDER"][AWAY].send({"type": "rematch", "choice": "accept"})
        news = await rematch_news(table, offered_by="ATTACKER", accepted=True)
        # Each token opens the other side in the new match.
        swapped = {"ATTACKER": table.tokens["DEFENDER"], "DEFENDER": table.tokens["ATTACKER"]}
        again = Table(self, news["match_id"], swapped)
        for kind in KINDS:
            await again.sit(kind)
        await again.moves(3, random.Random(2))
        await again.resign_off_turn()
        return table, again

    async def claim(self) -> Table:
        table = await self.table(102)
        await table.moves(4, random.Random(3))
        gone = table.latest()["to_act"]
        stays = "DEFENDER" if gone == "ATTACKER" else "ATTACKER"
        for peer in table.peers[gone]:  # the seat to act walks away from every process
            await peer.close()
        del table.peers[gone]
        claimer = table.peers[stays][AWAY]
        claim = {"type": "CLAIM_VICTORY", "side": stays, "reason": "abandonment"}
        while claim not in (claimer.state or {}).get("match_actions", []):
            await claimer.recv(15)  # the server sends a fresh state when the claim becomes allowed
        await table.act(stays, AWAY, claim)
        await table.sit(gone)  # and comes back to learn it lost
        return table

    async def game_clock(self) -> Table:
        table = await self.table(103, clock={"initial": 10})
        await table.moves(4, random.Random(4))
        await table.reached(table.version + 1, timeout=40)  # the server's TIMEOUT, 10 s of thinking later
        assert table.latest()["status"] == "over" and table.latest()["view"]["victory_reason"] == "time"
        return table

    async def turn_clock(self) -> Table:
        table = await self.table(104, clock={"per_turn": 10})
        await table.reached(1, timeout=40)  # the ATTACKER's first turn runs out before it does anything
        assert table.latest()["status"] == "live" and table.latest()["to_act"] == "DEFENDER"
        await table.moves(2, random.Random(5))
        await table.resign_off_turn()
        return table


async def rematch_news(table: Table, offered_by: str, accepted: bool = False) -> dict[str, Any]:
    """The rematch as every socket of ``table`` heard it once offered (or accepted): the same everywhere."""
    heard = []
    for peer in table.everyone():
        while True:
            news = dict((await peer.expect("rematch"))["rematch"])
            if news["offered_by"] == offered_by and (news["match_id"] is not None) == accepted:
                break
        heard.append({key: value for key, value in news.items() if key != "seat"})
    assert all(news == heard[0] for news in heard), heard
    return heard[0]


async def played(run: Run) -> tuple[dict[str, Table], dict[str, Any]]:
    """The script's tables, and the final states of each at every place."""
    tables = await run.script()
    return tables, {name: await table.final_states() for name, table in tables.items()}


def stored(run: Run, tables: dict[str, Table]) -> dict[str, Any]:
    """Per table: the record and the summary each process serves."""
    found: dict[str, Any] = {}
    for name, table in tables.items():
        found[name] = {}
        for part, path in (("records", f"/api/matches/{table.match_id}/record"),
                           ("summaries", f"/api/matches/{table.match_id}")):
            answers = [http_json(live, "GET", path) for live in run.live]
            assert all(status == 200 for status, _ in answers), answers
            found[name][part] = [body for _, body in answers]
    return found


def across_processes(finals: dict[str, Any], kept: dict[str, Any]) -> dict[str, Any]:
    """One place's view of each table, after checking every other place shows the same."""
    one: dict[str, Any] = {}
    for name, seen in kept.items():
        states = [{kind: _without_server_time(state) for kind, state in place.items()} for place in finals[name]]
        summaries = [{k: v for k, v in body.items() if k != "online"} for body in seen["summaries"]]
        for label, each in (("states", states), ("records", seen["records"]), ("summaries", summaries)):
            assert all(other == each[0] for other in each), f"{name}: the places disagree about the {label}"
        one[name] = {"states": states[0], "record": seen["records"][0], "summary": summaries[0]}
    return one


def _without_server_time(state: dict[str, Any]) -> dict[str, Any]:
    if state.get("clock") is None:
        return state
    return {**state, "clock": {k: v for k, v in state["clock"].items() if k != "server_time"}}


def normalised(one: dict[str, Any], tables: dict[str, Table]) -> Any:
    """``one`` with what differs between two runs by nature replaced by a mark (see the module docstring)."""
    ids = {table.match_id: f"<match {name}>" for name, table in tables.items()}

    def mark(value: Any, key: str = "") -> Any:
        if key in MEASURED_OR_RANDOM:
            return f"<{key}>" if value is not None else None
        if isinstance(value, dict):
            return {k: mark(v, k) for k, v in value.items()}
        if isinstance(value, list):
            return [mark(v) for v in value]
        return ids.get(value, value) if isinstance(value, str) else value

    return mark(one)


def rematch_shape(seen: dict[str, Any]) -> dict[str, Any]:
    """What a rematch is the same in any run: its config but the seed, its clock and seats, how its script ended."""
    summary, record = seen["summary"], seen["record"]["record"]
    return {"config": {k: v for k, v in record["config"].items() if k != "seed"},
            "summary": {k: summary[k] for k in ("status", "mode", "clock", "version", "victory_reason")},
            "seats": {kind: state["seat"] for kind, state in seen["states"].items()}}


def test_one_sqlite_process_and_three_postgresql_processes_agree_about_every_match_action(
        tmp_path: Path, postgres: Postgres, redis_server: Redis) -> None:
    results = {}
    with servers(tmp_path, "single", 1) as single, \
            servers(tmp_path, "cluster", 3, "--database", postgres.new_database(), "--bus", redis_server.url) as three:
        runs = {"sqlite": Run(single), "cluster": Run(three)}

        async def both() -> list[tuple[dict[str, Table], dict[str, Any]]]:
            return list(await asyncio.gather(*(played(run) for run in runs.values())))

        for (name, run), (tables, finals) in zip(runs.items(), arun(both(), timeout=240), strict=True):
            results[name] = normalised(across_processes(finals, stored(run, tables)), tables)
    sqlite, cluster = results["sqlite"], results["cluster"]
    for name in sqlite:
        if name == "rematch":  # a fresh seed by design: the same kind of match, not the same game
            assert rematch_shape(cluster[name]) == rematch_shape(sqlite[name])
            continue
        for part in ("summary", "record", "states"):
            assert cluster[name][part] == sqlite[name][part], f"{name}: the {part} differ"
    # The script did what it says: each table ended as intended, and none is broken anywhere.
    endings = {name: (seen["summary"]["status"], seen["summary"]["victory_reason"])
               for name, seen in cluster.items()}
    assert endings == {"resign": ("over", "resignation"), "claim": ("over", "abandonment"),
                       "game clock": ("over", "time"), "turn clock": ("over", "resignation"),
                       "rematch": ("over", "resignation")}
    assert cluster["resign"]["states"]["ATTACKER"]["rematch"]["match_id"] == "<match rematch>"
    turn_actions = cluster["turn clock"]["record"]["record"]["actions"]
    assert turn_actions[0] == {"type": "TIMEOUT", "side": "ATTACKER", "clock": "turn"}
