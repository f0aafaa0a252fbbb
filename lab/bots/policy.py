"""A cheap move score: which moves the greedy lookahead plays out first.

Moves are many (hundreds per decision), and playing each one and evaluating the result
is the expensive part of the greedy bot. `MoveScorer` rates a move without playing it,
from a few features of the position (`lab.bots.position.Position`): the shots it
opens, the danger it walks into (every enemy that could reach and hit the unit next
turn, cover included) and how far it closes in, in the same VP-like units and `Style`
as `evaluate`.
"""

from __future__ import annotations

from engine import UNITS, MoveUnit, Unit

from .evaluate import BALANCED, POTENTIAL_WEIGHT, Style, approach_weight, far_cells
from .position import Position, hit_chance, required, terrain_protection

__all__ = ["MoveScorer"]

_PROTECTION_BONUS = 0.05  # tie-breaker towards cover


class MoveScorer:
    """Scores moves of the active side's units from one `Position` (cached per unit), in a `Style`."""

    def __init__(self, pos: Position, style: Style = BALANCED) -> None:
        self.pos = pos
        state = pos.state
        self.side = state.active
        self.threat = style.threat
        self.approach = approach_weight(state, self.side, style)
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
        return POTENTIAL_WEIGHT * shot - self.threat * danger - self.approach * far + _PROTECTION_BONUS * protection

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
