"""A whole turn as a genome: the seat's moves, decoded into the turn they make in a world.

The evolutionary planner (`lab.bots.oep`) searches over *which units move where*; everything
else about the turn follows from that by rule, so every genome decodes to one complete turn:

* the moves are played in order; a move that is not legal where it comes (its cell was
  taken, a unit in the way) is skipped, so any genome is a legal turn;
* then the seat declares its attacks by `declarations`: each shot's expected VP (the engine's
  hit chance times the damage's marginal worth, overkill counted once), the best first,
  while a free slot and a shot worth anything remain;
* the turn is scored where its dice are about to roll, by `evaluate` (the declared attacks at
  their expected value, and the enemy's next turn as the `Style` weighs it).

A decoded turn is a `Plan` (the seat's action at each position, by `signature`), which the
bot remembers and follows.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from engine import (
    Action,
    DeclareAttack,
    GameState,
    IllegalAction,
    MoveUnit,
    NextPhase,
    Phase,
    Side,
    legal_actions,
    reduce,
)
from engine.data import game_tables

from .evaluate import Style, evaluate
from .plan import Plan, signature
from .position import Position, loss_value

__all__ = ["Decoded", "Genome", "declarations", "decode", "moves_of"]

Genome = tuple[tuple[str, str], ...]
"""A turn's moves, in order: ``(unit id, cell label)``."""


@dataclass(frozen=True)
class Decoded:
    """A genome played out: the moves that were legal, the turn's plan, its end and its score."""

    moves: Genome  # the moves actually made (illegal ones dropped)
    plan: Plan
    end: GameState  # where the dice are about to roll (or the game ended)
    score: float


def decode(world: GameState, side: Side, genome: Genome, style: Style) -> Decoded:
    """Play ``genome`` for ``side`` from ``world`` (its MOVEMENT or ATTACK phase) and score the turn."""
    plan: list[tuple[bytes, Action]] = []
    made: list[tuple[str, str]] = []
    state = world

    def play(action: Action) -> None:
        nonlocal state
        plan.append((signature(state, side), action))
        state = reduce(state, action)

    if state.phase is Phase.MOVEMENT and state.to_act is side:
        for unit_id, cell in genome:
            move = MoveUnit(unit_id=unit_id, to=cell)
            try:
                after = reduce(state, move)
            except IllegalAction:
                continue
            plan.append((signature(state, side), move))
            made.append((unit_id, cell))
            state = after
        if state.phase is Phase.MOVEMENT and state.to_act is side:
            play(NextPhase())
    if state.phase is Phase.ATTACK and state.to_act is side:
        for declare in declarations(state):
            try:
                play(declare)
            except IllegalAction:  # the list below comes from the same position: not expected
                break
        if state.phase is Phase.ATTACK and state.to_act is side:
            play(NextPhase())
    return Decoded(moves=tuple(made), plan=tuple(plan), end=state, score=evaluate(state, side, style=style))


def declarations(state: GameState) -> list[DeclareAttack]:
    """The active side's attacks by expected VP, the best first, in the free declaration slots.

    Each shot's value is its hit chance (the engine's, card effects and terrain included)
    times what its damage takes from the target given the hits already expected on it (a
    distribution of the target's HP, so a second shot at a unit the first probably destroys
    is worth little). Every attacker fires once; a shot worth nothing is not declared.
    """
    pos = Position(state)
    slots = _free_slots(state)
    shots: list[tuple[str, str, float, int]] = []  # attacker, target, chance, damage
    for action in legal_actions(state):
        if isinstance(action, DeclareAttack):
            shooter, aim = pos.by_id.get(action.attacker_id), pos.by_id.get(action.target_id)
            if shooter is not None and aim is not None:
                chance, damage = pos.odds(shooter, aim, pos.distance(shooter, aim))
                if chance > 0:
                    shots.append((shooter.id, aim.id, chance, damage))
    hp: dict[str, dict[int, float]] = {}
    for attack in ([state.pending_attack] if state.pending_attack else []) + list(state.attack_queue):
        attacker, target = pos.by_id.get(attack.attacker), pos.by_id.get(attack.target)
        if attacker is not None and target is not None:
            chance, damage = pos.odds(attacker, target, pos.distance(attacker, target))
            hp[target.id] = _after(hp.get(target.id, {target.hp: 1.0}), chance, damage)
    chosen: list[DeclareAttack] = []
    fired: set[str] = set()
    while len(chosen) < slots:
        best, best_value = None, 1e-9
        for n, (attacker_id, target_id, chance, damage) in enumerate(shots):
            if attacker_id in fired:
                continue
            value = chance * _marginal(pos, target_id, hp.get(target_id, {pos.by_id[target_id].hp: 1.0}), damage)
            if value > best_value:
                best, best_value = n, value
        if best is None:
            break
        attacker_id, target_id, chance, damage = shots[best]
        hp[target_id] = _after(hp.get(target_id, {pos.by_id[target_id].hp: 1.0}), chance, damage)
        fired.add(attacker_id)
        chosen.append(DeclareAttack(attacker_id=attacker_id, target_id=target_id))
    return chosen


def _free_slots(state: GameState) -> int:
    return game_tables(state.rules.tables).max_attacks_per_turn - len(state.attack_queue)


def _after(dist: dict[int, float], chance: float, damage: int) -> dict[int, float]:
    new: dict[int, float] = {}
    for hp, p in dist.items():
        if hp <= 0:
            new[hp] = new.get(hp, 0.0) + p
            continue
        new[hp - damage] = new.get(hp - damage, 0.0) + p * chance
        new[hp] = new.get(hp, 0.0) + p * (1 - chance)
    return new


def _marginal(pos: Position, target_id: str, dist: dict[int, float], damage: int) -> float:
    stats = pos.stats[pos.by_id[target_id].type]
    return sum(p * (loss_value(stats, hp - damage) - loss_value(stats, hp)) for hp, p in dist.items() if hp > 0)


def moves_of(actions: Sequence[Action]) -> Genome:
    """The moves among ``actions``, as a genome."""
    return tuple((a.unit_id, a.to) for a in actions if isinstance(a, MoveUnit))
