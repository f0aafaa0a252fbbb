"""Presence across processes: two match services on one real PostgreSQL and Redis share who is connected.

Seat A's socket on one process and seat B's on another: each process must see both seats
present, see a seat leave when its last socket anywhere closes, and stop trusting a process
that fell silent. Time is a `ManualClock` shared by both services, so claims and expiry are
driven by hand; only the bus round trips are waited for.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import AsyncExitStack, asynccontextmanager
from typing import Any

from engine import ClaimVictory, Side, Timeout
from server.clocks import ClockSpec
from server.creation import Creator, NewMatch
from server.matches import MatchService
from server.protocol import Ack, Act
from server.rematches import Rematches
from server.settings import Limits

from .cluster import Postgres, Redis
from .conftest import arun
from .manual_clock import ManualClock
from .test_matches import BOTS, Watcher
from .test_replication_pg import QUICK, Process, until

ABANDON = 60.0
PER_TURN = 30  # seconds
SWEEP = 30.0  # the services' own sweeps stay out of the way; the tests call the heartbeat themselves


@asynccontextmanager
async def processes(postgres: Postgres, redis: Redis, clock: ManualClock, count: int) -> AsyncIterator[list[Process]]:
    from server.pgstore import PgDatabase
    from server.replication import Replication

    url = postgres.new_database()
    async with AsyncExitStack() as stack:
        made = []
        for _ in range(count):
            db = await PgDatabase.connect(url)
            stack.callback(db.close)
            matches = MatchService(db, Limits(bot_delay=0.0, abandon_after=ABANDON), BOTS, clock=clock)
            replication = Replication(matches, db, redis.url, sweep_seconds=SWEEP)
            matches.replication = replication
            await replication.start()
            stack.push_async_callback(replication.close)
            stack.push_async_callback(matches.close)
            creator = Creator(matches)
            made.append(Process(matches, creator, replication, Rematches(matches, creator)))
        yield made


def seen(process: Process, match_id: str, side: Side) -> bool:
    match = process.matches.loaded(match_id)
    assert match is not None and match.presence is not None
    return match.presence.present(side)


def claims(actions: tuple[Any, ...]) -> bool:
    return any(isinstance(action, ClaimVictory) for action in actions)


def test_seats_on_two_processes_are_both_present_and_a_departure_opens_the_claim_after_abandon_after(
        postgres: Postgres, redis_server: Redis) -> None:
    async def run() -> None:
        clock = ManualClock()
        async with processes(postgres, redis_server, clock, 2) as (one, two):
            here = (await one.creator.create(NewMatch(config=QUICK))).match
            there = await two.get(here.id)
            a, b = Watcher(Side.ATTACKER), Watcher(Side.DEFENDER)
            assert one.matches.join(here, a) is None
            assert two.matches.join(there, b) is None
            for process in (one, two):
                await until(lambda p=process: seen(p, here.id, Side.ATTACKER) and seen(p, here.id, Side.DEFENDER))
            assert there.presence is not None and there.presence.everyone_seen  # so the clocks may start there
            assert there.claim_at() is None and here.claim_at() is None
            # A (to act) leaves process one: process two learns it and counts A's absence from then.
            left_at = clock.now()
            one.matches.leave(here, a)
            await until(lambda: not seen(two, here.id, Side.ATTACKER))
            assert there.claim_at() == left_at + ABANDON
            clock.advance(ABANDON - 1)
            assert not there.claimable(clock.now())
            assert not claims(there.seat_match_actions(Side.DEFENDER, clock.now()))
            clock.advance(1)
            await until(lambda: there.claim_open)  # the watcher on process two opened the claim
            assert claims(there.seat_match_actions(Side.DEFENDER, clock.now()))
            # A comes back on process two's peer: the claim closes again everywhere.
            assert one.matches.join(here, Watcher(Side.ATTACKER)) is None
            await until(lambda: seen(two, here.id, Side.ATTACKER) and not there.claim_open)

    arun(run())


def test_the_seats_of_a_silent_process_expire_unless_it_republishes_them(postgres: Postgres,
                                                                         redis_server: Redis) -> None:
    async def run() -> None:
        clock = ManualClock()
        async with processes(postgres, redis_server, clock, 2) as (one, two):
            here = (await one.creator.create(NewMatch(config=QUICK))).match
            there = await two.get(here.id)
            assert one.matches.join(here, Watcher(Side.ATTACKER)) is None
            await until(lambda: seen(two, here.id, Side.ATTACKER))
            # Process one republishes what it holds each sweep: its seat stays present on process two.
            clock.advance(2 * SWEEP)
            one.matches.time.presence_heartbeat(SWEEP)
            refreshed_at = clock.now()
            await until(lambda: there.presence is not None
                        and there.presence.remote[Side.ATTACKER].get(one.replication.origin) == refreshed_at)
            clock.advance(2 * SWEEP)
            two.matches.time.presence_heartbeat(SWEEP)
            assert seen(two, here.id, Side.ATTACKER)
            # Process one dies without a goodbye: nothing more comes from it...
            bus: Any = one.replication.bus
            one.replication.bus = None
            try:
                clock.advance(SWEEP + 1)  # ...and three sweeps after its last word, its seat is away
                two.matches.time.presence_heartbeat(SWEEP)
                assert not seen(two, here.id, Side.ATTACKER)
                assert there.claim_at() == clock.now() + ABANDON
            finally:
                one.replication.bus = bus

    arun(run())


def test_a_process_that_loads_a_match_later_learns_its_remote_seats_from_the_next_republish(
        postgres: Postgres, redis_server: Redis) -> None:
    async def run() -> None:
        clock = ManualClock()
        async with processes(postgres, redis_server, clock, 2) as (one, two):
            here = (await one.creator.create(NewMatch(config=QUICK))).match
            assert one.matches.join(here, Watcher(Side.ATTACKER)) is None
            there = await two.get(here.id)  # after A's "presence" event went by
            assert there.presence is not None and not there.presence.present(Side.ATTACKER)
            one.matches.time.presence_heartbeat(SWEEP)
            await until(lambda: seen(two, here.id, Side.ATTACKER))
            one.matches.leave(here, next(iter(here.viewers)))
            await until(lambda: not seen(two, here.id, Side.ATTACKER))

    arun(run())


def test_a_claim_made_on_one_process_ends_the_match_on_every_process(postgres: Postgres, redis_server: Redis) -> None:
    """CLAIM_VICTORY always comes from the seat not to act: replayed elsewhere as the process that took it did."""

    async def run() -> None:
        clock = ManualClock()
        async with processes(postgres, redis_server, clock, 2) as (one, two):
            here = (await one.creator.create(NewMatch(config=QUICK))).match
            there = await two.get(here.id)
            a, b = Watcher(Side.ATTACKER), Watcher(Side.DEFENDER)
            assert one.matches.join(here, a) is None
            assert one.matches.join(here, Watcher(None)) is None  # a spectator keeps the match loaded there
            assert two.matches.join(there, b) is None
            await until(lambda: seen(two, here.id, Side.ATTACKER))
            one.matches.leave(here, a)  # the ATTACKER, to act, walks away
            await until(lambda: not seen(two, here.id, Side.ATTACKER))
            clock.advance(ABANDON)
            await until(lambda: there.claim_open)
            claim = ClaimVictory(side=Side.DEFENDER)
            outcome = await two.matches.submit(there, Side.DEFENDER, Act(version=there.version, seq=1, action=claim))
            assert outcome == Ack(seq=1, version=1)
            await until(lambda: here.version == 1)
            assert (here.status, here.read_only_reason) == ("over", None)
            assert (here.state.winner, here.state.victory_reason) == (Side.DEFENDER, "abandonment")
            assert here.hashes == there.hashes

    arun(run())


def test_when_a_turn_clock_runs_out_every_process_flags_it_once_and_keeps_timing(postgres: Postgres,
                                                                                redis_server: Redis) -> None:
    """Each process holding a timed match watches its clock, so they race to append the TIMEOUT: one commits it,
    the others catch up from the log, and every clock then runs for the next turn (none stops on losing)."""

    async def run() -> None:
        clock = ManualClock()
        async with processes(postgres, redis_server, clock, 3) as made:
            here = (await made[0].creator.create(NewMatch(config=QUICK, clock=ClockSpec(per_turn=PER_TURN)))).match
            copies = [here, *[await p.get(here.id) for p in made[1:]]]
            for process, match in zip(made, copies, strict=True):
                for seat in (Side.ATTACKER, Side.DEFENDER):
                    assert process.matches.join(match, Watcher(seat)) is None
            await until(lambda: all(m.running is Side.ATTACKER for m in copies))
            clock.advance(PER_TURN)  # every watcher wakes at once
            await until(lambda: all(m.version == 1 for m in copies))
            assert all(m.hashes == here.hashes for m in copies)
            assert isinstance(here.actions[0], Timeout) and here.status == "live"
            await until(lambda: all(m.running is not None for m in copies))
            assert len({m.running for m in copies}) == 1

    arun(run())
