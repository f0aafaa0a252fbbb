"""The WebSocket endpoint against a real server: whole games, secrets, and every hostile input."""

from __future__ import annotations

import asyncio
import hashlib
import json
import random
import re
from typing import Any

import msgspec
import pytest
from websockets.exceptions import ConnectionClosed, InvalidStatus

from engine import (
    Attack,
    GameConfig,
    GameRecord,
    GameState,
    MoveUnit,
    Side,
    legal_actions,
    new_game,
    player_view,
    replay,
    state_hash,
)
from engine.analysis import attack_preview, decision, explain, move_preview
from engine.data import TERRAIN_LEGEND
from tests.support import shipped_card

from .conftest import LiveServer, Peer, arun, create_match, http_json, tokens_of


async def play_out(seats: dict[str, Peer], watchers: list[Peer], rng: random.Random,
                   steps: int | None = None) -> dict[str, Any]:
    """Play random legal actions (from the messages) until the game ends or ``steps`` were played."""
    everyone = [*seats.values(), *watchers]
    played = 0
    while steps is None or played < steps:
        state = next(iter(seats.values())).state
        assert state is not None
        if state["status"] != "live":
            return state
        actor = seats[state["to_act"]]
        assert actor.state is not None and actor.state["version"] == state["version"]
        seq = await actor.act(rng.choice(actor.state["legal_actions"]))
        reply = await actor.reply(seq)
        assert reply == {"type": "ack", "seq": seq, "version": state["version"] + 1}
        for peer in everyone:
            await peer.until_version(reply["version"])
        played += 1
    state = next(iter(seats.values())).state
    assert state is not None
    return state


def as_json(value: Any) -> Any:
    return json.loads(msgspec.json.encode(value))


def forbidden_strings(state: GameState, viewer: Side | None) -> list[str]:
    """What ``viewer`` must never read in a frame while the match is at ``state``."""
    secrets: list[str] = [f'"{card}"' for card in state.draw_pile]
    own = state.player(viewer) if viewer else None
    played = {t for p in state.players for t in p.played_tactics}
    for part in state.players:
        if part.side is viewer:
            continue
        secrets += [f'"{card}"' for card in part.stored]
        secrets += [f'"{t}"' for t in part.tactics if t not in played and (own is None or t not in own.tactics)]
    pending = state.pending_card
    if (
        pending is not None
        and pending.drawer is not viewer
        and "#" in pending.card
        and shipped_card(pending.card).kind == "bonus"
    ):
        secrets.append(f'"{pending.card}"')
    return secrets


def check_frames(peer: Peer, viewer: Side | None, states: list[GameState], never: list[str], seed: int) -> None:
    """Every state equals the engine's view for ``viewer``; no frame holds a secret of that moment."""
    version = 0
    for frame in peer.frames:
        message = json.loads(frame)
        if message["type"] == "state":
            version = message["version"]
            truth = states[version]
            assert message["view"] == as_json(player_view(truth, viewer))
            assert message["decision"] == as_json(decision(truth, player_view(truth, viewer)))
            expected = legal_actions(truth) if viewer is not None and truth.to_act is viewer else []
            assert message["legal_actions"] == as_json(expected)
        truth = states[version]
        for secret in [*forbidden_strings(truth, viewer), *never]:
            assert secret not in frame, (secret, message["type"])
        if truth.rng:
            assert not re.search(rf"\b{truth.rng}\b", frame)
        assert not re.search(rf"\b{seed}\b", frame)


