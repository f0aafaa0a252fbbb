"""The store's thread: appends are committed (in groups) before their awaiters resume."""

from __future__ import annotations

import asyncio
import sqlite3
from pathlib import Path

import pytest

from server.database import Database
from server.store import ActionRow, Progress, Store, StoreConflict

from .conftest import arun
from .test_store import match_row


class CountingStore(Store):
    batches: list[int]

    def append_many(self, entries):  # type: ignore[no-untyped-def]
        self.batches.append(len(entries))
        return super().append_many(entries)


def test_concurrent_appends_share_commits_and_each_is_durable_when_awaited(tmp_path: Path) -> None:
    inner = Store.open(tmp_path / "data")
    store = CountingStore(inner._db, inner._lock)
    store.batches = []
    db = Database(store)

    async def one(i: int) -> None:
        await db.create_match(match_row(f"m{i}"), {}, [])
        await db.append(f"m{i}", ActionRow(ply=0, seat="ATTACKER", client_seq=1, action="{}", state_hash="h"),
                        Progress(status="live", version=1, turn=1, phase="MOVEMENT", to_act="ATTACKER"))
        with sqlite3.connect(tmp_path / "data" / "taktik.sqlite3") as reader:  # another connection sees it
            assert reader.execute("SELECT count(*) FROM actions WHERE match_id=?", (f"m{i}",)).fetchone() == (1,)
        reader.close()

    async def run() -> None:
        await asyncio.gather(*(one(i) for i in range(60)))

    try:
        arun(run())
    finally:
        db.close()
    assert sum(store.batches) == 60 and len(store.batches) < 60


def test_a_failing_append_fails_alone(tmp_path: Path) -> None:
    db = Database.open(tmp_path / "data")
    row = ActionRow(ply=0, seat="ATTACKER", client_seq=1, action="{}", state_hash="h")
    live = Progress(status="live", version=1, turn=1, phase="MOVEMENT", to_act="ATTACKER")

    async def run() -> None:
        await db.create_match(match_row("a"), {}, [])
        await db.create_match(match_row("b"), {}, [])
        results = await asyncio.gather(db.append("a", row, live), db.append("b", row, live),
                                       db.append("a", row, live), return_exceptions=True)
        assert results[0] is None and results[1] is None and isinstance(results[2], StoreConflict)
        loaded = await db.load("a")
        assert loaded is not None and len(loaded[2]) == 1

    try:
        arun(run())
    finally:
        db.close()
    with pytest.raises(sqlite3.ProgrammingError):
        db._store._db.execute("SELECT 1")
