"""The variant deck `field_manual` (cards written only as data): one scenario per card, and purity.

Each scenario puts the card's effects in play as its play would (`add_card_effects`) and
shows what changes; the dice scenarios roll real dice through `reduce`.
"""

from __future__ import annotations

from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine import (
    DeclareAttack,
    GameConfig,
    GameRecord,
    GameState,
    NextPhase,
    PlayBonus,
    ResolveAttack,
    RollDice,
    Side,
    legal_actions,
    new_game,
    reduce,
    replay,
    state_hash,
)
from engine.analysis import attack_odds, attack_preview, hit_chance_and_damage
from engine.cards import hooks as H
from engine.cards.catalogue import CARDS, DECK_SOURCES
from engine.cards.effects import add_card_effects
from engine.flow.phases import decide_to_act
from engine.movement.allowance import movement_allowance
from engine.rng import draw_index
from engine.state import Effect
from engine.types import EventKind, Hook
from tests.support import OPEN_10, play, replace, seed_rolling, shipped_deck, snapshot, start, terrain_with, unit

A, D = Side.ATTACKER, Side.DEFENDER
FM = "field_manual"
VARIANT_CARDS = [c.id for c in DECK_SOURCES[FM][0] if c.id not in {s.id for s in DECK_SOURCES["standard"][0]}]


def game(units: tuple[str, ...], *, terrain: str = OPEN_10, naturals: tuple[int, ...] = ()) -> GameState:
    """An ATTACK-phase scenario with the variant deck; the next dice give ``naturals``."""
    seed = seed_rolling(*naturals) if naturals else 1
    return start(units=units, terrain=terrain, phase="ATTACK", draw=[], seed=seed, cards=FM)


def played(state: GameState, card_id: str, controller: Side = A, targets: tuple[str, ...] = ()) -> GameState:
    """``state`` with the lasting effects of one play of ``card_id``."""
    state, _ = add_card_effects(state, CARDS[card_id], controller, targets)
    return replace(state, to_act=decide_to_act(state))


def card_terms(state: GameState, attacker: str, target: str) -> list[tuple[str, int, str | None]]:
    """The card terms of the attack's roll in the preview: (card, value, explanation)."""
    odds = attack_odds(state, unit(state, attacker), unit(state, target))
    return [(m.source, m.value, m.says) for m in odds.modifiers if m.kind in ("bonus", "malus", "tactic")]


def chance(state: GameState, attacker: str, target: str) -> Fraction:
    """The preview's exact hit chance; the bots' lean figure agrees with it."""
    odds = attack_odds(state, unit(state, attacker), unit(state, target))
    lean, _ = hit_chance_and_damage(state, unit(state, attacker), unit(state, target), odds.distance)
    assert lean == odds.hit_chance
    return Fraction(odds.hits, odds.outcomes)


def rolled(state: GameState, attacker: str, target: str) -> GameState:
    return play(state, DeclareAttack(attacker_id=attacker, target_id=target), NextPhase(), RollDice())


def heavy_shells(state: GameState) -> GameState:
    """A hand-built +1 damage effect on ATTACKER's attacks (a hit then deals 2)."""
    shells = Effect(
        effect_id=state.next_effect_id,
        play_id=state.next_play_id,
        source_card="heavy_shells",
        source_kind="bonus",
        controller=A,
        hook=Hook.MODIFY_DAMAGE,
        op="add",
        value=1,
        scope="own_attacks",
        expires="permanent",
    )
    return replace(
        state, effects=(*state.effects, shells), next_effect_id=shells.effect_id + 1, next_play_id=shells.play_id + 1
    )


def test_the_variant_holds_at_least_ten_new_cards_and_its_deck_adds_them() -> None:
    assert len(VARIANT_CARDS) >= 10
    deck = shipped_deck(60, FM)
    assert deck[: len(shipped_deck(60))] == shipped_deck(60)
    assert {i.partition("#")[0] for i in deck[len(shipped_deck(60)) :]} == set(VARIANT_CARDS)
    assert sorted(new_game(GameConfig(seed=5, cards=FM)).draw_pile) == sorted(deck)


