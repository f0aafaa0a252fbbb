"""The card language's second round of words (issue 35): each written as a card, played through `reduce`.

Every scenario writes its card as JSON (the way a designer does), carries it in the game's
rules (`RulesOverlay`), plays it with `reduce` (through `play`, which also checks each
action is listed by `legal_actions`) and checks what the word says happened.
"""

from __future__ import annotations

from typing import Any

import pytest

from engine import (
    DeclareAttack,
    EventKind,
    GameState,
    IllegalAction,
    MoveUnit,
    NextPhase,
    PlayBonus,
    PlayTactic,
    ResolveAttack,
    RollDice,
    RulesOverlay,
    Side,
    legal_actions,
    new_game,
    reduce,
)
from engine.analysis import attack_odds, hit_chance_and_damage
from engine.data import load_cards
from engine.errors import CardDataError
from tests.engine.test_card_ops import holding
from tests.support import config, play, seed_rolling, start, terrain_with, unit

A, D = Side.ATTACKER, Side.DEFENDER
_TIMING = {"bonus": "stored", "malus": "immediate", "tactic": "reaction"}


def card(card_id: str, kind: str, effects: list[dict[str, Any]], **fields: Any) -> dict[str, Any]:
    """A complete card as a designer writes it (one copy in a 60- and a 90-card deck)."""
    return {
        "id": card_id,
        "name": card_id.replace("_", " ").title(),
        "kind": kind,
        "class": "generic",
        "category": "test",
        "timing": _TIMING[kind],
        "copies_60": 1,
        "copies_90": 1,
        "text": f"Test card {card_id}.",
        "effects": effects,
        **fields,
    }


def rules(*cards: dict[str, Any], abilities: tuple[dict[str, Any], ...] = ()) -> RulesOverlay:
    return RulesOverlay(name="words", cards=cards, abilities=abilities)


def refusal(obj: dict[str, Any]) -> str:
    """Why the loader refuses ``obj`` (it must)."""
    key = "tactics" if obj["kind"] == "tactic" else "common"
    import json

    with pytest.raises(CardDataError) as err:
        load_cards(json.dumps({"common": [], "tactics": [], key: [obj]}).encode())
    return str(err.value)


def attack_and_roll(state: GameState, attacker: str = "A1", target: str = "D1") -> GameState:
    return play(state, DeclareAttack(attacker_id=attacker, target_id=target), NextPhase(), RollDice())


def card_rules(state: GameState) -> list[str]:
    return [e.detail or "" for e in state.events if e.kind is EventKind.CARD_RULE]


# Outcome-based rerolls ------------------------------------------------------------------------

STEADY = card(
    "test_steady",
    "bonus",
    [{"hook": "reroll_attack_die", "op": "reroll_miss", "scope": "own_attacks", "duration": "end_of_turn"}],
)


def test_a_missed_die_is_thrown_again_once() -> None:
    base = start(rules=rules(STEADY), units=("A1 L B2", "D1 L B4"), phase="ATTACK", draw=[], seed=seed_rolling(1, 6))
    assert attack_and_roll(base).last_roll.outcome == "MISS"  # type: ignore[union-attr]
    state = play(holding(base, A, stored=("test_steady#1",)), PlayBonus(stored_index=0))
    chance, _ = hit_chance_and_damage(state, unit(state, "A1"), unit(state, "D1"), 2)
    assert chance == pytest.approx(0.75)  # 4+ hits half the time, and a miss gets a second half
    state = attack_and_roll(state)
    assert (state.last_roll.natural, state.last_roll.outcome) == (6, "HIT")  # type: ignore[union-attr]
    assert card_rules(state) == ["Test Steady: a miss is rerolled once"]


def test_a_reacting_player_makes_a_hit_be_thrown_again() -> None:
    jinx = card(
        "test_jinx",
        "tactic",
        [{"hook": "reroll_attack_die", "op": "reroll_hit", "scope": "all_attacks", "duration": "end_of_turn"}],
        window="beforeAttackRoll",
        side="reacting",
    )
    state = start(rules=rules(jinx), units=("A1 L B2", "D1 L B4"), phase="ATTACK", draw=[], seed=seed_rolling(6, 1))
    state = holding(state, D, tactics=("test_jinx",))
    state = play(state, DeclareAttack(attacker_id="A1", target_id="D1"), NextPhase())
    assert state.to_act is D
    state = play(state, PlayTactic(card_id="test_jinx"), RollDice())
    assert (state.last_roll.natural, state.last_roll.outcome) == (1, "MISS")  # type: ignore[union-attr]


