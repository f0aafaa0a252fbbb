"""Rematch (server/rematch.py, server/rematches.py): offer, decline, accept; sides swapped, fresh seed, the same
tokens; the offer stored with its match."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from tests.server.conftest import FAST_LIMITS, LiveServer, Peer, arun, create_match, http_json, tokens_of


async def finished(server: LiveServer, **body: Any) -> tuple[dict[str, Any], dict[str, str], dict[str, Peer]]:
    """A match between people that the DEFENDER has resigned, both seats connected."""
    created = create_match(server, clock={"initial": 300, "increment": 2}, **body)
    tokens = tokens_of(created)
    seats = {s: await Peer.seated(server, created["match_id"], t) for s, t in tokens.items()}
    seq = await seats["DEFENDER"].act({"type": "RESIGN", "side": "DEFENDER"})
    assert (await seats["DEFENDER"].reply(seq))["type"] == "ack"
    for peer in seats.values():
        await peer.until_version(1)
    return created, tokens, seats


async def rematch_news(peer: Peer, **expected: Any) -> dict[str, Any]:
    """The next rematch news (with the ``expected`` fields, skipping older news)."""
    while True:
        news = dict((await peer.expect("rematch"))["rematch"])
        if all(news[key] == value for key, value in expected.items()):
            return news


def test_an_accepted_rematch_swaps_the_sides_and_each_token_opens_the_other_seat(server: LiveServer) -> None:
    async def run() -> None:
        created, tokens, seats = await finished(server)
        await seats["ATTACKER"].send({"type": "rematch", "choice": "offer"})
        for peer in seats.values():
            assert await rematch_news(peer) == {"offered_by": "ATTACKER", "declined_by": None, "match_id": None,
                                                "seat": None}
        await seats["DEFENDER"].send({"type": "rematch", "choice": "accept"})
        news = {seat: await rematch_news(peer) for seat, peer in seats.items()}
        new_id = news["ATTACKER"]["match_id"]
        assert new_id and new_id != created["match_id"] and news["DEFENDER"]["match_id"] == new_id
        assert (news["ATTACKER"]["seat"], news["DEFENDER"]["seat"]) == ("DEFENDER", "ATTACKER")
        status, summary = http_json(server, "GET", f"/api/matches/{new_id}")
        assert status == 200 and summary["status"] == "live" and summary["version"] == 0
        assert summary["clock"] == {"initial": 300, "increment": 2, "per_turn": None}
        assert summary["seed_commitment"] != created["summary"]["seed_commitment"]
        for old_seat, token in tokens.items():
            peer = await Peer.open(server, new_id)
            await peer.send({"type": "hello", "token": token})
            welcome = await peer.expect("welcome")
            assert welcome["seat"] == ("DEFENDER" if old_seat == "ATTACKER" else "ATTACKER")
        await seats["ATTACKER"].send({"type": "sync"})  # the old match's state tells a reloaded page too
        state = await seats["ATTACKER"].expect("state")
        assert state["rematch"]["match_id"] == new_id and state["rematch"]["seat"] == "DEFENDER"

    arun(run())


def test_a_rematch_against_your_own_bot_is_one_again(server: LiveServer) -> None:
    async def run() -> None:
        _, _, seats = await finished(server, opponent="outside_bot")
        await seats["DEFENDER"].send({"type": "rematch", "choice": "offer"})
        await rematch_news(seats["ATTACKER"], offered_by="DEFENDER")
        await seats["ATTACKER"].send({"type": "rematch", "choice": "accept"})
        news = await rematch_news(seats["ATTACKER"])
        while news["match_id"] is None:  # the offer's own news may come first
            news = await rematch_news(seats["ATTACKER"])
        status, summary = http_json(server, "GET", f"/api/matches/{news['match_id']}")
        assert status == 200 and summary["mode"] == "outside_bot" and summary["bot_side"] is None

    arun(run())


def test_a_declined_offer_can_be_made_again_and_only_the_other_seat_answers_it(server: LiveServer) -> None:
    async def run() -> None:
        _, _, seats = await finished(server)
        await seats["ATTACKER"].send({"type": "rematch", "choice": "accept"})
        refused = await seats["ATTACKER"].expect("reject")
        assert refused["code"] == "bad_message" and "has not offered" in refused["reason"]
        await seats["DEFENDER"].send({"type": "rematch", "choice": "offer"})
        await rematch_news(seats["ATTACKER"], offered_by="DEFENDER")
        await seats["DEFENDER"].send({"type": "rematch", "choice": "accept"})  # its own offer
        assert (await seats["DEFENDER"].expect("reject"))["code"] == "bad_message"
        await seats["ATTACKER"].send({"type": "rematch", "choice": "decline"})
        declined = await rematch_news(seats["DEFENDER"], declined_by="ATTACKER")
        assert declined["offered_by"] is None and declined["match_id"] is None
        await seats["DEFENDER"].send({"type": "rematch", "choice": "offer"})
        again = await rematch_news(seats["ATTACKER"], declined_by=None)
        assert again["offered_by"] == "DEFENDER"

    arun(run())


def test_no_rematch_while_the_game_runs_nor_from_a_spectator(server: LiveServer) -> None:
    async def run() -> None:
        created = create_match(server)
        tokens = tokens_of(created)
        attacker = await Peer.seated(server, created["match_id"], tokens["ATTACKER"])
        await attacker.send({"type": "rematch", "choice": "offer"})
        refused = await attacker.expect("reject")
        assert refused["code"] == "bad_message" and "over" in refused["reason"]
        spectator = await Peer.seated(server, created["match_id"], None)
        await spectator.send({"type": "rematch", "choice": "offer"})
        assert (await spectator.expect("reject"))["code"] == "forbidden"

    arun(run())


def test_a_bot_accepts_at_once_and_takes_the_other_side(server: LiveServer) -> None:
    async def run() -> None:
        created = create_match(server, opponent="bot", bot_side="DEFENDER")
        token = tokens_of(created)["ATTACKER"]
        human = await Peer.seated(server, created["match_id"], token)
        seq = await human.act({"type": "RESIGN", "side": "ATTACKER"})
        assert (await human.reply(seq))["type"] == "ack"
        await human.send({"type": "rematch", "choice": "offer"})
        news = await rematch_news(human)
        while news["match_id"] is None:
            news = await rematch_news(human)
        assert news["seat"] == "DEFENDER"
        _, summary = http_json(server, "GET", f"/api/matches/{news['match_id']}")
        assert (summary["mode"], summary["bot_side"]) == ("bot", "ATTACKER")
        peer = await Peer.open(server, news["match_id"])
        await peer.send({"type": "hello", "token": token})
        assert (await peer.expect("welcome"))["seat"] == "DEFENDER"

    arun(run())


def test_an_offer_outlives_a_restart_and_is_accepted_after_it(tmp_path: Path) -> None:
    live = LiveServer(tmp_path / "data", FAST_LIMITS).start()
    try:
        async def offer() -> tuple[str, dict[str, str]]:
            created, tokens, seats = await finished(live)
            await seats["ATTACKER"].send({"type": "rematch", "choice": "offer"})
            await rematch_news(seats["DEFENDER"], offered_by="ATTACKER")
            return created["match_id"], tokens

        match_id, tokens = arun(offer())
        assert live.stop() == 0
        live.start()

        async def accept() -> None:
            defender = await Peer.seated(live, match_id, tokens["DEFENDER"])
            assert defender.state is not None and defender.state["rematch"]["offered_by"] == "ATTACKER"
            await defender.send({"type": "rematch", "choice": "accept"})
            news = await rematch_news(defender, offered_by="ATTACKER")
            while news["match_id"] is None:
                news = await rematch_news(defender)
            status, summary = http_json(live, "GET", f"/api/matches/{news['match_id']}")
            assert status == 200 and summary["status"] == "live"

        arun(accept())
        assert live.stop() == 0
    finally:
        live.kill()  # only if a step above failed
    assert "Traceback" not in live.log_text(), live.log_text()