def test_forest_ambush_infantry_in_forest_get_one_defense() -> None:
    state = game(("A1 S B2", "D1 L B5", "D2 M C5", "D3 L D5"), terrain=terrain_with(B5="f", C5="f"))
    state = played(state, "forest_ambush", D)
    assert [len(H.defense_effects(state, unit(state, u))) for u in ("D1", "D2", "D3")] == [1, 0, 0]
    says = "Forest Ambush: infantry in forest, +1 defense"
    assert card_terms(state, "A1", "D1") == [("forest_ambush", -1, says)]
    roll = rolled(state, "A1", "D1").last_roll
    assert roll is not None
    assert [m.clause for m in roll.modifiers if m.source == "defense:forest_ambush"] == [says]


def test_a_standard_card_keeps_its_roll_record_and_explains_itself_in_the_preview() -> None:
    state = start(units=("A1 L B2", "D1 L B3"), phase="ATTACK", draw=[])
    state = played(state, "artillery_support", A, ("A1",))
    ((source, value, says),) = card_terms(state, "A1", "D1")
    assert (source, value) == ("artillery_support", CARDS["artillery_support"].effects[0].value)
    assert says is not None and says.startswith(f"{CARDS['artillery_support'].name}: ")
    roll = rolled(state, "A1", "D1").last_roll
    assert roll is not None and all(m.clause is None for m in roll.modifiers)  # records hash as before


def test_command_presence_is_an_aura_reevaluated_as_units_move() -> None:
    state = game(("A1 S B2", "A2 L C3", "A3 L H2", "D1 L C5", "D2 L H4"))
    state = played(state, "command_presence", A)
    says = "Command Presence: within 2 of your special unit, +1 to hit"
    assert card_terms(state, "A2", "D1") == [("command_presence", 1, says)]
    assert card_terms(state, "A3", "D2") == []
    moved = replace(state, units=tuple(replace(u, cell="G2") if u.id == "A1" else u for u in state.units))
    assert card_terms(moved, "A2", "D1") == []
    assert card_terms(moved, "A3", "D2") == [("command_presence", 1, says)]


def test_steady_aim_a_unit_that_has_not_moved_gets_one_to_hit() -> None:
    state = game(("A1 L B2", "A2 L C2", "D1 L B4", "D2 L C4"))
    state = replace(state, units=tuple(replace(u, has_moved=u.id == "A2") for u in state.units))
    state = played(state, "steady_aim", A)
    assert [v for _, v, _ in card_terms(state, "A1", "D1")] == [1]
    assert card_terms(state, "A2", "D2") == []


def test_war_of_attrition_rerolls_a_natural_one_from_round_eight_on() -> None:
    early = played(game(("A1 L B2", "D1 L B3"), naturals=(1, 4)), "war_of_attrition", A)
    roll = rolled(early, "A1", "D1").last_roll
    assert roll is not None and roll.natural == 1
    late = replace(early, turn=15)  # round 8
    after = rolled(late, "A1", "D1")
    assert after.last_roll is not None and after.last_roll.natural == 4
    (rule,) = [e for e in after.events if e.kind is EventKind.CARD_RULE]
    assert (rule.card, rule.value, rule.detail) == (
        "war_of_attrition",
        4,
        "War of Attrition: from round 8 on, a natural 1 is rerolled",
    )
    assert chance(late, "A1", "D1") == Fraction(4, 6) + Fraction(1, 6) * Fraction(4, 6)


def test_sharpshooters_a_natural_six_always_hits() -> None:
    units = ("A1 S B2", "D1 L B6")  # distance 4 needs a 6; urban cover and defense take 2
    plain = game(units, terrain=terrain_with(B6="u"), naturals=(6,))
    miss = rolled(plain, "A1", "D1").last_roll
    assert miss is not None and (miss.natural, miss.outcome) == (6, "MISS")
    aimed = played(plain, "sharpshooters", A)
    after = rolled(aimed, "A1", "D1")
    assert after.last_roll is not None and after.last_roll.outcome == "HIT"
    assert [e.detail for e in after.events if e.kind is EventKind.CARD_RULE] == [
        "Sharpshooters: a natural 6 always hits"
    ]
    assert chance(aimed, "A1", "D1") == Fraction(1, 6)


