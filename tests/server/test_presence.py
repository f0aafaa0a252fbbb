"""Presence (server/presence.py), abandoned-seat claims and resigning over the socket.

A real uvicorn and real WebSockets on a `ManualClock`: the abandonment delay passes when the
test says so.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from tests.server.conftest import Peer, arun, create_match, http_json, tokens_of
from tests.server.manual_clock import InProcessServer, ManualClock
from tests.server.test_clocks import seated_pair, synced

ABANDON = 180.0


@pytest.fixture(scope="module")
def timed(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[InProcessServer, ManualClock]]:
    clock = ManualClock()
    server = InProcessServer(tmp_path_factory.mktemp("presence") / "data", clock, abandon_after=ABANDON).start()
    yield server, clock
    server.stop()


def kinds(actions: list[dict[str, Any]]) -> list[str]:
    return [a["type"] for a in actions]


def test_each_seat_and_every_spectator_see_who_is_connected(timed: tuple[InProcessServer, ManualClock]) -> None:
    server, _ = timed

    async def run() -> None:
        created = create_match(server)
        tokens = tokens_of(created)
        attacker = await Peer.seated(server, created["match_id"], tokens["ATTACKER"])
        assert attacker.state is not None and attacker.state["presence"]["defender"] is False
        spectator = await Peer.seated(server, created["match_id"], None)
        assert spectator.state is not None
        assert (spectator.state["presence"]["attacker"], spectator.state["presence"]["defender"]) == (True, False)
        defender = await Peer.seated(server, created["match_id"], tokens["DEFENDER"])
        for peer in (attacker, spectator):
            news = await peer.expect("presence")
            assert (news["presence"]["attacker"], news["presence"]["defender"]) == (True, True)
        await defender.close()
        for peer in (attacker, spectator):
            news = await peer.expect("presence")
            assert (news["presence"]["attacker"], news["presence"]["defender"]) == (True, False)
            assert news["presence"]["claim_at"] is None  # the ATTACKER is to act: nothing to claim

    arun(run())


def test_a_bot_seat_is_always_present(timed: tuple[InProcessServer, ManualClock]) -> None:
    server, _ = timed

    async def run() -> None:
        created = create_match(server, opponent="bot", bot_side="DEFENDER")
        human = await Peer.seated(server, created["match_id"], tokens_of(created)["ATTACKER"])
        assert human.state is not None and human.state["presence"]["defender"] is True

    arun(run())


def test_the_win_may_be_claimed_only_once_the_seat_to_act_has_been_away_long_enough(
        timed: tuple[InProcessServer, ManualClock]) -> None:
    server, clock = timed

    async def run() -> None:
        match_id, seats = await seated_pair(server, None)
        attacker, defender = seats["ATTACKER"], seats["DEFENDER"]
        assert kinds((await synced(defender))["match_actions"]) == ["RESIGN"]
        gone_at = clock.now()
        await attacker.close()
        news = await defender.expect("presence")
        assert news["presence"]["attacker"] is False and news["presence"]["claim_at"] == gone_at + ABANDON
        claim = {"type": "CLAIM_VICTORY", "side": "DEFENDER", "reason": "abandonment"}
        seq = await defender.act(claim)
        refused = await defender.reply(seq)
        assert refused["code"] == "forbidden" and "away" in refused["reason"]
        clock.advance(ABANDON - 0.001)
        assert kinds((await synced(defender))["match_actions"]) == ["RESIGN"]
        clock.advance(0.001)
        while defender.state is None or "CLAIM_VICTORY" not in kinds(defender.state["match_actions"]):
            await defender.recv()  # the server tells every socket when the claim opens
        seq = await defender.act(claim)
        assert (await defender.reply(seq))["type"] == "ack"
        over = await defender.until_version(1)
        assert (over["view"]["winner"], over["view"]["victory_reason"]) == ("DEFENDER", "abandonment")
        _, summary = http_json(server, "GET", f"/api/matches/{match_id}")
        assert summary["victory_reason"] == "abandonment"

    arun(run())


def test_the_seat_to_act_cannot_claim_and_a_returning_seat_closes_the_claim(
        timed: tuple[InProcessServer, ManualClock]) -> None:
    server, clock = timed

    async def run() -> None:
        created = create_match(server)
        tokens = tokens_of(created)
        seats = {s: await Peer.seated(server, created["match_id"], t) for s, t in tokens.items()}
        await seats["DEFENDER"].close()  # away, but it is the ATTACKER's decision
        clock.advance(10 * ABANDON)
        state = await synced(seats["ATTACKER"])
        assert state["presence"]["claim_at"] is None and kinds(state["match_actions"]) == ["RESIGN"]
        seq = await seats["ATTACKER"].act({"type": "CLAIM_VICTORY", "side": "ATTACKER", "reason": "abandonment"})
        assert (await seats["ATTACKER"].reply(seq))["code"] == "illegal_action"
        # Now the ATTACKER leaves on its own turn; the DEFENDER comes back and may claim after the delay...
        defender = await Peer.seated(server, created["match_id"], tokens["DEFENDER"])
        await seats["ATTACKER"].close()
        clock.advance(ABANDON)
        while defender.state is None or "CLAIM_VICTORY" not in kinds(defender.state["match_actions"]):
            await defender.recv()
        # ...but the ATTACKER returns first: the claim is gone again.
        await Peer.seated(server, created["match_id"], tokens["ATTACKER"])
        while "CLAIM_VICTORY" in kinds(defender.state["match_actions"]):
            await defender.recv()
        assert defender.state["presence"]["claim_at"] is None

    arun(run())


def test_either_seat_resigns_at_any_time_and_nobody_else_can_for_it(
        timed: tuple[InProcessServer, ManualClock]) -> None:
    server, _ = timed

    async def run() -> None:
        match_id, seats = await seated_pair(server, None)
        attacker, defender = seats["ATTACKER"], seats["DEFENDER"]
        spectator = await Peer.seated(server, match_id, None)
        assert spectator.state is not None and spectator.state["match_actions"] == []
        seq = await spectator.act({"type": "RESIGN", "side": "DEFENDER"})
        assert (await spectator.reply(seq))["code"] == "forbidden"
        seq = await defender.act({"type": "RESIGN", "side": "ATTACKER"})
        assert (await defender.reply(seq))["code"] == "forbidden"
        seq = await defender.act({"type": "TIMEOUT", "side": "ATTACKER", "clock": "game"})
        assert (await defender.reply(seq))["code"] == "forbidden"
        seq = await defender.act({"type": "RESIGN", "side": "DEFENDER"})  # the ATTACKER is to act: still fine
        assert (await defender.reply(seq))["type"] == "ack"
        for peer in (attacker, defender, spectator):
            over = await peer.until_version(1)
            assert (over["status"], over["view"]["winner"], over["view"]["victory_reason"]) == (
                "over", "ATTACKER", "resignation")
            assert over["match_actions"] == [] and over["legal_actions"] == []
        _, record = http_json(server, "GET", f"/api/matches/{match_id}/record")
        assert record["record"]["actions"] == [{"type": "RESIGN", "side": "DEFENDER"}]

    arun(run())
