"""Cards are data for every op: each instant op acts on every card kind the loader accepts it on.

Each scenario writes a new card as JSON, loads it through `load_cards` (the path
``engine/data/cards.json`` takes), adds it to the card table for the test, puts it in a
hand, a store or the draw pile, plays it through `reduce` and checks what the op says.
The forbidden combinations are rejected at load with the card and the field named.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from typing import Any

import pytest

from engine import (
    AcceptMalus,
    CardDataError,
    ChooseMalusTargets,
    DeclareAttack,
    DrawCard,
    EventKind,
    GameState,
    Hook,
    NextPhase,
    Phase,
    PlayBonus,
    PlayTactic,
    Quadrant,
    RollDice,
    RulesOverlay,
    Side,
    UnitType,
    legal_actions,
)
from engine.analysis import rolls_dice
from engine.cards.catalogue import CARDS, load_cards
from engine.cards.checks import HOOK_RULES
from engine.cards.instants import INSTANT_OPS
from engine.data import CardDef
from engine.flow.phases import decide_to_act
from engine.state import with_player
from tests.support import attackers, play, replace, seed_rolling, start, unit

A, D = Side.ATTACKER, Side.DEFENDER

_TIMING = {"bonus": "stored", "malus": "immediate", "tactic": "reaction"}


def card_json(card_id: str, kind: str, op: str, scope: str = "targets", **fields: Any) -> dict[str, Any]:
    """A one-effect card with the instant ``op``, as it would be written in cards.json."""
    return {
        "id": card_id,
        "name": card_id.replace("_", " ").title(),
        "kind": kind,
        "class": "generic",
        "category": "test",
        "timing": _TIMING[kind],
        "text": f"Test card {card_id}.",
        "effects": [{"hook": "instant", "op": op, "scope": scope, "duration": "instant"}],
        **fields,
    }


def load_one(obj: dict[str, Any]) -> CardDef:
    """Validate one card through the loader, in the list cards.json would hold it in."""
    tactic = obj["kind"] == "tactic"
    common, tactics = load_cards(
        json.dumps({"common": [] if tactic else [obj], "tactics": [obj] if tactic else []}).encode()
    )
    return (*common, *tactics)[0]


def variant(obj: dict[str, Any]) -> RulesOverlay:
    """The rules of a game that plays with the card ``obj`` as well (checked by the loader first)."""
    load_one(obj)
    return RulesOverlay(name="test", cards=(obj,))


def holding(state: GameState, side: Side, *, stored: tuple[str, ...] = (), tactics: tuple[str, ...] = ()) -> GameState:
    """``state`` with ``side`` storing and holding these cards, ``to_act`` refreshed."""
    player = state.player(side)
    state = with_player(state, replace(player, stored=stored, tactics=tactics))
    return replace(state, to_act=decide_to_act(state))


def destroyed(state: GameState, unit_id: str) -> GameState:
    """``state`` with ``unit_id`` taken off the board into its side's destroyed units."""
    gone = unit(state, unit_id)
    record = replace(gone, hp=0, cell=None, has_moved=False, has_attacked=False)
    player = state.player(gone.side)
    state = with_player(state, replace(player, destroyed=(*player.destroyed, record)))
    return replace(state, units=tuple(u for u in state.units if u.id != unit_id))


def kinds_of(state: GameState) -> list[EventKind]:
    return [e.kind for e in state.events]


# One scenario per (op, kind) the registry accepts --------------------------------------------


def restore_hp_on_a_bonus() -> None:
    rules = variant(card_json("test_medic", "bonus", "restore_hp", targeting={"kind": "own_unit"}))
    state = holding(
        start(rules=rules, units=("A1 M B2 hp=1", "D1 L B8"), phase="MOVEMENT", draw=[]), A, stored=("test_medic#1",)
    )
    state = play(state, PlayBonus(stored_index=0, targets=("A1",)))
    assert unit(state, "A1").hp == 2
    assert kinds_of(state) == [EventKind.UNIT_RESTORED, EventKind.BONUS_PLAYED]
    assert state.player(A).stored == () and state.discard_pile[-1] == "test_medic#1"