def test_entrenched_each_attack_on_the_chosen_unit_deals_at_most_one_damage() -> None:
    base = heavy_shells(game(("A1 L B2", "D1 M B3", "D2 M C3"), naturals=(6,)))
    assert rolled(base, "A1", "D1").last_roll is not None
    assert play(rolled(base, "A1", "D1"), ResolveAttack()).unit("D1") is None  # 2 damage destroys it
    dug_in = played(base, "entrenched", D, ("D1",))
    odds = attack_odds(dug_in, unit(dug_in, "A1"), unit(dug_in, "D1"))
    assert odds.damage == 1 and [m.op for m in odds.damage_modifiers] == ["add", "cap"]
    assert unit(play(rolled(dug_in, "A1", "D1"), ResolveAttack()), "D1").hp == 1
    assert attack_odds(dug_in, unit(dug_in, "A1"), unit(dug_in, "D2")).damage == 2


def test_lucky_charm_ignores_the_first_hit_on_a_roll_of_five_or_more() -> None:
    charmed = played(game(("A1 L B2", "D1 M B3"), naturals=(6, 5)), "lucky_charm", D, ("D1",))
    assert chance(charmed, "A1", "D1") == Fraction(4, 6) * Fraction(4, 6)
    saved = play(rolled(charmed, "A1", "D1"), ResolveAttack())
    assert unit(saved, "D1").hp == 2
    assert [e.detail for e in saved.events if e.kind is EventKind.CARD_RULE] == [
        "Lucky Charm: the first hit on this unit is ignored on a roll of 5+: rolled 5, hit ignored"
    ]
    assert saved.effects == ()  # spent
    unlucky = replace(charmed, rng=seed_rolling(6, 3))
    hit = play(rolled(unlucky, "A1", "D1"), ResolveAttack())
    assert unit(hit, "D1").hp == 1 and hit.effects == ()


def test_crossfire_counts_friendly_units_around_the_target() -> None:
    state = played(game(("A1 L E3", "A2 L F3", "D1 L E5")), "crossfire", A)
    assert [v for _, v, _ in card_terms(state, "A1", "D1")] == [1]
    alone = replace(state, units=tuple(replace(u, cell="H1") if u.id == "A2" else u for u in state.units))
    assert card_terms(alone, "A1", "D1") == []


def test_road_march_units_on_a_road_get_one_more_mp() -> None:
    state = played(game(("A1 L B2", "A2 L C2", "D1 L H8"), terrain=terrain_with(B2="=")), "road_march", A)
    assert movement_allowance(state, unit(state, "A1")) == 2 * (2 + 1)
    assert movement_allowance(state, unit(state, "A2")) == 2 * 2


def test_last_stand_units_at_one_hp_get_one_defense() -> None:
    state = played(game(("A1 L B2", "D1 M B4 hp=1", "D2 M C4")), "last_stand", D)
    assert [len(H.defense_effects(state, unit(state, u))) for u in ("D1", "D2")] == [1, 0]


def test_hold_the_line_in_the_enemy_turn_urban_or_next_to_a_special_unit() -> None:
    units = ("A1 S B2", "D1 L B5", "D2 L D5", "D3 S E5", "D4 L H5")
    state = played(game(units, terrain=terrain_with(B5="u")), "hold_the_line", D)
    assert [len(H.defense_effects(state, unit(state, u))) for u in ("D1", "D2", "D3", "D4")] == [1, 1, 0, 0]
    own_turn = replace(state, active=D)
    assert [len(H.defense_effects(own_turn, unit(own_turn, u))) for u in ("D1", "D2")] == [0, 0]


def test_covering_fire_radiates_from_the_chosen_unit() -> None:
    state = played(game(("A1 L B2", "D1 L B5", "D2 L C5", "D3 L E5")), "covering_fire", D, ("D1",))
    assert [len(H.defense_effects(state, unit(state, u))) for u in ("D1", "D2", "D3")] == [1, 1, 0]


def test_fumble_a_natural_one_or_two_always_misses() -> None:
    aimed = played(game(("A1 L B2", "D1 L B3"), naturals=(2,)), "steady_aim", A)  # 2 + 1 hits at distance 1
    roll = rolled(aimed, "A1", "D1").last_roll
    assert roll is not None and roll.outcome == "HIT"
    fumbled = played(aimed, "fumble", A)
    after = rolled(fumbled, "A1", "D1")
    assert after.last_roll is not None and after.last_roll.outcome == "MISS"
    assert [e.card for e in after.events if e.kind is EventKind.CARD_RULE] == ["fumble"]
    assert chance(fumbled, "A1", "D1") == Fraction(4, 6)


