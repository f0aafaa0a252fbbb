"""SQLite persistence: matches, hashed seat tokens and the append-only action log.

One file, ``<data dir>/taktik.sqlite3``, in WAL mode with ``synchronous=FULL``: when a
method that writes returns, the change is on disk. The action log is append-only and
``UNIQUE(match_id, ply)`` / ``UNIQUE(match_id, seat, client_seq)`` make a double append
impossible even if the code above had a bug. A `Store` is used from one thread at a time
(the match service gives it a dedicated thread); ``<data dir>/taktik.lock`` keeps a
second server process away from the same data.
"""

from __future__ import annotations

import contextlib
import fcntl
import os
import sqlite3
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Any

from engine import canonical_rules_version

__all__ = [
    "ActionRow",
    "Checkpointer",
    "DataDirLocked",
    "MatchRow",
    "Progress",
    "RematchChange",
    "Store",
    "StoreConflict",
    "StoreUnavailable",
]

SCHEMA_VERSION = 4
"""1: the first. 2: ``matches.rules_version`` is TEXT (it was an INTEGER, now a derived string).
3: ``actions.elapsed_ms`` (clock time each action took), ``matches.clock`` (the clock chosen
at creation, JSON) and ``matches.open_seat`` (the free seat of an open challenge).
4: ``matches.rematch`` (where the rematch of a finished match stands, JSON; server/rematch.py)."""

_MATCHES = """
CREATE TABLE IF NOT EXISTS {name} (
    id TEXT PRIMARY KEY,
    created_at REAL NOT NULL,
    updated_at REAL NOT NULL,
    rules_version TEXT NOT NULL,
    config TEXT NOT NULL,
    salt TEXT NOT NULL,
    seed_commitment TEXT NOT NULL,
    mode TEXT NOT NULL,
    bot_side TEXT,
    bot_policy TEXT,
    bot_seed INTEGER,
    parent_id TEXT,
    parent_step INTEGER,
    status TEXT NOT NULL,
    version INTEGER NOT NULL,
    turn INTEGER NOT NULL,
    phase TEXT NOT NULL,
    to_act TEXT,
    winner TEXT,
    victory_reason TEXT,
    broken_reason TEXT,
    clock TEXT,
    open_seat TEXT,
    rematch TEXT
);
"""

_SCHEMA = _MATCHES.format(name="matches") + """
CREATE INDEX IF NOT EXISTS matches_by_created ON matches (created_at);
CREATE TABLE IF NOT EXISTS seats (
    match_id TEXT NOT NULL REFERENCES matches (id),
    seat TEXT NOT NULL,
    token_sha256 BLOB NOT NULL,
    PRIMARY KEY (match_id, seat)
);
CREATE TABLE IF NOT EXISTS actions (
    match_id TEXT NOT NULL REFERENCES matches (id),
    ply INTEGER NOT NULL,
    seat TEXT NOT NULL,
    client_seq INTEGER,
    action TEXT NOT NULL,
    state_hash TEXT NOT NULL,
    created_at REAL NOT NULL,
    elapsed_ms INTEGER,
    UNIQUE (match_id, ply),
    UNIQUE (match_id, seat, client_seq)
);
"""

_V2_COLUMNS = (
    "id, created_at, updated_at, rules_version, config, salt, seed_commitment, mode, bot_side, bot_policy, "
    "bot_seed, parent_id, parent_step, status, version, turn, phase, to_act, winner, victory_reason, broken_reason"
)
_MATCH_COLUMNS = (
    "id, created_at, updated_at, rules_version, config, salt, seed_commitment, mode, bot_side, bot_policy, "
    "bot_seed, parent_id, parent_step, status, version, turn, phase, to_act, winner, victory_reason, broken_reason, "
    "clock, open_seat, rematch"
)


class DataDirLocked(RuntimeError):
    """Another server process holds the data directory."""


class StoreConflict(RuntimeError):
    """An append did not match the stored version of its match (nothing was written)."""


class StoreUnavailable(RuntimeError):
    """The database cannot be reached now; whether the last write committed is unknown.

    Raised by the PostgreSQL store (server/pgstore.py) for a refused, lost or timed-out
    connection: the action is refused with the retryable ``unavailable`` code, and the match
    catches up from the log once the database answers again.
    """