def restore_hp_on_a_tactic() -> None:
    rules = variant(
        card_json(
            "test_medic", "tactic", "restore_hp", targeting={"kind": "own_unit"}, window="beforeMove", side="reacting"
        )
    )
    state = holding(
        start(rules=rules, units=("A1 L B2", "D1 M B8 hp=1"), phase="MOVEMENT", draw=[]), D, tactics=("test_medic",)
    )
    assert state.to_act is D
    state = play(state, PlayTactic(card_id="test_medic", targets=("D1",)))
    assert unit(state, "D1").hp == 2
    assert kinds_of(state) == [EventKind.TACTIC_PLAYED, EventKind.UNIT_RESTORED]


def hp_card(card_id: str, kind: str, op: str, value: int) -> dict[str, Any]:
    card = card_json(card_id, kind, op, targeting={"kind": "own_unit"})
    card["effects"][0]["value"] = value
    if kind == "tactic":
        card.update(window="beforeMove", side="reacting")
    return card


def add_hp_on_a_bonus() -> None:
    rules = variant(hp_card("test_plating", "bonus", "add_hp", 2))
    state = holding(
        start(rules=rules, units=("A1 M B2 hp=1", "D1 L B8"), phase="MOVEMENT", draw=[]), A, stored=("test_plating#1",)
    )
    state = play(state, PlayBonus(stored_index=0, targets=("A1",)))
    assert unit(state, "A1").hp == 3  # above its full strength of 2
    assert (state.events[0].kind, state.events[0].value) == (EventKind.UNIT_RESTORED, 2)


def add_hp_on_a_tactic() -> None:
    rules = variant(hp_card("test_plating", "tactic", "add_hp", 1))
    state = holding(
        start(rules=rules, units=("A1 L B2", "D1 L B8"), phase="MOVEMENT", draw=[]), D, tactics=("test_plating",)
    )
    state = play(state, PlayTactic(card_id="test_plating", targets=("D1",)))
    assert unit(state, "D1").hp == 2


def set_hp_on_a_bonus() -> None:
    rules = variant(hp_card("test_last_stand", "bonus", "set_hp", 3))
    state = holding(
        start(rules=rules, units=("A1 M B2", "D1 L B8"), phase="MOVEMENT", draw=[]), A, stored=("test_last_stand#1",)
    )
    state = play(state, PlayBonus(stored_index=0, targets=("A1",)))
    assert unit(state, "A1").hp == 3


def set_hp_on_a_tactic() -> None:
    rules = variant(hp_card("test_last_stand", "tactic", "set_hp", 1))
    state = holding(
        start(rules=rules, units=("A1 L B2", "D1 M B8"), phase="MOVEMENT", draw=[]), D, tactics=("test_last_stand",)
    )
    state = play(state, PlayTactic(card_id="test_last_stand", targets=("D1",)))
    assert unit(state, "D1").hp == 1


def return_unit_on_a_bonus() -> None:
    rules = variant(card_json("test_reserve", "bonus", "return_unit", targeting={"kind": "own_destroyed_unit"}))
    state = start(rules=rules, units=("A1 L B2", "A2 M C2", "D1 L B8"), phase="MOVEMENT", draw=[])
    state = holding(destroyed(state, "A2"), A, stored=("test_reserve#1",))
    (first, *_) = [a for a in legal_actions(state) if isinstance(a, PlayBonus)]
    state = play(state, first)
    back = unit(state, "A2")
    assert (back.cell, back.hp, back.type, back.has_moved, back.has_attacked) == (
        first.params.cell,
        2,
        UnitType.MECHANIZED,
        True,
        True,
    )
    assert state.player(A).destroyed == ()
    assert kinds_of(state) == [EventKind.UNIT_RETURNED, EventKind.BONUS_PLAYED]


