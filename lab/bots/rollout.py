"""A fast playout policy for the MCTS simulations: the greedy bot's judgement without its lookahead.

The greedy lookahead plays every candidate and evaluates the result; in a simulation of
two more turns that is thousands of evaluations, and it was nearly all of a search's time.
This policy decides the two frequent kinds of decision from the per-position tables alone:

* **movement** (the side to move): the best move by the quick move score (`MoveScorer`:
  shots opened, danger walked into, distance closed, cover), among a fixed, evenly spread
  sample of the legal moves; no move when none gains at least `MOVE_GAIN` (then the phase
  ends, as greedy's tie rule does);
* **attack declarations**: the shot with the best expected VP (the engine's hit chance,
  card effects included, times the marginal value of the damage given what is already
  queued against the target); none left worth anything ends the phase.

Playouts leave tactics and stored bonuses in hand (the evaluation still counts each at its
value in hand): the dice are rolled and resolved, reaction windows passed. The searched
plan itself is drafted by the greedy lookahead, which plays cards where they pay, and the
bot's real decisions in reaction windows and at the dice are greedy's, which sees every
tactic's effect. A drawn bonus is stored, a drawn malus accepted; the rest (victims of a
malus, a full store) goes to the greedy lookahead. Deterministic: no randomness at all.
"""

from __future__ import annotations

from collections.abc import Sequence

from engine import (
    AcceptMalus,
    Action,
    DeclareAttack,
    GameState,
    MoveUnit,
    NextPhase,
    PassReaction,
    Phase,
    ResolveAttack,
    RollDice,
    StoreBonus,
)

from .evaluate import BALANCED, Style
from .greedy import greedy_action
from .policy import MoveScorer
from .position import Position, loss_value

__all__ = ["MOVE_GAIN", "MOVE_SAMPLE", "quick_action"]

MOVE_GAIN = 0.02  # VP a move must gain to be worth making
MOVE_SAMPLE = 24  # moves scored per decision, evenly spread over the legal list
_PLAIN = (RollDice, ResolveAttack, PassReaction, StoreBonus, AcceptMalus, NextPhase)  # in this order: play no card


def quick_action(
    state: GameState,
    legal: Sequence[Action],
    move_limit: int,
    style: Style = BALANCED,
    move_sample: int = MOVE_SAMPLE,
) -> Action:
    """The playout policy's choice for whoever must decide in ``state`` (a real position)."""
    if len(legal) == 1:
        return legal[0]
    phase = state.phase
    if state.to_act is state.active:
        if phase is Phase.MOVEMENT and any(isinstance(a, NextPhase) for a in legal):
            return _move(state, legal, style, move_sample)
        if phase is Phase.ATTACK and any(isinstance(a, NextPhase) for a in legal):
            return _declare(state, legal)
    for kind in _PLAIN:
        plain = next((a for a in legal if isinstance(a, kind)), None)
        if plain is not None:
            return plain
    return greedy_action(state, legal, move_limit, style)


def _end(legal: Sequence[Action]) -> Action:
    return next((a for a in legal if isinstance(a, NextPhase)), legal[-1])


def _move(state: GameState, legal: Sequence[Action], style: Style, sample: int) -> Action:
    moves = [a for a in legal if isinstance(a, MoveUnit)]
    if not moves:
        return _end(legal)
    if len(moves) > sample:
        step = len(moves) / sample
        moves = [moves[int(i * step)] for i in range(sample)]
    scorer = MoveScorer(Position(state, style.damage_share), style)
    best, best_gain = None, MOVE_GAIN
    for move in moves:
        gain = scorer.score(move)
        if gain > best_gain:
            best, best_gain = move, gain
    return best if best is not None else _end(legal)


def _declare(state: GameState, legal: Sequence[Action]) -> Action:
    pos = Position(state)
    queued: dict[str, float] = {}  # expected damage already on its way to each target
    for attack in ([state.pending_attack] if state.pending_attack else []) + list(state.attack_queue):
        attacker, target = pos.by_id.get(attack.attacker), pos.by_id.get(attack.target)
        if attacker is not None and target is not None:
            p, damage = pos.odds(attacker, target, pos.distance(attacker, target))
            queued[target.id] = queued.get(target.id, 0.0) + p * damage
    best: Action | None = None
    best_value = 0.0
    for action in legal:
        if not isinstance(action, DeclareAttack):
            continue
        attacker, target = pos.by_id.get(action.attacker_id), pos.by_id.get(action.target_id)
        if attacker is None or target is None:
            continue
        p, damage = pos.odds(attacker, target, pos.distance(attacker, target))
        hp = target.hp - queued.get(target.id, 0.0)
        if hp <= 0:
            continue
        stats = pos.stats[target.type]
        value = p * (loss_value(stats, round(hp) - damage) - loss_value(stats, round(hp)))
        if value > best_value:
            best, best_value = action, value
    return best if best is not None else _end(legal)
