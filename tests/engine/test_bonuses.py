"""Bonus cards (rules §7.3) and the card flow around them: play, store, discard (§7.6)."""

from __future__ import annotations

import msgspec
import pytest

from engine import (
    AcceptMalus,
    CancelMalus,
    ChooseMalusTargets,
    DeclareAttack,
    DiscardBonus,
    DrawCard,
    EndTurn,
    EventKind,
    GameState,
    IllegalAction,
    MoveUnit,
    NextPhase,
    Params,
    PassReaction,
    PlayBonus,
    PlayTactic,
    ResolveAttack,
    RollDice,
    Side,
    StoreBonus,
    legal_actions,
    player_view,
    reduce,
)
from engine.cards.hooks import max_moves, storage_limit
from engine.flow.victory import unit_vp
from engine.movement.allowance import movement_allowance
from engine.types import Phase
from tests.support import (
    OPEN_10,
    attackers,
    finish_turn,
    mover_ids,
    play,
    seed_rolling,
    snapshot,
    start,
    to_phase,
    unit,
)

A, D = Side.ATTACKER, Side.DEFENDER


# helpers ---------------------------------------------------------------------------------


def drew(card: str, *, units: tuple[str, ...] = ("A1 L B2", "D1 L B8"), side: Side = A, **kw: object) -> GameState:
    """CARD_RESOLUTION with ``card`` just drawn by ``side`` (nothing else in the draw pile)."""
    return play(start(units=units, phase="CARD_DRAW", draw=[card], side=side, **kw), DrawCard())


def with_draw_pile(state: GameState, *cards: str) -> GameState:
    """``state`` whose draw pile is exactly ``cards`` (top first)."""
    return msgspec.structs.replace(state, draw_pile=cards)


def bonus_plays(state: GameState, stored_index: int | None = None) -> list[PlayBonus]:
    return [a for a in legal_actions(state) if isinstance(a, PlayBonus) and a.stored_index == stored_index]


def mods(state: GameState) -> list[tuple[str, int]]:
    assert state.last_roll is not None
    return [(m.source, m.value) for m in state.last_roll.modifiers]


def terrain_rows(**rows: str) -> str:
    """OPEN_10 with whole rows replaced, e.g. ``terrain_rows(r10="w~#.......")``."""
    lines = OPEN_10.split("\n")
    for key, row in rows.items():
        lines[int(key[1:]) - 1] = row
    return "\n".join(lines)


FORCES = ("A1 L B2", "A7 M E2", "A10 S H2", "D1 L B8", "D9 M E8")
SIX = ("artillery_support#1", "artillery_support#2", "artillery_support#3", "troop_motivation#1", "troop_motivation#2")
SIX = (*SIX, "troop_motivation#3")


# drawn and stored play ---------------------------------------------------------------------


def test_drawn_bonus_can_be_played_stored_or_discarded() -> None:
    state = drew("artillery_support#4", units=("A1 L B2", "A2 L C2", "D1 L B8"))
    assert legal_actions(state) == [
        PlayBonus(targets=("A1",)),
        PlayBonus(targets=("A2",)),
        StoreBonus(),
        DiscardBonus(),
    ]


def test_playing_the_drawn_bonus_applies_it_and_discards_the_card() -> None:
    state = play(drew("artillery_support#4"), PlayBonus(targets=("A1",)))
    assert state.pending_card is None
    assert state.discard_pile == ("artillery_support#4",)
    assert [(e.source_card, e.targets) for e in state.effects] == [("artillery_support", ("A1",))]
    assert [(e.kind, e.card, e.unit, e.private_to) for e in state.events if e.kind is EventKind.BONUS_PLAYED] == [
        ("bonus_played", "artillery_support#4", "A1", None)
    ]
    assert legal_actions(state) == [NextPhase()]


