"""Replication in one process's event loop: two match services ("processes") on one real PostgreSQL and Redis.

Each has its own pool, bus subscription and copy of the matches, exactly as two `taktik serve`
processes would; only the sockets are left out (tests/server/test_cluster.py has them).
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncIterator, Callable
from contextlib import AsyncExitStack, asynccontextmanager
from dataclasses import dataclass
from typing import Any

import msgspec
import pytest

from engine import DrawCard, GameConfig, Resign, RoundLimit, Side, VictoryConfig, legal_actions, state_hash
from server.creation import Creator, NewMatch
from server.match import Match
from server.matches import MatchService
from server.protocol import Ack, Act, Reject
from server.rematch import RematchError
from server.rematches import Rematches
from server.settings import Limits

from .cluster import Postgres, Redis
from .conftest import arun
from .test_matches import BOTS, Watcher

QUICK = GameConfig(seed=11, victory=VictoryConfig(round_limit=RoundLimit(max_rounds=2)))


@dataclass
class Process:
    """One server process's worth of state: its match service and its replication."""

    matches: MatchService
    creator: Creator
    replication: Any
    rematches: Rematches

    async def get(self, match_id: str) -> Match:
        match = await self.matches.get(match_id)
        assert match is not None
        return match


@asynccontextmanager
async def processes(postgres: Postgres, redis: Redis, count: int, **tuning: Any) -> AsyncIterator[list[Process]]:
    from server.pgstore import PgDatabase
    from server.replication import Replication

    url = postgres.new_database()
    async with AsyncExitStack() as stack:
        made = []
        for _ in range(count):
            db = await PgDatabase.connect(url)
            stack.callback(db.close)
            matches = MatchService(db, Limits(bot_delay=0.0), BOTS)
            replication = Replication(matches, db, redis.url, **{"sweep_seconds": 30.0, **tuning})
            matches.replication = replication
            await replication.start()
            stack.push_async_callback(replication.close)
            stack.push_async_callback(matches.close)
            creator = Creator(matches)
            made.append(Process(matches, creator, replication, Rematches(matches, creator)))
        yield made


async def until(predicate: Callable[[], bool], timeout: float = 10) -> None:
    deadline = time.monotonic() + timeout
    while not predicate():
        assert time.monotonic() < deadline, "condition not reached"
        await asyncio.sleep(0.01)


def act(match: Match, seq: int, action: Any = None) -> Act:
    return Act(version=match.version, seq=seq, action=action if action is not None else legal_actions(match.state)[0])


def test_an_action_taken_on_one_process_reaches_the_viewers_of_another(postgres: Postgres,
                                                                       redis_server: Redis) -> None:
    async def run() -> None:
        async with processes(postgres, redis_server, 2) as (one, two):
            created = await one.creator.create(NewMatch(config=QUICK))
            there = await two.get(created.match.id)
            watcher = Watcher(Side.DEFENDER)
            assert two.matches.join(there, watcher) is None
            here = created.match
            for seq in range(1, 16):  # both seats play on process one
                seat = here.state.to_act
                assert seat is not None
                assert await one.matches.submit(here, seat, act(here, seq)) == Ack(seq=seq, version=seq)
            await until(lambda: there.version == 15)
            assert there.hashes == here.hashes and state_hash(there.state) == state_hash(here.state)
            assert [s["version"] for s in watcher.states()] == list(range(16))  # each version once, in order
            assert two.replication.applied_remote == 15

    arun(run())


def test_a_process_watching_nothing_of_a_match_forgets_it_rather_than_replay_it(postgres: Postgres,
                                                                                redis_server: Redis) -> None:
    async def run() -> None:
        async with processes(postgres, redis_server, 2) as (one, two):
            created = await one.creator.create(NewMatch(config=QUICK))
            here = created.match
            watched = await two.get(created.match.id)
            watcher = Watcher(Side.DEFENDER)
            assert two.matches.join(watched, watcher) is None
            unwatched = await two.get((await one.creator.create(NewMatch(config=QUICK))).match.id)
            unwatched.wanted -= 3600  # asked for long ago, and nobody joined
            other = unwatched.id
            mine = one.matches.loaded(other)
            assert mine is not None
            for seq in range(1, 4):
                for match in (here, mine):
                    seat = match.state.to_act
                    assert seat is not None
                    assert await one.matches.submit(match, seat, act(match, seq)) == Ack(seq=seq, version=seq)
            await until(lambda: watched.version == 3)
            assert two.matches.loaded(other) is None  # forgotten at the first row it heard
            assert two.replication.applied_remote == 3  # the watched match's rows only
            again = await two.get(other)  # asked for again: reloaded from the log, up to date
            assert again is not unwatched and again.version == 3 and again.hashes == mine.hashes
            # A match asked for moments ago is kept: a socket may be about to join it.
            assert not two.matches.forget_unwatched(again)
            assert two.matches.forget_unwatched(again, now=again.wanted + 3600)

    arun(run())


