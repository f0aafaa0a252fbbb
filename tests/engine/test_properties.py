"""Property tests over random legal playouts (OpenSpiel's random_sim_test, plus Taktik's contract).

Random games from many seeds and maps check, at every step: reduce accepts every listed
action and rejects mutated unlisted ones leaving the state byte-identical; reduce never
mutates its input; states and actions round-trip through JSON; views hide every secret;
legal actions are canonical and non-empty until VICTORY; and the game ends within the cap.
Replay then reproduces every hash.
"""

from __future__ import annotations

import os
import random

import msgspec
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine import (
    HIDDEN,
    Action,
    CancelMalus,
    ChooseMalusTargets,
    DeclareAttack,
    GameConfig,
    GameRecord,
    GameState,
    IllegalAction,
    MoveUnit,
    Params,
    Phase,
    PlayBonus,
    PlayTactic,
    RulesOverlay,
    Side,
    StoreBonus,
    TableOverrides,
    UnitType,
    VictoryConfig,
    WithdrawAttack,
    decode_action,
    decode_state,
    encode_action,
    encode_state,
    legal_actions,
    new_game,
    player_view,
    reduce,
    replay,
    state_hash,
)
from engine.actions import ACTION_ORDER
from engine.cards.catalogue import TACTICS
from engine.data import label
from engine.flow.phases import decide_to_act
from tests.engine.test_phases import SAMPLE


@st.composite
def maps(draw: st.DrawFn) -> str:
    """Small random maps with every terrain kind and room to deploy both forces."""
    width = draw(st.integers(8, 13))
    height = draw(st.integers(12, 16))
    weights = "........rffuihw=~#"
    rng = random.Random(draw(st.integers(0, 2**32 - 1)))
    rows = []
    for y in range(height):
        row = "".join(rng.choice(weights) for _ in range(width))
        if y < 3 or y >= height - 4:  # deployment room and entry rows
            row = "".join("." if ch in "w~" else ch for ch in row)
        rows.append(row)
    return "\n".join(rows)


def tables() -> st.SearchStrategy[TableOverrides | None]:
    """The standard tables (mostly) or a variant's: every changeable limit and cost (rules §2.4, §5-§7)."""
    half_mp = st.integers(0, 6).map(lambda n: n / 2)
    changed = st.builds(
        TableOverrides,
        road_discount_mp=half_mp,
        river_enter_mp=half_mp,
        river_follow_mp=half_mp,
        max_moves=st.integers(1, 7),
        max_attacks_per_turn=st.integers(1, 7),
        storage_limit=st.integers(0, 8),
        tactic_hand_size=st.integers(0, 11),
    )
    return st.one_of(st.none(), st.none(), changed)


def configs() -> st.SearchStrategy[GameConfig]:
    return st.builds(
        lambda seed, terrain, deck, cap, manual, changed: GameConfig(
            seed=seed,
            terrain=terrain,
            deck=deck,
            deployment="manual" if manual else "auto",
            victory=VictoryConfig(max_actions=cap),
            rules=None if changed is None else RulesOverlay(name="property_tables", tables=changed),
        ),
        st.integers(0, 2**32 - 1),
        maps(),
        st.sampled_from([60, 90]),
        st.integers(150, 900),
        st.booleans(),
        tables(),
    )


def mutations(state: GameState, action: Action, rnd: random.Random) -> list[Action]:
    """Nearby spellings of ``action`` and samples of every type: mostly illegal, sometimes legal."""
    cell = label(rnd.randrange(state.board.width), rnd.randrange(state.board.height))
    ids = [u.id for u in state.units] + ["A1", "D1"]
    out: list[Action] = list(SAMPLE.values())
    match action:
        case MoveUnit():
            out.append(MoveUnit(unit_id=action.unit_id, to=cell))
            out.append(MoveUnit(unit_id=rnd.choice(ids), to=action.to))
        case DeclareAttack():
            out.append(DeclareAttack(attacker_id=action.target_id, target_id=action.attacker_id))
            out.append(DeclareAttack(attacker_id=rnd.choice(ids), target_id=rnd.choice(ids)))
        case PlayBonus():
            out.append(PlayBonus(stored_index=rnd.randrange(8), targets=action.targets, params=action.params))
            out.append(
                PlayBonus(stored_index=action.stored_index, targets=(rnd.choice(ids),), params=Params(cell=cell))
            )
        case PlayTactic():
            out.append(PlayTactic(card_id=rnd.choice(TACTICS).id, targets=action.targets, params=action.params))
            out.append(PlayTactic(card_id=action.card_id, targets=(rnd.choice(ids),)))
        case ChooseMalusTargets():
            out.append(ChooseMalusTargets(unit_ids=tuple(reversed(action.unit_ids))))
            out.append(ChooseMalusTargets(unit_ids=(rnd.choice(ids),)))
        case CancelMalus():
            out.append(CancelMalus(stored_index=action.stored_index, malus_play_id=rnd.randrange(1, 40)))
        case StoreBonus():
            out.append(StoreBonus(replace_index=None if action.replace_index is not None else 0))
        case WithdrawAttack():
            out.append(WithdrawAttack(attacker_id=rnd.choice(ids)))
        case _:
            pass
    return out