def test_stored_bonus_waits_until_the_drawn_card_is_dealt_with() -> None:
    state = drew("air_cover#1", stored=(["artillery_support#1"], []))
    assert bonus_plays(state, 0) == []
    with pytest.raises(IllegalAction) as err:
        reduce(state, PlayBonus(stored_index=0, targets=("A1",)))
    assert err.value.code == "precondition"
    state = play(state, DiscardBonus())
    assert bonus_plays(state, 0) == [PlayBonus(stored_index=0, targets=("A1",))]


@pytest.mark.parametrize("phase", ["CARD_RESOLUTION", "MOVEMENT", "ATTACK"])
def test_stored_bonus_is_playable_in_the_owners_card_resolution_movement_and_attack(phase: str) -> None:
    state = start(phase=phase, draw=[], stored=(["artillery_support#1"], []))
    assert bonus_plays(state, 0) == [PlayBonus(stored_index=0, targets=("A1",))]


def test_stored_bonus_is_never_playable_in_dice_resolution() -> None:
    state = start(units=("A1 L B2", "D1 L B3"), phase="ATTACK", draw=[], stored=(["artillery_support#1"], []))
    state = play(state, DeclareAttack(attacker_id="A1", target_id="D1"), NextPhase())
    assert state.phase is Phase.DICE_RESOLUTION
    assert bonus_plays(state, 0) == []
    before = snapshot(state)
    with pytest.raises(IllegalAction) as err:
        reduce(state, PlayBonus(stored_index=0, targets=("A1",)))
    assert err.value.code == "wrong_phase"
    assert snapshot(state) == before


def test_stored_bonus_is_never_playable_in_the_opponents_turn() -> None:
    state = start(phase="MOVEMENT", draw=[], stored=([], ["artillery_support#1"]), tactics=((), ("suppressive_fire",)))
    assert state.to_act is D  # even while DEFENDER holds priority
    assert legal_actions(state) == [PlayTactic(card_id="suppressive_fire"), PassReaction()]
    state = play(state, PassReaction())
    assert [a for a in legal_actions(state) if isinstance(a, PlayBonus)] == []
    state = play(state, NextPhase())
    assert [a for a in legal_actions(state) if isinstance(a, PlayBonus)] == []


def test_playing_a_stored_bonus_moves_later_cards_up_one_index() -> None:
    stored = ["artillery_support#1", "rapid_supply_convoy#1", "advanced_recon#1"]
    state = start(phase="MOVEMENT", draw=[], stored=(stored, []))
    state = play(state, PlayBonus(stored_index=1))
    assert state.player(A).stored == ("artillery_support#1", "advanced_recon#1")
    state = play(state, PlayBonus(stored_index=1))  # any number per turn
    assert state.player(A).stored == ("artillery_support#1",)
    assert [e.source_card for e in state.effects] == ["rapid_supply_convoy", "advanced_recon"]
    assert state.discard_pile == ("rapid_supply_convoy#1", "advanced_recon#1")


def test_drawn_bonus_is_hidden_from_the_opponent_until_played() -> None:
    state = drew("artillery_support#4")
    (event,) = [e for e in state.events if e.kind is EventKind.CARD_DRAWN]
    assert (event.card, event.private_to) == ("artillery_support#4", A)
    hidden = player_view(state, D)
    assert hidden.pending_card is not None and hidden.pending_card.card == "?"
    assert [e.card for e in hidden.events if e.kind is EventKind.CARD_DRAWN] == ["?"]
    own = player_view(state, A)
    assert own.pending_card is not None and own.pending_card.card == "artillery_support#4"
    played = player_view(play(state, PlayBonus(targets=("A1",))), D)
    assert [e.card for e in played.events if e.kind is EventKind.BONUS_PLAYED] == ["artillery_support#4"]


def test_stored_bonus_is_hidden_from_the_opponent() -> None:
    state = play(drew("artillery_support#4"), StoreBonus())
    assert [(e.kind, e.private_to) for e in state.events if e.kind is EventKind.BONUS_STORED] == [("bonus_stored", A)]
    hidden = player_view(state, D)
    assert hidden.player(A).stored == ("?",)
    assert [e.card for e in hidden.events if e.kind is EventKind.BONUS_STORED] == ["?"]
    assert player_view(state, A).player(A).stored == ("artillery_support#4",)