def test_a_whole_game_two_seats_and_a_spectator(server: LiveServer) -> None:
    created = create_match(server, seed=None)
    match_id = created["match_id"]
    tokens = tokens_of(created)

    async def game() -> tuple[dict[str, Peer], Peer, dict[str, Any]]:
        seats = {seat: await Peer.seated(server, match_id, token) for seat, token in tokens.items()}
        spectator = await Peer.seated(server, match_id, None)
        final = await play_out(seats, [spectator], random.Random(5))
        seq = await seats["DEFENDER"].act({"type": "NEXT_PHASE"})
        assert (await seats["DEFENDER"].reply(seq))["code"] == "game_over"
        for peer in [*seats.values(), spectator]:
            await peer.close()
        return seats, spectator, final

    seats, spectator, final = arun(game())
    assert final["status"] == "over" and final["to_act"] is None and final["legal_actions"] == []
    assert final["view"]["winner"] in ("ATTACKER", "DEFENDER")

    status, body = http_json(server, "GET", f"/api/matches/{match_id}/record")
    assert status == 200 and body["status"] == "over"
    seed, salt = body["seed"], body["salt"]
    assert hashlib.sha256(f"{seed}:{salt}".encode()).hexdigest() == created["summary"]["seed_commitment"]
    record = msgspec.json.decode(json.dumps(body["record"]), type=GameRecord)
    assert record.config.seed == seed and len(record.actions) == final["version"]
    states = list(replay(record))  # checks every stored hash
    assert record.hashes is not None and state_hash(states[-1]) == record.hashes[-1]

    welcome = next(m for m in seats["ATTACKER"].messages if m["type"] == "welcome")
    assert welcome["seed_commitment"] == created["summary"]["seed_commitment"]
    for seat, peer in seats.items():
        other = tokens[Side(seat).other.value]
        check_frames(peer, Side(seat), states, [other, tokens[seat], salt], seed)
        assert peer.messages[0]["type"] == "welcome"
    check_frames(spectator, None, states, [*tokens.values(), salt], seed)
    assert all(m["legal_actions"] == [] for m in spectator.messages if m["type"] == "state")
    assert not any(token in server.log_text() for token in tokens.values())


def test_a_seat_sees_events_in_words_computed_from_its_own_view(server: LiveServer) -> None:
    async def run() -> list[dict[str, Any]]:
        created = create_match(server)
        match_id = created["match_id"]
        seat_tokens = tokens_of(created)
        attacker = await Peer.seated(server, match_id, seat_tokens["ATTACKER"])
        defender = await Peer.seated(server, match_id, seat_tokens["DEFENDER"])
        seq = await attacker.act({"type": "DRAW_CARD"})
        assert (await attacker.reply(seq))["type"] == "ack"
        mine = await attacker.until_version(1)
        theirs = await defender.until_version(1)
        await attacker.close()
        await defender.close()
        return [mine, theirs]

    mine, theirs = arun(run())
    drawn = [e for e in mine["events"] if e["event"]["kind"] == "card_drawn"]
    seen = [e for e in theirs["events"] if e["event"]["kind"] == "card_drawn"]
    assert drawn and seen and drawn[0]["text"].startswith("ATTACKER drew ")
    card = mine["view"]["pending_card"]["card"]
    if theirs["view"]["pending_card"]["card"] == "?":  # a bonus: its name is the drawer's secret
        assert seen[0]["text"] == "ATTACKER drew a card"
        assert card not in json.dumps(theirs)


def test_the_state_says_who_decides_and_why_and_carries_the_map_legend(server: LiveServer) -> None:
    config = {"seed": 3, "width": 12, "height": 12, "draw_pile": ["air_cover#1", "supply_interruption#1"]}

    async def run() -> list[dict[str, Any]]:
        created = create_match(server, config=config)
        tokens = tokens_of(created)
        attacker = await Peer.seated(server, created["match_id"], tokens["ATTACKER"])
        defender = await Peer.seated(server, created["match_id"], tokens["DEFENDER"])
        first = defender.state
        assert first is not None and first["version"] == 0
        seq = await attacker.act({"type": "DRAW_CARD"})
        assert (await attacker.reply(seq))["type"] == "ack"
        mine, theirs = await attacker.until_version(1), await defender.until_version(1)
        await attacker.close()
        await defender.close()
        return [first, mine, theirs]

    first, mine, theirs = arun(run())
    assert first["decision"]["side"] == "ATTACKER" and first["decision"]["kind"] == "draw_card"
    assert [s["name"] for s in first["decision"]["ruler"]] == ["Draw", "Cards", "Move", "Attack", "Dice"]
    assert first["decision"]["at"] == 0 and first["decision"]["next_phase"]["name"] == "Cards"
    # The drawn bonus is named to its drawer only, in the decision as in the view.
    assert mine["decision"]["kind"] == theirs["decision"]["kind"] == "resolve_bonus"
    assert mine["decision"]["card"] == "air_cover#1" and theirs["decision"]["card"] == "?"
    assert "air_cover" not in json.dumps(theirs)
    legend = {entry["char"]: entry for entry in first["legend"]}
    assert first["legend"] == as_json(TERRAIN_LEGEND)
    assert legend["#"] == {"char": "#", "terrain": "PLAIN", "road": True, "river": True}
    assert {ch for row in first["view"]["board"]["rows"] for ch in row} <= set(legend)