# Terrain proximity, terrain tags, bridges ---------------------------------------------------------

WOODSMEN = card(
    "test_woodsmen",
    "bonus",
    [
        {
            "hook": "modify_attack_roll",
            "op": "add",
            "value": 1,
            "scope": "own_attacks",
            "duration": "end_of_turn",
            "when": {"if": "near", "within": 2, "terrain": ["FOREST"]},
            "says": "within 2 cells of a forest, +1 to hit",
        }
    ],
)


def test_a_unit_near_a_forest_gets_the_bonus_and_one_far_from_it_does_not() -> None:
    state = start(
        rules=rules(WOODSMEN),
        terrain=terrain_with(C4="f"),
        units=("A1 L B2", "A2 L H2", "D1 L B4", "D2 L H4"),
        phase="ATTACK",
        draw=[],
        seed=seed_rolling(3, 2),
    )
    state = play(holding(state, A, stored=("test_woodsmen#1",)), PlayBonus(stored_index=0))
    near = attack_and_roll(state)
    assert [m.clause for m in near.last_roll.modifiers] == ["Test Woodsmen: within 2 cells of a forest, +1 to hit"]  # type: ignore[union-attr]
    assert near.last_roll.outcome == "HIT"  # type: ignore[union-attr]  # 3 + 1 reaches 4+
    far = attack_and_roll(state, "A2", "D2")
    assert far.last_roll.modifiers == () and far.last_roll.outcome == "MISS"  # type: ignore[union-attr]


def test_terrain_tags_and_bridges_are_position_facts() -> None:
    cover = card(
        "test_cover",
        "bonus",
        [
            {
                "hook": "modify_attack_roll",
                "op": "add",
                "value": 2,
                "scope": "own_attacks",
                "duration": "end_of_turn",
                "when": {"if": "any", "of": [{"if": "terrain_tag", "is": ["cover"]}, {"if": "on", "is": "bridge"}]},
            }
        ],
    )
    state = start(
        rules=rules(cover),
        terrain=terrain_with(B2="u", H2="#"),
        units=("A1 L B2", "A2 L H2", "A3 L E2", "D1 L B4", "D2 L H4", "D3 L E4"),
        phase="ATTACK",
        draw=[],
    )
    state = play(holding(state, A, stored=("test_cover#1",)), PlayBonus(stored_index=0))
    terms = {
        a: sum(m.value for m in attack_odds(state, unit(state, a), unit(state, d)).modifiers)
        for a, d in (("A1", "D1"), ("A2", "D2"), ("A3", "D3"))
    }
    assert terms == {"A1": 2, "A2": 2, "A3": 0}


# Status facts: under a card, under a hook, suppressed -----------------------------------------------


def test_under_a_named_card_and_suppressed_read_the_live_effects() -> None:
    spotter = card(
        "test_spotter",
        "bonus",
        [
            {
                "hook": "modify_attack_roll",
                "op": "add",
                "value": 1,
                "scope": "own_attacks",
                "duration": "end_of_turn",
                "when": {"if": "under", "card": ["artillery_support"]},
            },
            {
                "hook": "modify_attack_roll",
                "op": "add",
                "value": -3,
                "scope": "own_attacks",
                "duration": "end_of_turn",
                "when": {"if": "suppressed"},
            },
        ],
    )
    state = start(
        rules=rules(spotter),
        units=("A1 L B2", "A2 L E2", "D1 L B4", "D2 L E4"),
        phase="MOVEMENT",
        draw=[],
        stored=(("artillery_support#1",), ()),
        tactics=((), ("suppressive_fire",)),
    )
    assert state.to_act is D  # Suppressive Fire: the reacting side may halve the mover's MP before it moves
    state = play(state, PlayTactic(card_id="suppressive_fire"))
    state = holding(state, A, stored=("artillery_support#1", "test_spotter#1"))
    state = play(state, PlayBonus(stored_index=0, targets=("A1",)), PlayBonus(stored_index=0), NextPhase())
    odds = {
        a: [m.value for m in attack_odds(state, unit(state, a), unit(state, d)).modifiers]
        for a, d in (("A1", "D1"), ("A2", "D2"))
    }
    assert odds == {"A1": [2, 1, -3], "A2": [-3]}  # artillery, under artillery, suppressed (both units)