# STORE_BONUS and DISCARD_BONUS ---------------------------------------------------------------


def test_storing_with_room_appends_the_card_and_takes_no_index() -> None:
    state = drew("artillery_support#4", stored=(["rapid_supply_convoy#1"], []))
    assert [a for a in legal_actions(state) if isinstance(a, StoreBonus)] == [StoreBonus()]
    with pytest.raises(IllegalAction) as err:
        reduce(state, StoreBonus(replace_index=0))
    assert err.value.code == "bad_index"
    state = play(state, StoreBonus())
    assert state.player(A).stored == ("rapid_supply_convoy#1", "artillery_support#4")
    assert state.pending_card is None
    assert state.discard_pile == ()


def test_storing_into_full_storage_replaces_the_chosen_index() -> None:
    state = drew("artillery_support#4", stored=(SIX, []))
    assert [a for a in legal_actions(state) if isinstance(a, StoreBonus)] == [
        StoreBonus(replace_index=i) for i in range(6)
    ]
    for wrong in (StoreBonus(), StoreBonus(replace_index=6)):
        with pytest.raises(IllegalAction) as err:
            reduce(state, wrong)
        assert err.value.code == "bad_index"
    state = play(state, StoreBonus(replace_index=2))
    stored = list(SIX)
    stored[2] = "artillery_support#4"
    assert state.player(A).stored == tuple(stored)
    assert state.discard_pile == ("artillery_support#3",)
    assert [(e.kind, e.card) for e in state.events if e.kind is EventKind.BONUS_DISCARDED] == [
        ("bonus_discarded", "artillery_support#3")
    ]


def test_internal_discipline_raises_the_storage_limit_to_seven_and_is_not_cumulative() -> None:
    state = drew("internal_discipline#1", stored=(SIX, ["internal_discipline#2"]))
    state = play(state, PlayBonus())
    assert storage_limit(state, A) == 7
    state = finish_turn(finish_turn(state))
    state = play(with_draw_pile(state, "artillery_support#4"), DrawCard())
    assert [a for a in legal_actions(state) if isinstance(a, StoreBonus)] == [StoreBonus()]
    state = play(state, StoreBonus())
    assert len(state.player(A).stored) == 7
    state = finish_turn(finish_turn(state))
    state = play(with_draw_pile(state, "internal_discipline#3"), DrawCard())
    assert state.turn == 5
    assert storage_limit(state, A) == 7
    assert bonus_plays(state) == []  # neutral: the effect is already active
    assert [a for a in legal_actions(state) if isinstance(a, StoreBonus)] == [
        StoreBonus(replace_index=i) for i in range(7)
    ]
    with pytest.raises(IllegalAction) as err:
        reduce(state, PlayBonus())
    assert err.value.code == "not_playable"


def test_internal_discipline_of_one_player_leaves_the_other_at_six() -> None:
    state = play(drew("internal_discipline#1"), PlayBonus())
    assert (storage_limit(state, A), storage_limit(state, D)) == (7, 6)


def test_discarding_the_drawn_bonus_puts_it_on_top_of_the_discard_pile() -> None:
    state = start(phase="MOVEMENT", draw=["air_cover#1", "artillery_support#4"], stored=(["advanced_recon#1"], []))
    state = play(state, PlayBonus(stored_index=0), EndTurn(), DrawCard())
    drawn = state.pending_card
    assert drawn is not None
    state = play(state, DiscardBonus())
    assert state.pending_card is None
    assert state.discard_pile == ("advanced_recon#1", drawn.card)
    assert [(e.kind, e.card, e.private_to) for e in state.events if e.kind is EventKind.BONUS_DISCARDED] == [
        ("bonus_discarded", drawn.card, None)
    ]


# §7.3 each bonus ---------------------------------------------------------------------------


