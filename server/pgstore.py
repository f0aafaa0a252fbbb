"""PostgreSQL persistence (``taktik serve --database postgresql://...``): the `Storage` contract, shared.

Several server processes use one database. The action log's ``UNIQUE (match_id, ply)`` and
an append that is one statement (``UPDATE matches ... WHERE version = ply`` feeding the
``INSERT`` of the action) are the single point of order of a match: of two processes
appending the same ply, the second finds the version moved on and gets `StoreConflict`,
having written nothing. A lost, refused or timed-out connection is `StoreUnavailable`.

The schema is versioned in ``taktik_schema``; a server migrates it at startup, under an
advisory lock so workers starting together do it once. The action columns are read from
`ActionRow`'s fields, so a new field is one migration (``ALTER TABLE actions ADD COLUMN``).

The driver is asyncpg: asyncio-native, with its own connection pool, and it speaks the
binary protocol with prepared statements, so an append is one round trip.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable, Callable, Mapping, Sequence
from dataclasses import fields
from typing import Any, TypeVar, cast

import asyncpg

from engine import canonical_rules_version

from .pgbatch import AppendBatcher, Batched, Reserved
from .store import ActionRow, MatchRow, Progress, RematchChange, StoreConflict, StoreUnavailable

__all__ = ["SCHEMA_VERSION", "PgDatabase", "PgSettings"]

T = TypeVar("T")

MIGRATIONS: tuple[str, ...] = (
    """
    CREATE TABLE matches (
        id TEXT PRIMARY KEY,
        created_at DOUBLE PRECISION NOT NULL,
        updated_at DOUBLE PRECISION NOT NULL,
        rules_version TEXT NOT NULL,
        config TEXT NOT NULL,
        salt TEXT NOT NULL,
        seed_commitment TEXT NOT NULL,
        mode TEXT NOT NULL,
        bot_side TEXT,
        bot_policy TEXT,
        bot_seed BIGINT,
        parent_id TEXT,
        parent_step INTEGER,
        status TEXT NOT NULL,
        version INTEGER NOT NULL,
        turn INTEGER NOT NULL,
        phase TEXT NOT NULL,
        to_act TEXT,
        winner TEXT,
        victory_reason TEXT,
        broken_reason TEXT
    );
    CREATE INDEX matches_by_created ON matches (created_at);
    CREATE TABLE seats (
        match_id TEXT NOT NULL REFERENCES matches (id),
        seat TEXT NOT NULL,
        token_sha256 BYTEA NOT NULL,
        PRIMARY KEY (match_id, seat)
    );
    CREATE TABLE actions (
        match_id TEXT NOT NULL REFERENCES matches (id),
        ply INTEGER NOT NULL,
        seat TEXT NOT NULL,
        client_seq INTEGER,
        action TEXT NOT NULL,
        state_hash TEXT NOT NULL,
        created_at DOUBLE PRECISION NOT NULL,
        UNIQUE (match_id, ply),
        UNIQUE (match_id, seat, client_seq)
    );
    CREATE TABLE bot_leases (
        match_id TEXT PRIMARY KEY REFERENCES matches (id),
        holder TEXT NOT NULL,
        expires_at TIMESTAMPTZ NOT NULL
    );
    """,
    """
    ALTER TABLE actions ADD COLUMN elapsed_ms INTEGER;
    ALTER TABLE matches ADD COLUMN clock TEXT;
    ALTER TABLE matches ADD COLUMN open_seat TEXT;
    """,
    """
    ALTER TABLE matches ADD COLUMN rematch TEXT;
    """,
)
"""Migration ``n`` takes the schema from version ``n`` to ``n + 1``; never edit one that shipped."""

SCHEMA_VERSION = len(MIGRATIONS)

_MATCH_COLUMNS = (
    "id, created_at, updated_at, rules_version, config, salt, seed_commitment, mode, bot_side, bot_policy, "
    "bot_seed, parent_id, parent_step, status, version, turn, phase, to_act, winner, victory_reason, broken_reason, "
    "clock, open_seat, rematch"
)
_ACTION_FIELDS = tuple(f.name for f in fields(ActionRow))
_ACTION_COLUMNS = ", ".join(_ACTION_FIELDS)
_N = len(_ACTION_FIELDS)

def _values(row: ActionRow) -> tuple[Any, ...]:
    """The columns of ``row`` in field order (``dataclasses.astuple`` deep-copies each value: a
    visible part of an append's CPU)."""
    return row.ply, row.seat, row.client_seq, row.action, row.state_hash, row.elapsed_ms


assert [f.name for f in fields(ActionRow)] == ["ply", "seat", "client_seq", "action", "state_hash", "elapsed_ms"], \
    "pgstore: ActionRow fields changed (see _values)"

_APPEND = f"""
WITH moved AS (
    UPDATE matches SET status=$1, version=$2, turn=$3, phase=$4, to_act=$5, winner=$6, victory_reason=$7,
                       updated_at=$8
    WHERE id=$9 AND version=$10 AND status='live'
    RETURNING id
)
INSERT INTO actions (match_id, created_at, {_ACTION_COLUMNS})
SELECT moved.id, $8, {", ".join(f"${i + 11}" for i in range(_N))} FROM moved
"""

_LOAD_MANY = f"""
SELECT {_MATCH_COLUMNS},
       ARRAY(SELECT seat FROM seats WHERE match_id = m.id ORDER BY seat),
       ARRAY(SELECT token_sha256 FROM seats WHERE match_id = m.id ORDER BY seat),
       ARRAY(SELECT ROW({_ACTION_COLUMNS}) FROM actions WHERE match_id = m.id ORDER BY ply)
FROM matches m WHERE id = ANY($1::text[])
"""

_HOLD_BOT_SEAT = """
INSERT INTO bot_leases (match_id, holder, expires_at) VALUES ($1, $2, now() + $3 * interval '1 second')
ON CONFLICT (match_id) DO UPDATE SET holder = EXCLUDED.holder, expires_at = EXCLUDED.expires_at
WHERE bot_leases.holder = EXCLUDED.holder OR bot_leases.expires_at < now()
RETURNING holder
"""

_UNREACHABLE: tuple[type[BaseException], ...] = (
    OSError,  # refused, reset
    TimeoutError,  # connect, acquire or command timeout
    asyncpg.InterfaceError,  # the connection closed under us
    asyncpg.PostgresConnectionError,
    asyncpg.exceptions.OperatorInterventionError,  # admin shutdown, cannot connect now
    asyncpg.exceptions.InternalClientError,  # used while its server's shutdown notice is being read
)


class PgSettings:
    """The settings that matter for the pool (docs/deploy.md).

    ``min_size`` is 0: with a minimum, asyncpg reconnects in the background while the
    server is down and logs a traceback a second; without one, the next statement connects.
    """

    def __init__(self, *, min_size: int = 0, max_size: int = 10, command_timeout: float = 5.0,
                 connect_timeout: float = 5.0) -> None:
        self.min_size = min_size
        self.max_size = max_size
        self.command_timeout = command_timeout
        self.connect_timeout = connect_timeout


class PgDatabase:
    """The `Storage` of a PostgreSQL database, through a pool of connections."""

    def __init__(self, pool: Any, url: str, settings: PgSettings) -> None:
        self._pool = pool
        # The appends have connections of their own: they never wait behind loads and reads
        # (a thousand clients reconnecting at once load as many matches).
        self._writer = Reserved(lambda: asyncpg.connect(url, timeout=settings.connect_timeout,
                                                        command_timeout=settings.command_timeout))
        self.url = url
        self.settings = settings
        self.appends = AppendBatcher(self._write, self._append_one)  # group commit (server/pgbatch.py)
        self._loads = Batched(self._load_many)

    @classmethod
    async def connect(cls, url: str, settings: PgSettings | None = None) -> PgDatabase:
        """Open a pool on ``url`` and bring the schema to `SCHEMA_VERSION`.

        Raises `StoreUnavailable` if the server cannot be reached, and RuntimeError if its
        schema is newer than this server knows.
        """
        chosen = settings or PgSettings()
        try:
            pool = await _pool(url, chosen, chosen.max_size)
        except _UNREACHABLE as err:
            raise StoreUnavailable(f"cannot reach PostgreSQL at {_safe(url)}: {err}") from None
        database = cls(pool, url, chosen)
        try:
            await database._run(_migrate)  # the first connection (the pool keeps no minimum)
        except StoreUnavailable as err:
            database.close()
            raise StoreUnavailable(f"cannot reach PostgreSQL at {_safe(url)}: {err}") from None
        except BaseException:
            database.close()
            raise
        return database

    async def _run(self, work: Callable[[Any], Awaitable[T]]) -> T:
        return await self._on(self._pool, work)

    async def _write(self, work: Callable[[Any], Awaitable[T]]) -> T:
        """``work`` on a connection reserved for appends (`Reserved`)."""
        try:
            async with asyncio.timeout(self.settings.connect_timeout):
                conn = await self._writer.acquire()
            try:
                result = await work(conn)
            except BaseException as failure:
                await self._writer.release(conn, failure)
                raise
            await self._writer.release(conn)
            return result
        except _UNREACHABLE as err:
            raise StoreUnavailable(f"PostgreSQL cannot be reached: {type(err).__name__}: {err}") from None

    async def _on(self, pool: Any, work: Callable[[Any], Awaitable[T]]) -> T:
        try:
            # The deadline is ours, not asyncpg's: given a timeout, asyncpg waits for a connection
            # in a task of its own (`wait_for`), one more task and timer for every statement.
            async with asyncio.timeout(self.settings.connect_timeout):
                conn = await pool.acquire()
            try:
                return await work(conn)
            finally:
                await pool.release(conn)
        except _UNREACHABLE as err:
            raise StoreUnavailable(f"PostgreSQL cannot be reached: {type(err).__name__}: {err}") from None

    def close(self) -> None:
        """Close every connection now (call once the work in flight has finished)."""
        self._pool.terminate()
        self._writer.terminate()

    async def aclose(self) -> None:
        """Close the pools, waiting for connections in use to be released."""
        await asyncio.wait_for(self._pool.close(), 10)
        await asyncio.wait_for(self._writer.close(), 10)

    # -- the Storage contract --------------------------------------------------------

    async def create_match(self, row: MatchRow, seats: Mapping[str, bytes], prefix: Sequence[ActionRow] = (),
                           rematch: RematchChange | None = None) -> None:
        """Insert a match, its seat token hashes and (for a fork) its first actions, atomically.

        A rematch is created together with its finished match's ``rematch`` change (`set_rematch`):
        both or neither, `StoreConflict` when the change is refused.
        """
        p = row.progress

        async def work(conn: Any) -> None:
            async with conn.transaction():
                if rematch is not None:
                    await _set_rematch(conn, rematch)
                await conn.execute(
                    f"INSERT INTO matches ({_MATCH_COLUMNS}) VALUES ({', '.join(f'${i}' for i in range(1, 25))})",
                    row.id, row.created_at, row.updated_at, row.rules_version, row.config, row.salt,
                    row.seed_commitment, row.mode, row.bot_side, row.bot_policy, row.bot_seed, row.parent_id,
                    row.parent_step, p.status, p.version, p.turn, p.phase, p.to_act, p.winner, p.victory_reason,
                    row.broken_reason, row.clock, row.open_seat, row.rematch,
                )
                await conn.executemany("INSERT INTO seats (match_id, seat, token_sha256) VALUES ($1, $2, $3)",
                                       [(row.id, seat, digest) for seat, digest in sorted(seats.items())])
                if prefix:
                    now = time.time()
                    await conn.executemany(
                        f"INSERT INTO actions (match_id, created_at, {_ACTION_COLUMNS}) "
                        f"VALUES ($1, $2, {', '.join(f'${i + 3}' for i in range(_N))})",
                        [(row.id, now, *_values(a)) for a in prefix],
                    )

        await self._run(work)

    async def append(self, match_id: str, action: ActionRow, progress: Progress) -> None:
        """Append one action and the match's new progress; durable when this returns.

        Raises `StoreConflict` (nothing written) unless the stored version is ``action.ply``:
        that is how the loser of a race between two processes learns it lost. The appends
        waiting in this process are committed together (`AppendBatcher`).
        """
        await self.appends.append(match_id, action, progress)

    async def _append_one(self, match_id: str, action: ActionRow, progress: Progress) -> None:
        """`append` in a statement of its own."""
        p = progress

        async def work(conn: Any) -> str:
            try:
                return cast(str, await conn.execute(
                    _APPEND, p.status, p.version, p.turn, p.phase, p.to_act, p.winner, p.victory_reason, time.time(),
                    match_id, action.ply, *_values(action),
                ))
            except asyncpg.UniqueViolationError as err:  # a client seq used twice: as SQLite's IntegrityError
                raise StoreConflict(f"match {match_id}: {err}") from None

        if await self._write(work) != "INSERT 0 1":
            raise StoreConflict(f"match {match_id} is not live at version {action.ply}")

    async def mark_broken(self, match_id: str, reason: str) -> None:
        await self._run(lambda conn: conn.execute(
            "UPDATE matches SET status='broken', broken_reason=$1, updated_at=$2 WHERE id=$3",
            reason, time.time(), match_id))

    async def match_row(self, match_id: str) -> MatchRow | None:
        found = await self._run(lambda conn: conn.fetchrow(f"SELECT {_MATCH_COLUMNS} FROM matches WHERE id=$1",
                                                           match_id))
        return None if found is None else _match_row(found)

    async def load(self, match_id: str) -> tuple[MatchRow, dict[str, bytes], list[ActionRow]] | None:
        """A match, its seat token hashes and its whole log (in ply order), read in one snapshot.

        The loads asked for while one is in flight are read together by the next statement: a
        reconnect storm loads a match per socket, and every round trip holds a pooled
        connection while the event loop is busy (with one statement per load, joins timed out
        waiting for a connection).
        """
        return await self._loads.get(match_id)

    async def _load_many(self, match_ids: list[str]) -> dict[str, tuple[MatchRow, dict[str, bytes], list[ActionRow]]]:
        rows = await self._run(lambda conn: conn.fetch(_LOAD_MANY, match_ids))
        n = len(_MATCH_COLUMNS.split(","))
        return {r[0]: (_match_row(r), dict(zip(r[n], (bytes(d) for d in r[n + 1]), strict=True)),
                       [ActionRow(*a) for a in r[n + 2]]) for r in rows}

    async def action_at(self, match_id: str, ply: int) -> ActionRow | None:
        found = await self._run(lambda conn: conn.fetchrow(
            f"SELECT {_ACTION_COLUMNS} FROM actions WHERE match_id=$1 AND ply=$2", match_id, ply))
        return None if found is None else ActionRow(*found)

    async def recent(self, limit: int) -> list[MatchRow]:
        rows = await self._run(lambda conn: conn.fetch(
            f"SELECT {_MATCH_COLUMNS} FROM matches ORDER BY created_at DESC, id LIMIT $1", limit))
        return [_match_row(r) for r in rows]

    async def match_ids(self) -> list[str]:
        """Every match id, oldest first (for `taktik db copy`)."""
        rows = await self._run(lambda conn: conn.fetch("SELECT id FROM matches ORDER BY created_at, id"))
        return [r[0] for r in rows]

    async def open_challenges(self, limit: int) -> list[MatchRow]:
        """Live matches with a seat nobody has joined yet, newest first."""
        rows = await self._run(lambda conn: conn.fetch(
            f"SELECT {_MATCH_COLUMNS} FROM matches WHERE open_seat IS NOT NULL AND status='live' "
            "ORDER BY created_at DESC, id LIMIT $1", limit))
        return [_match_row(r) for r in rows]

    async def timed_live(self) -> list[str]:
        """The ids of live matches with a clock and both seats taken (their clocks run)."""
        rows = await self._run(lambda conn: conn.fetch(
            "SELECT id FROM matches WHERE status='live' AND clock IS NOT NULL AND open_seat IS NULL ORDER BY id"))
        return [r[0] for r in rows]

    async def join_seat(self, match_id: str, seat: str, digest: bytes) -> None:
        """Give the free seat of an open challenge its token hash; `StoreConflict` if it is not free."""

        async def work(conn: Any) -> None:
            async with conn.transaction():
                taken = await conn.execute(
                    "UPDATE matches SET open_seat=NULL, updated_at=$1 WHERE id=$2 AND open_seat=$3 AND status='live'",
                    time.time(), match_id, seat)
                if taken != "UPDATE 1":
                    raise StoreConflict(f"match {match_id} has no free {seat} seat")
                await conn.execute("INSERT INTO seats (match_id, seat, token_sha256) VALUES ($1, $2, $3)",
                                   match_id, seat, digest)

        await self._run(work)

    async def set_rematch(self, change: RematchChange) -> None:
        """Store where a finished match's rematch stands now; `StoreConflict` unless it stood at ``change.before``."""
        await self._run(lambda conn: _set_rematch(conn, change))

    # -- what replication needs ------------------------------------------------------

    async def actions_from(self, match_id: str, ply: int) -> list[ActionRow]:
        """The logged actions of a match from ``ply`` on, in order (to catch up a copy in memory)."""
        rows = await self._run(lambda conn: conn.fetch(
            f"SELECT {_ACTION_COLUMNS} FROM actions WHERE match_id=$1 AND ply >= $2 ORDER BY ply", match_id, ply))
        return [ActionRow(*r) for r in rows]

    async def versions(self, match_ids: Sequence[str]) -> dict[str, int]:
        """The stored version of each of ``match_ids`` (one query, whatever their number)."""
        rows = await self._run(lambda conn: conn.fetch(
            "SELECT id, version FROM matches WHERE id = ANY($1::text[])", list(match_ids)))
        return {r[0]: r[1] for r in rows}

    async def hold_bot_seat(self, match_id: str, holder: str, seconds: float) -> bool:
        """Take or renew the lease on a match's bot seat for ``seconds``; False if another holder has it.

        Expiry is judged by the database's clock, the one clock every process shares.
        """
        found = await self._run(lambda conn: conn.fetchrow(_HOLD_BOT_SEAT, match_id, holder, seconds))
        return found is not None

    async def release_bot_seat(self, match_id: str, holder: str) -> None:
        await self._run(lambda conn: conn.execute(
            "DELETE FROM bot_leases WHERE match_id=$1 AND holder=$2", match_id, holder))


async def _set_rematch(conn: Any, change: RematchChange) -> None:
    done = await conn.execute(
        "UPDATE matches SET rematch=$1, updated_at=$2 WHERE id=$3 AND rematch IS NOT DISTINCT FROM $4",
        change.after, time.time(), change.match_id, change.before)
    if done != "UPDATE 1":
        raise StoreConflict(f"the rematch of match {change.match_id} has changed")


async def _pool(url: str, settings: PgSettings, size: int) -> Any:
    return await asyncpg.create_pool(url, min_size=min(settings.min_size, size), max_size=size,
                                     command_timeout=settings.command_timeout, timeout=settings.connect_timeout,
                                     reset=_keep_session)


async def _keep_session(conn: Any) -> None:
    """Return a connection to the pool as it is. The default reset (``RESET ALL``, ``UNLISTEN *``,
    ...) is a second round trip after every statement, during which the event loop runs other
    work; nothing here leaves session state behind (locks are transaction-scoped)."""


async def _migrate(conn: Any) -> None:
    async with conn.transaction():
        await conn.execute("SELECT pg_advisory_xact_lock(7413800001)")  # one migrating process at a time
        await conn.execute("CREATE TABLE IF NOT EXISTS taktik_schema (version INTEGER NOT NULL)")
        stored = await conn.fetchval("SELECT max(version) FROM taktik_schema") or 0
        if stored > SCHEMA_VERSION:
            raise RuntimeError(f"the database has taktik schema {stored}; this server knows {SCHEMA_VERSION}")
        for migration in MIGRATIONS[stored:]:
            await conn.execute(migration)
        if stored < SCHEMA_VERSION:
            await conn.execute("DELETE FROM taktik_schema")
            await conn.execute("INSERT INTO taktik_schema (version) VALUES ($1)", SCHEMA_VERSION)


def _safe(url: str) -> str:
    """``url`` without its password, for messages."""
    scheme, sep, rest = url.partition("://")
    if "@" not in rest:
        return url
    credentials, _, host = rest.rpartition("@")
    return f"{scheme}{sep}{credentials.split(':')[0]}@{host}"


def _match_row(r: Sequence[Any]) -> MatchRow:
    return MatchRow(
        id=r[0], created_at=r[1], updated_at=r[2], rules_version=canonical_rules_version(r[3]), config=r[4], salt=r[5],
        seed_commitment=r[6], mode=r[7], bot_side=r[8], bot_policy=r[9], bot_seed=r[10], parent_id=r[11],
        parent_step=r[12],
        progress=Progress(status=r[13], version=r[14], turn=r[15], phase=r[16], to_act=r[17], winner=r[18],
                          victory_reason=r[19]),
        broken_reason=r[20], clock=r[21], open_seat=r[22], rematch=r[23],
    )