def return_unit_on_a_tactic() -> None:
    rules = variant(
        card_json(
            "test_reserve",
            "tactic",
            "return_unit",
            targeting={"kind": "own_destroyed_unit"},
            window="beforeMove",
            side="reacting",
        )
    )
    state = start(rules=rules, units=("A1 L B2", "D1 L B8", "D2 L C8"), phase="MOVEMENT", draw=[])
    state = holding(destroyed(state, "D2"), D, tactics=("test_reserve",))
    (first, *_) = [a for a in legal_actions(state) if isinstance(a, PlayTactic)]
    state = play(state, first)
    assert unit(state, "D2").cell == first.params.cell and state.player(D).destroyed == ()
    assert kinds_of(state) == [EventKind.TACTIC_PLAYED, EventKind.UNIT_RETURNED]


def mark_attacked_on_a_malus() -> None:
    rules = variant(card_json("test_pinned", "malus", "mark_attacked", victims={"kind": "chosen", "count": 1}))
    state = start(rules=rules, units=("A1 L B2", "A2 L C2", "D1 L B4"), draw=[])
    state = replace(state, draw_pile=("test_pinned#1",))
    state = play(state, DrawCard(), AcceptMalus())
    assert state.to_act is D
    state = play(state, ChooseMalusTargets(unit_ids=("A1",)))
    assert unit(state, "A1").has_attacked and not unit(state, "A2").has_attacked
    assert kinds_of(state) == [EventKind.MALUS_APPLIED, EventKind.MALUS_VICTIM]
    assert attackers(play(state, NextPhase(), NextPhase())) == {"A2"}


def mark_attacked_on_a_tactic() -> None:
    rules = variant(
        card_json(
            "test_hold", "tactic", "mark_attacked", targeting={"kind": "own_unit"}, window="beforeMove", side="active"
        )
    )
    state = holding(
        start(rules=rules, units=("A1 L B2", "A2 L C2", "D1 L B4"), phase="MOVEMENT", draw=[]),
        A,
        tactics=("test_hold",),
    )
    state = play(state, PlayTactic(card_id="test_hold", targets=("A2",)))
    assert unit(state, "A2").has_attacked and not unit(state, "A1").has_attacked
    assert kinds_of(state) == [EventKind.TACTIC_PLAYED]
    assert attackers(play(state, NextPhase())) == {"A1"}


def reroll_die_on_a_tactic() -> None:
    rules = variant(
        card_json("test_luck", "tactic", "reroll_die", scope="pending_attack", window="afterAttackRoll", side="either")
    )
    state = start(rules=rules, units=("A1 L B2", "D1 L B4"), phase="ATTACK", draw=[], seed=seed_rolling(1, 6))
    state = holding(state, D, tactics=("test_luck",))
    state = play(state, DeclareAttack(attacker_id="A1", target_id="D1"), NextPhase(), RollDice())
    assert state.last_roll is not None and state.last_roll.outcome == "MISS" and state.to_act is D
    state = play(state, PlayTactic(card_id="test_luck"))
    assert state.last_roll is not None and (state.last_roll.natural, state.last_roll.outcome) == (6, "HIT")
    assert [(e.kind, e.value) for e in state.events if e.kind is not EventKind.TACTIC_PLAYED] == [
        (EventKind.DICE_REROLLED, 6),
        (EventKind.ROLL_CHANGED, 6),
    ]


SCENARIOS: dict[tuple[str, str], Callable[[], None]] = {
    ("restore_hp", "bonus"): restore_hp_on_a_bonus,
    ("restore_hp", "tactic"): restore_hp_on_a_tactic,
    ("add_hp", "bonus"): add_hp_on_a_bonus,
    ("add_hp", "tactic"): add_hp_on_a_tactic,
    ("set_hp", "bonus"): set_hp_on_a_bonus,
    ("set_hp", "tactic"): set_hp_on_a_tactic,
    ("return_unit", "bonus"): return_unit_on_a_bonus,
    ("return_unit", "tactic"): return_unit_on_a_tactic,
    ("mark_attacked", "malus"): mark_attacked_on_a_malus,
    ("mark_attacked", "tactic"): mark_attacked_on_a_tactic,
    ("reroll_die", "tactic"): reroll_die_on_a_tactic,
}
ACCEPTED = sorted((op.name, kind) for op in INSTANT_OPS.values() for kind in op.kinds)
REFUSED = sorted(
    (op.name, kind) for op in INSTANT_OPS.values() for kind in ("bonus", "malus", "tactic") if kind not in op.kinds
)


