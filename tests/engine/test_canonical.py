"""Equal values encode alike wherever they were built (`engine.canonical`).

msgspec omits a field at its default only when the value *is* the default object, so without
`keep_defaults` a state rebuilt by pickle (how Ray and process pools move values), or a config
that spells a default out, would encode and hash differently from the same state built here.
"""

from __future__ import annotations

import copy
import pickle

import msgspec
import pytest

from engine import (
    GameConfig,
    GameState,
    RulesOverlay,
    TableOverrides,
    decode_state,
    encode_state,
    new_game,
    state_hash,
)
from engine.data import CARDS

VARIANT = RulesOverlay(
    name="spelled",
    cards=(msgspec.to_builtins(CARDS["dense_fog"]) | {"text": "Thicker fog."},),
    tables=TableOverrides(max_moves=4, river_enter_mp=1.5),
)


@pytest.mark.parametrize("config", [GameConfig(seed=3), GameConfig(seed=3, rules=VARIANT)], ids=["standard", "variant"])
def test_a_state_moved_between_processes_keeps_its_encoding(config: GameConfig) -> None:
    state = new_game(config)
    for moved in (pickle.loads(pickle.dumps(state)), copy.deepcopy(state), decode_state(encode_state(state))):
        assert encode_state(moved) == encode_state(state) and state_hash(moved) == state_hash(state)


def test_a_config_that_spells_its_defaults_out_plays_the_same_game() -> None:
    spelled = msgspec.json.decode(
        b'{"seed": 3, "cards": "standard", "deployment": "auto", "victory": {"max_actions": 10000,'
        b' "round_limit": {"max_rounds": 25}, "victory_points": {"threshold": 5}}}',
        type=GameConfig,
    )
    assert msgspec.json.encode(spelled) == b'{"seed":3}'
    assert state_hash(new_game(spelled)) == state_hash(new_game(GameConfig(seed=3)))


def test_rules_that_spell_their_defaults_out_decode_to_the_same_state() -> None:
    state = new_game(GameConfig(seed=3, rules=VARIANT))
    data = msgspec.json.decode(encode_state(state))
    data["rules"]["cards"] = "standard"
    data["rules"]["tables"]["road_discount_mp"] = 0.5
    decoded: GameState = decode_state(msgspec.json.encode(data))
    assert encode_state(decoded) == encode_state(state)
