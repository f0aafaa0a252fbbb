"""SQLite store: durable settings, append-only log guarded by unique keys, one server per data dir."""

from __future__ import annotations

import sqlite3
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from engine import LEGACY_VERSIONS
from server.store import ActionRow, DataDirLocked, MatchRow, Progress, RematchChange, Store, StoreConflict


def match_row(match_id: str, created: float = 0.0, version: int = 0, rules: str = "1.0badcafe") -> MatchRow:
    return MatchRow(id=match_id, created_at=created or time.time(), updated_at=time.time(), rules_version=rules,
                    config='{"seed":5}', salt="ab" * 16, seed_commitment="c" * 64, mode="human", bot_side=None,
                    bot_policy=None, bot_seed=None, parent_id=None, parent_step=None,
                    progress=Progress(status="live", version=version, turn=1, phase="CARD_DRAW", to_act="ATTACKER"))


def step(ply: int, seat: str = "ATTACKER", seq: int | None = 1) -> ActionRow:
    return ActionRow(ply=ply, seat=seat, client_seq=seq, action='{"type":"NEXT_PHASE"}', state_hash=f"h{ply}")


def progress(version: int, status: str = "live") -> Progress:
    return Progress(status=status, version=version, turn=1, phase="MOVEMENT", to_act="ATTACKER")


@pytest.fixture
def store(tmp_path: Path) -> Iterator[Store]:
    opened = Store.open(tmp_path / "data")
    yield opened
    opened.close()


def test_the_database_is_durable_by_configuration(store: Store, tmp_path: Path) -> None:
    db = store._db
    assert db.execute("PRAGMA journal_mode").fetchone() == ("wal",)
    assert db.execute("PRAGMA synchronous").fetchone() == (2,)  # FULL
    assert db.execute("PRAGMA busy_timeout").fetchone() == (5000,)
    assert (tmp_path / "data" / "taktik.sqlite3").stat().st_mode & 0o077 == 0


def test_a_match_round_trips_with_its_seats_and_log(store: Store) -> None:
    store.create_match(match_row("m1", version=1), {"ATTACKER": b"a" * 32, "DEFENDER": b"d" * 32},
                       [step(0, seq=None)])
    store.append("m1", step(1, "DEFENDER", 4), progress(2))
    loaded = store.load("m1")
    assert loaded is not None
    row, seats, actions = loaded
    assert row.progress.version == 2 and row.progress.phase == "MOVEMENT"
    assert seats == {"ATTACKER": b"a" * 32, "DEFENDER": b"d" * 32}
    assert actions == [step(0, seq=None), step(1, "DEFENDER", 4)]
    assert store.action_at("m1", 1) == step(1, "DEFENDER", 4) and store.action_at("m1", 2) is None
    assert store.load("nope") is None and store.match_row("nope") is None


def test_an_append_at_the_wrong_version_writes_nothing(store: Store) -> None:
    store.create_match(match_row("m1"), {}, [])
    with pytest.raises(StoreConflict):
        store.append("m1", step(3), progress(4))
    store.append("m1", step(0), progress(1, "over"))
    with pytest.raises(StoreConflict):  # a finished match takes no more actions
        store.append("m1", step(1, seq=2), progress(2))
    loaded = store.load("m1")
    assert loaded is not None and len(loaded[2]) == 1 and loaded[0].progress.status == "over"


def test_unique_keys_forbid_a_second_ply_or_a_reused_client_seq(store: Store) -> None:
    store.create_match(match_row("m1"), {}, [])
    store.append("m1", step(0, seq=7), progress(1))
    db = store._db
    with pytest.raises(sqlite3.IntegrityError):
        db.execute("INSERT INTO actions VALUES ('m1', 0, 'DEFENDER', NULL, 'x', 'h', 0, NULL)")
    with pytest.raises(sqlite3.IntegrityError):
        db.execute("INSERT INTO actions VALUES ('m1', 1, 'ATTACKER', 7, 'x', 'h', 0, NULL)")
    db.execute("INSERT INTO actions VALUES ('m1', 1, 'DEFENDER', 7, 'x', 'h', 0, NULL)")  # seqs are per seat
    db.execute("INSERT INTO actions VALUES ('m1', 2, 'DEFENDER', NULL, 'x', 'h', 0, NULL)")
    db.execute("INSERT INTO actions VALUES ('m1', 3, 'DEFENDER', NULL, 'x', 'h', 0, NULL)")  # bots: no seq


