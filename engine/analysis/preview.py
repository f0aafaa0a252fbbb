"""What an attack would do and where a unit can go: the engine's answers for players and tools.

`attack_preview` gives the required roll, every modifier with its source, the exact hit
chance and the damage of one attack, as things stand and with each tactic its attacker's
owner could still add. `move_preview` gives every cell a unit can reach with its
cheapest path. Both read the very functions the reducer resolves with (`engine.attacks`
`roll_modifiers` / `hit_faces`, `engine.hooks` `attack_damage`, `engine.effects`
`add_card_effects`, `engine.movement` `unit_reach`), so a preview cannot disagree with
what then happens.
"""

from __future__ import annotations

import msgspec
from msgspec.structs import replace

from ..actions import DeclareAttack, PlayTactic
from ..board.info import board_info
from ..cards.defs import CardDef
from ..cards.effects import add_card_effects
from ..cards.game import game_card
from ..cards.hooks import attack_damage, can_attack, can_play_tactic, unit_distance
from ..cards.instants import INSTANT_OPS
from ..cards.targeting import target_options
from ..combat.dice import has_dice_rules, hit_probability, save_factor
from ..combat.queue import placed_unit
from ..combat.roll import DamageModifier, RollModifier, damage_modifiers, hit_faces, modified_roll, roll_modifiers
from ..flow.windows import has_marked, reaction_windows, tactic_rank
from ..movement import movement_allowance, unit_reach
from ..state import Attack, GameState, Unit
from ..tables import required_roll, unit_stats
from ..types import Phase, Side, Window

__all__ = [
    "AttackOdds",
    "AttackPreview",
    "MoveOption",
    "MovePreview",
    "TacticOdds",
    "attack_odds",
    "attack_preview",
    "move_preview",
    "rolls_dice",
]

_ATTACK_WINDOWS = (Window.BEFORE_ATTACK_ROLL, Window.AFTER_ATTACK_ROLL, Window.BEFORE_DAMAGE)
_POST_ROLL = (Window.AFTER_ATTACK_ROLL, Window.BEFORE_DAMAGE)


class AttackOdds(msgspec.Struct, frozen=True, kw_only=True):
    """The figures of one attack (rules §6.2-§6.4, §8.2): what it needs, its chance, its damage."""

    attacker: str
    target: str
    distance: int  # Chebyshev distance between the two units
    required: int  # the modified roll that hits at this distance (§6.2)
    modifiers: tuple[RollModifier, ...]  # every term added to the die, with its source
    modifier: int  # their sum
    allowed: bool = True  # False when an effect forbids the attack (can_attack, §8.2): it never hits
    natural: int | None = None  # the die, once rolled; the figures are then for that die
    rerolls: int = 0  # rerolls counted: 1 for a tactic that throws a missed die again
    hits: int  # equally likely outcomes that hit, out of ``outcomes``
    outcomes: int  # 6 (one die), 36 (a die and a reroll of a miss), 1 (the die is known); card dice rules give others
    hit_chance: float  # hits / outcomes, exact as a fraction
    base_damage: int  # the attacker's damage per hit (§3.1)
    damage_modifiers: tuple[DamageModifier, ...]
    damage: int  # HP a hit removes
    expected_damage: float  # hit_chance × damage
    destroy_chance: float  # chance that the target is destroyed (hit_chance if a hit kills it, else 0)


class TacticOdds(msgspec.Struct, frozen=True, kw_only=True):
    """The figures of an attack if its attacker's owner plays ``play`` in ``window``."""

    play: PlayTactic  # the action, exactly as `legal_actions` will list it in that window
    window: Window
    odds: AttackOdds


class AttackPreview(msgspec.Struct, frozen=True, kw_only=True):
    """`attack_preview`'s answer: the attack as things stand, and what each tactic would change."""

    odds: AttackOdds
    tactics: tuple[TacticOdds, ...] = ()  # plays that change the hit chance or the damage, in hand order


class MoveOption(msgspec.Struct, frozen=True, kw_only=True):
    """One cell a unit can reach, its least cost and one cheapest path."""

    cell: str
    cost: int  # half-points (1 MP = 2), exactly as the rules count them (§2.4)
    mp: float  # the same cost in MP
    path: tuple[str, ...]  # the cells entered, in order, ending with ``cell``