QUERY_GAME: dict[str, Any] = {
    "seed": 5, "terrain": "\n".join(["." * 10] * 10),
    "units": [{"id": "A7", "side": "ATTACKER", "type": "MECHANIZED", "cell": "C3"},
              {"id": "D9", "side": "DEFENDER", "type": "MECHANIZED", "cell": "C6"}],
    "tactics": {"attacker": ["precision_shot", "expert_aim", "favorable_weather"],
                "defender": ["dense_fog", "natural_cover"]},
}


async def ask(peer: Peer, query: dict[str, Any], answer: str) -> dict[str, Any]:
    await peer.send(query)
    reply = await peer.expect(answer)
    assert reply["id"] == query["id"]
    return reply


def test_explain_answers_the_seat_to_act_with_the_engines_code_and_words(server: LiveServer) -> None:
    state = new_game(msgspec.convert(QUERY_GAME, GameConfig))
    move = {"type": "MOVE_UNIT", "unit_id": "A7", "to": "C4"}

    async def run() -> list[dict[str, Any]]:
        created = create_match(server, config=QUERY_GAME)
        tokens = tokens_of(created)
        attacker = await Peer.seated(server, created["match_id"], tokens["ATTACKER"])
        defender = await Peer.seated(server, created["match_id"], tokens["DEFENDER"])
        spectator = await Peer.seated(server, created["match_id"], None)
        answers = [
            await ask(attacker, {"type": "explain", "id": 1, "action": move}, "explanation"),
            await ask(attacker, {"type": "explain", "id": 2, "action": {"type": "DRAW_CARD"}}, "explanation"),
            await ask(defender, {"type": "explain", "id": 3, "action": move}, "explanation"),
            await ask(spectator, {"type": "explain", "id": 4, "action": move}, "explanation"),
        ]
        await attacker.send({"type": "explain", "id": 5, "action": {"type": "MOVE_UNIT", "to": "C4"}})
        answers.append(await attacker.expect("reject"))
        for peer in (attacker, defender, spectator):
            await peer.close()
        return answers

    wrong_phase, legal, other_seat, spectator, malformed = arun(run())
    problem = explain(state, MoveUnit(unit_id="A7", to="C4"))
    assert problem is not None
    assert wrong_phase == {"type": "explanation", "id": 1, "version": 0, "legal": False, "code": problem.code,
                           "reason": problem.reason}
    assert legal == {"type": "explanation", "id": 2, "version": 0, "legal": True, "code": None, "reason": None}
    assert other_seat["code"] == "not_your_turn" and spectator["code"] == "forbidden"
    assert malformed["code"] == "bad_message" and "unit_id" in malformed["reason"]


