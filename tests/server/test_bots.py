"""Bot seats: the roster a host hands the server, its default and its fallback."""

from __future__ import annotations

import asyncio
import threading
from collections.abc import AsyncIterator, Sequence
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any, NamedTuple

import msgspec
import pytest

from engine import (
    HIDDEN,
    Action,
    DeclareAttack,
    GameConfig,
    GameRecord,
    GameState,
    RoundLimit,
    Side,
    VictoryConfig,
    legal_actions,
    new_game,
    player_view,
    reduce,
)
from engine.analysis import attack_preview
from lab.bots import GreedyBot, hint, win_chance
from lab.bots.advice import reason as lab_reason
from server.analysts import Analysts
from server.bots import BotRoster
from server.costs import CpuBudget
from server.creation import Creator, NewMatch
from server.database import Database
from server.match import Match
from server.matches import MatchService
from server.protocol import Ack, Act, Hint, HintAnswer
from server.questions import Questions
from server.replays import evaluation
from server.settings import Limits, Settings

from .conftest import LiveServer, Peer, arun, create_match, http_json, tokens_of
from .test_matches import Watcher
from .test_ws import QUERY_GAME


def first(view: GameState, legal: Sequence[Action], seed: int) -> tuple[Action, int]:
    return legal[0], seed


def test_the_default_bot_is_the_chosen_one_or_the_rosters_first() -> None:
    roster = BotRoster(policies={"first": first, "also": first}, about={"first": "Plays the first action"})
    assert Settings(data_dir=Path("."), bots=roster).default_bot == "first"
    assert Settings(data_dir=Path("."), bots=roster, bot_policy="also").default_bot == "also"
    assert roster.describe("first") == "Plays the first action" and roster.describe("also") == "also"


def test_a_server_without_bots_has_no_default_and_refuses_an_unknown_one() -> None:
    assert Settings(data_dir=Path(".")).default_bot is None
    with pytest.raises(ValueError, match="unknown bot 'greedy'; this server seats: none"):
        Settings(data_dir=Path("."), bot_policy="greedy")


def test_the_fallback_must_be_on_the_roster() -> None:
    with pytest.raises(ValueError, match="fallback bot 'random' is not one of first"):
        BotRoster(policies={"first": first}, fallback="random")


# -- thinking off the event loop, hints and the evaluation graph ------------------------------

QUICK = GameConfig(seed=11, victory=VictoryConfig(round_limit=RoundLimit(max_rounds=2)))


class SlowBot:
    """A policy that thinks until the test lets it go (on the roster's worker thread)."""

    def __init__(self) -> None:
        self.thinking = threading.Event()
        self.go = threading.Event()

    def __call__(self, view: GameState, legal: Sequence[Action], seed: int) -> tuple[Action, int]:
        self.thinking.set()
        if not self.go.wait(60):
            raise RuntimeError("the test never let the bot go")
        return legal[0], seed


def advise(view: GameState, legal: Sequence[Action], seed: int) -> tuple[Action, str]:
    """A hint policy that shows what it was given: it must be the seat's own view."""
    assert view.to_act is not None
    mine, theirs = view.player(view.to_act).tactics, view.player(view.to_act.other).tactics
    shown = len(theirs) - theirs.count(HIDDEN)
    return legal[-1], f"seed {seed}, mine hidden {mine.count(HIDDEN)}, theirs shown {shown}"


class Service(NamedTuple):
    matches: MatchService
    creator: Creator
    questions: Questions

    async def hint(self, match: Match, seat: Side | None, question: Hint) -> HintAnswer:
        """The answer to a socket's `hint` (server/questions.py), decoded."""
        text = await self.questions.answer(match, seat, question, "127.0.0.1")
        return msgspec.json.decode(text, type=HintAnswer)


@asynccontextmanager
async def bot_service(tmp_path: Path, roster: BotRoster) -> AsyncIterator[Service]:
    db = Database.open(tmp_path / "data")
    matches = MatchService(db, Limits(bot_delay=0.0), roster)
    analysts = Analysts(0, 8, 4)  # threads: these policies are the test's own closures
    try:
        yield Service(matches, Creator(matches), Questions(CpuBudget(60.0, 1.0), analysts, roster))
    finally:
        await matches.close()
        analysts.close()
        db.close()


def test_a_thinking_bot_leaves_the_event_loop_free_for_other_matches_and_queries(tmp_path: Path) -> None:
    slow = SlowBot()
    roster = BotRoster(policies={"slow": slow}, hint=advise)

    async def run() -> None:
        async with bot_service(tmp_path, roster) as service:
            matches, creator = service.matches, service.creator
            bot_match = (await creator.create(NewMatch(config=QUICK, mode="bot", bot_side=Side.ATTACKER,
                                                       bot_policy="slow"))).match
            other = (await creator.create(NewMatch(config=QUICK))).match
            matches.join(bot_match, Watcher(Side.DEFENDER))
            loop = asyncio.get_running_loop()
            assert await loop.run_in_executor(None, slow.thinking.wait, 30)  # the bot is now stuck thinking
            # While it thinks, the loop serves another match's action and a hint...
            first = legal_actions(other.state)[0]
            outcome = await matches.submit(other, Side.ATTACKER, Act(version=0, seq=1, action=first))
            assert outcome == Ack(seq=1, version=1)
            answer = await service.hint(other, other.state.to_act, Hint(id=3))
            assert answer.action in legal_actions(other.state) and answer.version == 1
            # ...and the bot's match has not moved: it is still waiting for its bot.
            assert bot_match.version == 0 and bot_match.bot_task is not None
            slow.go.set()
            for _ in range(200):
                if bot_match.version > 0:
                    break
                await asyncio.sleep(0.01)
            assert bot_match.version >= 1 and bot_match.actions[0] == legal_actions(new_game(QUICK))[0]

    arun(run())