def test_encircled_mechanized_units_with_two_enemies_close_lose_one_mp() -> None:
    state = game(("A1 M B2", "A2 M H2", "D1 L B4", "D2 L C5", "D3 L H4"))
    state = played(state, "encircled", A)
    assert movement_allowance(state, unit(state, "A1")) == 2 * (4 - 1)
    assert movement_allowance(state, unit(state, "A2")) == 2 * 4


def test_playing_a_variant_bonus_records_the_clause_it_applies() -> None:
    state = start(units=("A1 L B2", "D1 L B5"), phase="MOVEMENT", draw=[], cards=FM, stored=(("forest_ambush#1",), ()))
    state = play(state, PlayBonus(stored_index=0))
    (effect,) = state.effects
    assert (effect.source_card, effect.conditions.clause) == ("forest_ambush", 0)


# Purity and determinism with the variant deck -------------------------------------------------


def _playout(seed: int, order: list[str], steps: int) -> tuple[GameRecord, list[GameState]]:
    """A random legal game whose draw pile starts with every variant card, playing bonuses whenever it can."""
    deck = shipped_deck(60, FM)
    first = [f"{card}#1" for card in order]
    config = GameConfig(seed=seed, cards=FM, draw_pile=(*first, *(c for c in deck if c not in first)))
    state = new_game(config)
    states, actions, hashes = [state], [], []
    rng = seed
    for _ in range(steps):
        legal = legal_actions(state)
        if not legal:
            break
        plays = [a for a in legal if isinstance(a, PlayBonus)] or legal  # play bonuses when one can
        index, rng = draw_index(len(plays), rng)
        before = snapshot(state)
        action = plays[index]
        after = reduce(state, action)
        assert snapshot(state) == before  # reduce never changes its input
        assert state_hash(reduce(state, action)) == state_hash(after)  # the same action, the same result
        states.append(after)
        actions.append(action)
        hashes.append(state_hash(after))
        state = after
    return GameRecord(config=config, actions=tuple(actions), hashes=tuple(hashes)), states


@settings(max_examples=10, deadline=None)
@given(seed=st.integers(1, 2**31), order=st.permutations(VARIANT_CARDS))
def test_reduce_stays_pure_and_deterministic_with_the_variant_deck(seed: int, order: list[str]) -> None:
    record, states = _playout(seed, order, 160)
    replayed = list(replay(record))  # raises ReplayMismatch if a hash differs
    assert [state_hash(s) for s in replayed] == [state_hash(s) for s in states]
    assert any(e.source_card in VARIANT_CARDS for s in states for e in s.effects)  # the variant took part
    for state in states[:: max(1, len(states) // 8)]:
        legal = legal_actions(state)
        for action in legal:
            reduce(state, action)  # every listed action is accepted


def test_a_tactic_reroll_counts_only_missed_rolls_and_then_the_saves() -> None:
    # Commander's Luck throws a missed die again; a hit that Lucky Charm then saves was no miss.
    state = start(units=("A1 L B2", "D1 M B3"), phase="ATTACK", draw=[], cards=FM, tactics=(("commanders_luck",), ()))
    state = played(state, "lucky_charm", D, ("D1",))
    preview = attack_preview(state, DeclareAttack(attacker_id="A1", target_id="D1"))
    assert Fraction(preview.odds.hits, preview.odds.outcomes) == Fraction(4, 6) * Fraction(4, 6)
    (luck,) = [t for t in preview.tactics if t.play.card_id == "commanders_luck"]
    roll = Fraction(4, 6) + Fraction(2, 6) * Fraction(4, 6)
    assert Fraction(luck.odds.hits, luck.odds.outcomes) == roll * Fraction(4, 6)


def test_a_game_names_its_deck_source_and_an_unknown_one_is_refused() -> None:
    assert new_game(GameConfig(seed=2, cards=FM)).rules.cards == FM
    with pytest.raises(ValueError, match=r"cards 'no_such_deck' is not a deck source \(standard, field_manual\)"):
        new_game(GameConfig(seed=2, cards="no_such_deck"))