def test_previews_are_computed_on_the_seats_own_view(server: LiveServer) -> None:
    state = new_game(msgspec.convert(QUERY_GAME, GameConfig))
    attack = {"type": "preview_attack", "id": 7, "attacker_id": "A7", "target_id": "D9"}

    async def run() -> tuple[Peer, list[dict[str, Any]]]:
        created = create_match(server, config=QUERY_GAME)
        tokens = tokens_of(created)
        attacker = await Peer.seated(server, created["match_id"], tokens["ATTACKER"])
        defender = await Peer.seated(server, created["match_id"], tokens["DEFENDER"])
        answers = [
            await ask(attacker, attack, "attack_preview"),
            await ask(defender, attack, "attack_preview"),
            await ask(defender, {"type": "preview_move", "id": 8, "unit_id": "A7"}, "move_preview"),
            await ask(defender, {"type": "preview_move", "id": 9, "unit_id": "A99"}, "move_preview"),
        ]
        await attacker.close()
        await defender.close()
        return defender, answers

    defender, (own, theirs, moves, unknown) = arun(run())
    pair = Attack(attacker="A7", target="D9")
    assert own["preview"] == as_json(attack_preview(player_view(state, Side.ATTACKER), pair))
    assert [t["play"]["card_id"] for t in own["preview"]["tactics"]] == ["precision_shot", "favorable_weather",
                                                                          "expert_aim"]
    # The defender gets the same odds but never the attacker's hand: no tactic is counted or named.
    assert theirs["preview"]["odds"] == own["preview"]["odds"] and theirs["preview"]["tactics"] == []
    assert not any(card in frame for frame in defender.frames for card in ("precision_shot", "expert_aim"))
    assert moves["preview"] == as_json(move_preview(player_view(state, Side.DEFENDER), "A7"))
    assert len(moves["preview"]["cells"]) > 10 and moves["version"] == 0
    assert unknown["preview"] is None and "A99" in unknown["problem"]


# -- hostile input and faults ------------------------------------------------------------


async def two_seats(server: LiveServer, **create: Any) -> tuple[str, dict[str, Peer], dict[str, str]]:
    created = create_match(server, **create)
    tokens = tokens_of(created)
    seats = {seat: await Peer.seated(server, created["match_id"], token) for seat, token in tokens.items()}
    return created["match_id"], seats, tokens


async def unchanged_and_playable(server: LiveServer, match_id: str, seats: dict[str, Peer], version: int) -> None:
    """Version and log are still ``version``; the match still plays and every seat hears of it."""
    status, summary = http_json(server, "GET", f"/api/matches/{match_id}")
    assert status == 200 and summary["version"] == version
    status, record = http_json(server, "GET", f"/api/matches/{match_id}/record")
    assert len(record["record"]["actions"]) == version
    state = await play_out(seats, [], random.Random(1), steps=1)
    assert state["version"] == version + 1


async def closes_with(peer: Peer) -> int:
    with pytest.raises(ConnectionClosed) as closed:
        while True:
            await peer.recv(10)
    received = closed.value.rcvd
    assert received is not None
    return received.code


def test_bad_shapes_are_rejected_with_the_path_and_change_nothing(server: LiveServer) -> None:
    async def run() -> None:
        match_id, seats, _ = await two_seats(server)
        attacker = seats["ATTACKER"]
        cases = [
            b"not json",
            "[1, 2]",
            json.dumps({"type": "act", "version": True, "seq": 1, "action": {"type": "DRAW_CARD"}}),
            json.dumps({"type": "act", "version": 0, "seq": 1, "action": {"type": "DRAW_CARD"}, "extra": 1}),
            json.dumps({"type": "act", "version": 0, "seq": 2**60, "action": {"type": "DRAW_CARD"}}),
            json.dumps({"type": "act", "version": 0, "seq": 1, "action": {"type": "MOVE_UNIT", "unit_id": "A1",
                                                                          "to": 5}}),
            '{"type": "act", "version": NaN, "seq": 1, "action": {"type": "DRAW_CARD"}}',
            json.dumps({"type": "act", "version": 0, "seq": 1, "action": {"type": "DRAW_CARD", "x": [[[[[[1]]]]]]}}),
            json.dumps({"type": "launch_missiles"}),
            json.dumps({"version": 0}),
        ]
        for case in cases:
            await attacker.send(case)
            reply = await attacker.reply()
            assert reply["type"] == "reject" and reply["code"] == "bad_message", (case, reply)
        assert "$.action.to" in str(attacker.messages)
        await unchanged_and_playable(server, match_id, seats, 0)

    arun(run())


