"""A game's rules travel in the game (`engine.cards.game`): a variant's cards are part of its state.

A variant state decoded in a fresh process goes on with the same hashes; games of different
variants interleaved in one process hash as each does alone; a state that names a card its
game does not carry, or a variant that does not load, is refused with the JSON path, and
nothing is kept anywhere either way.
"""

from __future__ import annotations

import json
import random
import subprocess
import sys
from pathlib import Path
from typing import Any

import msgspec
import pytest

from engine import (
    GameConfig,
    GameState,
    InvalidState,
    RulesOverlay,
    VictoryConfig,
    card_of,
    decode_state,
    encode_state,
    legal_actions,
    new_game,
    reduce,
    state_hash,
)
from engine.data import CARDS, DECK_SOURCES, game_cards
from tests.support import OPEN_10

ROOT = Path(__file__).resolve().parents[2]
CARDS_AS_DATA = {card.id: msgspec.to_builtins(card) for card in CARDS.values()}


def _language_cards(copies: int) -> list[dict[str, Any]]:
    """The card-language cards of the shipped ``field_manual`` file, under new ids, ``copies`` each in the deck."""
    standard = {c.id for c in DECK_SOURCES["standard"][0]}
    cards = []
    for card in DECK_SOURCES["field_manual"][0]:
        if card.id in standard:
            continue
        data = msgspec.to_builtins(card)
        data["id"] = f"v_{card.id}"
        data["copies_60"] = copies
        cards.append(data)
    return cards


def variant(name: str, copies: int, fog_text: str) -> RulesOverlay:
    """A variant: the card-language cards added, a tactic changed (so renamed), a bonus removed."""
    fog = msgspec.to_builtins(CARDS["dense_fog"]) | {"text": fog_text}
    return RulesOverlay(name=name, cards=(*_language_cards(copies), fog), removed=("air_cover",))


def config(seed: int, overlay: RulesOverlay) -> GameConfig:
    return GameConfig(seed=seed, terrain=OPEN_10, rules=overlay, victory=VictoryConfig(max_actions=400))


def play_on(state: GameState, seed: int, steps: int) -> list[str]:
    """Random legal actions from ``state`` (chosen by ``seed``), and the hash after each."""
    rng = random.Random(seed)
    hashes = []
    for _ in range(steps):
        actions = legal_actions(state)
        if not actions:
            break
        state = reduce(state, rng.choice(actions))
        hashes.append(state_hash(state))
    return hashes


def in_a_fresh_process(code: str, payload: dict[str, Any]) -> Any:
    """Run ``code`` (it reads ``payload`` from stdin, prints JSON) in a new interpreter: no cache, no card seen."""
    done = subprocess.run(
        [sys.executable, "-c", code], input=json.dumps(payload), capture_output=True, text=True, cwd=ROOT, timeout=300
    )
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


_CONTINUE = """
import json, sys
from engine import decode_state
from tests.engine.test_game_cards import play_on
payload = json.load(sys.stdin)
print(json.dumps(play_on(decode_state(payload["state"]), payload["seed"], payload["steps"])))
"""

_ALONE = """
import json, sys, msgspec
from engine import GameConfig, new_game
from tests.engine.test_game_cards import play_on
payload = json.load(sys.stdin)
print(json.dumps(play_on(new_game(msgspec.json.decode(payload["config"], type=GameConfig)), 7, payload["steps"])))
"""


def test_a_variant_state_decoded_in_a_fresh_process_goes_on_with_the_same_hashes() -> None:
    state = new_game(config(5, variant("fresh", copies=3, fog_text="Thicker fog.")))
    state = reduce(state, legal_actions(state)[0])
    for _ in range(60):  # into the game, so that variant cards are in hands, piles and effects
        state = reduce(state, random.Random(_).choice(legal_actions(state)))
    assert state.rules.card_changes is not None
    assert any(c.startswith("v_") for c in (*state.draw_pile, *state.discard_pile))
    here = play_on(state, seed=11, steps=300)
    there = in_a_fresh_process(_CONTINUE, {"state": encode_state(state).decode(), "seed": 11, "steps": 300})
    assert len(here) > 100 and there == here


