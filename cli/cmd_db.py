"""`taktik db copy`: move every match between a SQLite data directory and PostgreSQL, checked by replay.

    taktik db copy --from ~/.local/share/taktik --to postgresql://taktik@127.0.0.1/taktik
    taktik db copy --from postgresql://taktik@127.0.0.1/taktik --to ./backup

Each match is copied whole (row, seat token hashes, log) in one transaction of the target,
read back, and its log replayed on the target checking every stored state hash, the way a
server loads it. Stop the servers first: a SQLite directory is locked by its server, and a
match still being played would be copied as it was at that moment. A match the target
already holds is skipped if identical and refused otherwise, so a copy can be run again.
"""

from __future__ import annotations

import argparse
import asyncio
from dataclasses import dataclass
from pathlib import Path

from engine import RULES_VERSION
from server.database import Database, Storage
from server.matches import MatchUnavailable, rebuild
from server.store import DataDirLocked, StoreUnavailable

from .errors import CommandError

URL_SCHEMES = ("postgresql://", "postgres://")


def add_parser(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = commands.add_parser("db", help="manage the match database (copy between SQLite and PostgreSQL)")
    actions = parser.add_subparsers(dest="db_command", metavar="ACTION", required=True)
    copy = actions.add_parser("copy", help="copy every match from one database to another, verified by replay")
    copy.add_argument("--from", dest="source", required=True, metavar="DIR_OR_URL",
                      help="a SQLite data directory (taktik serve --data) or a postgresql:// URL")
    copy.add_argument("--to", dest="target", required=True, metavar="DIR_OR_URL",
                      help="where to copy: a postgresql:// URL or a SQLite data directory")
    copy.set_defaults(handler=run)


@dataclass
class Tally:
    copied: int = 0
    actions: int = 0
    replayed: int = 0  # copies whose log replayed on the target with every hash equal
    as_stored: int = 0  # broken or other-rules matches: copied and compared, not replayed
    skipped: int = 0  # already in the target, identical


def run(args: argparse.Namespace) -> int:
    if args.source == args.target:
        raise CommandError("--from and --to are the same database")
    tally = asyncio.run(_copy(args.source, args.target))
    print(f"copied {tally.copied} matches ({tally.actions} actions) from {_shown(args.source)} to "
          f"{_shown(args.target)}: {tally.replayed} replayed with every hash equal, {tally.as_stored} read-only "
          f"(broken or other rules) compared as stored, {tally.skipped} already there")
    return 0


async def _open(where: str) -> Storage:
    if where.startswith(URL_SCHEMES):
        try:
            from server.pgstore import PgDatabase
        except ImportError:
            raise CommandError("a postgresql:// database needs the cluster drivers",
                               hint="pip install 'taktik[cluster]'") from None
        try:
            return await PgDatabase.connect(where)
        except (StoreUnavailable, RuntimeError) as err:
            raise CommandError(str(err), code=1) from None
    if "://" in where:
        raise CommandError(f"{where!r} is neither a data directory nor a postgresql:// URL")
    path = Path(where)
    if path.exists() and not path.is_dir():
        raise CommandError(f"{where} is a file, not a data directory")
    try:
        return Database.open(path)
    except DataDirLocked as err:
        raise CommandError(str(err), hint="stop the server that uses it first", code=1) from None


async def _copy(source_at: str, target_at: str) -> Tally:
    if not source_at.startswith(URL_SCHEMES) and not (Path(source_at) / "taktik.sqlite3").is_file():
        raise CommandError(f"{source_at} holds no taktik database (no taktik.sqlite3)")
    source = await _open(source_at)
    try:
        target = await _open(target_at)
        try:
            tally = Tally()
            for match_id in await source.match_ids():
                await _copy_one(source, target, match_id, tally)
            return tally
        finally:
            target.close()
    finally:
        source.close()


async def _copy_one(source: Storage, target: Storage, match_id: str, tally: Tally) -> None:
    found = await source.load(match_id)
    if found is None:  # deleted meanwhile
        return
    there = await target.load(match_id)
    if there is not None:
        if there != found:
            raise CommandError(f"match {match_id} is already in the target, with other contents; nothing of it "
                               "was copied", code=1)
        tally.skipped += 1
        return
    row, seats, rows = found
    await target.create_match(row, seats, rows)
    copied = await target.load(match_id)
    if copied != found:
        raise CommandError(f"match {match_id} reads back differently from the target", code=1)
    tally.copied += 1
    tally.actions += len(rows)
    if row.rules_version != RULES_VERSION or row.progress.status == "broken":
        tally.as_stored += 1
        return
    try:
        match = await asyncio.to_thread(rebuild, row, seats, rows)
    except MatchUnavailable as err:
        raise CommandError(f"match {match_id} does not replay on the target: {err}", code=1) from None
    if match.status == "broken" or match.hashes != [r.state_hash for r in rows]:
        raise CommandError(f"match {match_id} does not replay on the target: {match.read_only_reason}", code=1)
    tally.replayed += 1


def _shown(where: str) -> str:
    scheme, sep, rest = where.partition("://")
    if not sep or "@" not in rest:
        return where
    credentials, _, host = rest.rpartition("@")
    return f"{scheme}{sep}{credentials.split(':')[0]}@{host}"