def test_an_action_naming_a_unit_of_no_such_game_is_a_bad_message(server: LiveServer) -> None:
    async def run() -> None:
        match_id, seats, _ = await two_seats(server)
        seq = await seats["ATTACKER"].act({"type": "WITHDRAW_ATTACK", "attacker_id": "A99"})
        reply = await seats["ATTACKER"].reply(seq)
        assert reply["code"] == "bad_message" and "A99" in reply["reason"]
        await unchanged_and_playable(server, match_id, seats, 0)

    arun(run())


def test_an_illegal_action_is_refused_by_the_engine(server: LiveServer) -> None:
    async def run() -> None:
        match_id, seats, _ = await two_seats(server)
        seq = await seats["ATTACKER"].act({"type": "ROLL_DICE"})
        reply = await seats["ATTACKER"].reply(seq)
        assert reply["code"] == "illegal_action" and reply["reason"]
        assert await seats["DEFENDER"].quiet() == []
        await unchanged_and_playable(server, match_id, seats, 0)

    arun(run())


def test_acting_before_hello_or_with_a_wrong_token_is_unauthenticated(server: LiveServer) -> None:
    async def run() -> None:
        match_id, seats, tokens = await two_seats(server)
        early = await Peer.open(server, match_id)
        await early.send({"type": "act", "version": 0, "seq": 1, "action": {"type": "DRAW_CARD"}})
        assert (await early.reply())["code"] == "unauthenticated"
        await early.close()
        forger = await Peer.open(server, match_id)
        await forger.send({"type": "hello", "token": tokens["ATTACKER"][:-2] + "xx"})
        assert (await forger.reply())["code"] == "unauthenticated"
        assert await closes_with(forger) == 4401
        other = create_match(server, config={"seed": 3})
        stranger = await Peer.open(server, match_id)
        await stranger.send({"type": "hello", "token": other["seats"][0]["token"]})  # a token of another match
        assert (await stranger.reply())["code"] == "unauthenticated"
        assert await closes_with(stranger) == 4401
        await unchanged_and_playable(server, match_id, seats, 0)

    arun(run())


def test_a_spectator_cannot_act(server: LiveServer) -> None:
    async def run() -> None:
        match_id, seats, _ = await two_seats(server)
        spectator = await Peer.seated(server, match_id, None)
        seq = await spectator.act({"type": "DRAW_CARD"})
        reply = await spectator.reply(seq)
        assert reply == {"type": "reject", "code": "forbidden", "reason": "spectators cannot act", "seq": seq}
        await unchanged_and_playable(server, match_id, seats, 0)
        await spectator.until_version(1)

    arun(run())


def test_the_other_seat_is_told_it_is_not_its_turn(server: LiveServer) -> None:
    async def run() -> None:
        match_id, seats, _ = await two_seats(server)
        seq = await seats["DEFENDER"].act({"type": "DRAW_CARD"})
        assert (await seats["DEFENDER"].reply(seq))["code"] == "not_your_turn"
        await unchanged_and_playable(server, match_id, seats, 0)

    arun(run())


def test_a_stale_version_is_rejected(server: LiveServer) -> None:
    async def run() -> None:
        match_id, seats, _ = await two_seats(server)
        await play_out(seats, [], random.Random(2), steps=2)
        actor = seats[seats["ATTACKER"].state["to_act"]]  # type: ignore[index]
        legal = actor.state["legal_actions"]  # type: ignore[index]
        seq = await actor.act(legal[0], version=1)
        reply = await actor.reply(seq)
        assert reply["code"] == "stale_version" and "version 2" in reply["reason"]
        await unchanged_and_playable(server, match_id, seats, 2)

    arun(run())


