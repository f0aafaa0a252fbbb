"""`new_game`: setup, the rng consumption order, scenario overrides and config validation."""

from __future__ import annotations

from collections import Counter

import pytest

from engine import (
    Forces,
    GameConfig,
    Leaders,
    PerSide,
    Phase,
    Side,
    UnitType,
    VictoryConfig,
    VictoryPoints,
    new_game,
    state_hash,
)
from engine.board.zones import home_side
from engine.cards.catalogue import TACTICS
from engine.data import CARDS
from engine.rng import pick, shuffle
from tests.support import OPEN_10, config, shipped_card, shipped_deck, start

OPEN_12x15 = "\n".join(["." * 12] * 15)


def forces_game(seed: int = 5, deck: int = 60) -> GameConfig:
    return GameConfig(seed=seed, terrain=OPEN_12x15, deck=deck)  # type: ignore[arg-type]


@pytest.mark.parametrize(("deck", "split"), [(60, (10, 26, 6, 18)), (90, (20, 36, 9, 25))])
def test_deck_has_the_documented_split(deck: int, split: tuple[int, int, int, int]) -> None:
    state = new_game(forces_game(deck=deck))
    counts = Counter((shipped_card(c).kind, shipped_card(c).card_class) for c in state.draw_pile)
    assert len(state.draw_pile) == deck
    assert (
        counts["bonus", "special"],
        counts["bonus", "generic"],
        counts["malus", "special"],
        counts["malus", "generic"],
    ) == split


def test_rng_is_consumed_in_the_documented_order() -> None:
    seed = 12345
    state = new_game(forces_game(seed=seed))
    deck, rng = shuffle(shipped_deck(60), seed)
    assert state.draw_pile == deck
    pool = [card.id for card in TACTICS]
    for player in state.players:  # ATTACKER first
        hand, rng = shuffle(pool, rng)
        assert player.tactics == tuple(sorted(hand[:6], key=pool.index))
    # explicit terrain consumes nothing; auto-deployment picks DEFENDER D1..D15 then ATTACKER A1..A10
    occupied: set[str] = set()
    for unit_id in [f"D{n}" for n in range(1, 16)] + [f"A{n}" for n in range(1, 11)]:
        side = Side.ATTACKER if unit_id[0] == "A" else Side.DEFENDER
        zone = [
            f"{chr(65 + x)}{y + 1}"
            for y in range(15)
            for x in range(12)
            if home_side(y, 15) is side and f"{chr(65 + x)}{y + 1}" not in occupied
        ]
        index, rng = pick(len(zone), rng)
        assert state.unit(unit_id).cell == zone[index]  # type: ignore[union-attr]
        occupied.add(zone[index])
    assert state.rng == rng


def test_tactic_hands_are_six_distinct_cards_of_the_pool() -> None:
    for seed in range(20):
        for player in new_game(forces_game(seed=seed)).players:
            assert len(player.tactics) == 6 == len(set(player.tactics))
            assert all(CARDS[t].kind == "tactic" for t in player.tactics)


def test_forces_follow_the_standard_composition() -> None:
    state = new_game(forces_game())
    kinds = Counter((u.side, u.type) for u in state.units)
    assert kinds == {
        (Side.ATTACKER, UnitType.LIGHT_INFANTRY): 6,
        (Side.ATTACKER, UnitType.MECHANIZED): 3,
        (Side.ATTACKER, UnitType.SPECIAL): 1,
        (Side.DEFENDER, UnitType.LIGHT_INFANTRY): 8,
        (Side.DEFENDER, UnitType.MECHANIZED): 5,
        (Side.DEFENDER, UnitType.SPECIAL): 2,
    }
    assert [u.id for u in state.units] == [f"A{n}" for n in range(1, 11)] + [f"D{n}" for n in range(1, 16)]
    assert state.unit("A7").type is UnitType.MECHANIZED and state.unit("A10").type is UnitType.SPECIAL  # type: ignore[union-attr]
    assert state.unit("D9").type is UnitType.MECHANIZED and state.unit("D14").type is UnitType.SPECIAL  # type: ignore[union-attr]


def test_deployed_units_stand_in_their_zones_on_distinct_legal_cells() -> None:
    terrain = "\n".join(["..~.w.=...ff"] * 15)
    state = new_game(GameConfig(seed=9, terrain=terrain))
    cells = [u.cell for u in state.units]
    assert len(set(cells)) == len(cells)
    for u in state.units:
        assert u.cell is not None
        x, y = state.board.cell_of(u.cell)
        assert home_side(y, 15) is u.side
        assert state.board.char_at(x, y) in ".f="  # never water or plain river
        assert state.board.char_at(x, y) == "."  # PLAIN without road or river is preferred while free


def test_auto_deployment_falls_back_to_any_legal_cell() -> None:
    terrain = "\n".join(["ffffffffff"] * 3 + ["..........", "ffffffffff"] * 3 + [".........."])
    state = new_game(GameConfig(seed=2, terrain=terrain))
    attacker_cells = {u.cell for u in state.units if u.side is Side.ATTACKER}
    assert all(state.board.char_at(*state.board.cell_of(c)) == "f" for c in attacker_cells)  # type: ignore[arg-type]


