"""The match service without any socket: ordering, durability, fan-out, failures, bots, reloads."""

from __future__ import annotations

import random
import sqlite3
import time
from collections.abc import AsyncIterator, Sequence
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import msgspec
import pytest

import server.matches
from engine import (
    RULES_VERSION,
    DrawCard,
    GameConfig,
    GameState,
    MoveUnit,
    PlayBonus,
    RollDice,
    RoundLimit,
    Side,
    VictoryConfig,
    legal_actions,
    player_view,
    state_hash,
)
from server.bots import BotRoster
from server.creation import Creator, NewMatch
from server.database import Database
from server.match import Match
from server.matches import MatchService, MatchUnavailable
from server.outbox import Outbox
from server.protocol import Ack, Act, Reject
from server.settings import Limits
from server.store import ActionRow, Progress

from .conftest import arun

QUICK = GameConfig(seed=11, victory=VictoryConfig(round_limit=RoundLimit(max_rounds=2)))


@dataclass(eq=False)
class Watcher:
    """A viewer whose outbox nobody drains: we read what was queued."""

    seat: Side | None
    outbox: Outbox = field(init=False)

    def __post_init__(self) -> None:
        self.outbox = Outbox(1000, lambda: "snapshot")

    def queued(self) -> list[dict[str, Any]]:
        return [msgspec.json.decode(t) for t in self.outbox._queue]

    def states(self) -> list[dict[str, Any]]:
        return [m for m in self.queued() if m["type"] == "state"]


class Journal(Database):
    """A database that notes when each append is committed, and can be made to fail."""

    def __init__(self, inner: Database, events: list[str]) -> None:
        self.__dict__.update(inner.__dict__)
        self.events = events
        self.fail_before = False
        self.fail_after = False

    async def append(self, match_id: str, action: ActionRow, progress: Progress) -> None:
        if self.fail_before:
            raise OSError("disk full")
        await super().append(match_id, action, progress)
        self.events.append(f"committed {action.ply}")
        if self.fail_after:
            raise OSError("lost the answer after the commit")


def first_legal(view: GameState, legal: Sequence[Any], seed: int) -> tuple[Any, int]:
    return legal[0], seed + 1


def broken(view: GameState, legal: Sequence[Any], seed: int) -> tuple[Any, int]:
    raise RuntimeError("this bot always fails")


BOTS = BotRoster(policies={"first": first_legal, "broken": broken}, fallback="first")
"""The bots these tests seat: the server plays whatever policies its host hands it."""


@asynccontextmanager
async def service(tmp_path: Path, **limits: Any) -> AsyncIterator[tuple[MatchService, Creator, Journal]]:
    events: list[str] = []
    db = Journal(Database.open(tmp_path / "data"), events)
    matches = MatchService(db, Limits(**{"bot_delay": 0.0, **limits}), BOTS)
    try:
        yield matches, Creator(matches), db
    finally:
        await matches.close()
        db.close()


def act(match: Match, seq: int, action: Any = None) -> Act:
    chosen = action if action is not None else legal_actions(match.state)[0]
    return Act(version=match.version, seq=seq, action=chosen)


def logged(tmp_path: Path) -> list[tuple[Any, ...]]:
    with sqlite3.connect(tmp_path / "data" / "taktik.sqlite3") as db:
        rows = db.execute("SELECT ply, seat, client_seq, action, state_hash FROM actions ORDER BY ply").fetchall()
    db.close()
    return rows


def test_an_accepted_action_is_committed_before_any_viewer_hears_of_it(tmp_path: Path) -> None:
    async def run() -> None:
        async with service(tmp_path) as (matches, creator, db):
            match = (await creator.create(NewMatch(config=QUICK))).match
            watcher = Watcher(Side.DEFENDER)
            assert matches.join(match, watcher) is None
            original = watcher.outbox.put_state

            def noting(text: str) -> None:
                db.events.append(f"told v{msgspec.json.decode(text)['version']}")
                original(text)

            watcher.outbox.put_state = noting  # type: ignore[method-assign]
            outcome = await matches.submit(match, Side.ATTACKER, act(match, 1, DrawCard()))
            assert outcome == Ack(seq=1, version=1)
            assert db.events == ["committed 0", "told v1"]
            ply, seat, seq, action, digest = logged(tmp_path)[0]
            assert (ply, seat, seq, action) == (0, "ATTACKER", 1, '{"type":"DRAW_CARD"}')
            assert digest == state_hash(match.state)

    arun(run())