@dataclass(frozen=True, slots=True)
class Progress:
    """Where a match stands after its latest action (denormalised for the lobby)."""

    status: str  # live | over | broken
    version: int  # number of actions in the log
    turn: int
    phase: str
    to_act: str | None
    winner: str | None = None
    victory_reason: str | None = None


@dataclass(frozen=True, slots=True)
class MatchRow:
    """One match as stored. ``config`` is the GameConfig JSON, seed included."""

    id: str
    created_at: float
    updated_at: float
    rules_version: str  # the engine's RULES_VERSION when the match was created
    config: str
    salt: str
    seed_commitment: str
    mode: str  # human | hotseat | bot | outside_bot
    bot_side: str | None
    bot_policy: str | None
    bot_seed: int | None
    parent_id: str | None
    parent_step: int | None
    progress: Progress
    broken_reason: str | None = None
    clock: str | None = None  # the clock chosen at creation (server/clocks.py `ClockSpec` JSON); None: no clock
    open_seat: str | None = None  # an open challenge's seat nobody has joined yet
    rematch: str | None = None  # where its rematch stands (server/rematch.py `Rematch`, JSON); None: nothing yet


@dataclass(frozen=True, slots=True)
class RematchChange:
    """Match ``match_id``'s stored rematch goes from ``before`` to ``after``, or nothing is written.

    The compare-and-set that keeps two processes (or two sockets) from answering one offer
    twice: the loser gets `StoreConflict` and reads the rematch again.
    """

    match_id: str
    before: str | None
    after: str


@dataclass(frozen=True, slots=True)
class ActionRow:
    """One accepted action: its ply (0-based), who played it and the state hash after it."""

    ply: int
    seat: str
    client_seq: int | None  # None for bot moves and forked prefixes
    action: str  # canonical JSON
    state_hash: str
    elapsed_ms: int | None = None  # clock time the action took, from when its seat came to act (None: untimed)


