"""Cheap action scores: a prior for search, a prefilter for the greedy bot, a rollout policy.

`quick_scores` rates each legal action without playing it, from a few features of the
position (`engine.bots.evaluate.Position`): a move by the shots it opens, the danger it
walks into (every enemy that could reach and hit the unit next turn, target protection
included) and how far it closes in; a declaration by its expected VP, less when the
target is already likely to fall; cards and tactics by simple rules of thumb. Scores are
in the same VP-like units as `evaluate`, and 0 means "no better than leaving the phase".

`rollout_action` turns the scores into a fast, slightly noisy playout policy.
"""

from __future__ import annotations

from collections.abc import Sequence

from ..actions import (
    AcceptMalus,
    Action,
    AutoDeploy,
    CancelMalus,
    ChooseMalusTargets,
    ConfirmDeployment,
    DeclareAttack,
    DeployUnit,
    DiscardBonus,
    DrawCard,
    EndTurn,
    MoveUnit,
    NextPhase,
    PassReaction,
    PlayBonus,
    PlayTactic,
    ResolveAttack,
    RollDice,
    StoreBonus,
    WithdrawAttack,
)
from ..cards import card_of
from ..rng import draw_index
from ..state import GameState, Unit
from ..tables import UNITS
from ..types import Phase
from .evaluate import POTENTIAL_WEIGHT, STORED_VALUE, TACTIC_VALUE, THREAT_WEIGHT, approach_weight, far_cells
from .position import Position, hit_chance, loss_value, required, terrain_protection

__all__ = ["MoveScorer", "quick_scores", "rollout_action"]

_FIXED: dict[type, float] = {
    NextPhase: 0.0,
    EndTurn: -0.5,
    DrawCard: 1.0,
    RollDice: 1.0,
    ResolveAttack: 1.0,
    PassReaction: 0.0,
    AcceptMalus: 0.0,
    DiscardBonus: 0.0,
    WithdrawAttack: -0.5,
    AutoDeploy: 1.0,
    ConfirmDeployment: 0.5,
    DeployUnit: -1.0,
}
_MALUS_SEVERITY = 0.6  # what cancelling a malus is worth, before the spent card
_PROTECTION_BONUS = 0.05  # tie-breaker towards cover


