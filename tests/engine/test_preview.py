"""attack_preview and move_preview: the engine's own figures, checked against what `reduce` then does."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from engine import (
    Attack,
    DeclareAttack,
    GameState,
    Hook,
    MoveUnit,
    NextPhase,
    PassReaction,
    Phase,
    PlayTactic,
    ResolveAttack,
    RollDice,
    Side,
    Unit,
    Window,
    draw_index,
    legal_actions,
    new_game,
    reduce,
    roll_d6,
)
from engine.analysis import (
    AttackPreview,
    TacticOdds,
    add_card_effects,
    attack_odds,
    attack_preview,
    hit_chance_and_damage,
    move_preview,
    rolls_dice,
)
from engine.cards.catalogue import CARDS
from engine.cards.hooks import attack_damage, unit_stat
from engine.combat.roll import damage_modifiers
from lab.fuzz import random_config
from tests.support import config, play, replace, start, terrain_with, unit


def _die_seeds() -> dict[int, int]:
    seeds: dict[int, int] = {}
    seed = 0
    while len(seeds) < 6:
        seeds.setdefault(roll_d6(seed)[0], seed)
        seed += 1
    return seeds


FACE = _die_seeds()
"""For each face 1..6, an rng seed whose next d6 is that face."""


def random_positions(games: int, first_seed: int = 0) -> Iterator[GameState]:
    """Every position of random legal playouts on the fuzzer's random configs."""
    for seed in range(first_seed, first_seed + games):
        state = new_game(random_config(seed))
        choice = seed + 1
        while legal := legal_actions(state):
            yield state
            index, choice = draw_index(len(legal), choice)
            state = reduce(state, legal[index])


def to_active(state: GameState) -> GameState:
    """Let the reacting player pass until the active player decides (no effect changes)."""
    while state.to_act is not state.active:
        state = reduce(state, PassReaction())
    return state


def roll(state: GameState, face: int) -> GameState:
    """ROLL_DICE with the die showing ``face``."""
    return reduce(to_active(replace(state, rng=FACE[face])), RollDice())


def hp_lost(state: GameState, target: str) -> int:
    """HP the pending attack takes from ``target`` when resolved (at most its HP)."""
    before = unit(state, target).hp
    after = reduce(to_active(state), ResolveAttack()).unit(target)
    return before - (after.hp if after is not None else 0)


def enumerate_fresh_die(state: GameState) -> tuple[int, set[int]]:
    """Hits over the six faces through the real ROLL_DICE, and the HP a hit takes."""
    assert state.pending_attack is not None and state.last_roll is None
    hits, lost = 0, set()
    for face in range(1, 7):
        rolled = roll(state, face)
        assert rolled.last_roll is not None and rolled.last_roll.natural == face
        if rolled.last_roll.outcome == "HIT":
            hits += 1
            lost.add(hp_lost(rolled, state.pending_attack.target))
    return hits, lost


def expected_loss(state: GameState, preview: AttackPreview) -> set[int]:
    target = unit(state, preview.odds.target)
    return {min(preview.odds.damage, target.hp)} if preview.odds.hits else set()


def pending_positions(games: int) -> Iterator[GameState]:
    for state in random_positions(games):
        if state.phase is Phase.DICE_RESOLUTION and state.pending_attack is not None and state.last_roll is None:
            yield state


def test_the_hit_chance_is_the_frequency_of_hits_over_the_six_faces_of_the_real_roll() -> None:
    checked = 0
    for state in pending_positions(12):
        preview = attack_preview(state, state.pending_attack)  # type: ignore[arg-type]
        hits, lost = enumerate_fresh_die(state)
        assert preview.odds.hits * 6 == hits * preview.odds.outcomes  # card dice rules may count over 2, 3 ...
        assert preview.odds.hit_chance == hits / 6
        assert lost == expected_loss(state, preview)
        assert preview.odds.expected_damage == pytest.approx(hits / 6 * preview.odds.damage)
        checked += 1
    assert checked >= 40


def test_a_hypothetical_attack_previews_as_it_then_resolves() -> None:
    checked = 0
    for state in random_positions(12, first_seed=100):
        if state.phase is not Phase.ATTACK or state.attack_queue or state.to_act is not state.active:
            continue
        for action in legal_actions(state):
            if not isinstance(action, DeclareAttack):
                continue
            preview = attack_preview(state, action)
            pending = reduce(reduce(state, action), NextPhase())
            assert pending.pending_attack is not None and pending.pending_attack.attacker == action.attacker_id
            assert attack_preview(pending, pending.pending_attack).odds == preview.odds
            hits, lost = enumerate_fresh_die(pending)
            assert preview.odds.hits * 6 == hits * preview.odds.outcomes  # card dice rules may count over 2, 3 ...
            assert lost == expected_loss(state, preview)
            checked += 1
    assert checked >= 40