def test_a_hint_comes_from_the_seats_own_view_and_is_the_same_at_the_same_version(tmp_path: Path) -> None:
    roster = BotRoster(policies={"first": first}, hint=advise)

    async def run() -> None:
        async with bot_service(tmp_path, roster) as service:
            match = (await service.creator.create(NewMatch(config=QUICK))).match
            answer = await service.hint(match, Side.ATTACKER, Hint(id=7))
            legal = legal_actions(match.state)
            assert answer.id == 7 and answer.version == 0 and answer.action == legal[-1]
            assert answer.reason is not None and "mine hidden 0, theirs shown 0" in answer.reason
            again = await service.hint(match, Side.ATTACKER, Hint(id=8))
            assert again.reason == answer.reason
            refused = await service.hint(match, Side.DEFENDER, Hint(id=9))
            assert refused.action is None and refused.problem == "ATTACKER must decide now, not DEFENDER"
            watching = await service.hint(match, None, Hint(id=10))
            assert watching.problem == "spectators get no hints"

    arun(run())


def test_a_server_without_a_hint_policy_says_so(tmp_path: Path) -> None:
    async def run() -> None:
        async with bot_service(tmp_path, BotRoster(policies={"first": first})) as service:
            match = (await service.creator.create(NewMatch(config=QUICK))).match
            answer = await service.hint(match, Side.ATTACKER, Hint(id=1))
            assert answer.action is None and answer.problem == "this server gives no hints"

    arun(run())


def test_the_lab_hint_explains_an_attack_with_the_engines_odds() -> None:
    state = new_game(QUICK)
    seeds = {side: 1 for side in Side}
    bot = GreedyBot()
    while not any(isinstance(a, DeclareAttack) for a in legal_actions(state)):
        side = state.to_act
        assert side is not None
        action, seeds[side] = bot.choose(player_view(state, side), legal_actions(state), seeds[side])
        state = reduce(state, action)
    side = state.to_act
    assert side is not None
    legal = legal_actions(state)
    action, reason = hint(player_view(state, side), legal, 5)
    assert action in legal and "to win." in reason
    attack = next(a for a in legal if isinstance(a, DeclareAttack))
    odds = attack_preview(state, attack).odds
    words = lab_reason(state, attack)
    assert f"{round(100 * odds.hit_chance)} % to hit for {odds.damage} damage" in words


def test_the_evaluation_graph_has_a_point_per_turn_and_marks_the_big_swings() -> None:
    state = new_game(QUICK)
    actions: list[Action] = []
    seed = 3
    while state.to_act is not None:
        action, seed = GreedyBot().choose(player_view(state, state.to_act), legal_actions(state), seed)
        actions.append(action)
        state = reduce(state, action)
    record = GameRecord(config=QUICK, actions=tuple(actions))
    answer = evaluation(record, win_chance)
    turns = [p.turn for p in answer.points]
    assert turns[0] == state.turn - state.turn + new_game(QUICK).turn and turns == sorted(turns)
    assert answer.points[-1].step == len(actions)
    assert answer.points[-1].attacker == (1.0 if state.winner is Side.ATTACKER else 0.0)
    assert all(0.0 <= p.attacker <= 1.0 for p in answer.points)
    # A fake estimate with one jump: exactly that step is the turning point.
    jump = answer.points[2].step
    flat = evaluation(record, lambda view: 0.9 if view.turn >= answer.points[2].turn else 0.5)
    assert flat.turning == (jump,)


def test_taktik_serve_answers_a_hint_over_the_socket_and_judges_a_record(server: LiveServer) -> None:
    async def run() -> tuple[dict[str, Any], dict[str, Any]]:
        created = create_match(server, config=QUERY_GAME)
        tokens = tokens_of(created)
        attacker = await Peer.seated(server, created["match_id"], tokens["ATTACKER"])
        spectator = await Peer.seated(server, created["match_id"], None)
        await attacker.send({"type": "hint", "id": 4})
        mine = await attacker.expect("hint")
        await spectator.send({"type": "hint", "id": 5})
        theirs = await spectator.expect("hint")
        for peer in (attacker, spectator):
            await peer.close()
        return mine, theirs

    mine, theirs = arun(run())
    state = new_game(msgspec.convert(QUERY_GAME, GameConfig))
    assert mine["id"] == 4 and mine["version"] == 0 and mine["problem"] is None
    assert msgspec.convert(mine["action"], type=Action) in legal_actions(state)
    assert "to win" in mine["reason"]
    assert theirs == {"type": "hint", "id": 5, "version": 0, "action": None, "reason": None,
                      "problem": "spectators get no hints"}
    record = GameRecord(config=msgspec.convert(QUERY_GAME, GameConfig), actions=())
    status, judged = http_json(server, "POST", "/api/replays/evaluation", {"record": msgspec.to_builtins(record)})
    assert status == 200 and [p["step"] for p in judged["points"]] == [0] and judged["turning"] == []
