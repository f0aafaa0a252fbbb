"""`taktik db copy`: a SQLite data directory into a real PostgreSQL and back, verified by replay."""

from __future__ import annotations

import asyncio
import sqlite3
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from cli.main import main
from engine import GameConfig, RoundLimit, Side, VictoryConfig, legal_actions
from server.bots import BotRoster
from server.creation import Creator, NewMatch
from server.database import Database
from server.matches import MatchService
from server.protocol import Act
from server.settings import Limits
from tests.server.cluster import Postgres, require_cluster

QUICK = GameConfig(seed=3, victory=VictoryConfig(round_limit=RoundLimit(max_rounds=2)))


def first(view: Any, legal: Any, seed: int) -> tuple[Any, int]:
    return legal[0], seed


@pytest.fixture(scope="module")
def postgres() -> Iterator[Postgres]:
    require_cluster()
    pg = Postgres()
    pg.start()
    yield pg
    pg.destroy()


def played_data_dir(path: Path) -> Path:
    """A data directory with three matches: one over, one half played, one against a bot."""

    async def play() -> None:
        db = Database.open(path)
        matches = MatchService(db, Limits(bot_delay=0.0), BotRoster(policies={"first": first}))
        creator = Creator(matches)
        try:
            for steps in (10_000, 12):
                match = (await creator.create(NewMatch(config=QUICK))).match
                for seq in range(1, steps):
                    seat = match.state.to_act
                    if seat is None:
                        break
                    await matches.submit(match, seat, Act(version=match.version, seq=seq,
                                                          action=legal_actions(match.state)[0]))
            bot = (await creator.create(NewMatch(config=QUICK, mode="bot", bot_side=Side.DEFENDER,
                                                 bot_policy="first"))).match
            await matches.submit(bot, Side.ATTACKER, Act(version=0, seq=1, action=legal_actions(bot.state)[0]))
        finally:
            await matches.close()
            db.close()

    asyncio.run(play())
    return path


def everything(path: Path) -> list[Any]:
    async def read() -> list[Any]:
        db = Database.open(path)
        try:
            return [await db.load(i) for i in await db.match_ids()]
        finally:
            db.close()

    return asyncio.run(read())


def test_a_data_dir_goes_to_postgresql_and_back_unchanged(tmp_path: Path, postgres: Postgres,
                                                           capsys: pytest.CaptureFixture[str]) -> None:
    source = played_data_dir(tmp_path / "data")
    url = postgres.new_database()
    assert main(["db", "copy", "--from", str(source), "--to", url]) == 0
    said = capsys.readouterr().out
    assert "copied 3 matches" in said and "3 replayed with every hash equal" in said
    assert main(["db", "copy", "--from", url, "--to", str(tmp_path / "back")]) == 0
    assert everything(tmp_path / "back") == everything(source)
    assert main(["db", "copy", "--from", str(source), "--to", url]) == 0  # again: nothing new
    assert "copied 0 matches" in capsys.readouterr().out.splitlines()[-1]


def test_a_log_that_does_not_replay_stops_the_copy_naming_the_match(tmp_path: Path, postgres: Postgres,
                                                                     capsys: pytest.CaptureFixture[str]) -> None:
    source = played_data_dir(tmp_path / "data")
    with sqlite3.connect(source / "taktik.sqlite3") as db:
        match_id = db.execute("SELECT match_id FROM actions WHERE ply = 5 LIMIT 1").fetchone()[0]
        db.execute("UPDATE actions SET state_hash = 'f00d' WHERE match_id = ? AND ply = 5", (match_id,))
    db.close()
    assert main(["db", "copy", "--from", str(source), "--to", postgres.new_database()]) == 1
    assert f"match {match_id} does not replay on the target: step 5" in capsys.readouterr().err


def test_bad_places_are_refused_saying_why(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["db", "copy", "--from", str(tmp_path / "none"), "--to", str(tmp_path / "x")]) == 2
    assert "holds no taktik database" in capsys.readouterr().err
    assert main(["db", "copy", "--from", str(tmp_path), "--to", str(tmp_path)]) == 2
    assert "the same database" in capsys.readouterr().err