def test_every_op_and_kind_the_loader_accepts_has_a_scenario() -> None:
    assert sorted(SCENARIOS) == ACCEPTED


@pytest.mark.parametrize(("op", "kind"), ACCEPTED)
def test_a_data_only_card_acts_as_its_op_says(op: str, kind: str) -> None:
    SCENARIOS[op, kind]()


@pytest.mark.parametrize(("op", "kind"), REFUSED)
def test_an_op_on_a_kind_it_does_not_serve_is_refused_naming_card_and_field(op: str, kind: str) -> None:
    fields: dict[str, Any] = {"victims": {"kind": "chosen"}} if kind == "malus" else {"targeting": {"kind": "own_unit"}}
    if kind == "tactic":
        fields |= {"window": "beforeMove", "side": "active"}
    with pytest.raises(CardDataError, match=rf"card 'test_wrong': field `effects\[0\]\.op`: instant op '{op}'"):
        load_one(card_json("test_wrong", kind, op, **fields))


# Forbidden combinations, each named by card and field ----------------------------------------

TACTIC = {"window": "beforeAttackRoll", "side": "active"}
LASTING = {"hook": "modify_attack_roll", "op": "add", "value": 1, "scope": "own_attacks", "duration": "end_of_turn"}


def lasting(card_id: str, kind: str, effect: dict[str, Any] | None = None, **fields: Any) -> dict[str, Any]:
    """A card whose one effect is ``LASTING`` with ``effect``'s changes, not an instant op."""
    return card_json(card_id, kind, "", **fields) | {"effects": [LASTING | (effect or {})]}


FORBIDDEN: list[tuple[dict[str, Any], str, str]] = [
    (
        card_json("c", "tactic", "reroll_die", scope="pending_attack", window="beforeAttackRoll", side="either"),
        "window",
        "nothing to act on in beforeAttackRoll",
    ),
    (
        card_json(
            "c",
            "tactic",
            "reroll_die",
            scope="targets",
            targeting={"kind": "own_unit"},
            window="afterAttackRoll",
            side="either",
        ),
        "effects[0].scope",
        "scope 'pending_attack'",
    ),
    (card_json("c", "bonus", "restore_hp"), "effects[0].scope", "'targets' needs a card that names units"),
    (
        card_json("c", "bonus", "restore_hp", targeting={"kind": "own_destroyed_unit"}),
        "targeting.kind",
        "acts on units",
    ),
    (card_json("c", "bonus", "return_unit", targeting={"kind": "own_unit"}), "targeting.kind", "own_destroyed_unit"),
    (card_json("c", "malus", "mark_attacked"), "effects[0].scope", "chosen victims"),
    (
        card_json("c", "bonus", "restore_hp", targeting={"kind": "pending_target"}),
        "targeting.kind",
        "only a tactic played in",
    ),
    (
        card_json(
            "c", "tactic", "restore_hp", targeting={"kind": "pending_target"}, window="beforeMove", side="reacting"
        ),
        "targeting.kind",
        "aims at the pending attack",
    ),
    (
        lasting("c", "bonus", {"scope": "pending_attack", "duration": "this_attack"}),
        "effects[0].scope",
        "needs a pending attack",
    ),
    (lasting("c", "bonus", {"duration": "this_attack"}), "effects[0].duration", "needs a pending attack"),
    (lasting("c", "tactic", {"scope": "pending_attack"}, **TACTIC), "effects[0].duration", "'this_attack'"),
    (lasting("c", "malus", {"scope": "targets"}), "effects[0].scope", "names units"),
    (lasting("c", "malus", targeting={"kind": "own_unit"}), "targeting.kind", "aimed by its `victims`"),
    (lasting("c", "bonus", timing="reaction"), "timing", "played 'stored'"),
    (lasting("c", "bonus", window="beforeMove"), "window", "only a tactic"),
    (lasting("c", "malus", cancel_power="any"), "cancel_power", "only a bonus"),
    (lasting("c", "tactic", victims={"kind": "chosen"}, **TACTIC), "victims.kind", "only a malus"),
    (lasting("c", "bonus", affects="both"), "affects", "only a malus"),
]