def test_rapid_supply_convoy_gives_every_own_unit_one_more_mp_this_turn() -> None:
    state = play(drew("rapid_supply_convoy#1", units=FORCES), PlayBonus(), NextPhase())
    allowances = [movement_allowance(state, unit(state, u)) for u in ("A1", "A7", "A10", "D1", "D9")]
    assert allowances == [6, 10, 8, 4, 8]
    assert MoveUnit(unit_id="A1", to="B5") in legal_actions(state)
    state = play(state, EndTurn())
    assert state.effects == ()


def test_forward_supply_depot_gives_infantry_one_more_mp() -> None:
    state = play(drew("forward_supply_depot#1", units=FORCES), PlayBonus())
    allowances = [movement_allowance(state, unit(state, u)) for u in ("A1", "A7", "A10", "D1")]
    assert allowances == [6, 10, 6, 4]  # the special unit is not infantry


def test_special_supplies_restores_one_own_damaged_unit_to_full_hp() -> None:
    units = ("A1 L B2", "A7 M C2 hp=1", "A8 M D2", "D9 M B8 hp=1")
    state = drew("special_supplies#1", units=units)
    assert bonus_plays(state) == [PlayBonus(targets=("A7",))]
    state = play(state, PlayBonus(targets=("A7",)))
    assert unit(state, "A7").hp == 2
    assert state.effects == ()
    assert [(e.kind, e.unit) for e in state.events if e.kind is EventKind.UNIT_RESTORED] == [("unit_restored", "A7")]


def test_special_supplies_is_neutral_without_a_damaged_unit() -> None:
    state = drew("special_supplies#1", units=("A1 L B2", "A7 M C2", "D9 M B8 hp=1"))
    assert legal_actions(state) == [StoreBonus(), DiscardBonus()]
    with pytest.raises(IllegalAction) as err:
        reduce(state, PlayBonus(targets=("A7",)))
    assert err.value.code == "not_playable"


def test_special_supplies_cannot_target_a_unit_denied_resupply() -> None:
    units = ("A1 L B2", "A7 M C2 hp=1", "A8 M D2 hp=1", "D1 L B8")
    state = start(
        units=units, phase="CARD_DRAW", draw=["disrupted_supply_lines#1"], stored=(["special_supplies#1"], [])
    )
    state = play(state, DrawCard(), AcceptMalus(), ChooseMalusTargets(unit_ids=("A1", "A7")))
    assert bonus_plays(state, 0) == [PlayBonus(stored_index=0, targets=("A8",))]
    with pytest.raises(IllegalAction) as err:
        reduce(state, PlayBonus(stored_index=0, targets=("A7",)))
    assert err.value.code == "bad_target"


def test_advanced_recon_lets_the_player_move_a_sixth_unit_this_turn() -> None:
    units = ("A1 L A2", "A2 L B2", "A3 L C2", "A4 L D2", "A5 L E2", "A6 L F2", "A7 M G2", "D1 L B8")
    state = play(drew("advanced_recon#1", units=units), PlayBonus(), NextPhase())
    assert max_moves(state, A) == 6
    for unit_id, cell in (("A1", "A3"), ("A2", "B3"), ("A3", "C3"), ("A4", "D3"), ("A5", "E3"), ("A6", "F3")):
        state = play(state, MoveUnit(unit_id=unit_id, to=cell))
    assert mover_ids(state) == set()
    state = play(state, EndTurn())
    assert max_moves(state, D) == 5 and state.effects == ()


def test_air_cover_targets_only_own_units_that_cannot_move_and_lets_them_move() -> None:
    units = ("A1 L B2", "A2 L C2", "D1 L B8")
    state = start(units=units, phase="CARD_DRAW", draw=["enemy_disinformation#1"], stored=(["air_cover#1"], []))
    state = play(state, DrawCard(), AcceptMalus(), ChooseMalusTargets(unit_ids=("A1",)))
    assert bonus_plays(state, 0) == [PlayBonus(stored_index=0, targets=("A1",))]
    state = play(state, NextPhase())
    assert mover_ids(state) == {"A2"}
    state = play(state, PlayBonus(stored_index=0, targets=("A1",)))
    assert mover_ids(state) == {"A1", "A2"}