def test_a_process_holding_a_stale_copy_never_acknowledges(postgres: Postgres, redis_server: Redis) -> None:
    async def run() -> None:
        async with processes(postgres, redis_server, 2) as (one, two):
            created = await one.creator.create(NewMatch(config=QUICK))
            there = await two.get(created.match.id)
            await two.replication.bus.close()  # process two hears nothing more: its copy goes stale
            here = created.match
            assert await one.matches.submit(here, Side.ATTACKER, act(here, 1, DrawCard())) == Ack(seq=1, version=1)
            assert there.version == 0
            # The same seat, on process two, at the version its stale copy shows: refused, never acked...
            outcome = await two.matches.submit(there, Side.ATTACKER, act(there, 2, DrawCard()))
            assert isinstance(outcome, Reject) and outcome.code == "stale_version"
            # ...and the refusal brought the copy up to date from the log.
            assert there.version == 1 and there.hashes == here.hashes
            # A resend of the action that did commit (seq 1), on process two, gets its original ack.
            assert await two.matches.submit(there, Side.ATTACKER, Act(version=0, seq=1, action=DrawCard())) == \
                Ack(seq=1, version=1)

    arun(run())


def test_a_lost_bus_message_is_caught_up_from_the_log(postgres: Postgres, redis_server: Redis) -> None:
    async def run() -> None:
        async with processes(postgres, redis_server, 2, sweep_seconds=0.3) as (one, two):
            created = await one.creator.create(NewMatch(config=QUICK))
            there = await two.get(created.match.id)
            here = created.match
            bus, one.replication.bus = one.replication.bus, None  # publishes nothing: pub/sub dropped it all
            for seq in range(1, 4):
                seat = here.state.to_act
                assert seat is not None
                await one.matches.submit(here, seat, act(here, seq))
            await until(lambda: there.version == 3)  # the sweep found the gap
            assert there.hashes == here.hashes
            await bus.close()

    arun(run())


def test_viewers_arriving_together_share_one_refresh_and_see_the_log(postgres: Postgres, redis_server: Redis) -> None:
    async def run() -> None:
        async with processes(postgres, redis_server, 2) as (one, two):
            made = [(await one.creator.create(NewMatch(config=QUICK))).match for _ in range(12)]
            copies = [await two.get(m.id) for m in made]
            await two.replication.bus.close()  # process two hears nothing more: its copies go stale
            for here in made[:4]:
                assert await one.matches.submit(here, Side.ATTACKER, act(here, 1, DrawCard())) == Ack(seq=1, version=1)
            asked: list[int] = []
            versions = two.replication.db.versions

            async def counted(match_ids: list[str]) -> dict[str, int]:
                asked.append(len(match_ids))
                return dict(await versions(match_ids))

            two.replication.db.versions = counted
            # Twelve viewers at once (a reconnect storm): one query for the versions of all of them.
            again = await asyncio.gather(*(two.matches.get(m.id) for m in made))
            assert again == copies
            assert asked == [12]
            assert [c.version for c in copies] == [1] * 4 + [0] * 8
            assert all(c.hashes == m.hashes for c, m in zip(copies, made, strict=True))

    arun(run())