class Store:
    """The SQLite database of one data directory."""

    def __init__(self, connection: sqlite3.Connection, lock: IO[bytes], path: Path | None = None) -> None:
        self._db = connection
        self._lock = lock
        self.path = path

    @classmethod
    def open(cls, data_dir: Path, *, background_checkpoints: bool = False) -> Store:
        """Open (creating if needed) the store in ``data_dir``; raises `DataDirLocked` if in use.

        With ``background_checkpoints`` commits never copy the WAL into the database file
        themselves (that copy and its disk sync would stall the commit); the caller runs
        `checkpoint` on another thread instead.
        """
        data_dir.mkdir(parents=True, exist_ok=True)
        lock = open(data_dir / "taktik.lock", "wb")  # noqa: SIM115 - held for the store's lifetime
        try:
            fcntl.flock(lock.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            lock.close()
            raise DataDirLocked(f"{data_dir} is in use by another taktik server") from None
        db = sqlite3.connect(data_dir / "taktik.sqlite3", isolation_level=None, check_same_thread=False)
        try:
            db.execute("PRAGMA journal_mode=WAL")
            db.execute("PRAGMA synchronous=FULL")
            db.execute("PRAGMA busy_timeout=5000")
            db.execute("PRAGMA foreign_keys=ON")
            version = db.execute("PRAGMA user_version").fetchone()[0]
            if version not in (0, 1, 2, 3, SCHEMA_VERSION):
                raise RuntimeError(f"data in {data_dir} has schema {version}; this server knows {SCHEMA_VERSION}")
            if version == 1:
                _migrate_from_1(db)
            if version in (1, 2):
                _migrate_from_2(db)
            if version in (1, 2, 3):
                _migrate_from_3(db)
            db.executescript(_SCHEMA)
            db.execute(f"PRAGMA user_version={SCHEMA_VERSION}")
            if background_checkpoints:
                db.execute("PRAGMA wal_autocheckpoint=0")
        except BaseException:
            db.close()
            lock.close()
            raise
        os.chmod(data_dir / "taktik.sqlite3", 0o600)
        return cls(db, lock, data_dir / "taktik.sqlite3")

    def checkpointer(self) -> Checkpointer:
        """A second connection that copies committed WAL frames into the database file."""
        assert self.path is not None
        return Checkpointer(self.path)

    def close(self) -> None:
        """Close the database and release the data directory."""
        with contextlib.suppress(sqlite3.Error):
            self._db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        self._db.close()
        self._lock.close()

    def create_match(self, row: MatchRow, seats: Mapping[str, bytes], prefix: Sequence[ActionRow] = (),
                     rematch: RematchChange | None = None) -> None:
        """Insert a match, its seat token hashes and (for a fork) its first actions, atomically.

        A rematch is created together with its finished match's ``rematch`` change (`set_rematch`):
        both or neither, `StoreConflict` when the change is refused.
        """
        p = row.progress
        with self._transaction():
            if rematch is not None:
                self._set_rematch(rematch)
            self._db.execute(
                f"INSERT INTO matches ({_MATCH_COLUMNS}) VALUES ({', '.join('?' * 24)})",
                (row.id, row.created_at, row.updated_at, row.rules_version, row.config, row.salt,
                 row.seed_commitment, row.mode, row.bot_side, row.bot_policy, row.bot_seed, row.parent_id,
                 row.parent_step, p.status, p.version, p.turn, p.phase, p.to_act, p.winner, p.victory_reason,
                 row.broken_reason, row.clock, row.open_seat, row.rematch),
            )
            self._db.executemany(
                "INSERT INTO seats (match_id, seat, token_sha256) VALUES (?, ?, ?)",
                [(row.id, seat, digest) for seat, digest in sorted(seats.items())],
            )
            self._insert_actions(row.id, prefix)

    def append(self, match_id: str, action: ActionRow, progress: Progress) -> None:
        """Append one action and the match's new progress; durable when this returns.

        Raises `StoreConflict` (and writes nothing) unless the match's stored version is
        ``action.ply``, and ``sqlite3.IntegrityError`` on a duplicate ply or client seq.
        """
        error = self.append_many([(match_id, action, progress)])[0]
        if error is not None:
            raise error

    def append_many(self, entries: Sequence[tuple[str, ActionRow, Progress]]) -> list[Exception | None]:
        """Append several actions in one transaction (one disk sync): group commit.

        Each entry succeeds or fails on its own (a savepoint each); the result lists, per
        entry, None or the error that left it unwritten. If the commit itself fails,
        nothing was written and that error is raised.
        """
        results: list[Exception | None] = []
        with self._transaction():
            for match_id, action, progress in entries:
                self._db.execute("SAVEPOINT one")
                try:
                    self._append_one(match_id, action, progress)
                except (StoreConflict, sqlite3.IntegrityError) as err:
                    self._db.execute("ROLLBACK TO one")
                    results.append(err)
                else:
                    results.append(None)
                self._db.execute("RELEASE one")
        return results

    def _append_one(self, match_id: str, action: ActionRow, progress: Progress) -> None:
        cursor = self._db.execute(
            "UPDATE matches SET status=?, version=?, turn=?, phase=?, to_act=?, winner=?, victory_reason=?, "
            "updated_at=? WHERE id=? AND version=? AND status='live'",
            (progress.status, progress.version, progress.turn, progress.phase, progress.to_act, progress.winner,
             progress.victory_reason, time.time(), match_id, action.ply),
        )
        if cursor.rowcount != 1:
            raise StoreConflict(f"match {match_id} is not live at version {action.ply}")
        self._insert_actions(match_id, (action,))

    def mark_broken(self, match_id: str, reason: str) -> None:
        """Record that a match's log no longer replays; it stays readable."""
        with self._transaction():
            self._db.execute(
                "UPDATE matches SET status='broken', broken_reason=?, updated_at=? WHERE id=?",
                (reason, time.time(), match_id),
            )

    def match_row(self, match_id: str) -> MatchRow | None:
        """One match without its log, or None."""
        found = self._db.execute(f"SELECT {_MATCH_COLUMNS} FROM matches WHERE id=?", (match_id,)).fetchone()
        return None if found is None else _match_row(found)

    def load(self, match_id: str) -> tuple[MatchRow, dict[str, bytes], list[ActionRow]] | None:
        """A match, its seat token hashes and its whole log (in ply order), or None."""
        found = self._db.execute(f"SELECT {_MATCH_COLUMNS} FROM matches WHERE id=?", (match_id,)).fetchone()
        if found is None:
            return None
        seats = {
            seat: bytes(digest)
            for seat, digest in self._db.execute(
                "SELECT seat, token_sha256 FROM seats WHERE match_id=?", (match_id,)
            )
        }
        actions = [
            ActionRow(ply=ply, seat=seat, client_seq=seq, action=action, state_hash=digest, elapsed_ms=elapsed)
            for ply, seat, seq, action, digest, elapsed in self._db.execute(
                "SELECT ply, seat, client_seq, action, state_hash, elapsed_ms FROM actions WHERE match_id=? "
                "ORDER BY ply",
                (match_id,),
            )
        ]
        return _match_row(found), seats, actions

    def action_at(self, match_id: str, ply: int) -> ActionRow | None:
        """The logged action at ``ply``, if any (to settle an append whose outcome is unknown)."""
        found = self._db.execute(
            "SELECT ply, seat, client_seq, action, state_hash, elapsed_ms FROM actions WHERE match_id=? AND ply=?",
            (match_id, ply),
        ).fetchone()
        return None if found is None else ActionRow(*found)

    def recent(self, limit: int) -> list[MatchRow]:
        """The ``limit`` most recently created matches, newest first."""
        rows = self._db.execute(
            f"SELECT {_MATCH_COLUMNS} FROM matches ORDER BY created_at DESC, id LIMIT ?", (limit,)
        ).fetchall()
        return [_match_row(r) for r in rows]

    def open_challenges(self, limit: int) -> list[MatchRow]:
        """Live matches with a seat nobody has joined yet, newest first."""
        rows = self._db.execute(
            f"SELECT {_MATCH_COLUMNS} FROM matches WHERE open_seat IS NOT NULL AND status='live' "
            "ORDER BY created_at DESC, id LIMIT ?", (limit,)
        ).fetchall()
        return [_match_row(r) for r in rows]

    def timed_live(self) -> list[str]:
        """The ids of live matches with a clock and both seats taken (their clocks run)."""
        rows = self._db.execute(
            "SELECT id FROM matches WHERE status='live' AND clock IS NOT NULL AND open_seat IS NULL ORDER BY id"
        ).fetchall()
        return [r[0] for r in rows]

    def join_seat(self, match_id: str, seat: str, digest: bytes) -> None:
        """Give the free seat of an open challenge its token hash; `StoreConflict` if it is not free."""
        with self._transaction():
            cursor = self._db.execute(
                "UPDATE matches SET open_seat=NULL, updated_at=? WHERE id=? AND open_seat=? AND status='live'",
                (time.time(), match_id, seat),
            )
            if cursor.rowcount != 1:
                raise StoreConflict(f"match {match_id} has no free {seat} seat")
            self._db.execute("INSERT INTO seats (match_id, seat, token_sha256) VALUES (?, ?, ?)",
                             (match_id, seat, digest))

    def set_rematch(self, change: RematchChange) -> None:
        """Store where a finished match's rematch stands now; `StoreConflict` unless it stood at ``change.before``."""
        with self._transaction():
            self._set_rematch(change)

    def _set_rematch(self, change: RematchChange) -> None:
        cursor = self._db.execute(
            "UPDATE matches SET rematch=?, updated_at=? WHERE id=? AND rematch IS ?",
            (change.after, time.time(), change.match_id, change.before),
        )
        if cursor.rowcount != 1:
            raise StoreConflict(f"the rematch of match {change.match_id} has changed")

    def match_ids(self) -> list[str]:
        """Every match id, oldest first (for `taktik db copy`)."""
        return [r[0] for r in self._db.execute("SELECT id FROM matches ORDER BY created_at, id")]

    def _insert_actions(self, match_id: str, actions: Sequence[ActionRow]) -> None:
        now = time.time()
        self._db.executemany(
            "INSERT INTO actions (match_id, ply, seat, client_seq, action, state_hash, created_at, elapsed_ms) "
            "VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
            [(match_id, a.ply, a.seat, a.client_seq, a.action, a.state_hash, now, a.elapsed_ms) for a in actions],
        )

    def _transaction(self) -> _Transaction:
        return _Transaction(self._db)


class Checkpointer:
    """Runs ``PRAGMA wal_checkpoint(PASSIVE)`` on its own connection, beside a writing `Store`.

    A passive checkpoint never blocks the writer: it copies what is committed and leaves
    the rest for next time.
    """

    def __init__(self, path: Path) -> None:
        self._db = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
        self._db.execute("PRAGMA synchronous=FULL")
        self._db.execute("PRAGMA busy_timeout=5000")

    def run(self) -> None:
        self._db.execute("PRAGMA wal_checkpoint(PASSIVE)").fetchall()

    def close(self) -> None:
        self._db.close()


class _Transaction:
    """``BEGIN IMMEDIATE`` ... ``COMMIT`` (or ``ROLLBACK`` on any exception)."""

    def __init__(self, db: sqlite3.Connection) -> None:
        self._db = db

    def __enter__(self) -> None:
        self._db.execute("BEGIN IMMEDIATE")

    def __exit__(self, kind: type[BaseException] | None, error: BaseException | None, tb: object) -> None:
        if kind is None:
            self._db.execute("COMMIT")
        else:
            self._db.execute("ROLLBACK")


def _migrate_from_1(db: sqlite3.Connection) -> None:
    """Schema 1 kept ``rules_version`` as an INTEGER column, where a text like "1.25" would turn
    into a number: rebuild the table with a TEXT column (SQLite's way of changing a column's
    type), the old integer 1 becoming "1". All or nothing."""
    db.execute("PRAGMA foreign_keys=OFF")  # seats and actions point at the table being swapped
    try:
        with _Transaction(db):
            db.execute(_MATCHES.format(name="matches_v2"))
            columns = _V2_COLUMNS.replace("rules_version", "CAST(rules_version AS TEXT)")
            db.execute(f"INSERT INTO matches_v2 ({_V2_COLUMNS}) SELECT {columns} FROM matches")
            db.execute("DROP TABLE matches")
            db.execute("ALTER TABLE matches_v2 RENAME TO matches")
            db.execute("PRAGMA user_version=2")
    finally:
        db.execute("PRAGMA foreign_keys=ON")


def _migrate_from_2(db: sqlite3.Connection) -> None:
    """Schema 3 adds three nullable columns: every old action is untimed, every old match has no
    clock and no open seat. All or nothing."""
    with _Transaction(db):
        for table, column, kind in (("matches", "clock", "TEXT"), ("matches", "open_seat", "TEXT"),
                                    ("actions", "elapsed_ms", "INTEGER")):
            # a table rebuilt from schema 1 already has the matches columns
            if column not in {info[1] for info in db.execute(f"PRAGMA table_info({table})")}:
                db.execute(f"ALTER TABLE {table} ADD COLUMN {column} {kind}")
        db.execute("PRAGMA user_version=3")


def _migrate_from_3(db: sqlite3.Connection) -> None:
    """Schema 4 adds ``matches.rematch``: no old match has a rematch offer (they lived in memory). All or nothing."""
    with _Transaction(db):
        if "rematch" not in {info[1] for info in db.execute("PRAGMA table_info(matches)")}:  # rebuilt from 1: has it
            db.execute("ALTER TABLE matches ADD COLUMN rematch TEXT")
        db.execute("PRAGMA user_version=4")


def _match_row(r: Sequence[Any]) -> MatchRow:
    return MatchRow(
        id=r[0], created_at=r[1], updated_at=r[2], rules_version=canonical_rules_version(r[3]), config=r[4], salt=r[5],
        seed_commitment=r[6], mode=r[7], bot_side=r[8], bot_policy=r[9], bot_seed=r[10], parent_id=r[11],
        parent_step=r[12],
        progress=Progress(status=r[13], version=r[14], turn=r[15], phase=r[16], to_act=r[17], winner=r[18],
                          victory_reason=r[19]),
        broken_reason=r[20], clock=r[21], open_seat=r[22], rematch=r[23],
    )
