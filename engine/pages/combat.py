"""Rule page: attacks (DECLARE_ATTACK, WITHDRAW_ATTACK, ROLL_DICE, RESOLVE_ATTACK; rules §6)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Final

from msgspec.structs import replace

from ..actions import Action, ActionBase, DeclareAttack, ResolveAttack, RollDice, WithdrawAttack
from ..board.info import board_info
from ..cards.abilities import abilities_of
from ..cards.effects import counts_uses, expire_attack_effects, note_uses
from ..cards.hooks import (
    attack_damage,
    attack_effects,
    attack_roll_effects,
    damage_effects,
    defense_effects,
    unit_distance,
    unit_stat,
)
from ..cards.live import effects_of
from ..combat.dice import roll_attack_die, rule_events, save_hit
from ..combat.queue import advance_queue, attack_problem, in_truce, placed_unit
from ..combat.roll import compute_roll
from ..errors import IllegalAction
from ..flow.victory import check_after_removal
from ..state import Attack, Event, GameState, player_of, unit_by_id, with_player
from ..tables import game_tables, unit_stats
from ..types import EventKind, Hook, Phase, unit_order

_ROLL_DICE: Final = RollDice()
_RESOLVE_ATTACK: Final = ResolveAttack()


def _offer_declare(state: GameState) -> list[Action]:
    if len(state.attack_queue) >= game_tables(state.rules.tables).max_attacks_per_turn or in_truce(state):
        return []
    info = board_info(state.board)
    index, width, active, tables = info.index, info.width, state.active, state.rules.tables
    # Ranges are the table's unless a live effect or an ability changes a stat (looked at once per listing).
    fixed_range = not abilities_of(state.rules, Hook.MODIFY_STAT) and not (
        state.effects and effects_of(state, Hook.MODIFY_STAT)
    )
    placed = [(u, *divmod(index[u.cell], width)) for u in state.units if u.cell is not None]  # (unit, y, x)
    targets = [found for found in placed if found[0].side is not active]
    offers: list[Action] = []
    for attacker, ay, ax in placed:
        if attacker.side is not active or attacker.has_attacked:
            continue
        reach = unit_stats(attacker.type, tables).range if fixed_range else unit_stat(state, attacker, "range")
        for target, ty, tx in targets:
            # Cheap range filter first (plain comparisons: every pair passes here); attack_problem then
            # asks the hooks (same predicate as apply).
            if (
                -reach <= ax - tx <= reach
                and -reach <= ay - ty <= reach
                and attack_problem(state, attacker, target, reach) is None
            ):
                offers.append(DeclareAttack(attacker_id=attacker.id, target_id=target.id))
    return offers


def declare_problem(state: GameState, action: DeclareAttack) -> IllegalAction | None:
    """Why ``action`` may not be declared now (rules §6.1), or None."""
    for unit_id in (action.attacker_id, action.target_id):
        if unit_by_id(state, unit_id) is None:
            return IllegalAction(f"there is no unit {unit_id} in this game", "unknown_unit")
    if in_truce(state):
        rounds = state.rules.truce_rounds
        when = "round 1" if rounds == 1 else f"rounds 1-{rounds}"
        return IllegalAction(f"no attack may be declared in {when}: the opening truce (rules §6.1)", "truce")
    limit = game_tables(state.rules.tables).max_attacks_per_turn
    if len(state.attack_queue) >= limit:
        declared = "1 attack is" if limit == 1 else f"{limit} attacks are"  # a variant may allow one
        return IllegalAction(f"{declared} already declared this turn", "attack_limit")
    attacker, target = unit_by_id(state, action.attacker_id), unit_by_id(state, action.target_id)
    assert attacker is not None and target is not None
    problem = attack_problem(state, attacker, target)
    return IllegalAction(problem, "cannot_attack") if problem else None


def _declare(state: GameState, action: DeclareAttack) -> GameState:
    units = tuple(replace(u, has_attacked=True) if u.id == action.attacker_id else u for u in state.units)
    event = Event(kind=EventKind.ATTACK_DECLARED, side=state.active, unit=action.attacker_id, target=action.target_id)
    return replace(
        state,
        units=units,
        attack_queue=(*state.attack_queue, Attack(attacker=action.attacker_id, target=action.target_id)),
        events=(*state.events, event),
    )


def _apply_declare(state: GameState, action: DeclareAttack) -> GameState:
    problem = declare_problem(state, action)
    if problem is not None:
        raise problem
    return _declare(state, action)


def _offer_withdraw(state: GameState) -> list[Action]:
    if state.withdrawals >= game_tables(state.rules.tables).max_attacks_per_turn:
        return []
    return [
        WithdrawAttack(attacker_id=a.attacker) for a in sorted(state.attack_queue, key=lambda a: unit_order(a.attacker))
    ]


def withdraw_problem(state: GameState, action: WithdrawAttack) -> IllegalAction | None:
    """Why ``action`` may not be withdrawn now, or None."""
    if not any(a.attacker == action.attacker_id for a in state.attack_queue):
        return IllegalAction(f"{action.attacker_id} has no declared attack to withdraw", "not_declared")
    limit = game_tables(state.rules.tables).max_attacks_per_turn
    if state.withdrawals >= limit:
        withdrawn = "1 declaration has" if limit == 1 else f"{limit} declarations have"
        return IllegalAction(f"{withdrawn} already been withdrawn this turn: no more withdrawals", "withdraw_limit")
    return None


def _apply_withdraw(state: GameState, action: WithdrawAttack) -> GameState:
    problem = withdraw_problem(state, action)
    if problem is not None:
        raise problem
    queued = [a for a in state.attack_queue if a.attacker == action.attacker_id]
    units = tuple(replace(u, has_attacked=False) if u.id == action.attacker_id else u for u in state.units)
    event = Event(kind=EventKind.ATTACK_WITHDRAWN, side=state.active, unit=action.attacker_id, target=queued[0].target)
    queue = tuple(a for a in state.attack_queue if a.attacker != action.attacker_id)
    return replace(
        state, units=units, attack_queue=queue, withdrawals=state.withdrawals + 1, events=(*state.events, event)
    )


def _offer_roll(state: GameState) -> list[Action]:
    return [_ROLL_DICE] if state.pending_attack is not None and state.last_roll is None else []


def roll_problem(state: GameState, action: RollDice) -> IllegalAction | None:
    """Why the die may not be rolled now, or None."""
    if state.pending_attack is None:
        return IllegalAction("there is no pending attack to roll for", "precondition")
    if state.last_roll is not None:
        return IllegalAction("the die has already been rolled for this attack: resolve it", "precondition")
    return None


def _apply_roll(state: GameState, action: RollDice) -> GameState:
    problem = roll_problem(state, action)
    if problem is not None:
        raise problem
    pending = state.pending_attack
    assert pending is not None
    attacker, target = placed_unit(state, pending.attacker), placed_unit(state, pending.target)
    assert attacker is not None and target is not None
    distance = unit_distance(attacker, target, state)
    before = state
    state, natural = roll_attack_die(
        state, attacker, target, distance, lambda n: compute_roll(before, n).outcome == "HIT"
    )
    roll = compute_roll(state, natural)
    rules = rule_events(state, attacker, target, distance, natural, roll.outcome == "HIT")
    if counts_uses(state):  # the roll's terms that count their uses have acted on this attack
        state = note_uses(state, attack_roll_effects(state, attacker, target, distance), attacker.id)
        state = note_uses(state, defense_effects(state, target), target.id)
    event = Event(
        kind=EventKind.DICE_ROLLED,
        side=state.active,
        unit=pending.attacker,
        target=pending.target,
        value=natural,
        detail=roll.outcome,
    )
    return replace(state, last_roll=roll, events=(*state.events, event, *rules))


def _offer_resolve(state: GameState) -> list[Action]:
    return [_RESOLVE_ATTACK] if state.pending_attack is not None and state.last_roll is not None else []


def resolve_problem(state: GameState, action: ResolveAttack) -> IllegalAction | None:
    """Why the pending attack may not be resolved now, or None."""
    if state.pending_attack is None or state.last_roll is None:
        return IllegalAction("there is no rolled attack to resolve (ROLL_DICE first)", "precondition")
    return None


def _apply_resolve(state: GameState, action: ResolveAttack) -> GameState:
    problem = resolve_problem(state, action)
    if problem is not None:
        raise problem
    pending, roll = state.pending_attack, state.last_roll
    assert pending is not None and roll is not None
    attacker = placed_unit(state, pending.attacker)
    target = placed_unit(state, pending.target)
    assert attacker is not None and target is not None
    landed = Event(
        kind=EventKind.ATTACK_HIT if roll.outcome == "HIT" else EventKind.ATTACK_MISSED,
        side=state.active,
        unit=attacker.id,
        target=target.id,
        value=roll.modified,
    )
    state = replace(state, events=(*state.events, landed))
    events: list[Event] = []
    destroyed = False
    saved = False
    if roll.outcome == "HIT":
        state, saved = save_hit(state, attacker, target, roll.distance)
    if roll.outcome == "HIT" and not saved:
        damage = attack_damage(state, attacker, target)
        if counts_uses(state):  # damage terms and caps that count their uses have acted on this attack
            distance = roll.distance
            state = note_uses(state, damage_effects(state, attacker, target, distance), attacker.id)
            state = note_uses(
                state, attack_effects(state, Hook.CAP_DAMAGE, attacker, target, distance), target.id, damage
            )
        hp = target.hp - damage
        if hp <= 0:
            destroyed = True
            owner = player_of(state, target.side)
            record = replace(target, hp=0, cell=None, has_moved=False, has_attacked=False)
            state = with_player(state, replace(owner, destroyed=(*owner.destroyed, record)))
            state = replace(state, units=tuple(u for u in state.units if u.id != target.id))
            events.append(
                Event(kind=EventKind.UNIT_DESTROYED, side=target.side, unit=target.id, cell=target.cell, value=damage)
            )
        else:
            state = replace(state, units=tuple(replace(u, hp=hp) if u.id == target.id else u for u in state.units))
            events.append(
                Event(kind=EventKind.UNIT_DAMAGED, side=target.side, unit=target.id, cell=target.cell, value=damage)
            )
    state = replace(state, last_roll=None, events=(*state.events, *events))
    state = expire_attack_effects(state, state.attack_seq)
    state = replace(state, pending_attack=None)
    if destroyed:
        state = check_after_removal(state)
        if state.phase is Phase.VICTORY:
            return state
    return advance_queue(state)


OFFERS = {
    DeclareAttack: _offer_declare,
    WithdrawAttack: _offer_withdraw,
    RollDice: _offer_roll,
    ResolveAttack: _offer_resolve,
}
APPLY = {
    DeclareAttack: _apply_declare,
    WithdrawAttack: _apply_withdraw,
    RollDice: _apply_roll,
    ResolveAttack: _apply_resolve,
}
PROBLEMS: dict[type[ActionBase], Callable[[GameState, Any], IllegalAction | None]] = {
    DeclareAttack: declare_problem,
    WithdrawAttack: withdraw_problem,
    RollDice: roll_problem,
    ResolveAttack: resolve_problem,
}
"""Why an action of this page is illegal, without applying it (`engine.explain`)."""