def test_games_of_different_variants_interleaved_hash_as_each_does_alone() -> None:
    configs = [
        config(3, variant("thick", copies=3, fog_text="Thicker fog.")),
        config(3, variant("thin", copies=1, fog_text="Thinner fog.")),
        GameConfig(seed=3, terrain=OPEN_10, victory=VictoryConfig(max_actions=400)),
    ]
    alone = [in_a_fresh_process(_ALONE, {"config": msgspec.json.encode(c).decode(), "steps": 250}) for c in configs]
    states = [new_game(c) for c in configs]
    rngs = [random.Random(7) for _ in configs]
    interleaved: list[list[str]] = [[] for _ in configs]
    for _ in range(250):
        for i, state in enumerate(states):
            actions = legal_actions(state)
            if actions:
                states[i] = reduce(state, rngs[i].choice(actions))
                interleaved[i].append(state_hash(states[i]))
    assert interleaved == alone and all(len(hashes) > 100 for hashes in alone)
    fogs = [next(t for t in game_cards(s.rules)[1] if t.id.startswith("dense_fog")) for s in states]
    assert len({(fog.id, fog.text) for fog in fogs}) == 3  # one tactic, three definitions, three ids
    assert [card_of(s.rules, fog.id) for s, fog in zip(states, fogs, strict=True)] == fogs


def test_a_state_naming_a_card_its_game_does_not_carry_is_refused_with_the_path() -> None:
    state = new_game(config(5, variant("named", copies=3, fog_text="Thicker fog.")))
    raw = encode_state(state).decode()
    decode_state(raw)
    standard = new_game(GameConfig(seed=5, terrain=OPEN_10))
    stranger = encode_state(msgspec.structs.replace(standard, draw_pile=(state.draw_pile[0], "v_fumble#1"))).decode()
    with pytest.raises(InvalidState, match=r"card 'v_fumble#1' is not a card of this game - at `\$.draw_pile\[1\]`"):
        decode_state(stranger)
    hand = state.players[0].tactics[0]
    gone = raw.replace(f'"{hand}"', '"no_such_tactic"', 1)
    with pytest.raises(
        InvalidState, match=r"'no_such_tactic' is not a card of this game - at `\$.players\[0\].tactics"
    ):
        decode_state(gone)


def test_a_carried_card_the_engine_would_not_act_on_is_refused_with_the_path() -> None:
    state = new_game(config(5, variant("broken", copies=1, fog_text="Fog.")))
    data = json.loads(encode_state(state))
    data["rules"]["card_changes"]["cards"][0]["effects"][0]["op"] = "halve"
    with pytest.raises(InvalidState, match=r"field `effects\[0\]\.op`.* - at `\$.rules.card_changes.cards\[0\]`"):
        decode_state(json.dumps(data))
    with pytest.raises(InvalidState, match=r"invalid state: .* - at `\$.rules.card_changes.cards\[0\].effects"):
        data["rules"]["card_changes"]["cards"][0]["effects"] = "none"
        decode_state(json.dumps(data))


def test_a_variant_that_does_not_load_is_refused_with_its_path_and_leaves_nothing_behind() -> None:
    shipped = dict(CARDS)
    before = state_hash(new_game(GameConfig(seed=9)))
    bad = msgspec.to_builtins(CARDS["dense_fog"]) | {"id": "dense_fog", "window": "nowhere"}
    with pytest.raises(ValueError, match=r"^\$\.rules\.cards\[0\]\.window: card 'dense_fog': Invalid enum value"):
        new_game(GameConfig(seed=9, rules=RulesOverlay(name="bad", cards=(bad,))))
    second = msgspec.to_builtins(CARDS["air_cover"])
    second["effects"][0]["op"] = "halve"
    with pytest.raises(ValueError, match=r"^\$\.rules\.cards\[1\]\.effects\[0\]\.op: card 'air_cover': field"):
        new_game(GameConfig(seed=9, rules=RulesOverlay(name="bad", cards=(CARDS_AS_DATA["fumble"], second))))
    with pytest.raises(ValueError, match=r"^\$\.rules\.removed\[1\]: 'air_cuver' is not a card of deck source"):
        new_game(GameConfig(seed=9, rules=RulesOverlay(name="bad", removed=("air_cover", "air_cuver"))))
    assert dict(CARDS) == shipped and state_hash(new_game(GameConfig(seed=9))) == before