# Counters: the first attack each turn, once per unit -------------------------------------------------


def test_the_first_attack_each_turn_gets_the_bonus_and_the_second_does_not() -> None:
    first = card(
        "test_opening_volley",
        "bonus",
        [
            {
                "hook": "modify_attack_roll",
                "op": "add",
                "value": 2,
                "scope": "own_attacks",
                "duration": "permanent",
                "limit": {"times": 1, "per": "turn"},
                "says": "the first attack each turn, +2 to hit",
            }
        ],
    )
    state = start(
        rules=rules(first),
        units=("A1 L B2", "A2 L E2", "D1 L B4", "D2 L E4"),
        phase="ATTACK",
        draw=[],
        seed=seed_rolling(2, 3),
    )
    state = play(holding(state, A, stored=("test_opening_volley#1",)), PlayBonus(stored_index=0))
    state = play(
        state, DeclareAttack(attacker_id="A1", target_id="D1"), DeclareAttack(attacker_id="A2", target_id="D2")
    )
    state = play(state, NextPhase(), RollDice())
    assert [m.value for m in state.last_roll.modifiers] == [2] and state.last_roll.outcome == "HIT"  # type: ignore[union-attr]
    state = play(state, ResolveAttack(), RollDice())
    assert state.last_roll.modifiers == () and state.last_roll.outcome == "MISS"  # type: ignore[union-attr]


def test_a_certain_ignore_once_per_unit_spares_each_unit_its_first_hit() -> None:
    stubborn = card(
        "test_stubborn",
        "tactic",
        [
            {
                "hook": "ignore_hit",
                "op": "ignore",
                "scope": "own_units",
                "duration": "permanent",
                "limit": {"times": 1, "per": "unit"},
                "says": "the first hit on each unit is ignored",
            }
        ],
        window="beforeMove",
        side="reacting",
    )
    state = start(
        rules=rules(stubborn),
        units=("A1 L B2", "A2 L C2", "D1 M B3"),
        phase="MOVEMENT",
        draw=[],
        seed=seed_rolling(6, 5),
    )
    state = holding(state, D, tactics=("test_stubborn",))
    state = play(state, PlayTactic(card_id="test_stubborn"), NextPhase())
    state = play(
        state, DeclareAttack(attacker_id="A1", target_id="D1"), DeclareAttack(attacker_id="A2", target_id="D1")
    )
    state = play(state, NextPhase(), RollDice(), ResolveAttack())
    assert unit(state, "D1").hp == 2 and card_rules(state) == [
        "Test Stubborn: the first hit on each unit is ignored: hit ignored"
    ]
    state = play(state, RollDice(), ResolveAttack())
    assert unit(state, "D1").hp == 1  # the second hit on the same unit lands


# XOR -------------------------------------------------------------------------------------------------


def test_xor_holds_when_exactly_one_part_does() -> None:
    lone = card(
        "test_lone_wolf",
        "bonus",
        [
            {
                "hook": "modify_attack_roll",
                "op": "add",
                "value": 1,
                "scope": "own_attacks",
                "duration": "end_of_turn",
                "when": {"if": "xor", "of": [{"if": "moved"}, {"if": "type", "is": ["MECHANIZED"]}]},
            }
        ],
    )
    state = start(
        rules=rules(lone),
        units=("A1 L B2", "A2 M E2", "A7 M H2", "D1 L B5", "D2 L E5", "D3 L H5"),
        phase="MOVEMENT",
        draw=[],
    )
    state = play(state, MoveUnit(unit_id="A1", to="B3"), MoveUnit(unit_id="A7", to="H3"), NextPhase())
    state = play(holding(state, A, stored=("test_lone_wolf#1",)), PlayBonus(stored_index=0))
    bonus = {
        a: len(attack_odds(state, unit(state, a), unit(state, d)).modifiers)
        for a, d in (("A1", "D1"), ("A2", "D2"), ("A7", "D3"))
    }
    assert bonus == {"A1": 1, "A2": 1, "A7": 0}  # moved only; mechanized only; both