def _after_tactic(state: GameState, option: TacticOdds, target: str) -> tuple[int, int, set[int]]:
    """Hits and outcomes when ``option.play`` is really played as the preview counts it."""
    if option.window is Window.BEFORE_ATTACK_ROLL:
        played = reduce(to_active(state), option.play)
        hits, lost = enumerate_fresh_die(played)
        return hits, 6, lost
    hits, outcomes, lost = 0, 0, set()
    for face in range(1, 7):
        rolled = roll(state, face)
        assert rolled.last_roll is not None
        if rolls_dice(CARDS[option.play.card_id]) and rolled.last_roll.outcome == "HIT":
            hits, outcomes = hits + 6, outcomes + 6  # a reroll is spent on a miss only
            lost.add(hp_lost(rolled, target))
            continue
        for second in range(1, 7):
            played = reduce(to_active(replace(rolled, rng=FACE[second])), option.play)
            assert played.last_roll is not None
            outcomes += 1
            if played.last_roll.outcome == "HIT":
                hits += 1
                lost.add(hp_lost(played, target))
    return hits, outcomes, lost


def test_a_tactic_previews_exactly_what_playing_it_does() -> None:
    seen: set[str] = set()
    for state in pending_positions(40):
        preview = attack_preview(state, state.pending_attack)  # type: ignore[arg-type]
        for option in preview.tactics:
            odds = option.odds
            hits, outcomes, lost = _after_tactic(state, option, odds.target)
            assert hits * odds.outcomes == odds.hits * outcomes, option.play
            assert lost <= {min(odds.damage, unit(state, odds.target).hp)}
            seen.add(option.play.card_id)
    assert {"precision_shot", "clear_line_of_fire", "coordinated_maneuver", "commanders_luck"} <= seen


def tactic_state(units: tuple[str, ...], tactics: tuple[str, ...], terrain: str | None = None) -> GameState:
    kwargs = {"terrain": terrain} if terrain else {}
    state = start(units=units, phase="ATTACK", draw=[], tactics=(tactics, ()), **kwargs)
    return play(state, DeclareAttack(attacker_id="A1", target_id="D1"), NextPhase())


def option(preview: AttackPreview, card_id: str) -> TacticOdds:
    found = [t for t in preview.tactics if t.play.card_id == card_id]
    assert found, f"{card_id} not previewed: {[t.play.card_id for t in preview.tactics]}"
    return found[0]


def test_precision_shot_doubles_the_damage_and_keeps_the_chance() -> None:
    state = tactic_state(("A1 L B2", "D1 M B4"), ("precision_shot",))
    preview = attack_preview(state, state.pending_attack)  # type: ignore[arg-type]
    shot = option(preview, "precision_shot")
    assert (preview.odds.hit_chance, preview.odds.damage) == (0.5, 1)  # distance 2: 4+
    assert (shot.odds.hit_chance, shot.odds.damage, shot.odds.destroy_chance) == (0.5, 2, 0.5)
    assert shot.play == PlayTactic(card_id="precision_shot", targets=("A1",))
    assert [(m.kind, m.source, m.op, m.value) for m in shot.odds.damage_modifiers] == [
        ("tactic", "precision_shot", "mul", 2)
    ]


def test_clear_line_of_fire_removes_the_terrain_terms() -> None:
    state = tactic_state(("A1 L B2", "D1 L B4"), ("clear_line_of_fire",), terrain=terrain_with(B4="u"))
    preview = attack_preview(state, state.pending_attack)  # type: ignore[arg-type]
    terms = [(m.kind, m.source, m.term, m.value) for m in preview.odds.modifiers]
    assert terms == [("terrain", "URBAN", "cover", -1), ("terrain", "URBAN", "terrain_defense", -1)]
    assert preview.odds.hit_chance == pytest.approx(1 / 6)
    clear = option(preview, "clear_line_of_fire")
    assert clear.odds.modifiers == () and clear.odds.hit_chance == 0.5


def test_coordinated_maneuver_adds_one_to_the_roll_and_the_damage_per_supporter() -> None:
    state = tactic_state(("A1 L B2", "A2 L C2", "A3 L J1", "D1 M B4"), ("coordinated_maneuver",))
    preview = attack_preview(state, state.pending_attack)  # type: ignore[arg-type]
    plays = [t for t in preview.tactics if t.play.card_id == "coordinated_maneuver"]
    assert [t.play.targets for t in plays] == [("A2",)]  # A3 is out of range of D1
    assert (plays[0].odds.hits, plays[0].odds.damage) == (4, 2)