def test_air_cover_is_neutral_while_every_unit_can_move() -> None:
    assert legal_actions(drew("air_cover#1")) == [StoreBonus(), DiscardBonus()]


def test_air_cover_does_not_lift_an_attack_denial() -> None:
    units = ("A7 M B2", "D1 L B3", "D2 L J10")
    state = start(units=units, phase="CARD_DRAW", draw=["mechanical_failure#1"], stored=(["air_cover#1"], []))
    state = play(state, DrawCard(), AcceptMalus(), ChooseMalusTargets(unit_ids=("A7",)), NextPhase())
    state = play(state, PlayBonus(stored_index=0, targets=("A7",)), MoveUnit(unit_id="A7", to="C2"), NextPhase())
    assert attackers(state) == set()


def test_artillery_support_adds_two_to_that_units_attacks_this_turn() -> None:
    units = ("A1 L B2", "A2 L E2", "D1 L B3", "D2 L E3", "D3 L J10")
    state = start(units=units, phase="ATTACK", draw=[], stored=(["artillery_support#1"], []))
    state = play(
        state,
        PlayBonus(stored_index=0, targets=("A1",)),
        DeclareAttack(attacker_id="A1", target_id="D1"),
        DeclareAttack(attacker_id="A2", target_id="D2"),
        NextPhase(),
        RollDice(),
    )
    assert mods(state) == [("artillery_support", 2)]
    state = play(state, ResolveAttack(), RollDice())
    assert mods(state) == []
    state = play(state, ResolveAttack(), EndTurn())
    assert state.effects == ()


def test_troop_motivation_adds_to_attack_and_defense_through_the_opponents_next_turn() -> None:
    units = ("A1 L B2", "A2 L J1", "D9 M B3", "D10 M C3")
    state = start(units=units, phase="ATTACK", draw=[], stored=(["troop_motivation#1"], []))
    state = play(
        state,
        PlayBonus(stored_index=0, targets=("A1",)),
        DeclareAttack(attacker_id="A1", target_id="D9"),
        NextPhase(),
        RollDice(),
    )
    assert mods(state) == [("troop_motivation", 1)]
    state = to_phase(finish_turn(play(state, ResolveAttack())), Phase.ATTACK)
    assert state.active is D
    state = play(state, DeclareAttack(attacker_id="D10", target_id="A1"), NextPhase(), RollDice())
    assert mods(state) == [("defense:troop_motivation", -1)]
    state = finish_turn(play(state, ResolveAttack()))
    assert state.effects == ()


def test_extra_supplies_targets_only_move_or_fire_units() -> None:
    state = drew("extra_supplies#1", units=("A1 L B2", "A7 M C2", "A10 S D2", "D1 L B8"))
    assert bonus_plays(state) == [PlayBonus(targets=("A10",))]


def test_extra_supplies_lets_a_moved_special_unit_attack() -> None:
    units = ("A10 S B2", "D1 L B5")
    state = start(units=units, phase="MOVEMENT", draw=[], stored=(["extra_supplies#1"], []))
    state = play(state, MoveUnit(unit_id="A10", to="B3"), NextPhase())
    assert attackers(state) == set()
    with pytest.raises(IllegalAction) as err:
        reduce(state, DeclareAttack(attacker_id="A10", target_id="D1"))
    assert err.value.code == "cannot_attack"
    state = play(state, PlayBonus(stored_index=0, targets=("A10",)))
    assert attackers(state) == {"A10"}


def test_electronic_countermeasures_has_no_effect_of_its_own() -> None:
    state = drew("electronic_countermeasures#1")
    assert legal_actions(state) == [StoreBonus(), DiscardBonus()]
    with pytest.raises(IllegalAction) as err:
        reduce(state, PlayBonus())
    assert err.value.code == "not_playable"


