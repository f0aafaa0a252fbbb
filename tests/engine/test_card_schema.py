"""The card file's JSON Schema and the loader agree (issue 37): one set of types, one table of hooks.

An editor validates with `card_file_schema`; the engine loads with `load_cards`. On every
card shipped, every card the docs and the word tests write, and a corpus of cards wrong in
the closed sets (hook, op per hook, scope per hook, duration, stat, limit, condition names),
both say the same. What a schema cannot say (whether a condition can ever hold on its hook,
kinds and windows) the loader alone refuses: those cards are listed apart, and the schema
accepting them is checked too, so the boundary is known.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import jsonschema
import pytest

from engine.data import card_file_problems, card_file_schema
from tests.engine.test_card_words import RALLY, STEADY, WOODSMEN, card

DATA = Path(__file__).resolve().parents[2] / "engine" / "data"
VALIDATOR = jsonschema.Draft202012Validator(card_file_schema())


def file_of(obj: dict[str, Any]) -> dict[str, Any]:
    key = "tactics" if obj.get("kind") == "tactic" else "common"
    return {"common": [], "tactics": [], key: [obj]}


def schema_accepts(data: dict[str, Any]) -> bool:
    return VALIDATOR.is_valid(data)


def loader_accepts(data: dict[str, Any]) -> bool:
    return not card_file_problems(json.dumps(data).encode())


def shipped_cards() -> list[dict[str, Any]]:
    files = [DATA / "cards.json", *sorted((DATA / "variants").glob("*.json"))]
    found: list[dict[str, Any]] = []
    for path in files:
        data = json.loads(path.read_text())
        found += [*data["common"], *data["tactics"]]
    return found


def effect(**changes: Any) -> dict[str, Any]:
    base = {"hook": "modify_attack_roll", "op": "add", "value": 1, "scope": "own_attacks", "duration": "end_of_turn"}
    return {k: v for k, v in (base | changes).items() if v is not None}


GOOD = [*shipped_cards(), STEADY, WOODSMEN, RALLY]

BAD_CLOSED_SETS = {
    "unknown hook": card("c", "bonus", [effect(hook="modify_morale")]),
    "op of another hook": card("c", "bonus", [effect(op="halve")]),
    "unknown op": card("c", "bonus", [effect(op="double")]),
    "scope of another hook": card("c", "bonus", [effect(scope="own_units")]),
    "unknown scope": card("c", "bonus", [effect(scope="everyone")]),
    "duration": card("c", "bonus", [effect(duration="two_turns")]),
    "duration count": card("c", "bonus", [effect(duration="turns:0")]),
    "until an unknown phase": card("c", "bonus", [effect(duration="until_phase:LUNCH")]),
    "unknown stat": card("c", "bonus", [effect(hook="modify_stat", op="add", scope="own_units", stat="vp")]),
    "unknown limit": card("c", "bonus", [effect(limit={"times": 1, "per": "game"})]),
    "unknown condition": card("c", "bonus", [effect(when={"if": "sunny"})]),
    "a standing ability's hook": card("c", "bonus", [effect(hook="step_cost", scope="own_units")]),
    "missing field": card("c", "bonus", [{"hook": "modify_attack_roll", "op": "add", "scope": "own_attacks"}]),
    "unknown field": card("c", "bonus", [effect(colour="red")]),
}

LOADER_ONLY = {
    "a phase its hook never asks in": card("c", "bonus", [effect(when={"if": "phase", "is": ["MOVEMENT"]})]),
    "an attack fact on a unit hook": card(
        "c", "bonus", [effect(hook="modify_defense", scope="own_units", when={"if": "distance", "at_least": 2})]
    ),
    "an empty round range": card("c", "bonus", [effect(when={"if": "round", "at_least": 5, "at_most": 2})]),
    "a tactic without a window": card("c", "tactic", [effect()], side="active"),
    "targets without a targeting": card("c", "bonus", [effect(scope="targets")]),
}


@pytest.mark.parametrize("obj", GOOD, ids=[c["id"] for c in GOOD])
def test_both_accept_every_good_card(obj: dict[str, Any]) -> None:
    data = file_of(obj)
    assert loader_accepts(data), card_file_problems(json.dumps(data).encode())
    assert schema_accepts(data), [e.message for e in VALIDATOR.iter_errors(data)]


@pytest.mark.parametrize("name", sorted(BAD_CLOSED_SETS))
def test_both_refuse_a_card_wrong_in_a_closed_set(name: str) -> None:
    data = file_of(BAD_CLOSED_SETS[name])
    assert not loader_accepts(data)
    assert not schema_accepts(data)


@pytest.mark.parametrize("name", sorted(LOADER_ONLY))
def test_what_a_schema_cannot_say_the_loader_refuses(name: str) -> None:
    data = file_of(LOADER_ONLY[name])
    assert not loader_accepts(data)
    assert schema_accepts(data)  # the known boundary: a schema does not know the rules


def test_the_schema_ties_every_hook_to_its_ops_and_scopes() -> None:
    from engine.cards.vocabulary import HOOK_RULES

    rules = card_file_schema()["$defs"]["EffectDef"]["allOf"]
    assert [r["if"]["properties"]["hook"]["const"] for r in rules] == [h.value for h in HOOK_RULES]