def test_commanders_luck_rerolls_a_miss_before_the_roll_and_the_known_die_after_it() -> None:
    state = tactic_state(("A1 L B2", "D1 L B4"), ("commanders_luck",))
    luck = option(attack_preview(state, state.pending_attack), "commanders_luck")  # type: ignore[arg-type]
    assert (luck.odds.hits, luck.odds.outcomes, luck.odds.rerolls) == (27, 36, 1)  # 1/2 + 1/2 × 1/2
    missed = roll(state, 2)
    after = attack_preview(missed, missed.pending_attack)  # type: ignore[arg-type]
    assert (after.odds.natural, after.odds.hits, after.odds.outcomes) == (2, 0, 1)
    assert (option(after, "commanders_luck").odds.hits, option(after, "commanders_luck").odds.outcomes) == (3, 6)


def test_no_tactic_is_previewed_once_its_player_has_played_in_the_window() -> None:
    state = tactic_state(("A1 L B2", "D1 M B4"), ("precision_shot", "expert_aim"))
    played = reduce(state, PlayTactic(card_id="expert_aim", targets=("D1",)))
    preview = attack_preview(played, played.pending_attack)  # type: ignore[arg-type]
    assert preview.tactics == ()
    assert preview.odds.hits == 5 and [m.source for m in preview.odds.modifiers] == ["expert_aim"]


def test_modifiers_name_their_kind_bonus_malus_tactic_and_ability() -> None:
    from engine import RulesOverlay

    flank = {"id": "flank", "unit": "MECHANIZED", "hook": "modify_attack_roll", "op": "add", "value": 1}
    cfg = config(
        unit_specs=("A1 L B2", "A7 M C2", "D1 L B4"),
        phase="ATTACK",
        draw=[],
        stored=(("artillery_support#1",), ()),
        rules=RulesOverlay(name="flank", abilities=(flank,)),
    )
    from engine import PlayBonus

    state = play(new_game(cfg), PlayBonus(stored_index=0, targets=("A1",)))
    assert [(m.kind, m.source) for m in attack_odds(state, unit(state, "A1"), unit(state, "D1")).modifiers] == [
        ("bonus", "artillery_support")
    ]
    assert [(m.kind, m.term) for m in attack_odds(state, unit(state, "A7"), unit(state, "D1")).modifiers] == [
        ("ability", "attack_roll")
    ]


def test_attack_odds_take_units_placed_elsewhere_and_a_distance() -> None:
    state = start(units=("A1 L B2", "D1 L B8"), phase="ATTACK", terrain=terrain_with(B8="f"))
    a1, d1 = unit(state, "A1"), unit(state, "D1")
    odds = attack_odds(state, replace(a1, cell="B7"), d1)
    assert (odds.distance, odds.required, odds.modifier, odds.hits) == (1, 3, -1, 3)
    assert attack_odds(state, a1, d1, distance=2).required == 4
    with pytest.raises(ValueError, match="must both stand on the board"):
        attack_odds(state, replace(a1, cell=None), d1)


def test_attack_preview_names_a_missing_unit() -> None:
    state = start(units=("A1 L B2", "D1 L B8"), phase="ATTACK")
    with pytest.raises(ValueError, match="no unit D9 on the board"):
        attack_preview(state, DeclareAttack(attacker_id="A1", target_id="D9"))


def test_move_preview_lists_exactly_the_legal_moves_with_paths_and_costs() -> None:
    for state in random_positions(6, first_seed=200):
        if state.phase is not Phase.MOVEMENT or state.to_act is not state.active or state.moves_this_turn:
            continue
        legal = legal_actions(state)
        for piece in state.units:
            if piece.side is not state.active or piece.cell is None:
                continue
            preview = move_preview(state, piece.id)
            offered = {a.to for a in legal if isinstance(a, MoveUnit) and a.unit_id == piece.id}
            assert {c.cell for c in preview.cells} == offered
            for cell in preview.cells:
                assert cell.path[-1] == cell.cell and cell.cost <= preview.allowance and cell.mp == cell.cost / 2
                moved = reduce(state, MoveUnit(unit_id=piece.id, to=cell.cell))
                assert moved.events[0].value == cell.cost


def test_move_preview_follows_the_road() -> None:
    rows = ["." * 10] * 10
    rows[1] = "=" * 10
    state = start(units=("A1 L A2", "D1 L J10"), phase="MOVEMENT", terrain="\n".join(rows))
    preview = move_preview(state, "A1")
    far = next(c for c in preview.cells if c.cell == "E2")
    assert (far.cost, far.mp, far.path) == (4, 2.0, ("B2", "C2", "D2", "E2"))
    assert preview.start == "A2" and preview.allowance == 4


