"""Actions and states in JSON: strict decoding whose errors name the field and the problem."""

from __future__ import annotations

import copy
import hashlib
import pickle

import msgspec
import pytest

from engine import (
    ACTION_ORDER,
    MAX_GAME_LENGTH,
    GameConfig,
    InvalidAction,
    MoveUnit,
    Params,
    PlayBonus,
    PlayTactic,
    RoundLimit,
    Side,
    TerrainParams,
    VictoryConfig,
    decode_action,
    decode_state,
    draw_index,
    encode_action,
    encode_state,
    legal_actions,
    new_game,
    player_view,
    reduce,
    state_hash,
)
from engine.actions import ActionBase
from tests.support import start

EXPECTED_TAGS = [
    "NEXT_PHASE",
    "END_TURN",
    "DRAW_CARD",
    "PLAY_BONUS",
    "STORE_BONUS",
    "DISCARD_BONUS",
    "ACCEPT_MALUS",
    "CHOOSE_MALUS_TARGETS",
    "CANCEL_MALUS",
    "MOVE_UNIT",
    "DECLARE_ATTACK",
    "WITHDRAW_ATTACK",
    "ROLL_DICE",
    "RESOLVE_ATTACK",
    "PLAY_TACTIC",
    "PASS_REACTION",
    "DEPLOY_UNIT",
    "AUTO_DEPLOY",
    "CONFIRM_DEPLOYMENT",
]


def test_tags_are_explicit_stable_and_in_table_order() -> None:
    assert [t.__struct_config__.tag for t in ACTION_ORDER] == EXPECTED_TAGS


@pytest.mark.parametrize("action_type", ACTION_ORDER)
def test_actions_are_keyword_only(action_type: type[ActionBase]) -> None:
    with pytest.raises(TypeError):
        action_type("A1")


def test_encode_is_canonical_and_round_trips() -> None:
    action = PlayBonus(stored_index=2, targets=("A7",), params=Params(cell="C1"))
    text = encode_action(action)
    assert text == '{"type":"PLAY_BONUS","stored_index":2,"targets":["A7"],"params":{"cell":"C1"}}'
    assert decode_action(text) == action
    assert encode_action(decode_action(text)) == text


def test_every_legal_action_round_trips() -> None:
    state = start(units=("A1 L B2", "A7 M C2", "D1 L B4"), phase="MOVEMENT")
    for action in legal_actions(state):
        assert decode_action(encode_action(action), state) == action


def test_decode_accepts_an_already_parsed_object() -> None:
    assert decode_action({"type": "MOVE_UNIT", "unit_id": "A7", "to": "K16"}) == MoveUnit(unit_id="A7", to="K16")


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ('{"type": "TELEPORT"}', r"Invalid value 'TELEPORT' - at `\$.type`"),
        ('{"unit_id": "A1", "to": "B2"}', r"missing required field `type`"),
        ('{"type": "NEXT_PHASE", "extra": 1}', r"unknown field `extra`"),
        ('{"type": "MOVE_UNIT", "unit_id": "A1", "to": 7}', r"Expected `str`, got `int` - at `\$.to`"),
        ('{"type": "MOVE_UNIT", "unit_id": "A1"}', r"missing required field `to`"),
        ('{"type": "STORE_BONUS", "replace_index": true}', r"got `bool` - at `\$.replace_index`"),
        ('{"type": "STORE_BONUS", "replace_index": -1}', r">= 0 - at `\$.replace_index`"),
        ('{"type": "STORE_BONUS", "replace_index": 100}', r"<= 99 - at `\$.replace_index`"),
        ('{"type": "STORE_BONUS", "replace_index": 1e400}', r"at `\$.replace_index`"),
        ('{"type": "CANCEL_MALUS", "stored_index": 0, "malus_play_id": 0}', r">= 1 - at `\$.malus_play_id`"),
        ('{"type": "MOVE_UNIT", "unit_id": "Z1", "to": "B2"}', r"matching regex .* - at `\$.unit_id`"),
        ('{"type": "MOVE_UNIT", "unit_id": "A1", "to": "b2"}', r"matching regex .* - at `\$.to`"),
        ('{"type": "PLAY_TACTIC", "card_id": "dense_fog", "params": {"quadrant": "N"}}', r"at `\$.params.quadrant`"),
        ('{"type": "PLAY_TACTIC", "card_id": "dense_fog", "params": {"weather": 1}}', r"unknown field `weather`"),
        ('{"type": "CHOOSE_MALUS_TARGETS", "unit_ids": "A1"}', r"Expected `array`, got `str` - at `\$.unit_ids`"),
        ("[1, 2]", r"Expected `object`, got `array`"),
        ("{", r"truncated|malformed"),
        ('{"type": "NEXT_PHASE"} trailing', r"trailing characters|malformed"),
        (b"\xff\xfe", r"invalid action"),
    ],
)
def test_decode_errors_name_the_field_and_problem(data: str | bytes, message: str) -> None:
    with pytest.raises(InvalidAction, match=message):
        decode_action(data)