# Effects the player chooses between ------------------------------------------------------------------

RALLY = card(
    "test_rally",
    "bonus",
    [
        {
            "hook": "modify_attack_roll",
            "op": "add",
            "value": 1,
            "scope": "own_attacks",
            "duration": "end_of_turn",
            "option": 0,
        },
        {"hook": "modify_defense", "op": "add", "value": 1, "scope": "own_units", "duration": "turns:2", "option": 1},
    ],
    options=["+1 to hit this turn", "+1 defense until your next turn"],
)


def test_the_options_of_a_card_are_legal_actions_and_only_the_chosen_one_plays() -> None:
    state = holding(start(rules=rules(RALLY), phase="MOVEMENT", draw=[]), A, stored=("test_rally#1",))
    plays = [a for a in legal_actions(state) if isinstance(a, PlayBonus)]
    assert [a.params.option for a in plays] == [0, 1]
    chosen = play(state, plays[1])
    assert [(e.hook.value, e.op) for e in chosen.effects] == [("modify_defense", "add")]
    with pytest.raises(IllegalAction):
        reduce(state, PlayBonus(stored_index=0))  # the choice is part of the play: no option, no play


def test_options_are_refused_on_a_malus_and_each_needs_an_effect() -> None:
    assert "a malus is not played by choice" in refusal(card("c", "malus", RALLY["effects"], options=RALLY["options"]))
    lonely = card("c", "bonus", RALLY["effects"][:1], options=RALLY["options"])
    assert "field `options[1]`" in refusal(lonely)


# Damage limits, stats ------------------------------------------------------------------------------


def test_a_damage_cap_per_round_counts_every_hit_of_the_round() -> None:
    shield = card(
        "test_shield_wall",
        "bonus",
        [
            {
                "hook": "cap_damage",
                "op": "cap_round",
                "value": 1,
                "scope": "all_attacks",
                "duration": "turns:2",
                "when": {"if": "target", "is": {"if": "owner", "is": "controller"}},
            }
        ],
    )
    state = start(
        rules=rules(shield),
        units=("A1 L B2", "A2 L C2", "D1 M B3"),
        phase="ATTACK",
        draw=[],
        seed=seed_rolling(6, 5),
        side=Side.ATTACKER,
    )
    state = holding(state, D, stored=("test_shield_wall#1",))
    # The defender played it last turn: put its effect in by playing it in its own turn first.
    state = play(reduce_side(state, D), PlayBonus(stored_index=0))
    state = reduce_side(state, A)
    state = play(
        state, DeclareAttack(attacker_id="A1", target_id="D1"), DeclareAttack(attacker_id="A2", target_id="D1")
    )
    state = play(state, NextPhase(), RollDice(), ResolveAttack())
    assert unit(state, "D1").hp == 1
    state = play(state, RollDice(), ResolveAttack())
    assert unit(state, "D1").hp == 1  # the round's cap of 1 is spent: the second hit deals 0


def reduce_side(state: GameState, side: Side) -> GameState:
    """``state`` in ATTACK with ``side`` to move (a scenario shortcut: both sides' cards in one turn)."""
    from msgspec.structs import replace

    from engine.flow.phases import decide_to_act

    state = replace(state, active=side, turn=state.turn + (0 if side is state.active else 1))
    return replace(state, to_act=decide_to_act(state))