def test_move_preview_of_a_unit_that_cannot_move_is_empty_and_an_unknown_unit_is_named() -> None:
    state = start(units=("A1 L A2", "D1 L J10"), phase="MOVEMENT")
    assert move_preview(state, "D1").cells != ()  # reach is the unit's, whoever's turn it is
    with pytest.raises(ValueError, match="no unit A9"):
        move_preview(state, "A9")


def test_previews_are_pure() -> None:
    state = tactic_state(("A1 L B2", "A2 L C2", "D1 M B4"), ("coordinated_maneuver", "commanders_luck"))
    before = state
    attack_preview(state, state.pending_attack)  # type: ignore[arg-type]
    move_preview(state, "A2")
    assert state == before and state.units == before.units
    assert Side.ATTACKER is state.active


def test_the_lean_hit_chance_and_damage_equal_attack_odds_everywhere() -> None:
    pairs = 0
    for n, state in enumerate(random_positions(4, first_seed=300)):
        if n % 25:
            continue
        for attacker, target, distance in _shots(state, (1, 3)):
            odds = attack_odds(state, attacker, target, distance)
            lean = hit_chance_and_damage(state, attacker, target, distance)
            assert lean == (odds.hit_chance, odds.damage)
            pairs += 1
    assert pairs > 1000


def _shots(state: GameState, distances: tuple[int, ...]) -> Iterator[tuple[Unit, Unit, int]]:
    """Every placed unit at every placed enemy, from each of ``distances``."""
    placed = [u for u in state.units if u.cell is not None]
    for attacker in placed:
        for target in placed:
            if attacker.side is not target.side:
                for distance in distances:
                    yield attacker, target, distance


def _damage_from_named_terms(state: GameState, attacker: Unit, target: Unit, distance: int) -> int:
    """A hit's damage folded from the terms `damage_modifiers` names, as a screen would show them."""
    damage, factor, cap = unit_stat(state, attacker, "damage"), 1, None
    for term in damage_modifiers(state, attacker, target, distance):
        if term.op == "add":
            damage += term.value
        elif term.op == "mul":
            factor *= term.value
        else:
            cap = term.value
    damage = max(0, damage * factor)
    return damage if cap is None else min(damage, cap)


def test_a_hits_damage_equals_its_named_terms_whatever_effects_are_live() -> None:
    """`attack_damage` skips the damage hooks while no live effect is on them (issue 36); the named terms never do.

    Every shipped card with a damage term (Precision Shot, Coordinated Maneuver, Entrenched) and one
    without (Troop Motivation), played by each side aimed at its first unit (with that unit's attack
    on the first enemy pending, for the cards of one attack), over a random game."""
    damage_hooks = {Hook.MODIFY_DAMAGE, Hook.MODIFY_STAT, Hook.CAP_DAMAGE}
    cards = [card for card in CARDS.values() if any(effect.hook in damage_hooks for effect in card.effects)]
    assert {card.id for card in cards} >= {"precision_shot", "coordinated_maneuver", "entrenched"}
    changed: set[str] = set()
    for n, base in enumerate(random_positions(1, first_seed=7)):
        if n % 20:
            continue
        for card in [*cards, CARDS["troop_motivation"]]:
            for side in Side:
                own = [u.id for u in base.units if u.side is side and u.cell is not None]
                enemy = [u.id for u in base.units if u.side is not side and u.cell is not None]
                if not own or not enemy:
                    continue
                pending = replace(base, pending_attack=Attack(attacker=own[0], target=enemy[0]))  # for one-attack cards
                state, _ = add_card_effects(pending, card, side, (own[0],))
                for attacker, target, distance in _shots(state, (1, 2)):
                    expected = _damage_from_named_terms(state, attacker, target, distance)
                    assert attack_damage(state, attacker, target, distance) == expected, card.id
                    if expected != unit_stat(state, attacker, "damage"):
                        changed.add(card.id)
    assert changed >= {"precision_shot", "coordinated_maneuver"}  # the terms did change hits


def test_an_attack_an_effect_forbids_never_hits() -> None:
    cfg = config(unit_specs=("A7 M B3", "D1 L B4"), phase="CARD_DRAW", draw=["mechanical_failure#1"])
    from engine import AcceptMalus, ChooseMalusTargets, DrawCard

    state = play(new_game(cfg), DrawCard(), AcceptMalus(), ChooseMalusTargets(unit_ids=("A7",)))
    odds = attack_odds(state, unit(state, "A7"), unit(state, "D1"))
    assert (odds.allowed, odds.hits, odds.hit_chance) == (False, 0, 0.0)
    assert hit_chance_and_damage(state, unit(state, "A7"), unit(state, "D1"), 1) == (0.0, 1)