def test_a_resent_seq_gets_the_original_answer_and_a_changed_payload_is_refused(server: LiveServer) -> None:
    async def run() -> None:
        match_id, seats, _ = await two_seats(server)
        attacker = seats["ATTACKER"]
        seq = await attacker.act({"type": "DRAW_CARD"}, version=0)
        first = await attacker.reply(seq)
        assert first == {"type": "ack", "seq": seq, "version": 1}
        await attacker.act({"type": "DRAW_CARD"}, version=0, seq=seq)
        assert await attacker.reply(seq) == first
        await attacker.act({"type": "NEXT_PHASE"}, version=1, seq=seq)
        changed = await attacker.reply(seq)
        assert changed["code"] == "bad_message" and "already used" in changed["reason"]
        await seats["DEFENDER"].until_version(1)
        await unchanged_and_playable(server, match_id, seats, 1)

    arun(run())


def test_both_seats_and_two_tabs_acting_at_once_apply_exactly_one_action(server: LiveServer) -> None:
    async def run() -> None:
        match_id, seats, tokens = await two_seats(server)
        second_tab = await Peer.seated(server, match_id, tokens["ATTACKER"])
        first_tab = seats["ATTACKER"]
        await asyncio.gather(
            first_tab.act({"type": "DRAW_CARD"}, seq=1),
            second_tab.act({"type": "DRAW_CARD"}, seq=2),
            seats["DEFENDER"].act({"type": "DRAW_CARD"}, seq=1),
        )
        replies = [await first_tab.reply(1), await second_tab.reply(2), await seats["DEFENDER"].reply(1)]
        codes = [r.get("code", "ack") for r in replies]
        assert codes.count("ack") == 1 and codes[2] in ("not_your_turn", "stale_version")
        assert set(codes[:2]) == {"ack", "stale_version"}
        await second_tab.close()
        await unchanged_and_playable(server, match_id, seats, 1)

    arun(run())


def test_invalid_utf8_closes_that_socket_only(server: LiveServer) -> None:
    async def run() -> None:
        match_id, seats, tokens = await two_seats(server)
        rogue = await Peer.seated(server, match_id, tokens["DEFENDER"])
        await rogue.conn.send(b"\xff\xfe{", text=True)
        assert await closes_with(rogue) == 1007
        await unchanged_and_playable(server, match_id, seats, 0)

    arun(run())


def test_an_oversized_message_closes_that_socket_only(server: LiveServer) -> None:
    async def run() -> None:
        match_id, seats, tokens = await two_seats(server)
        rogue = await Peer.seated(server, match_id, tokens["ATTACKER"])
        await rogue.send(json.dumps({"type": "hello", "token": "x" * 9000}))
        assert await closes_with(rogue) == 1009
        await unchanged_and_playable(server, match_id, seats, 0)

    arun(run())


def test_a_foreign_origin_is_refused_at_the_handshake(server: LiveServer) -> None:
    async def run() -> None:
        match_id, seats, _ = await two_seats(server)
        with pytest.raises(InvalidStatus) as refused:
            await Peer.open(server, match_id, origin="http://evil.example")
        assert refused.value.response.status_code == 403
        own = await Peer.open(server, match_id, origin=f"http://127.0.0.1:{server.port}")
        await own.send({"type": "hello"})
        assert (await own.expect("welcome"))["seat"] is None
        await own.close()
        await unchanged_and_playable(server, match_id, seats, 0)

    arun(run())


def test_an_unknown_match_closes_with_4404(server: LiveServer) -> None:
    async def run() -> None:
        peer = await Peer.open(server, "no-such-match")
        assert await closes_with(peer) == 4404

    arun(run())


def test_at_most_four_sockets_per_seat(server: LiveServer) -> None:
    async def run() -> None:
        match_id, seats, tokens = await two_seats(server)
        extra = [await Peer.seated(server, match_id, tokens["DEFENDER"]) for _ in range(3)]
        fifth = await Peer.open(server, match_id)
        await fifth.send({"type": "hello", "token": tokens["DEFENDER"]})
        assert (await fifth.reply())["code"] == "rate_limited"
        assert await closes_with(fifth) == 4429
        for peer in extra:
            await peer.close()
        await unchanged_and_playable(server, match_id, seats, 0)

    arun(run())