def test_recent_lists_newest_first_and_broken_is_remembered(store: Store) -> None:
    for i in range(5):
        store.create_match(match_row(f"m{i}", created=1000.0 + i), {}, [])
    store.mark_broken("m2", "step 3: mismatch")
    assert [r.id for r in store.recent(3)] == ["m4", "m3", "m2"]
    broken = store.match_row("m2")
    assert broken is not None and broken.progress.status == "broken" and broken.broken_reason == "step 3: mismatch"


def test_a_rules_version_is_kept_as_written_even_when_it_looks_like_a_number(store: Store) -> None:
    for match_id, rules in (("m1", "1.25"), ("m2", "2.00000100"), ("m3", "3")):
        store.create_match(match_row(match_id, rules=rules), {}, [])
        row = store.match_row(match_id)
        assert row is not None and row.rules_version == rules


SCHEMA_1 = """
CREATE TABLE matches (id TEXT PRIMARY KEY, created_at REAL NOT NULL, updated_at REAL NOT NULL,
    rules_version INTEGER NOT NULL, config TEXT NOT NULL, salt TEXT NOT NULL, seed_commitment TEXT NOT NULL,
    mode TEXT NOT NULL, bot_side TEXT, bot_policy TEXT, bot_seed INTEGER, parent_id TEXT, parent_step INTEGER,
    status TEXT NOT NULL, version INTEGER NOT NULL, turn INTEGER NOT NULL, phase TEXT NOT NULL, to_act TEXT,
    winner TEXT, victory_reason TEXT, broken_reason TEXT);
CREATE INDEX matches_by_created ON matches (created_at);
CREATE TABLE seats (match_id TEXT NOT NULL REFERENCES matches (id), seat TEXT NOT NULL,
    token_sha256 BLOB NOT NULL, PRIMARY KEY (match_id, seat));
CREATE TABLE actions (match_id TEXT NOT NULL REFERENCES matches (id), ply INTEGER NOT NULL, seat TEXT NOT NULL,
    client_seq INTEGER, action TEXT NOT NULL, state_hash TEXT NOT NULL, created_at REAL NOT NULL,
    UNIQUE (match_id, ply), UNIQUE (match_id, seat, client_seq));
INSERT INTO matches VALUES ('old', 1.0, 2.0, 1, '{"seed":5}', 'salt', 'commit', 'human', NULL, NULL, NULL, NULL, NULL,
    'live', 1, 1, 'CARD_DRAW', 'DEFENDER', NULL, NULL, NULL);
INSERT INTO seats VALUES ('old', 'ATTACKER', x'00');
INSERT INTO actions VALUES ('old', 0, 'ATTACKER', 1, '{"type":"DRAW_CARD"}', 'h0', 1.5);
PRAGMA user_version=1;
"""


def test_a_schema_1_database_is_migrated_and_its_integer_rules_version_read_as_the_same_rules(tmp_path: Path) -> None:
    (tmp_path / "data").mkdir()
    with sqlite3.connect(tmp_path / "data" / "taktik.sqlite3") as db:
        db.executescript(SCHEMA_1)
    db.close()
    store = Store.open(tmp_path / "data")
    try:
        assert store._db.execute("PRAGMA user_version").fetchone() == (4,)
        loaded = store.load("old")
        assert loaded is not None
        row, seats, actions = loaded
        assert row.rules_version == LEGACY_VERSIONS["1"] and row.progress.to_act == "DEFENDER" and row.created_at == 1.0
        assert seats == {"ATTACKER": b"\x00"}
        assert actions == [ActionRow(ply=0, seat="ATTACKER", client_seq=1, action='{"type":"DRAW_CARD"}',
                                     state_hash="h0")]
        store.append("old", step(1, "DEFENDER", 1), progress(2))  # the log still points at its match
        store.create_match(match_row("new", rules="1.12345678"), {}, [])
        assert [r.id for r in store.recent(5)] == ["new", "old"]
        assert store._db.execute("PRAGMA foreign_key_check").fetchall() == []
        assert store._db.execute("PRAGMA foreign_keys").fetchone() == (1,)
    finally:
        store.close()
    reopened = Store.open(tmp_path / "data")
    row = reopened.match_row("new")
    reopened.close()
    assert row is not None and row.rules_version == "1.12345678"