class MovePreview(msgspec.Struct, frozen=True, kw_only=True):
    """`move_preview`'s answer for one unit."""

    unit: str
    start: str | None  # where it stands (None when off the board)
    allowance: int  # half-points it may spend this turn (§5.2)
    cells: tuple[MoveOption, ...]  # every reachable cell, by (y, x)


def rolls_dice(card: CardDef) -> bool:
    """True when playing ``card`` throws a die (an instant op such as ``reroll_die``), so its outcome is chance."""
    return any(effect.is_instant and INSTANT_OPS[effect.op].rolls_dice for effect in card.effects)


def attack_odds(state: GameState, attacker: Unit, target: Unit, distance: int | None = None) -> AttackOdds:
    """The figures of ``attacker`` firing at ``target`` now, before the die is thrown.

    What `attack_preview` reports as ``odds``, for any two placed units: the units' cells
    are read as given, so a caller may ask about units placed elsewhere
    (``replace(unit, cell=...)``), and ``distance`` (default: between the two cells) may
    be given for an attack from a spot still to be reached. It neither checks that the
    attack may be declared (`explain` says) nor counts tactics (`attack_preview` does).
    `hit_chance_and_damage` is its lean form (same functions, two numbers) for tools
    that ask thousands of times.
    """
    if attacker.cell is None or target.cell is None:
        raise ValueError(f"{attacker.id} and {target.id} must both stand on the board")
    if distance is None:
        distance = unit_distance(attacker, target, state)
    return _odds(state, attacker, target, distance)


def attack_preview(state: GameState, attack: DeclareAttack | Attack) -> AttackPreview:
    """Preview one attack: the declared one in progress (``state.pending_attack``) or a hypothetical one.

    ``odds`` are the figures as things stand (for the pending attack after its roll: for
    that die). ``tactics`` lists, for every tactic in the attacker's owner's hand that
    could be played now or in this attack's coming reaction windows (§9) and would
    change the hit chance or the damage, the figures with it. A tactic that rerolls is
    counted as thrown again on a miss (before the roll) or on the known die (after it).
    Raises ValueError when either unit is unknown or off the board.
    """
    if isinstance(attack, DeclareAttack):
        attacker_id, target_id = attack.attacker_id, attack.target_id
    else:
        attacker_id, target_id = attack.attacker, attack.target
    attacker, target = placed_unit(state, attacker_id), placed_unit(state, target_id)
    if attacker is None or target is None:
        missing = attacker_id if attacker is None else target_id
        raise ValueError(f"there is no unit {missing} on the board")
    distance = unit_distance(attacker, target, state)
    pending = Attack(attacker=attacker_id, target=target_id)
    in_progress = state.pending_attack == pending
    natural = state.last_roll.natural if in_progress and state.last_roll is not None else None
    odds = _odds(state, attacker, target, distance, natural)
    side = attacker.side
    windows = _coming_windows(state, side, in_progress)
    if not windows or not can_play_tactic(state, side):
        return AttackPreview(odds=odds)
    world = state if in_progress else _pending_world(state, pending)
    plays: list[TacticOdds] = []
    for card_id in sorted(state.player(side).tactics, key=tactic_rank):
        card = game_card(state.rules, card_id)  # None: hidden from this view
        if card is None:
            continue
        if card.window is None or card.window not in windows or card.side not in ("active", "either"):
            continue
        for targets, params in target_options(world, side, card):
            after, _ = add_card_effects(world, card, side, targets, params.quadrant, params.option)
            if rolls_dice(card):
                with_it = _odds(after, attacker, target, distance, natural, rerolled=odds)
            else:
                with_it = _odds(after, attacker, target, distance, natural)
            if (with_it.hits * odds.outcomes, with_it.damage) != (odds.hits * with_it.outcomes, odds.damage):
                play = PlayTactic(card_id=card_id, targets=targets, params=params)
                plays.append(TacticOdds(play=play, window=card.window, odds=with_it))
    return AttackPreview(odds=odds, tactics=tuple(plays))


