"""The storage contract, kept by SQLite (`Database`) and PostgreSQL (`PgDatabase`) alike; PostgreSQL's own parts:
the versioned schema, the race between two processes, unreachable servers, bot-seat leases."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import pytest

from server.database import Database, Storage
from server.store import RematchChange, StoreConflict, StoreUnavailable

from .cluster import Postgres
from .conftest import BACKENDS, arun
from .test_store import match_row, progress, step

Opener = Callable[[], Awaitable[Storage]]


@pytest.fixture(params=BACKENDS)
def open_storage(request: pytest.FixtureRequest, tmp_path: Path) -> Opener:
    """Opens a fresh, empty store of each backend (PostgreSQL: a new database on the session's server)."""
    if request.param == "sqlite":

        async def sqlite() -> Storage:
            return Database.open(tmp_path / "data")

        return sqlite
    pg: Postgres = request.getfixturevalue("postgres")
    url = pg.new_database()

    async def postgresql() -> Storage:
        from server.pgstore import PgDatabase

        return await PgDatabase.connect(url)

    return postgresql


@asynccontextmanager
async def opened(opener: Opener) -> AsyncIterator[Storage]:
    store = await opener()
    try:
        yield store
    finally:
        store.close()


def test_a_match_round_trips_with_its_seats_and_log(open_storage: Opener) -> None:
    async def run() -> None:
        async with opened(open_storage) as store:
            await store.create_match(match_row("m1", version=1), {"ATTACKER": b"a" * 32, "DEFENDER": b"d" * 32},
                                     [step(0, seq=None)])
            await store.append("m1", step(1, "DEFENDER", 4), progress(2))
            loaded = await store.load("m1")
            assert loaded is not None
            row, seats, actions = loaded
            assert row.progress.version == 2 and row.progress.phase == "MOVEMENT"
            assert seats == {"ATTACKER": b"a" * 32, "DEFENDER": b"d" * 32}
            assert actions == [step(0, seq=None), step(1, "DEFENDER", 4)]
            assert await store.action_at("m1", 1) == step(1, "DEFENDER", 4)
            assert await store.action_at("m1", 2) is None
            assert await store.load("nope") is None and await store.match_row("nope") is None

    arun(run())


def test_a_rematch_changes_only_from_where_it_stood_and_its_new_match_only_with_it(open_storage: Opener) -> None:
    async def run() -> None:
        async with opened(open_storage) as store:
            await store.create_match(match_row("old"), {}, ())
            offer = RematchChange(match_id="old", before=None, after="offered")
            await store.set_rematch(offer)
            with pytest.raises(StoreConflict):  # it no longer stands at None: a second answer to it is refused
                await store.set_rematch(offer)
            with pytest.raises(StoreConflict):
                await store.create_match(match_row("late"), {}, (), RematchChange("old", None, "accepted"))
            assert await store.match_row("late") is None  # the refused change took its new match with it
            await store.create_match(match_row("new"), {}, (), RematchChange("old", "offered", "accepted"))
            row = await store.match_row("old")
            assert await store.match_row("new") is not None and row is not None and row.rematch == "accepted"
            loaded = await store.load("old")
            assert loaded is not None and loaded[0].rematch == "accepted"

    arun(run())

def test_an_append_at_the_wrong_version_writes_nothing(open_storage: Opener) -> None:
    async def run() -> None:
        async with opened(open_storage) as store:
            await store.create_match(match_row("m1"), {}, ())
            with pytest.raises(StoreConflict):
                await store.append("m1", step(3), progress(4))
            await store.append("m1", step(0), progress(1, status="over"))
            with pytest.raises(StoreConflict):  # over: nothing more
                await store.append("m1", step(1, seq=2), progress(2))
            loaded = await store.load("m1")
            assert loaded is not None and [a.ply for a in loaded[2]] == [0]
            assert loaded[0].progress.status == "over"

    arun(run())


def test_recent_lists_newest_first_and_broken_is_remembered(open_storage: Opener) -> None:
    async def run() -> None:
        async with opened(open_storage) as store:
            for i, created in enumerate((10.0, 30.0, 20.0)):
                await store.create_match(match_row(f"m{i}", created=created), {}, ())
            await store.mark_broken("m2", "step 3: hash differs")
            recent = await store.recent(2)
            assert [r.id for r in recent] == ["m1", "m2"]
            assert recent[1].progress.status == "broken" and recent[1].broken_reason == "step 3: hash differs"

    arun(run())


def test_of_two_processes_appending_the_same_ply_exactly_one_commits(postgres: Postgres) -> None:
    from server.pgstore import PgDatabase

    url = postgres.new_database()

    async def run() -> None:
        first, second = await PgDatabase.connect(url), await PgDatabase.connect(url)
        try:
            await first.create_match(match_row("m1"), {}, ())
            for ply in range(20):  # the same ply from both "processes", at once, twenty times over
                outcomes = await asyncio.gather(
                    first.append("m1", step(ply, "ATTACKER", ply + 1), progress(ply + 1)),
                    second.append("m1", step(ply, "DEFENDER", ply + 1), progress(ply + 1)),
                    return_exceptions=True)
                assert sorted(type(o).__name__ for o in outcomes) == ["NoneType", "StoreConflict"]
            loaded = await second.load("m1")
            assert loaded is not None and [a.ply for a in loaded[2]] == list(range(20))
            assert loaded[0].progress.version == 20
            assert await first.actions_from("m1", 18) == loaded[2][18:]
            assert await first.versions(["m1", "nope"]) == {"m1": 20}
        finally:
            first.close()
            second.close()

    arun(run())


def test_appends_waiting_together_commit_in_one_statement_each_with_its_own_answer(postgres: Postgres) -> None:
    from server.pgstore import PgDatabase

    url = postgres.new_database()

    async def run() -> None:
        db = await PgDatabase.connect(url)
        try:
            ids = [f"m{i:02}" for i in range(30)]
            for match_id in ids:
                await db.create_match(match_row(match_id), {}, ())
            await db.append("m00", step(0, seq=1), progress(1))  # m00 is at version 1 now
            statements = db.appends.batches
            outcomes = await asyncio.gather(*(db.append(m, step(0, seq=1), progress(1)) for m in ids),
                                            return_exceptions=True)
            assert type(outcomes[0]) is StoreConflict  # stale: m00 alone is refused
            assert outcomes[1:] == [None] * 29
            assert db.appends.batches - statements <= 2  # the first append goes alone, the rest wait together
            assert await db.versions(ids) == {"m00": 1} | {m: 1 for m in ids[1:]}
            # A client seq used twice fails the batch statement as a whole: each row is then tried on its own.
            reused = await asyncio.gather(db.append("m01", step(1, seq=1), progress(2)),
                                          db.append("m02", step(1, seq=2), progress(2)),
                                          db.append("m03", step(1, seq=2), progress(2)), return_exceptions=True)
            assert [type(o).__name__ for o in reused] == ["StoreConflict", "NoneType", "NoneType"]
            loaded = await db.load("m01")
            assert loaded is not None and loaded[0].progress.version == 1 and len(loaded[2]) == 1
            # Two appends of one match never share a statement: the second waits for the next batch.
            both = await asyncio.gather(db.append("m04", step(1, seq=2), progress(2)),
                                        db.append("m04", step(2, seq=3), progress(3)), return_exceptions=True)
            assert both == [None, None]
        finally:
            db.close()

    arun(run())


def test_appends_keep_at_most_one_connection_per_writer_and_replace_one_that_was_cut(postgres: Postgres) -> None:
    import asyncpg

    from server.pgbatch import WRITERS
    from server.pgstore import PgDatabase

    url = postgres.new_database()

    async def backends(admin: Any) -> int:
        return int(await admin.fetchval(
            "SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()"))

    async def run() -> None:
        db = await PgDatabase.connect(url)
        admin = await asyncpg.connect(url)
        try:
            ids = [f"m{i:02}" for i in range(40)]
            for match_id in ids:
                await db.create_match(match_row(match_id), {}, ())
            for ply in range(3):  # 40 appends at once, three times over
                await asyncio.gather(*(db.append(m, step(ply, seq=ply + 1), progress(ply + 1)) for m in ids))
            reads_and_writes = await backends(admin)
            assert reads_and_writes <= 10 + WRITERS  # the read pool's size, and one connection per writer
            # Every server connection of the database is cut: the next appends open fresh ones.
            await admin.execute("SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
                                "WHERE datname = current_database() AND pid <> pg_backend_pid()")
            answers = []
            for _ in range(WRITERS + 1):  # the first ones may still meet cut connections: refused, nothing logged
                try:
                    await db.append("m00", step(3, seq=4), progress(4))
                    answers.append("ok")
                    break
                except StoreUnavailable:
                    answers.append("unavailable")
            assert answers[-1] == "ok", answers
            assert await db.versions(["m00"]) == {"m00": 4}
        finally:
            await admin.close()
            db.close()

    arun(run())


def test_loads_asked_together_share_one_query_and_each_gets_its_own_match(postgres: Postgres) -> None:
    from server.pgstore import PgDatabase

    url = postgres.new_database()

    async def run() -> None:
        db = await PgDatabase.connect(url)
        try:
            for i in range(5):
                await db.create_match(match_row(f"m{i}"), {"ATTACKER": bytes([i]) * 32}, [step(0, seq=None)] * (i > 2))
            queries: list[list[str]] = []
            fetch = db._load_many

            async def counted(match_ids: list[str]) -> Any:
                queries.append(match_ids)
                return await fetch(match_ids)

            db._loads._fetch = counted
            loaded = await asyncio.gather(*(db.load(m) for m in ("m4", "m0", "nope", "m3", "m1", "m2")))
            assert queries == [["m0", "m1", "m2", "m3", "m4", "nope"]]
            assert loaded[2] is None
            assert [(found[0].id, found[1], len(found[2])) for found in loaded if found is not None] == [
                ("m4", {"ATTACKER": b"\x04" * 32}, 1), ("m0", {"ATTACKER": b"\x00" * 32}, 0),
                ("m3", {"ATTACKER": b"\x03" * 32}, 1), ("m1", {"ATTACKER": b"\x01" * 32}, 0),
                ("m2", {"ATTACKER": b"\x02" * 32}, 0)]
            db._loads._limit = 4  # more waiting than one query takes: the rest go in the next
            again = await asyncio.gather(*(db.load(m) for m in ("m4", "m0", "nope", "m3", "m1", "m2")))
            assert queries[1:] == [["m0", "m1", "m2", "m3"], ["m4", "nope"]]
            assert again == loaded
            # A load asked while the same match's query is in flight is read again by the next query
            # (it may be asking because something changed since that query was sent).
            gate = asyncio.Event()

            async def held(match_ids: list[str]) -> Any:
                queries.append(match_ids)
                await gate.wait()
                return await fetch(match_ids)

            db._loads._fetch = held
            first = asyncio.ensure_future(db.load("m3"))
            await asyncio.sleep(0.05)
            second, third = asyncio.ensure_future(db.load("m3")), asyncio.ensure_future(db.load("m3"))
            await asyncio.sleep(0.05)
            gate.set()
            assert await first == await second == await third == loaded[3]
            assert queries[3:] == [["m3"], ["m3"]]
        finally:
            db.close()

    arun(run())


def test_the_schema_is_versioned_migrated_once_and_a_newer_one_refused(postgres: Postgres) -> None:
    from server.pgstore import SCHEMA_VERSION, PgDatabase

    url = postgres.new_database()

    async def run() -> None:
        many = await asyncio.gather(*(PgDatabase.connect(url) for _ in range(4)))  # workers starting together
        store = many[0]
        assert await store._run(lambda c: c.fetchval("SELECT version FROM taktik_schema")) == SCHEMA_VERSION
        assert await store._run(lambda c: c.fetchval("SELECT count(*) FROM taktik_schema")) == 1
        await store._run(lambda c: c.execute("UPDATE taktik_schema SET version = version + 1"))
        for each in many:
            each.close()
        with pytest.raises(RuntimeError, match=f"schema {SCHEMA_VERSION + 1}; this server knows {SCHEMA_VERSION}"):
            await PgDatabase.connect(url)

    arun(run())


def test_an_unreachable_server_is_unavailable_naming_it_without_the_password(tmp_path: Path) -> None:
    pytest.importorskip("asyncpg")
    from server.pgstore import PgDatabase, PgSettings

    from .cluster import free_port

    async def run() -> None:
        with pytest.raises(StoreUnavailable, match=r"postgresql://me@127\.0\.0\.1") as caught:
            await PgDatabase.connect(f"postgresql://me:secret@127.0.0.1:{free_port()}/x",
                                     PgSettings(connect_timeout=2))
        assert "secret" not in str(caught.value)

    arun(run())


def test_a_bot_seat_lease_has_one_holder_until_it_expires(postgres: Postgres) -> None:
    from server.pgstore import PgDatabase

    url = postgres.new_database()

    async def run() -> None:
        store = await PgDatabase.connect(url)
        try:
            await store.create_match(match_row("m1"), {}, ())
            assert await store.hold_bot_seat("m1", "p1", 0.5)
            assert not await store.hold_bot_seat("m1", "p2", 0.5)
            assert await store.hold_bot_seat("m1", "p1", 0.5)  # renewing
            await asyncio.sleep(0.7)
            assert await store.hold_bot_seat("m1", "p2", 30)  # p1 is gone: p2 takes over
            assert not await store.hold_bot_seat("m1", "p1", 30)
            await store.release_bot_seat("m1", "p2")
            assert await store.hold_bot_seat("m1", "p1", 30)
        finally:
            store.close()

    arun(run())