def test_range_and_damage_are_stats_a_card_adds_to_or_sets() -> None:
    scope = card(
        "test_scopes",
        "bonus",
        [
            {
                "hook": "modify_stat",
                "stat": "range",
                "op": "add",
                "value": 1,
                "scope": "own_units",
                "duration": "end_of_turn",
            },
            {
                "hook": "modify_stat",
                "stat": "damage",
                "op": "set",
                "value": 2,
                "scope": "own_units",
                "duration": "end_of_turn",
            },
        ],
    )
    state = start(rules=rules(scope), units=("A1 L B2", "D1 M B5"), phase="ATTACK", draw=[], seed=seed_rolling(6))
    shot = DeclareAttack(attacker_id="A1", target_id="D1")
    assert shot not in legal_actions(state)  # distance 3, range 2
    state = play(holding(state, A, stored=("test_scopes#1",)), PlayBonus(stored_index=0), shot, NextPhase(), RollDice())
    state = play(state, ResolveAttack())
    assert state.unit("D1") is None  # 2 damage destroy a fresh mechanized unit


def test_movement_points_can_be_set() -> None:
    mired = card(
        "test_mired",
        "bonus",
        [{"hook": "modify_movement", "op": "set", "value": 1, "scope": "all_units", "duration": "end_of_turn"}],
    )
    state = holding(
        start(rules=rules(mired), units=("A7 M E5", "D1 L J10"), phase="MOVEMENT", draw=[]), A, stored=("test_mired#1",)
    )
    state = play(state, PlayBonus(stored_index=0))
    cells = {a.to for a in legal_actions(state) if isinstance(a, MoveUnit)}
    assert cells == {"D4", "E4", "F4", "D5", "F5", "D6", "E6", "F6"}  # 1 MP instead of 4


# What the loader refuses -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("effect", "why"),
    [
        (
            {
                "hook": "modify_attack_roll",
                "op": "add",
                "value": 1,
                "scope": "own_attacks",
                "duration": "end_of_turn",
                "when": {"if": "phase", "is": ["MOVEMENT"]},
            },
            "never holds: hook modify_attack_roll acts only in",
        ),
        (
            {
                "hook": "modify_attack_roll",
                "op": "add",
                "value": 1,
                "scope": "own_attacks",
                "duration": "end_of_turn",
                "when": {"if": "round", "at_least": 9, "at_most": 5},
            },
            "empty range",
        ),
        (
            {
                "hook": "modify_defense",
                "op": "add",
                "value": 1,
                "scope": "own_units",
                "duration": "end_of_turn",
                "when": {"if": "tag", "is": ["cavalry"]},
            },
            "no unit type carries cavalry",
        ),
        (
            {
                "hook": "modify_defense",
                "op": "add",
                "value": 1,
                "scope": "own_units",
                "duration": "end_of_turn",
                "when": {"if": "near", "within": 2, "terrain": ["FOREST"], "unit": {"if": "damaged"}},
            },
            "exactly one of",
        ),
        (
            {
                "hook": "modify_defense",
                "op": "add",
                "value": 1,
                "scope": "own_units",
                "duration": "end_of_turn",
                "when": {"if": "under", "hook": "modify_defense", "op": "halve"},
            },
            "'halve' is not an op of hook",
        ),
        (
            {
                "hook": "modify_movement",
                "op": "add",
                "value": 1,
                "scope": "own_units",
                "duration": "end_of_turn",
                "limit": {"times": 1},
            },
            "a limit fits",
        ),
        (
            {"hook": "step_cost", "op": "add", "value": 1, "scope": "own_units", "duration": "end_of_turn"},
            "standing ability's hook",
        ),
        (
            {"hook": "modify_stat", "op": "add", "value": 1, "scope": "own_units", "duration": "end_of_turn"},
            "names the stat",
        ),
    ],
)
def test_a_word_that_cannot_act_is_refused_with_the_reason(effect: dict[str, Any], why: str) -> None:
    assert why in refusal(card("c", "bonus", [effect]))


def test_a_warning_travels_with_the_card() -> None:
    partial = card("test_partial", "bonus", STEADY["effects"], warning="The 'first die each turn' part is not played.")
    (loaded,) = load_cards(__import__("json").dumps({"common": [partial], "tactics": []}).encode())[0]
    assert loaded.warning == "The 'first die each turn' part is not played."


# Abilities -------------------------------------------------------------------------------------------