def test_a_match_event_published_on_one_process_reaches_the_handlers_of_the_others(
        postgres: Postgres, redis_server: Redis) -> None:
    async def run() -> None:
        async with processes(postgres, redis_server, 3) as (one, two, three):
            heard: list[tuple[str, str, dict[str, Any]]] = []
            for name, process in (("one", one), ("two", two), ("three", three)):
                process.matches.event_handlers["presence"] = (
                    lambda match_id, data, name=name: heard.append((name, match_id, data)))
            one.matches.publish_event("m1", "presence", {"ATTACKER": "online"})
            await until(lambda: len(heard) == 2)
            assert sorted(heard) == [("three", "m1", {"ATTACKER": "online"}), ("two", "m1", {"ATTACKER": "online"})]

    arun(run())


def test_messages_queued_together_travel_as_one_publish_and_arrive_each_in_order(
        postgres: Postgres, redis_server: Redis) -> None:
    async def run() -> None:
        async with processes(postgres, redis_server, 2) as (one, two):
            heard: list[int] = []
            two.matches.event_handlers["count"] = lambda match_id, data: heard.append(data["n"])
            one.matches.event_handlers["count"] = lambda match_id, data: heard.append(-1)  # never its own
            published: list[bytes] = []
            bus = one.replication.bus
            put = bus._put

            async def counted(channel: str, data: bytes) -> None:
                if b'"count"' in data:
                    published.append(data)
                await put(channel, data)

            bus._put = counted  # type: ignore[method-assign]
            for n in range(5):  # queued before the sender runs: one message on Redis
                one.matches.publish_event("m1", "count", {"n": n})
            await until(lambda: len(heard) == 5)
            assert heard == [0, 1, 2, 3, 4]
            assert len(published) == 1 and published[0].startswith(b"[")

    arun(run())


def test_a_bot_seat_is_played_by_one_process_and_taken_over_when_it_dies(postgres: Postgres,
                                                                          redis_server: Redis) -> None:
    async def run() -> None:
        async with processes(postgres, redis_server, 2, lease_seconds=1.0) as (one, two):
            created = await one.creator.create(NewMatch(config=QUICK, mode="bot", bot_side=Side.DEFENDER,
                                                        bot_policy="first"))
            here = created.match
            there = await two.get(here.id)
            # The human (attacker) plays on process two; the bot answers from whichever process holds the lease.
            seq = 0
            while there.state.to_act is Side.ATTACKER and seq < 6:
                seq += 1
                assert isinstance(await two.matches.submit(there, Side.ATTACKER, act(there, seq)), Ack)
                await until(lambda: there.state.to_act is not Side.DEFENDER or there.status != "live")
            await until(lambda: here.version == there.version)  # whichever process played the bot, both know
            assert here.hashes == there.hashes
            # Process one dies without handing the seat back: process two takes it over once the lease expires.
            await one.matches.close()
            await one.replication.bus.close()
            one.replication._sweeper.cancel()
            started = time.monotonic()
            while there.status == "live" and there.state.to_act is not None:
                if there.state.to_act is Side.ATTACKER:
                    seq += 1
                    assert isinstance(await two.matches.submit(there, Side.ATTACKER, act(there, seq)), Ack)
                await until(lambda: there.state.to_act is not Side.DEFENDER or there.status != "live", timeout=15)
                if time.monotonic() - started > 60:
                    pytest.fail("the game did not finish")
            assert there.status == "over"
            loaded = await two.matches.db.load(here.id)
            assert loaded is not None and [r.state_hash for r in loaded[2]] == there.hashes

    arun(run())


def test_a_process_hears_the_others_actions_but_never_reads_back_its_own(postgres: Postgres,
                                                                         redis_server: Redis) -> None:
    from server.bus import BusMessage

    async def run() -> None:
        async with processes(postgres, redis_server, 2) as (one, two):
            received: dict[str, list[tuple[str, str]]] = {"one": [], "two": []}
            for name, process in (("one", one), ("two", two)):
                bus = process.replication.bus
                deliver = bus._deliver

                def noting(data: bytes, name: str = name, deliver: Any = deliver) -> None:
                    received[name] += [(m.origin, m.kind) for m in msgspec.json.decode(data, type=list[BusMessage])]
                    deliver(data)

                bus._deliver = noting
            # each learned of the other from its hello, and listens to its actions' channel
            await until(lambda: two.replication.origin in one.replication.bus.peers
                        and one.replication.origin in two.replication.bus.peers)
            created = await one.creator.create(NewMatch(config=QUICK))
            there = await two.get(created.match.id)
            assert two.matches.join(there, Watcher(Side.DEFENDER)) is None
            here = created.match
            for seq in range(1, 6):
                seat = here.state.to_act
                assert seat is not None
                assert await one.matches.submit(here, seat, act(here, seq)) == Ack(seq=seq, version=seq)
            await until(lambda: there.version == 5)
            mine = one.replication.origin
            assert received["two"].count((mine, "action")) == 5  # on one's own channel, heard by two
            assert (mine, "action") not in received["one"]  # and never sent back to one

    arun(run())