def test_one_server_per_data_directory(tmp_path: Path) -> None:
    first = Store.open(tmp_path / "data")
    with pytest.raises(DataDirLocked):
        Store.open(tmp_path / "data")
    first.close()
    Store.open(tmp_path / "data").close()


def test_data_survives_reopening(tmp_path: Path) -> None:
    first = Store.open(tmp_path / "data")
    first.create_match(match_row("m1"), {"ATTACKER": b"x" * 32}, [])
    first.append("m1", step(0), progress(1))
    first.close()
    again = Store.open(tmp_path / "data")
    loaded = again.load("m1")
    again.close()
    assert loaded is not None and loaded[2] == [step(0)]


def test_a_background_checkpoint_never_waits_for_the_writer(tmp_path: Path) -> None:
    store = Store.open(tmp_path / "data", background_checkpoints=True)
    checkpointer = store.checkpointer()
    try:
        assert store._db.execute("PRAGMA wal_autocheckpoint").fetchone() == (0,)
        store.create_match(match_row("m1"), {}, [])
        store._db.execute("BEGIN IMMEDIATE")  # a writer holds the write lock...
        store._db.execute("UPDATE matches SET turn=2")
        checkpointer.run()  # ...and the checkpoint still returns at once
        store._db.execute("COMMIT")
        checkpointer.run()
        assert (tmp_path / "data" / "taktik.sqlite3").stat().st_size > 0
    finally:
        checkpointer.close()
        store.close()
    assert not (tmp_path / "data" / "taktik.sqlite3-wal").exists() or \
        (tmp_path / "data" / "taktik.sqlite3-wal").stat().st_size == 0


def test_a_schema_2_database_gains_the_clock_columns_and_its_old_rows_read_untimed(tmp_path: Path) -> None:
    (tmp_path / "data").mkdir()
    with sqlite3.connect(tmp_path / "data" / "taktik.sqlite3") as db:
        db.executescript(SCHEMA_1.replace("rules_version INTEGER", "rules_version TEXT")
                         .replace("PRAGMA user_version=1", "PRAGMA user_version=2"))
    db.close()
    store = Store.open(tmp_path / "data")
    try:
        assert store._db.execute("PRAGMA user_version").fetchone() == (4,)
        loaded = store.load("old")
        assert loaded is not None
        row, _, actions = loaded
        assert (row.clock, row.open_seat, row.rematch) == (None, None, None) and actions[0].elapsed_ms is None
        timed = ActionRow(ply=1, seat="DEFENDER", client_seq=1, action="{}", state_hash="h1", elapsed_ms=1234)
        store.append("old", timed, progress(2))
        assert store.action_at("old", 1) == timed
        assert store.timed_live() == [] and store.open_challenges(5) == []
    finally:
        store.close()


def test_a_schema_3_database_gains_the_rematch_column(tmp_path: Path) -> None:
    (tmp_path / "data").mkdir()
    with sqlite3.connect(tmp_path / "data" / "taktik.sqlite3") as db:
        db.executescript(SCHEMA_1.replace("rules_version INTEGER", "rules_version TEXT")
                         .replace("broken_reason TEXT);", "broken_reason TEXT, clock TEXT, open_seat TEXT);")
                         .replace("NULL, NULL, NULL);", "NULL, NULL, NULL, NULL, NULL);")
                         .replace("created_at REAL NOT NULL,\n    UNIQUE",
                                  "created_at REAL NOT NULL, elapsed_ms INTEGER,\n    UNIQUE")
                         .replace("'h0', 1.5);", "'h0', 1.5, NULL);")
                         .replace("PRAGMA user_version=1", "PRAGMA user_version=3"))
    db.close()
    store = Store.open(tmp_path / "data")
    try:
        assert store._db.execute("PRAGMA user_version").fetchone() == (4,)
        row = store.match_row("old")
        assert row is not None and row.rematch is None
        store.set_rematch(RematchChange(match_id="old", before=None, after='{"offered_by":"ATTACKER"}'))
        again = store.match_row("old")
        assert again is not None and again.rematch == '{"offered_by":"ATTACKER"}'
    finally:
        store.close()