def test_a_unit_type_loses_and_gains_abilities_by_data() -> None:
    free = RulesOverlay(name="free_fire", removed_abilities=("SPECIAL.move_or_fire",))
    state = new_game(config(unit_specs=("A10 S A1", "D1 L D4"), phase="MOVEMENT", rules=free))
    moved = play(state, MoveUnit(unit_id="A10", to="A2"), NextPhase())
    assert DeclareAttack(attacker_id="A10", target_id="D1") in legal_actions(moved)
    heavy = RulesOverlay(
        name="heavy",
        abilities=(
            {"id": "move_or_fire", "unit": "MECHANIZED", "hook": "can_attack", "op": "deny", "when": {"if": "moved"}},
            {
                "id": "long_guns",
                "unit": "MECHANIZED",
                "hook": "modify_stat",
                "stat": "range",
                "op": "add",
                "value": 1,
                "when": {"if": "terrain_tag", "is": ["elevated"]},
            },
        ),
    )
    state = new_game(
        config(
            terrain=terrain_with(A1="h"),
            unit_specs=("A7 M A1", "A8 M C1", "D1 L A5", "D2 L C5"),
            phase="ATTACK",
            rules=heavy,
        )
    )
    declarable = {(a.attacker_id, a.target_id) for a in legal_actions(state) if isinstance(a, DeclareAttack)}
    assert ("A7", "D1") in declarable and ("A8", "D2") not in declarable  # range 4 on the hill, 3 below it


def test_an_ability_that_cannot_stand_is_refused_with_its_path() -> None:
    bad = RulesOverlay(name="bad", abilities=({"id": "x", "hook": "ignore_hit", "op": "ignore"},))
    with pytest.raises(ValueError, match=r"rules.abilities\[0\].hook: an ability acts through"):
        new_game(config(rules=bad))
    bad = RulesOverlay(
        name="bad", abilities=({"id": "x", "hook": "can_attack", "op": "deny", "when": {"if": "targeted"}},)
    )
    with pytest.raises(ValueError, match="'targeted' never holds"):
        new_game(config(rules=bad))
    bad = RulesOverlay(name="bad", removed_abilities=("SPECIAL.fly",))
    with pytest.raises(ValueError, match=r"removed_abilities\[0\]: 'SPECIAL.fly' is not a standard ability"):
        new_game(config(rules=bad))


def test_the_retired_rule_lists_are_refused_with_what_to_write_instead() -> None:
    import msgspec

    from engine import GameConfig

    old = msgspec.json.decode(b'{"seed": 1, "movement_rules": [{"id": "mud", "cost_delta_mp": 1}]}', type=GameConfig)
    with pytest.raises(ValueError, match=r"movement_rules is retired.*rules.abilities.*step_cost"):
        new_game(old)


def test_a_state_carrying_an_ability_the_loader_would_refuse_does_not_decode() -> None:
    import msgspec

    from engine import InvalidState, decode_state, encode_state

    good = RulesOverlay(name="mud", abilities=({"id": "mud", "hook": "step_cost", "op": "add", "value": 1},))
    state = new_game(config(rules=good))
    assert decode_state(encode_state(state)) == state
    raw = msgspec.json.decode(encode_state(state))
    assert [a["id"] for a in raw["rules"]["abilities"]] == ["move_or_fire", "mud"]  # the standard one kept
    raw["rules"]["abilities"][1]["when"] = {"if": "moved"}  # a step's cost cannot read a unit's state
    with pytest.raises(InvalidState, match=r"at `\$\.rules\.abilities\[1\]\.when`"):
        decode_state(msgspec.json.encode(raw))


def test_an_ability_that_forbids_a_move_is_obeyed_by_the_listing_and_by_reduce() -> None:
    pinned = RulesOverlay(
        name="pinned",
        abilities=(
            {
                "id": "dug_in",
                "unit": "MECHANIZED",
                "hook": "can_move_unit",
                "op": "deny",
                "when": {"if": "terrain", "is": ["FOREST"]},
            },
        ),
    )
    state = new_game(
        config(
            terrain=terrain_with(E5="f"), unit_specs=("A7 M E5", "A8 M B2", "D1 L J10"), phase="MOVEMENT", rules=pinned
        )
    )
    movers = {a.unit_id for a in legal_actions(state) if isinstance(a, MoveUnit)}
    assert movers == {"A8"}
    with pytest.raises(IllegalAction):
        reduce(state, MoveUnit(unit_id="A7", to="E6"))