def test_disconnecting_mid_action_then_resending_applies_it_once(server: LiveServer) -> None:
    async def run() -> None:
        match_id, seats, tokens = await two_seats(server)
        await seats["ATTACKER"].close()
        hasty = await Peer.seated(server, match_id, tokens["ATTACKER"])
        await hasty.act({"type": "DRAW_CARD"}, version=0, seq=7)
        await seats["DEFENDER"].until_version(1)  # the server took it...
        hasty.conn.transport.abort()  # ...but the sender vanished without reading the answer
        back = await Peer.seated(server, match_id, tokens["ATTACKER"])
        assert back.state is not None and back.state["version"] == 1 and back.state["last_seq"] == 7
        await back.act({"type": "DRAW_CARD"}, version=0, seq=7)  # the client does not know: it resends
        assert await back.reply(7) == {"type": "ack", "seq": 7, "version": 1}
        seats["ATTACKER"] = back
        await unchanged_and_playable(server, match_id, seats, 1)

    arun(run())


def test_a_reader_that_never_reads_does_not_hold_up_the_game(server: LiveServer) -> None:
    async def run() -> None:
        match_id, seats, _ = await two_seats(server)
        stuck = await Peer.open(server, match_id, max_queue=1)
        await stuck.send({"type": "hello"})
        stuck.conn.transport.pause_reading()  # type: ignore[attr-defined]
        final = await play_out(seats, [], random.Random(11))
        assert final["status"] == "over"
        stuck.conn.transport.resume_reading()  # type: ignore[attr-defined]
        while stuck.version < final["version"]:
            await stuck.recv()
        assert stuck.state is not None and stuck.state["status"] == "over"
        await stuck.close()

    arun(run())


def test_sync_resends_the_current_state(server: LiveServer) -> None:
    async def run() -> None:
        match_id, seats, _ = await two_seats(server)
        await seats["DEFENDER"].send({"type": "sync"})
        state = await seats["DEFENDER"].expect("state")
        assert state["version"] == 0 and state["seat"] == "DEFENDER" and state["legal_actions"] == []
        await unchanged_and_playable(server, match_id, seats, 0)

    arun(run())


# -- default limits ------------------------------------------------------------------------


def test_a_flood_is_rate_limited_per_socket(strict_server: LiveServer) -> None:
    async def run() -> None:
        match_id, seats, _ = await two_seats(strict_server)
        defender = seats["DEFENDER"]
        for _ in range(40):
            await defender.send({"type": "sync"})
        got = [await defender.recv() for _ in range(40)]
        limited = [m for m in got if m["type"] == "reject"]
        assert limited and all(m["code"] == "rate_limited" for m in limited)
        assert len([m for m in got if m["type"] == "state"]) >= 19  # the burst of 20, minus the hello
        await unchanged_and_playable(strict_server, match_id, seats, 0)

    arun(run())


def test_actions_have_their_own_tighter_limit(strict_server: LiveServer) -> None:
    async def run() -> None:
        match_id, seats, _ = await two_seats(strict_server)
        defender = seats["DEFENDER"]
        for seq in range(1, 16):
            await defender.act({"type": "DRAW_CARD"}, seq=seq)
        codes = [(await defender.reply(seq))["code"] for seq in range(1, 16)]
        assert codes.count("not_your_turn") == 10 and codes.count("rate_limited") == 5
        await unchanged_and_playable(strict_server, match_id, seats, 0)

    arun(run())


def test_a_socket_that_never_says_hello_is_closed(strict_server: LiveServer) -> None:
    async def run() -> None:
        match_id, seats, _ = await two_seats(strict_server)
        silent = await Peer.open(strict_server, match_id)
        assert await closes_with(silent) == 4408
        await unchanged_and_playable(strict_server, match_id, seats, 0)

    arun(run())