def check_view_hides_secrets(state: GameState) -> None:
    deck = set(state.draw_pile)
    for viewer in (Side.ATTACKER, Side.DEFENDER, None):
        view = player_view(state, viewer)
        text = encode_state(view).decode()
        assert view.rng == 0 and all(c == HIDDEN for c in view.draw_pile)
        assert len(view.draw_pile) == len(state.draw_pile)
        for side in (Side.ATTACKER, Side.DEFENDER):
            real, seen = state.player(side), view.player(side)
            if side is viewer:
                assert seen == real
                continue
            assert seen.stored == (HIDDEN,) * len(real.stored)
            assert seen.tactics == (HIDDEN,) * len(real.tactics)
            for card in real.stored:
                assert f'"{card}"' not in text, f"{viewer} sees {side}'s stored {card}"
        for card in deck:
            assert f'"{card}"' not in text, f"{viewer} sees the deck card {card}"
        for event in view.events:
            assert event.private_to in (None, viewer) or event.card in (None, HIDDEN)


_UNIT_FIELDS = {"unit_id", "attacker_id", "target_id", "targets", "unit_ids"}
_CELL_FIELDS = {"to", "cell"}
_TACTIC_ORDER = [card.id for card in TACTICS]
_QUADRANTS = ["NW", "NE", "SW", "SE"]


def canonical_key(state: GameState, action: Action) -> tuple[object, ...]:
    """The §4.3 order: action type, then each field ascending (null first)."""
    key: list[object] = [ACTION_ORDER.index(type(action))]
    for name in action.__struct_fields__:
        value = getattr(action, name)
        if name == "params":
            key.append(_QUADRANTS.index(value.quadrant.value) if value.quadrant else -1)
            key.append(_cell_key(state, value.cell) if value.cell else (-1,))
        elif value is None:
            key.append((-1,))
        elif name in _UNIT_FIELDS:
            key.append(tuple(_unit_key(u) for u in value) if isinstance(value, tuple) else _unit_key(value))
        elif name in _CELL_FIELDS:
            key.append(_cell_key(state, value))
        elif name == "card_id":
            key.append(_TACTIC_ORDER.index(value))
        else:
            key.append((value,))
    return tuple(key)


def _unit_key(unit_id: str) -> tuple[int, int]:
    return (0 if unit_id[0] == "A" else 1, int(unit_id[1:]))


def _cell_key(state: GameState, cell: str) -> tuple[int, int]:
    x, y = state.board.cell_of(cell)
    return (y, x)


EXAMPLES = int(os.environ.get("TAKTIK_PROPERTY_EXAMPLES", "25"))
"""Random games per run; raise it for a thorough local run (CI keeps the default)."""


@settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(config=configs(), seed=st.integers(0, 2**32 - 1))
def test_random_playouts_keep_every_engine_invariant(config: GameConfig, seed: int) -> None:
    rnd = random.Random(seed)
    state = new_game(config)
    actions: list[Action] = []
    hashes: list[str] = []
    while True:
        legal = legal_actions(state)
        assert (not legal) == (state.phase is Phase.VICTORY)
        if not legal:
            assert state.to_act is None and state.winner is not None and state.victory_reason
            break
        assert state.to_act is not None and state.to_act == decide_to_act(state)
        keys = [canonical_key(state, a) for a in legal]
        assert keys == sorted(keys) and len(set(keys)) == len(keys), "legal actions are canonical and distinct"
        before = encode_state(state)
        for candidate in mutations(state, rnd.choice(legal), rnd):
            if candidate in legal:
                continue
            try:
                reduce(state, candidate)
            except IllegalAction:
                pass
            else:
                raise AssertionError(f"reduce accepted unlisted {encode_action(candidate)}")
            assert encode_state(state) == before
        action = rnd.choice(legal)
        assert decode_action(encode_action(action), state) == action
        state_next = reduce(state, action)
        assert encode_state(state) == before, "reduce mutated its input"
        assert decode_state(encode_state(state_next)) == state_next
        if len(actions) % 7 == 0:
            check_view_hides_secrets(state_next)
        state = state_next
        actions.append(action)
        hashes.append(state_hash(state))
        assert len(actions) <= config.victory.max_actions
    record = GameRecord(config=config, actions=tuple(actions), hashes=tuple(hashes))
    replayed = list(replay(record))
    assert state_hash(replayed[-1]) == hashes[-1]
    assert msgspec.json.decode(msgspec.json.encode(record), type=GameRecord) == record


@settings(max_examples=15, deadline=None)
@given(seed=st.integers(0, 2**32 - 1))
def test_same_config_and_actions_give_the_same_hashes(seed: int) -> None:
    config = GameConfig(seed=seed, terrain="\n".join(["." * 10] * 14), victory=VictoryConfig(max_actions=120))
    rnd = random.Random(seed)
    state, actions = new_game(config), []
    while legal_actions(state):
        actions.append(rnd.choice(legal_actions(state)))
        state = reduce(state, actions[-1])
    again = new_game(config)
    for action in actions:
        again = reduce(again, action)
    assert state_hash(again) == state_hash(state)


def test_every_unit_type_appears_in_the_property_forces() -> None:
    state = new_game(GameConfig(seed=1, terrain="\n".join(["." * 10] * 14)))
    assert {u.type for u in state.units} == set(UnitType)