def test_decode_rejects_a_non_object() -> None:
    with pytest.raises(InvalidAction, match="expected a JSON object"):
        decode_action(42)  # type: ignore[arg-type]


def test_decode_with_a_state_rejects_unknown_units_and_off_board_cells() -> None:
    state = start(units=("A1 L B2", "D1 L B8"), phase="MOVEMENT")
    with pytest.raises(InvalidAction, match=r"unknown unit 'A2' - at `\$.unit_id`"):
        decode_action('{"type": "MOVE_UNIT", "unit_id": "A2", "to": "B3"}', state)
    with pytest.raises(InvalidAction, match=r"cell K3 is off the 10x10 board - at `\$.to`"):
        decode_action('{"type": "MOVE_UNIT", "unit_id": "A1", "to": "K3"}', state)
    with pytest.raises(InvalidAction, match=r"unknown unit 'D9' - at `\$.targets\[0\]`"):
        decode_action(encode_action(PlayTactic(card_id="natural_cover", targets=("D9",))), state)
    with pytest.raises(InvalidAction, match=r"off the 10x10 board - at `\$.params.cell`"):
        decode_action(encode_action(PlayBonus(targets=("A1",), params=Params(cell="A11"))), state)
    with pytest.raises(InvalidAction, match=r"unknown tactic card 'air_cover' - at `\$.card_id`"):
        decode_action('{"type": "PLAY_TACTIC", "card_id": "air_cover"}', state)  # a bonus, not a tactic
    with pytest.raises(InvalidAction, match=r"unknown tactic card 'ambush@1a2b3c4d' - at `\$.card_id`"):
        decode_action('{"type": "PLAY_TACTIC", "card_id": "ambush@1a2b3c4d"}', state)  # no variant in this game


def test_states_round_trip_through_json() -> None:
    state = start(units=("A1 L B2", "D1 L B8"), phase="MOVEMENT")
    assert decode_state(encode_state(state)) == state
    assert state_hash(decode_state(encode_state(state))) == state_hash(state)


def test_state_hash_is_a_sha256_hex_digest_that_changes_with_the_state() -> None:
    state = start(phase="MOVEMENT")
    digest = state_hash(state)
    assert len(digest) == 64 and int(digest, 16) >= 0
    moved = legal_actions(state)[-1]
    from engine import reduce

    assert state_hash(reduce(state, moved)) != digest


def test_state_hash_is_the_sha256_of_encode_state_at_every_step_of_interleaved_games() -> None:
    """`state_hash` keeps its large parts' encodings from the last state hashed: two games (default and
    variant deck) hashed in turns, with each side's view between, still hash exactly their `encode_state`."""
    games = [new_game(GameConfig(seed=8)), new_game(GameConfig(seed=9, cards="field_manual"))]
    choices = [3, 4]
    for _ in range(400):
        for i, state in enumerate(games):
            for seen in (state, player_view(state, Side.ATTACKER), state):
                assert state_hash(seen) == hashlib.sha256(encode_state(seen)).hexdigest()
            legal = legal_actions(state)
            if legal:
                index, choices[i] = draw_index(len(legal), choices[i])
                games[i] = reduce(state, legal[index])
    assert all(g.actions_taken == 400 for g in games)


def test_equal_configs_encode_and_hash_the_same_however_they_were_built() -> None:
    # Encodings omit defaults, and msgspec recognises a default by identity: a config
    # rebuilt by pickle, deepcopy, JSON or by hand must still encode and hash the same.
    plain = GameConfig(seed=3)
    rebuilt = [
        pickle.loads(pickle.dumps(plain)),
        copy.deepcopy(plain),
        GameConfig(
            seed=3,
            victory=VictoryConfig(round_limit=RoundLimit(), max_actions=int(str(MAX_GAME_LENGTH))),
            terrain_params=TerrainParams(),
            deployment="".join(["au", "to"]),
        ),
        msgspec.json.decode(
            b'{"seed":3,"victory":{"max_actions":%d,"round_limit":{"max_rounds":25},'
            b'"victory_points":{"threshold":5}}}' % MAX_GAME_LENGTH,
            type=GameConfig,
        ),
    ]
    for other in rebuilt:
        assert other == plain
        assert msgspec.json.encode(other) == b'{"seed":3}'
        assert state_hash(new_game(other)) == state_hash(new_game(plain))
    changed = GameConfig(seed=3, victory=VictoryConfig(max_actions=4000))
    assert msgspec.json.encode(changed) == b'{"seed":3,"victory":{"max_actions":4000}}'