def test_default_start_is_card_draw_of_turn_one_for_the_attacker() -> None:
    state = new_game(forces_game())
    assert (state.phase, state.turn, state.active, state.to_act) == (Phase.CARD_DRAW, 1, Side.ATTACKER, Side.ATTACKER)
    assert state.events == () and state.actions_taken == 0


@pytest.mark.parametrize("phase", ["CARD_DRAW", "CARD_RESOLUTION", "MOVEMENT", "ATTACK", "DICE_RESOLUTION"])
@pytest.mark.parametrize("side", [Side.ATTACKER, Side.DEFENDER])
def test_scenarios_start_in_the_named_resting_phase(phase: str, side: Side) -> None:
    state = start(phase=phase, side=side)
    assert state.phase.value == phase and state.active is side and state.to_act is side
    assert state.turn == (1 if side is Side.ATTACKER else 2)


def test_same_config_gives_the_same_state_and_hash() -> None:
    assert state_hash(new_game(forces_game(seed=77))) == state_hash(new_game(forces_game(seed=77)))
    assert state_hash(new_game(forces_game(seed=77))) != state_hash(new_game(forces_game(seed=78)))


def test_overridden_parts_consume_no_randomness() -> None:
    given = start(draw=["air_cover#1"], tactics=(["dense_fog"], []), seed=99)
    assert given.rng == 99
    assert given.draw_pile == ("air_cover#1",)
    assert given.player(Side.ATTACKER).tactics == ("dense_fog",)


def test_stored_cards_leave_the_shuffled_deck() -> None:
    state = new_game(
        GameConfig(seed=4, terrain=OPEN_12x15, stored=PerSide(attacker=("air_cover#1",), defender=("air_cover#2",)))
    )
    assert "air_cover#1" not in state.draw_pile and len(state.draw_pile) == 58


def _unit_config(*specs: str, **kw: object) -> GameConfig:
    return config(unit_specs=specs, **kw)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("make", "message"),
    [
        (lambda: _unit_config("A1 L B2"), "DEFENDER has no units"),
        (lambda: _unit_config("A1 L B2", "D1 L B2"), "units A1 and D1 share cell B2"),
        (lambda: _unit_config("A1 L B2", "D1 L K2"), "unit D1: cell K2 is off the board"),
        (
            lambda: _unit_config("A1 L B2", "D1 L B8", terrain=OPEN_10.replace(".", "w", 12)),
            "unit A1 stands on B2, whose terrain blocks units",
        ),
        (lambda: _unit_config("A1 L B2", "A1 L B3", "D1 L B8"), "unit id A1 is used twice"),
        (lambda: _unit_config("A1 L B2", "D1 L B8 hp=2"), "has 2 HP; a LIGHT_INFANTRY has at most 1"),
        (lambda: _unit_config("A1 L B2", "D1 L B8", draw=["air_cover#9"]), "draw_pile card 'air_cover#9'"),
        (lambda: _unit_config("A1 L B2", "D1 L B8", draw=["blackout#1", "blackout#1"]), "names a card instance twice"),
        (lambda: _unit_config("A1 L B2", "D1 L B8", stored=(["blackout#1"], [])), "is not a bonus card"),
        (
            lambda: _unit_config("A1 L B2", "D1 L B8", stored=([f"troop_motivation#{n}" for n in range(1, 8)], [])),
            "stores 7 bonuses; the limit is 6",
        ),
        (lambda: _unit_config("A1 L B2", "D1 L B8", tactics=(["air_cover"], [])), "'air_cover' is not a tactic"),
        (
            lambda: _unit_config(
                "A1 L B2", "D1 L B8", victory=VictoryConfig(leaders=Leaders(attacker="A1", defender="D2"))
            ),
            "leaders.defender: D2 is not a DEFENDER unit",
        ),
        (
            lambda: _unit_config(
                "A1 L B2", "D1 L B8", victory=VictoryConfig(victory_points=VictoryPoints(points=("Z9",)))
            ),
            "victory.victory_points.points: Z9 is not a cell",
        ),
        (lambda: GameConfig(terrain=OPEN_10, width=12), "config width 12 does not match the terrain map's width 10"),
        (
            lambda: GameConfig(
                terrain=OPEN_10,
                forces=PerSide(
                    attacker=Forces(light=5, mechanized=4, special=1), defender=Forces(light=8, mechanized=5, special=2)
                ),
            ),
            "ATTACKER fields 5 LIGHT_INFANTRY; the rules allow 6-8",
        ),
        (
            lambda: GameConfig(
                terrain=OPEN_10,
                forces=PerSide(
                    attacker=Forces(light=7, mechanized=3, special=1), defender=Forces(light=8, mechanized=5, special=2)
                ),
            ),
            "ATTACKER fields 11 units; the rules require 10",
        ),
        (
            lambda: GameConfig(terrain="\n".join(["." * 4] * 4)),
            "ATTACKER has 10 units but only 4 legal deployment cells",
        ),
        (lambda: _unit_config("A1 L B2", "D1 L B8", deployment="manual"), "manual deployment places the configured"),
    ],
)
def test_invalid_configs_raise_value_error_naming_the_problem(make: object, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        new_game(make())  # type: ignore[operator]


def test_new_game_never_returns_a_transient_phase() -> None:
    for phase in (None, "CARD_DRAW", "MOVEMENT", "DICE_RESOLUTION"):
        assert start(phase=phase).phase not in (Phase.TURN_START, Phase.END_TURN)