@pytest.mark.parametrize(
    ("malus", "cancellers"),
    [("ammunition_shortage#1", [1, 2]), ("blackout#1", [2])],
)
def test_cancel_power_generic_cancels_generic_maluses_and_any_cancels_every_malus(
    malus: str, cancellers: list[int]
) -> None:
    stored = ["artillery_support#1", "rapid_supply_convoy#1", "electronic_countermeasures#1"]
    state = drew(malus, stored=(stored, []))
    assert [a for a in legal_actions(state) if isinstance(a, CancelMalus)] == [
        CancelMalus(stored_index=i) for i in cancellers
    ]


def test_neutral_bonus_with_cancel_power_can_still_cancel() -> None:
    state = play(drew("internal_discipline#1", stored=(["internal_discipline#2"], [])), PlayBonus())
    assert bonus_plays(state, 0) == []
    state = finish_turn(finish_turn(state))
    state = play(with_draw_pile(state, "ammunition_shortage#1"), DrawCard())
    assert [a for a in legal_actions(state) if isinstance(a, CancelMalus)] == [CancelMalus(stored_index=0)]


# International Aid ---------------------------------------------------------------------------


def _defender_lost_d1_and_d9(row10: str = "..........", draw: tuple[str, ...] = ()) -> GameState:
    """DEFENDER's turn 2 (CARD_DRAW): D1 and D9 were destroyed in turn 1; D3 stands on J10."""
    units = ("A1 L B2", "A2 L E2", "D1 L B3", "D9 M E3 hp=1", "D3 L J10")
    state = start(
        units=units,
        phase="ATTACK",
        draw=list(draw),
        seed=seed_rolling(6, 5),
        stored=([], ["international_aid#1"]),
        terrain=terrain_rows(r10=row10),
    )
    state = play(
        state,
        DeclareAttack(attacker_id="A1", target_id="D1"),
        DeclareAttack(attacker_id="A2", target_id="D9"),
        NextPhase(),
        RollDice(),
        ResolveAttack(),
        RollDice(),
        ResolveAttack(),
    )
    assert [u.id for u in state.player(D).destroyed] == ["D1", "D9"]
    return play(state, EndTurn())


def test_international_aid_offers_one_action_per_destroyed_unit_and_free_home_edge_cell() -> None:
    state = play(_defender_lost_d1_and_d9(row10="w~#......."), NextPhase())  # A10 water, B10 river, C10 bridge
    cells = ["C10", "D10", "E10", "F10", "G10", "H10", "I10"]
    assert bonus_plays(state, 0) == [
        PlayBonus(stored_index=0, targets=(u,), params=Params(cell=c)) for u in ("D1", "D9") for c in cells
    ]


def test_international_aid_returns_the_unit_at_full_hp_unable_to_move_or_attack() -> None:
    state = play(_defender_lost_d1_and_d9(), NextPhase())
    assert unit_vp(state, A) == 3
    state = play(state, PlayBonus(stored_index=0, targets=("D9",), params=Params(cell="C10")))
    d9 = unit(state, "D9")
    assert (d9.cell, d9.hp, d9.has_moved, d9.has_attacked) == ("C10", 2, True, True)
    assert [u.id for u in state.player(D).destroyed] == ["D1"]
    assert unit_vp(state, A) == 1  # the returned unit's VP stop counting
    assert [(e.kind, e.unit, e.cell) for e in state.events if e.kind is EventKind.UNIT_RETURNED] == [
        ("unit_returned", "D9", "C10")
    ]
    state = play(state, NextPhase())
    assert "D9" not in mover_ids(state)


def test_international_aid_enters_the_attacker_on_row_one() -> None:
    units = ("A1 L C1", "A2 L B3", "D1 L B4")
    state = start(
        units=units, phase="ATTACK", side=D, draw=[], seed=seed_rolling(6), stored=(["international_aid#1"], [])
    )
    state = play(state, DeclareAttack(attacker_id="D1", target_id="A2"), NextPhase(), RollDice(), ResolveAttack())
    state = play(state, EndTurn(), NextPhase())
    assert state.active is A
    cells = [p.params.cell for p in bonus_plays(state, 0)]
    assert cells == ["A1", "B1", "D1", "E1", "F1", "G1", "H1", "I1", "J1"]


