"""`client.play` against real servers, in this process: results, records, stale decisions, shared seats, claims."""

from __future__ import annotations

import asyncio
import threading
from pathlib import Path
from typing import Any

import msgspec
import pytest

from client import (
    BotPolicy,
    JoinOptions,
    PolicyError,
    SeatUnavailable,
    Turn,
    fetch_record,
    parse_seat_link,
    play,
)
from client import connection as client_connection
from client import seat as client_seat
from client.messages import Ack, ServerMessage
from engine import Action, ClaimVictory, GameConfig, Side, encode_record, replay
from lab.bots import get_bot, seat_seed
from lab.selfplay import play_game
from tests.server.conftest import QUICK_GAME, LiveServer, Peer, arun, http_json
from tests.server.manual_clock import InProcessServer, ManualClock

from .conftest import new_match

UNPACED = JoinOptions(action_rate=None, reconnect_for=10)


@pytest.fixture
def sent(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Every frame the client sends after its hello, as sent."""
    frames: list[str] = []
    original = client_connection.Connection.send

    async def recording(self: client_connection.Connection, text: str) -> bool:
        frames.append(text)
        return await original(self, text)

    monkeypatch.setattr(client_connection.Connection, "send", recording)
    return frames


def test_two_policies_play_a_match_to_the_end_and_its_record_checks_out(live: LiveServer) -> None:
    match_id, links = new_match(live, seed=8)

    async def both() -> list[Any]:
        return list(await asyncio.gather(
            play(links["ATTACKER"], BotPolicy(get_bot("greedy"), 1), UNPACED),
            play(links["DEFENDER"], BotPolicy(get_bot("random"), 2), UNPACED)))

    attacker, defender = arun(both())
    assert (attacker.seat, defender.seat) == (Side.ATTACKER, Side.DEFENDER)
    assert attacker.winner is defender.winner is not None and attacker.won != defender.won
    assert attacker.actions == defender.actions > 0 and attacker.reconnects == 0
    assert attacker.match_id == match_id and match_id in attacker.describe()
    record = fetch_record(parse_seat_link(links["ATTACKER"]), attacker.seed_commitment)
    states = list(replay(record))
    assert len(record.actions) == attacker.actions and states[-1].winner is attacker.winner


def test_an_illegal_or_malformed_choice_is_never_sent(live: LiveServer, sent: list[str]) -> None:
    _, links = new_match(live)
    for choice in ({"type": "MOVE_UNIT", "unit_id": "A1", "to": "A1"}, {"type": "WARP"}, object()):
        with pytest.raises(PolicyError):
            arun(play(links["ATTACKER"], lambda turn, choice=choice: choice, UNPACED))
    assert not any('"act"' in frame for frame in sent)


def test_a_decision_the_match_moved_past_while_the_policy_thought_is_not_sent(live: LiveServer,
                                                                               sent: list[str]) -> None:
    match_id, links = new_match(live)
    resigned = threading.Event()

    def slow(turn: Turn) -> Action:
        assert resigned.wait(30), "the other seat did not resign"
        return turn.legal[0]

    async def run() -> Any:
        playing = asyncio.create_task(play(links["ATTACKER"], slow, UNPACED))
        defender = await Peer.seated(live, match_id, links["DEFENDER"].split("#")[1])
        seq = await defender.act({"type": "RESIGN", "side": "DEFENDER"})
        assert (await defender.reply(seq))["type"] == "ack"
        resigned.set()
        return await playing

    result = arun(run())
    assert result.won and result.reason == "resignation" and result.actions == 1
    assert not any('"act"' in frame for frame in sent)


def test_another_client_acting_on_the_same_seat_ends_this_one(live: LiveServer) -> None:
    match_id, links = new_match(live)
    token = links["ATTACKER"].split("#")[1]
    other_acted = threading.Event()

    def waits_for_the_other(turn: Turn) -> Action:
        assert other_acted.wait(30), "the other client did not act"
        return turn.legal[0]

    async def run() -> None:
        playing = asyncio.create_task(play(links["ATTACKER"], waits_for_the_other, UNPACED))
        other = await Peer.seated(live, match_id, token)  # the same link, opened a second time
        seq = await other.act(other.state["legal_actions"][0])  # type: ignore[index]
        assert (await other.reply(seq))["type"] == "ack"
        other_acted.set()
        await playing

    with pytest.raises(SeatUnavailable, match="another client is playing this seat"):
        arun(run())
    assert http_json(live, "GET", f"/api/matches/{match_id}")[1]["version"] == 1  # only the other client's act


def test_the_seat_claims_the_win_when_the_other_abandons_the_game(tmp_path: Path) -> None:
    clock = ManualClock()
    server = InProcessServer(tmp_path / "data", clock, abandon_after=60.0).start()
    try:
        match_id, links = new_match(server)  # type: ignore[arg-type]  # duck-types LiveServer

        async def run() -> Any:
            defender = await Peer.seated(server, match_id, links["DEFENDER"].split("#")[1])  # type: ignore[arg-type]
            playing = asyncio.create_task(play(links["ATTACKER"], BotPolicy(get_bot("greedy"), 1), UNPACED))
            while defender.state is None or defender.state["to_act"] != "DEFENDER":
                await defender.recv(30)
            await defender.close()  # the DEFENDER walks away when it must decide
            await asyncio.sleep(0.5)
            clock.advance(61.0)
            return await asyncio.wait_for(playing, 60)

        result = arun(run())
        assert result.won and result.reason == "abandonment"
        status, body = http_json(server, "GET", f"/api/matches/{match_id}/record")  # type: ignore[arg-type]
        assert status == 200 and body["record"]["actions"][-1] == {"type": "CLAIM_VICTORY", "side": "ATTACKER",
                                                                   "reason": "abandonment"}
        assert ClaimVictory(side=Side.ATTACKER) in fetch_record(parse_seat_link(links["ATTACKER"])).actions
    finally:
        server.stop()


def test_an_act_lost_with_the_socket_is_resent_with_its_seq_and_applied_once(live: LiveServer,
                                                                             monkeypatch: pytest.MonkeyPatch) -> None:
    frames: list[str] = []
    cut: list[str] = []
    original = client_connection.Connection.send

    async def loses_the_third_act(self: client_connection.Connection, text: str) -> bool:
        if '"act"' in text and not cut and sum('"act"' in frame for frame in frames) == 2:
            cut.append(text)
            self._ws.transport.abort()  # the frame never leaves: the server never sees it
            return False
        frames.append(text)
        return await original(self, text)

    monkeypatch.setattr(client_connection.Connection, "send", loses_the_third_act)
    assert_the_same_game_despite_one_fault(live)
    assert len(cut) == 1 and frames.count(cut[0]) == 1  # sent again: the very same frame (version, seq, action)


def test_an_ack_lost_with_the_socket_is_taken_from_the_state_and_nothing_is_sent_twice(
    live: LiveServer, monkeypatch: pytest.MonkeyPatch, sent: list[str]
) -> None:
    acks: list[Ack] = []
    original = client_seat.Seat._on_message

    def loses_the_attackers_second_ack(self: client_seat.Seat, message: ServerMessage) -> None:
        if isinstance(message, Ack) and self.welcome is not None and self.welcome.seat is Side.ATTACKER:
            acks.append(message)
            if len(acks) == 2:  # committed and the new state told, but the socket drops before the ack
                assert self._conn is not None
                self._conn._ws.transport.abort()
                return
        original(self, message)

    monkeypatch.setattr(client_seat.Seat, "_on_message", loses_the_attackers_second_ack)
    assert_the_same_game_despite_one_fault(live)
    seq = acks[1].seq
    assert acks[1] not in acks[2:]  # its ack never came: the state after the reconnect said it was applied
    resent = [frame for frame in sent if '"act"' in frame and f'"seq":{seq},' in frame]
    assert len({frame for frame in resent}) == len(resent)  # no frame of that seq went twice


def assert_the_same_game_despite_one_fault(live: LiveServer) -> None:
    """Greedy plays greedy over the wire through one fault: the record is the game without it."""
    match_id, links = new_match(live, seed=21)

    async def both() -> list[Any]:
        return list(await asyncio.gather(*(
            play(links[side.value], BotPolicy(get_bot("greedy"), seat_seed(21, side)), UNPACED) for side in Side)))

    results = arun(both())
    assert sum(result.reconnects for result in results) == 1
    expected, _ = play_game(msgspec.convert({**QUICK_GAME, "seed": 21}, GameConfig),
                            {side: get_bot("greedy") for side in Side})
    record = fetch_record(parse_seat_link(links["ATTACKER"]), results[0].seed_commitment)
    assert encode_record(record) == encode_record(expected)
    assert http_json(live, "GET", f"/api/matches/{match_id}")[1]["status"] == "over"