def move_preview(state: GameState, unit_id: str) -> MovePreview:
    """Every cell ``unit_id`` can reach this turn, with its least cost and one cheapest path.

    The same search that decides whether a MOVE_UNIT is legal (§5.4), so every cell
    listed is one the unit may move to whenever it may move at all; whether it may move
    now (phase, ``has_moved``, the move limit) is `legal_actions`' and `explain`'s
    business. Raises ValueError for an unknown unit.
    """
    unit = state.unit(unit_id)
    if unit is None:
        raise ValueError(f"there is no unit {unit_id} in this game")
    reach = unit_reach(state, unit)
    labels = board_info(state.board).labels
    cells = tuple(
        MoveOption(cell=labels[cell], cost=cost, mp=cost / 2, path=tuple(labels[c] for c in reach.path(cell)))
        for cell, cost in sorted(reach.costs.items())
    )
    allowance = movement_allowance(state, unit) if unit.cell is not None else 0
    return MovePreview(unit=unit.id, start=unit.cell, allowance=allowance, cells=cells)


def _odds(
    state: GameState,
    attacker: Unit,
    target: Unit,
    distance: int,
    natural: int | None = None,
    rerolled: AttackOdds | None = None,
) -> AttackOdds:
    """The figures in ``state`` for a fresh die, or for die ``natural`` once rolled.

    With ``rerolled`` (the figures before a tactic that throws the die again) the die is
    thrown again: the known die at once, or, before the roll, a first die that misses.
    """
    modifiers = roll_modifiers(state, attacker, target, distance)
    total = sum(m.value for m in modifiers)
    required = required_roll(distance, state.rules.tables)
    faces = hit_faces(total, required)
    rerolls = 0 if rerolled is None else 1
    allowed = can_attack(state, attacker, target, distance)
    if not allowed:
        hits, outcomes = 0, 1
    elif rerolled is not None and natural is None:
        hits, outcomes = 6 * rerolled.hits + (6 - rerolled.hits) * faces, 36
    elif rerolled is None and natural is not None:
        hits, outcomes = int(modified_roll(natural, total) >= required), 1
    else:
        hits, outcomes = faces, 6
    if allowed and state.effects and has_dice_rules(state):
        hits, outcomes = _with_dice_rules(state, attacker, target, distance, total, natural, rerolled)
    damage = attack_damage(state, attacker, target, distance)
    chance = hits / outcomes
    return AttackOdds(
        attacker=attacker.id,
        target=target.id,
        distance=distance,
        required=required,
        modifiers=tuple(modifiers),
        modifier=total,
        allowed=allowed,
        natural=natural if rerolled is None else None,
        rerolls=rerolls,
        hits=hits,
        outcomes=outcomes,
        hit_chance=chance,
        base_damage=unit_stats(attacker.type, state.rules.tables).damage,
        damage_modifiers=tuple(damage_modifiers(state, attacker, target, distance)),
        damage=damage,
        expected_damage=chance * damage,
        destroy_chance=chance if damage >= target.hp else 0.0,
    )


def _with_dice_rules(
    state: GameState,
    attacker: Unit,
    target: Unit,
    distance: int,
    total: int,
    natural: int | None,
    rerolled: AttackOdds | None,
) -> tuple[int, int]:
    """``(hits, outcomes)`` counting rerolls, forced results and saves of the card language (`engine.dice_rules`)."""
    required = required_roll(distance, state.rules.tables)

    def lands(n: int) -> bool:
        return modified_roll(n, total) >= required

    if rerolled is None:
        chance = hit_probability(state, attacker, target, distance, lands, natural)
    else:  # a tactic throws a missed die again: a fresh die (after a first one that missed, before the roll)
        roll = hit_probability(state, attacker, target, distance, lands, saves=False)
        if natural is None:
            roll += (1 - roll) * roll
        chance = roll * save_factor(state, attacker, target, distance)
    return chance.numerator, chance.denominator


def _coming_windows(state: GameState, side: Side, in_progress: bool) -> tuple[Window, ...]:
    """The reaction windows of the attack in which ``side`` may still play a tactic (one per instance, §9.2)."""
    if not in_progress:
        return _ATTACK_WINDOWS
    open_now = reaction_windows(state)
    marked = bool(open_now) and has_marked(state, side, open_now[0].instance)
    if state.last_roll is not None:
        return () if marked else _POST_ROLL
    return _POST_ROLL if marked else _ATTACK_WINDOWS


def _pending_world(state: GameState, attack: Attack) -> GameState:
    """``state`` with ``attack`` as the next pending attack, unrolled: where its tactics would be played."""
    return replace(
        state, phase=Phase.DICE_RESOLUTION, pending_attack=attack, attack_seq=state.attack_seq + 1, last_roll=None
    )