def test_a_resignation_out_of_turn_ends_the_match_on_every_process(postgres: Postgres, redis_server: Redis) -> None:
    """RESIGN names its side and may come from the seat not to act: the other processes replay it as the one that
    applied it did, never as a row from the wrong seat (which would leave them broken)."""

    async def run() -> None:
        async with processes(postgres, redis_server, 3) as (one, two, three):
            here = (await one.creator.create(NewMatch(config=QUICK))).match
            copies = [await two.get(here.id), await three.get(here.id)]
            for process, copy in ((two, copies[0]), (three, copies[1])):
                assert process.matches.join(copy, Watcher(Side.ATTACKER)) is None
            assert here.state.to_act is Side.ATTACKER
            outcome = await one.matches.submit(here, Side.DEFENDER, act(here, 1, Resign(side=Side.DEFENDER)))
            assert outcome == Ack(seq=1, version=1)
            await until(lambda: all(copy.version == 1 for copy in copies))
            for copy in copies:
                assert (copy.status, copy.read_only_reason) == ("over", None)
                assert (copy.state.winner, copy.state.victory_reason) == (Side.ATTACKER, "resignation")
                assert copy.hashes == here.hashes
            reloaded = await two.matches._load(here.id)  # a process loading it later replays it the same way
            assert reloaded is not None and (reloaded.status, reloaded.hashes) == ("over", here.hashes)

    arun(run())


def test_a_rematch_offered_on_one_process_is_seen_and_accepted_on_another(postgres: Postgres,
                                                                          redis_server: Redis) -> None:
    """The rematch of a finished match is one for every process: an offer made through one is shown by the others
    and accepted through any of them, and two accepts at once make one new match."""

    async def run() -> None:
        async with processes(postgres, redis_server, 3) as (one, two, three):
            here = (await one.creator.create(NewMatch(config=QUICK))).match
            there, third = await two.get(here.id), await three.get(here.id)
            spectator = Watcher(None)
            assert three.matches.join(third, spectator) is None
            for process, match in ((one, here), (two, there)):
                assert process.matches.join(match, Watcher(None)) is None
            assert await one.matches.submit(here, Side.DEFENDER, act(here, 1, Resign(side=Side.DEFENDER))) == \
                Ack(seq=1, version=1)
            await until(lambda: there.status == "over" and third.status == "over")
            await one.rematches.answer(here, Side.ATTACKER, "offer")
            await until(lambda: there.rematch.offered_by is Side.ATTACKER and third.rematch.offered_by is Side.ATTACKER)
            # The DEFENDER accepts on two processes at once: one new match, the same one everywhere.
            answers = await asyncio.gather(two.rematches.answer(there, Side.DEFENDER, "accept"),
                                           three.rematches.answer(third, Side.DEFENDER, "accept"),
                                           return_exceptions=True)
            refused = [a for a in answers if a is not None]  # the slower finds it accepted: "already being played"
            assert len(refused) == 1 and isinstance(refused[0], RematchError)
            assert "already being played" in refused[0].reason
            await until(lambda: all(m.rematch.match_id is not None for m in (here, there, third)))
            assert len({m.rematch.match_id for m in (here, there, third)}) == 1
            assert [m.rematch.offered_by for m in (here, there, third)] == [Side.ATTACKER] * 3
            new_id = here.rematch.match_id
            assert new_id is not None
            assert await two.matches.db.load(new_id) is not None
            assert len(await two.matches.db.recent(10)) == 2  # the old match and one rematch
            news = [m for m in spectator.queued() if m["type"] == "rematch"]
            assert news[-1]["rematch"]["match_id"] == new_id

    arun(run())