@pytest.mark.parametrize(
    ("obj", "field", "why"),
    FORBIDDEN,
    ids=[f"{obj['kind']}-{field}-{i}" for i, (obj, field, _) in enumerate(FORBIDDEN)],
)
def test_a_card_the_engine_would_not_act_on_is_refused(obj: dict[str, Any], field: str, why: str) -> None:
    with pytest.raises(CardDataError, match=rf"^card 'c': field `{re.escape(field)}`: .*{re.escape(why)}"):
        load_one(obj)


def test_a_bonus_aimed_at_a_quadrant_binds_it_like_a_tactic() -> None:
    obj = lasting(
        "test_spotter", "bonus", {"conditions": {"target_quadrant": "$quadrant"}}, targeting={"kind": "quadrant"}
    )
    state = holding(start(rules=variant(obj), phase="MOVEMENT", draw=[]), A, stored=("test_spotter#1",))
    plays = [a for a in legal_actions(state) if isinstance(a, PlayBonus)]
    assert [a.params.quadrant for a in plays] == list(Quadrant)
    state = play(state, plays[2])
    (effect,) = state.effects
    assert (effect.source_card, effect.conditions.target_quadrant) == ("test_spotter", Quadrant.SW)


# Lasting effects: every hook and op, on every kind, is recorded for the hooks to read ------------

LASTING_OPS = sorted(
    (hook.value, op, kind)
    for hook, (ops, _) in HOOK_RULES.items()
    if hook not in (Hook.INSTANT, Hook.STEP_COST)  # step_cost is a standing ability's hook, never a card's
    for op in ops
    for kind in ("bonus", "malus", "tactic")
)


def _play_lasting(state: GameState, card: CardDef, aimed: bool) -> GameState:
    if card.kind == "bonus":
        state = holding(state, A, stored=(f"{card.id}#1",))
        return play(state, PlayBonus(stored_index=0, targets=("A1",) if aimed else ()))
    if card.kind == "tactic":
        state = holding(state, A, tactics=(card.id,))
        return play(state, PlayTactic(card_id=card.id, targets=("A1",) if aimed else ()))
    state = play(replace(state, draw_pile=(f"{card.id}#1",), phase=Phase.CARD_DRAW), DrawCard(), AcceptMalus())
    return play(state, ChooseMalusTargets(unit_ids=("A1",))) if aimed else state


@pytest.mark.parametrize(("hook", "op", "kind"), LASTING_OPS)
def test_a_lasting_effect_is_recorded_on_every_kind(hook: str, op: str, kind: str) -> None:
    scopes = HOOK_RULES[Hook(hook)][1]
    aimed = "targets" in scopes
    fields: dict[str, Any] = {"window": "beforeMove", "side": "active"} if kind == "tactic" else {}
    if aimed:
        fields |= {"victims": {"kind": "chosen"}} if kind == "malus" else {"targeting": {"kind": "own_unit"}}
    effect = {"hook": hook, "op": op, "value": 1, "scope": "targets" if aimed else scopes[0]}
    if hook == "natural_result" or (hook, op) == ("reroll_attack_die", "reroll"):
        effect["faces"] = [1]  # these act on natural values
    if hook == "ignore_hit":
        effect["value"] = 5  # a save on 5+
    if hook == "modify_stat":
        effect["stat"] = "range"
    obj = lasting("test_lasting", kind, effect, **fields)
    state = _play_lasting(start(rules=variant(obj), phase="MOVEMENT", draw=[]), load_one(obj), aimed)
    assert [(e.hook, e.op, e.source_kind, e.controller, e.targets) for e in state.effects] == [
        (Hook(hook), op, kind, A, ("A1",) if aimed else ())
    ]


def test_a_card_says_whether_playing_it_rolls_a_die() -> None:
    # Tools ask the card (no list of card ids): only an op that draws from the rng makes a play chance.
    assert [card.id for card in CARDS.values() if rolls_dice(card)] == ["commanders_luck"]
    assert [op.name for op in INSTANT_OPS.values() if op.rolls_dice] == ["reroll_die"]