class MoveScorer:
    """Scores moves of the active side's units from one `Position` (cached per unit)."""

    def __init__(self, pos: Position) -> None:
        self.pos = pos
        state = pos.state
        self.side = state.active
        self.approach = approach_weight(state, self.side)
        self._base: dict[str, float] = {}
        # Per enemy: x, y, its weapon range, its next-turn reach, its protection, its worth per hit.
        self.enemies: list[tuple[int, int, int, int, int, float]] = []
        for enemy in pos.side_units(self.side.other):
            stats = UNITS[enemy.type]
            ex, ey = pos.xy[enemy.id]
            reach = 0 if "move_or_fire" in stats.tags else stats.movement_mp
            self.enemies.append((ex, ey, stats.range, reach, pos.protection[enemy.id], pos.hit_value[enemy.id]))

    def _outlook(self, unit: Unit, x: int, y: int, protection: int, can_fire: bool) -> float:
        weapon = UNITS[unit.type].range
        shot = 0.0
        survive = 1.0
        nearest = 99
        for ex, ey, erange, ereach, eprotection, eworth in self.enemies:
            d = max(abs(ex - x), abs(ey - y))
            if d < nearest:
                nearest = d
            if can_fire and 1 <= d <= weapon:
                value = hit_chance(required(d), -eprotection) * eworth
                if value > shot:
                    shot = value
            if d - ereach <= erange:
                survive *= 1.0 - hit_chance(required(max(1, d - ereach)), -protection)
        far = far_cells(unit, nearest) if self.enemies else 0
        danger = (1.0 - survive) * self.pos.hit_value[unit.id]
        return POTENTIAL_WEIGHT * shot - THREAT_WEIGHT * danger - self.approach * far + _PROTECTION_BONUS * protection

    def score(self, action: MoveUnit) -> float:
        """Gain of ``action`` over leaving the unit where it is."""
        unit = self.pos.by_id.get(action.unit_id)
        if unit is None or unit.cell is None:
            return -1.0
        info = self.pos.info
        protection = self.pos.protection[unit.id]
        base = self._base.get(unit.id)
        if base is None:
            x, y = self.pos.xy[unit.id]
            base = self._base[unit.id] = self._outlook(unit, x, y, protection, True)
        index = info.index[action.to]
        moved = protection + terrain_protection(info, index) - terrain_protection(info, info.index[unit.cell])
        can_fire = "move_or_fire" not in UNITS[unit.type].tags
        return self._outlook(unit, index % info.width, index // info.width, moved, can_fire) - base


def _declare_score(pos: Position, action: DeclareAttack) -> float:
    attacker, target = pos.by_id.get(action.attacker_id), pos.by_id.get(action.target_id)
    if attacker is None or target is None:
        return -1.0
    p = pos.chance(attacker, target, pos.distance(attacker, target))
    queued = sum(1 for a in pos.state.attack_queue if a.target == target.id)
    overkill = 0.35**queued if queued >= target.hp else 1.0
    return p * pos.hit_value[target.id] * overkill + 0.01


def _bonus_score(pos: Position, action: PlayBonus) -> float:
    state = pos.state
    if action.stored_index is None:
        assert state.pending_card is not None
        card = card_of(state.pending_card.card)
        cost = STORED_VALUE  # the alternative is storing it
    else:
        card = card_of(state.player(state.active).stored[action.stored_index])
        cost = STORED_VALUE
    units = {u.id: u for u in state.units}
    target = units.get(action.targets[0]) if action.targets else None
    if card.id == "international_aid" and action.targets:
        record = next((u for u in state.player(state.active).destroyed if u.id == action.targets[0]), None)
        gain = float(UNITS[record.type].vp) if record else 0.0
    elif card.id == "special_supplies" and target is not None:
        gain = loss_value(target, target.hp)
    elif card.id in ("artillery_support", "troop_motivation") and target is not None:
        enemies = pos.side_units(state.active.other)
        options = pos.shot_options(target, enemies, pos.reach(target), not target.has_attacked)
        gain = max((p for _, p in options), default=0.0) * 0.8 + (0.2 if card.id == "troop_motivation" else 0.0)
    elif card.id == "internal_discipline":
        gain = 0.5
    else:
        gain = 0.3
    return gain - cost


def _tactic_score(pos: Position, action: PlayTactic) -> float:
    state = pos.state
    pending = state.pending_attack
    actor = state.to_act
    roll = state.last_roll
    target = pos.by_id.get(pending.target) if pending else None
    value = pos.hit_value[target.id] if target is not None else 0.0
    mine = actor is state.active
    card = action.card_id
    if card == "commanders_luck":
        if roll is None:
            return -1.0
        good = (roll.outcome == "HIT") is mine
        return (0.5 * value if not good else -1.0) - TACTIC_VALUE
    if card == "natural_cover":
        return (0.5 * value if roll is not None and roll.outcome == "HIT" else -1.0) - TACTIC_VALUE
    if card == "suppressive_fire":
        return 0.4 - TACTIC_VALUE
    if card in ("dense_fog", "tactical_block"):
        return (0.35 if card == "dense_fog" else 0.7) * value - TACTIC_VALUE + 0.05
    return 0.3 * value - TACTIC_VALUE + 0.05  # the active player's roll boosters


def quick_scores(pos: Position, legal: Sequence[Action], movers: MoveScorer | None = None) -> list[float]:
    """A cheap score per action for the side to act (higher is better; 0 ≈ leave the phase)."""
    state = pos.state
    scores: list[float] = []
    for action in legal:
        fixed = _FIXED.get(type(action))
        if fixed is not None:
            scores.append(fixed)
        elif isinstance(action, MoveUnit):
            movers = movers or MoveScorer(pos)
            scores.append(movers.score(action))
        elif isinstance(action, DeclareAttack):
            scores.append(_declare_score(pos, action))
        elif isinstance(action, PlayBonus):
            scores.append(_bonus_score(pos, action))
        elif isinstance(action, StoreBonus):
            scores.append(STORED_VALUE if action.replace_index is None else 0.05)
        elif isinstance(action, CancelMalus):
            scores.append(_MALUS_SEVERITY - STORED_VALUE - (0.0 if action.malus_play_id is None else 0.15))
        elif isinstance(action, ChooseMalusTargets):
            scores.append(0.1 * sum(UNITS[u.type].vp for u in state.units if u.id in action.unit_ids))
        elif isinstance(action, PlayTactic):
            scores.append(_tactic_score(pos, action))
        else:
            scores.append(0.0)
    return scores


def rollout_action(state: GameState, legal: Sequence[Action], rng: int, noise: int = 10) -> tuple[Action, int]:
    """A fast playout move: the best quick score, or (1 time in ``noise``) a random action.

    In MOVEMENT only one random unit's moves are scored (plus leaving the phase), which
    keeps a playout step cheap while every unit still gets its turn over a few steps.
    """
    if len(legal) == 1:
        return legal[0], rng
    roll, rng = draw_index(noise, rng)
    if roll == 0:
        index, rng = draw_index(len(legal), rng)
        return legal[index], rng
    candidates: Sequence[Action] = legal
    if state.phase is Phase.MOVEMENT and state.to_act is state.active:
        movers = [a.unit_id for a in legal if isinstance(a, MoveUnit)]
        if movers:
            unique = list(dict.fromkeys(movers))
            choice, rng = draw_index(len(unique), rng)
            chosen = unique[choice]
            candidates = [a for a in legal if not isinstance(a, MoveUnit) or a.unit_id == chosen]
    scores = quick_scores(Position(state), candidates)
    best = max(range(len(candidates)), key=lambda i: (scores[i], -i))
    return candidates[best], rng