def test_each_viewer_kind_gets_its_own_view_and_only_the_seat_to_act_gets_actions(tmp_path: Path) -> None:
    async def run() -> None:
        async with service(tmp_path) as (matches, creator, _):
            match = (await creator.create(NewMatch(config=QUICK))).match
            watchers = {seat: Watcher(seat) for seat in (Side.ATTACKER, Side.DEFENDER, None)}
            for watcher in watchers.values():
                matches.join(match, watcher)
            await matches.submit(match, Side.ATTACKER, act(match, 1, DrawCard()))
            for seat, watcher in watchers.items():
                latest = watcher.states()[-1]
                assert latest["version"] == 1
                assert latest["view"] == msgspec.json.decode(msgspec.json.encode(player_view(match.state, seat)))
                mine = seat is match.state.to_act
                assert bool(latest["legal_actions"]) == mine
                assert all(e["text"] for e in latest["events"])

    arun(run())


def test_legal_actions_are_listed_at_once_only_for_a_seat_watched_here_and_never_stale(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    listed: list[GameState] = []

    def counting(state: GameState) -> Any:
        listed.append(state)
        return legal_actions(state)

    async def run() -> None:
        async with service(tmp_path) as (matches, creator, _):
            match = (await creator.create(NewMatch(config=QUICK))).match
            monkeypatch.setattr(server.matches, "legal_actions", counting)
            attacker = Watcher(Side.ATTACKER)
            matches.join(match, attacker)  # the defender is watched nowhere (on another process, say)
            while match.state.to_act is Side.ATTACKER:
                before = len(listed)
                await matches.submit(match, Side.ATTACKER, act(match, match.version + 1))
                # listed before the commit exactly when the seat now to act is watched here
                assert len(listed) - before == (1 if match.state.to_act is Side.ATTACKER else 0)
            assert match.state.to_act is Side.DEFENDER and match._legal is None  # nobody here needed them
            defender = Watcher(Side.DEFENDER)  # ...until the defender connects: its first state lists them
            matches.join(match, defender)
            assert defender.states()[-1]["legal_actions"] == msgspec.json.decode(
                msgspec.json.encode(legal_actions(match.state)))
            await matches.submit(match, Side.DEFENDER, act(match, 1))  # and the next position's, at once
            assert match._legal is None or match._legal == tuple(legal_actions(match.state))

    arun(run())


def test_refusals_change_nothing_and_tell_nobody(tmp_path: Path) -> None:
    async def run() -> None:
        async with service(tmp_path) as (matches, creator, _):
            match = (await creator.create(NewMatch(config=QUICK))).match
            watcher = Watcher(None)
            matches.join(match, watcher)
            before = (match.version, state_hash(match.state), len(watcher.outbox._queue))
            attempts = [
                (Side.DEFENDER, act(match, 1, DrawCard()), "not_your_turn"),
                (Side.ATTACKER, Act(version=3, seq=1, action=DrawCard()), "stale_version"),
                (Side.ATTACKER, act(match, 1, RollDice()), "illegal_action"),
            ]
            for seat, attempt, code in attempts:
                outcome = await matches.submit(match, seat, attempt)
                assert isinstance(outcome, Reject) and outcome.code == code and outcome.seq == 1
            assert (match.version, state_hash(match.state), len(watcher.outbox._queue)) == before
            assert logged(tmp_path) == []

    arun(run())


def test_an_action_naming_what_the_game_lacks_is_a_bad_message_naming_the_field(tmp_path: Path) -> None:
    async def run() -> None:
        async with service(tmp_path) as (matches, creator, _):
            match = (await creator.create(NewMatch(config=QUICK))).match
            refused = [
                (MoveUnit(unit_id="A99", to="A1"), "unknown unit 'A99' - at `$.unit_id`"),
                (MoveUnit(unit_id=match.state.units[0].id, to="Z99"), "off the 20x30 board - at `$.to`"),
            ]
            for action, words in refused:
                outcome = await matches.submit(match, Side.ATTACKER, act(match, 1, action))
                assert isinstance(outcome, Reject) and outcome.code == "bad_message" and words in outcome.reason
            assert match.version == 0 and logged(tmp_path) == []

    arun(run())


def test_a_failed_commit_is_an_internal_error_and_the_match_stays_playable(tmp_path: Path) -> None:
    async def run() -> None:
        async with service(tmp_path) as (matches, creator, db):
            match = (await creator.create(NewMatch(config=QUICK))).match
            db.fail_before = True
            outcome = await matches.submit(match, Side.ATTACKER, act(match, 1, DrawCard()))
            assert isinstance(outcome, Reject) and outcome.code == "internal_error"
            assert match.version == 0 and logged(tmp_path) == []
            db.fail_before = False
            assert await matches.submit(match, Side.ATTACKER, act(match, 1, DrawCard())) == Ack(seq=1, version=1)

    arun(run())


def test_a_commit_whose_answer_was_lost_is_found_in_the_log_and_acknowledged(tmp_path: Path) -> None:
    async def run() -> None:
        async with service(tmp_path) as (matches, creator, db):
            match = (await creator.create(NewMatch(config=QUICK))).match
            db.fail_after = True
            assert await matches.submit(match, Side.ATTACKER, act(match, 1, DrawCard())) == Ack(seq=1, version=1)
            assert match.version == 1 and len(logged(tmp_path)) == 1

    arun(run())


def test_an_engine_crash_is_an_internal_error(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    async def run() -> None:
        async with service(tmp_path) as (matches, creator, _):
            match = (await creator.create(NewMatch(config=QUICK))).match

            def explode(state: Any, action: Any) -> Any:
                raise RuntimeError("boom")

            with monkeypatch.context() as patch:
                patch.setattr(server.matches, "reduce", explode)
                outcome = await matches.submit(match, Side.ATTACKER, act(match, 1, DrawCard()))
            assert isinstance(outcome, Reject) and outcome.code == "internal_error"
            assert await matches.submit(match, Side.ATTACKER, act(match, 1, DrawCard())) == Ack(seq=1, version=1)

    arun(run())


def test_a_viewer_that_falls_behind_is_coalesced_to_one_fresh_snapshot(tmp_path: Path) -> None:
    async def run() -> None:
        async with service(tmp_path, outbox_size=3) as (matches, creator, _):
            match = (await creator.create(NewMatch(config=QUICK))).match
            slow = Watcher(Side.DEFENDER)
            slow.outbox = Outbox(3, lambda: match.state_text(Side.DEFENDER))
            matches.join(match, slow)
            rng = random.Random(3)
            for seq in range(1, 11):
                seat = match.state.to_act
                assert seat is not None
                await matches.submit(match, seat, act(match, seq, rng.choice(legal_actions(match.state))))
            assert len(slow.outbox._queue) <= 3 and slow.outbox.coalesced > 0
            sent: list[str] = []

            async def send(text: str) -> None:
                sent.append(text)
                if len(sent) >= 1 + len(slow.outbox._queue):
                    slow.outbox.close()

            await slow.outbox.run(send)
            assert msgspec.json.decode(sent[0])["version"] == match.version

    arun(run())


@pytest.mark.parametrize("policy", ["first", "broken"])  # a failing bot hands its seat to the fallback
def test_a_bot_seat_plays_itself_through_the_same_path(tmp_path: Path, policy: str) -> None:
    async def run() -> None:
        async with service(tmp_path) as (matches, creator, _):
            created = await creator.create(NewMatch(config=QUICK, mode="bot", bot_side=Side.DEFENDER,
                                                    bot_policy=policy))
            match = created.match
            assert set(created.tokens) == {Side.ATTACKER}
            rng = random.Random(4)
            seq = 0
            while match.status == "live":
                if match.state.to_act is Side.ATTACKER:
                    seq += 1
                    choice = rng.choice(legal_actions(match.state))
                    assert isinstance(await matches.submit(match, Side.ATTACKER, act(match, seq, choice)), Ack)
                else:
                    assert match.bot_task is not None
                    await match.bot_task
            rows = logged(tmp_path)
            assert {r[1] for r in rows if r[2] is None} == {"DEFENDER"}
            assert all(r[2] is not None for r in rows if r[1] == "ATTACKER")

    arun(run())


def test_an_idle_match_leaves_memory_and_comes_back_by_replay(tmp_path: Path) -> None:
    async def run() -> None:
        async with service(tmp_path) as (matches, creator, _):
            match = (await creator.create(NewMatch(config=QUICK))).match
            for seq in range(1, 6):
                seat = match.state.to_act
                assert seat is not None
                await matches.submit(match, seat, act(match, seq))
            digest = state_hash(match.state)
            matches.unload_idle(now=time.monotonic() + 3600)
            assert matches.loaded(match.id) is None
            again = await matches.get(match.id)
            assert again is not None and again is not match
            assert again.version == 5 and state_hash(again.state) == digest
            assert again.last_seq == match.last_seq
            resend = await matches.submit(again, Side.ATTACKER, Act(version=0, seq=1, action=match.actions[0]))
            assert resend == Ack(seq=1, version=1)

    arun(run())


async def four_actions_then_unloaded(matches: MatchService, creator: Creator) -> Match:
    """A match with four actions in its log that has left memory, so the next `get` replays the log."""
    match = (await creator.create(NewMatch(config=QUICK))).match
    for seq in range(1, 5):
        seat = match.state.to_act
        assert seat is not None
        await matches.submit(match, seat, act(match, seq))
    matches.unload_idle(now=time.monotonic() + 3600)
    return match


def test_a_log_that_no_longer_replays_leaves_the_match_broken_and_read_only(tmp_path: Path) -> None:
    async def run() -> str:
        async with service(tmp_path) as (matches, creator, _):
            match = await four_actions_then_unloaded(matches, creator)
            with sqlite3.connect(tmp_path / "data" / "taktik.sqlite3") as db:
                db.execute("UPDATE actions SET state_hash='0' WHERE ply=2")
            db.close()
            broken = await matches.get(match.id)
            assert broken is not None and broken.status == "broken" and broken.version == 2
            assert broken.read_only_reason is not None and "step 2" in broken.read_only_reason
            outcome = await matches.submit(broken, Side.ATTACKER, Act(version=2, seq=9, action=DrawCard()))
            assert isinstance(outcome, Reject) and outcome.code == "forbidden"
            return match.id

    match_id = arun(run())
    with sqlite3.connect(tmp_path / "data" / "taktik.sqlite3") as db:
        assert db.execute("SELECT status FROM matches WHERE id=?", (match_id,)).fetchone() == ("broken",)
    db.close()


def test_seat_tokens_are_stored_only_as_hashes(tmp_path: Path) -> None:
    async def run() -> tuple[Match, dict[Side, str]]:
        async with service(tmp_path) as (_, creator, _db):
            created = await creator.create(NewMatch(config=QUICK))
            return created.match, created.tokens

    match, tokens = arun(run())
    raw = b"".join(p.read_bytes() for p in (tmp_path / "data").iterdir() if p.is_file())
    for seat, token in tokens.items():
        assert token.encode() not in raw
        assert match.seat_of(token) is seat
    assert match.seat_of(tokens[Side.ATTACKER] + "x") is None


def test_a_match_whose_start_cannot_be_built_is_unavailable_and_marked_broken(tmp_path: Path) -> None:
    async def run() -> str:
        async with service(tmp_path) as (matches, creator, _):
            match = (await creator.create(NewMatch(config=QUICK))).match
            matches.unload_idle(now=time.monotonic() + 3600)
            with sqlite3.connect(tmp_path / "data" / "taktik.sqlite3") as db:
                db.execute("UPDATE matches SET config='{\"seed\": 1, \"width\": 1}'")
            db.close()
            for _ in range(2):  # the second time from memory, without replaying again
                with pytest.raises(MatchUnavailable, match="starting position"):
                    await matches.get(match.id)
            assert await matches.get("no-such-match") is None
            return match.id

    match_id = arun(run())
    with sqlite3.connect(tmp_path / "data" / "taktik.sqlite3") as db:
        assert db.execute("SELECT status FROM matches WHERE id=?", (match_id,)).fetchone() == ("broken",)
    db.close()


def test_states_carry_the_move_and_attack_limits_card_effects_change(tmp_path: Path) -> None:
    recon = GameConfig(seed=5, draw_pile=("advanced_recon#1",), width=12, height=15)

    async def run() -> None:
        async with service(tmp_path) as (matches, creator, _):
            match = (await creator.create(NewMatch(config=recon))).match
            watcher = Watcher(Side.ATTACKER)
            matches.join(match, watcher)
            assert (watcher.states()[-1]["move_limit"], watcher.states()[-1]["attack_limit"]) == (5, 5)
            await matches.submit(match, Side.ATTACKER, act(match, 1, DrawCard()))
            await matches.submit(match, Side.ATTACKER, act(match, 2, PlayBonus()))
            assert watcher.states()[-1]["move_limit"] == 6

    arun(run())


def test_a_match_of_other_rules_is_read_only_at_the_last_step_these_rules_agree_with(tmp_path: Path) -> None:
    async def run() -> str:
        async with service(tmp_path) as (matches, creator, _):
            match = await four_actions_then_unloaded(matches, creator)
            with sqlite3.connect(tmp_path / "data" / "taktik.sqlite3") as db:
                db.execute("UPDATE matches SET rules_version='0.0ldrul3s'")
                db.execute("UPDATE actions SET state_hash='0' WHERE ply=2")  # where the other rules part ways
            db.close()
            older = await matches.get(match.id)
            assert older is not None and older.status == "other_rules" and older.version == 2
            reason = older.read_only_reason or ""
            assert f"rules version 0.0ldrul3s; this server plays {RULES_VERSION}" in reason
            assert "shown at step 2 of 4" in reason and older.legal() == ()
            outcome = await matches.submit(older, Side.ATTACKER, Act(version=2, seq=9, action=DrawCard()))
            assert isinstance(outcome, Reject) and outcome.code == "forbidden" and "0.0ldrul3s" in outcome.reason
            return match.id

    match_id = arun(run())
    with sqlite3.connect(tmp_path / "data" / "taktik.sqlite3") as db:
        assert db.execute("SELECT status FROM matches WHERE id=?", (match_id,)).fetchone() == ("live",)
    db.close()


def test_a_match_of_other_rules_whose_start_no_longer_builds_is_unavailable_but_not_marked_broken(
        tmp_path: Path) -> None:
    async def run() -> str:
        async with service(tmp_path) as (matches, creator, _):
            match = (await creator.create(NewMatch(config=QUICK))).match
            matches.unload_idle(now=time.monotonic() + 3600)
            with sqlite3.connect(tmp_path / "data" / "taktik.sqlite3") as db:
                db.execute("UPDATE matches SET rules_version='0.0ldrul3s', config='{\"seed\": 1, \"width\": 1}'")
            db.close()
            with pytest.raises(MatchUnavailable, match=f"0.0ldrul3s; this server plays {RULES_VERSION}"):
                await matches.get(match.id)
            return match.id

    match_id = arun(run())
    with sqlite3.connect(tmp_path / "data" / "taktik.sqlite3") as db:
        assert db.execute("SELECT status FROM matches WHERE id=?", (match_id,)).fetchone() == ("live",)
    db.close()