def test_international_aid_is_neutral_without_a_destroyed_unit() -> None:
    assert legal_actions(drew("international_aid#1")) == [StoreBonus(), DiscardBonus()]


# blocks by maluses -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("card", "blocked"),
    [
        ("rapid_supply_convoy#1", True),
        ("forward_supply_depot#1", True),
        ("special_supplies#1", True),
        ("extra_supplies#1", True),
        ("advanced_recon#1", False),
        ("artillery_support#1", False),
        ("troop_motivation#1", False),
        ("internal_discipline#1", False),
    ],
)
def test_operational_funding_cut_blocks_exactly_the_logistics_bonuses(card: str, blocked: bool) -> None:
    units = ("A1 L B2", "A7 M C2 hp=1", "A10 S D2", "D1 L B8")
    free = start(units=units, phase="MOVEMENT", draw=[], stored=([card], []))
    assert bonus_plays(free, 0) != []
    state = start(units=units, phase="CARD_DRAW", draw=["operational_funding_cut#1"], stored=([card], []))
    state = play(state, DrawCard(), AcceptMalus(), NextPhase())
    assert (bonus_plays(state, 0) == []) is blocked


def test_severe_international_sanctions_block_international_aid() -> None:
    state = play(_defender_lost_d1_and_d9(draw=("severe_international_sanctions#1",)), DrawCard())
    assert state.active is D
    assert bonus_plays(state, 0) == []  # the drawn malus is pending
    state = play(state, AcceptMalus())
    assert bonus_plays(state, 0) == []
    with pytest.raises(IllegalAction) as err:
        reduce(state, PlayBonus(stored_index=0, targets=("D1",), params=Params(cell="A10")))
    assert err.value.code == "card_blocked"


def test_severe_international_sanctions_block_electronic_countermeasures_through_the_next_turn() -> None:
    state = start(
        phase="CARD_DRAW",
        draw=["severe_international_sanctions#1"],
        stored=(["electronic_countermeasures#1"], []),
    )
    state = play(state, DrawCard(), AcceptMalus())
    assert [a for a in legal_actions(state) if isinstance(a, CancelMalus)] == []
    state = finish_turn(finish_turn(state))
    state = play(with_draw_pile(state, "ammunition_shortage#1"), DrawCard())
    assert state.turn == 3
    assert [a for a in legal_actions(state) if isinstance(a, CancelMalus)] == []  # ECM still blocked


def test_drawn_special_bonus_is_blocked_by_sanctions_from_the_previous_turn_but_can_be_stored() -> None:
    state = start(phase="CARD_DRAW", draw=["severe_international_sanctions#1"])
    state = finish_turn(finish_turn(play(state, DrawCard(), AcceptMalus())))
    state = play(with_draw_pile(state, "electronic_countermeasures#1"), DrawCard())
    assert state.turn == 3
    assert legal_actions(state) == [StoreBonus(), DiscardBonus()]
    state = play(state, StoreBonus())
    assert state.player(A).stored == ("electronic_countermeasures#1",)


def test_returned_unit_counts_for_victory_points_again_when_destroyed_again() -> None:
    units = ("A7 M B7", "D1 L B8", "D2 L J10")
    state = start(units=units, phase="ATTACK", draw=[], seed=seed_rolling(6, 5), stored=([], ["international_aid#1"]))
    state = play(state, DeclareAttack(attacker_id="A7", target_id="D1"), NextPhase(), RollDice(), ResolveAttack())
    assert unit_vp(state, A) == 1
    state = play(state, EndTurn(), NextPhase(), PlayBonus(stored_index=0, targets=("D1",), params=Params(cell="B10")))
    assert unit_vp(state, A) == 0
    state = to_phase(finish_turn(state), Phase.ATTACK)
    state = play(state, DeclareAttack(attacker_id="A7", target_id="D1"), NextPhase(), RollDice(), ResolveAttack())
    assert state.unit("D1") is None
    assert unit_vp(state, A) == 1
