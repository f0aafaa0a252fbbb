"""A cheap move score: which moves the greedy lookahead plays out first.

Moves are many (hundreds per decision), and playing each one and evaluating the result
is the expensive part of the greedy bot. `MoveScorer` rates a move without playing it,
from a few features of the position (`lab.bots.position.Position`): the shots it
opens, the danger it walks into (every enemy that could reach and hit the unit next
turn) and how far it closes in, in the same VP-like units and `Style` as `evaluate`.
Every hit chance is the engine's, asked about the unit on its new cell; ranges and
movement are the game's own (`Position.stats`).
"""

from __future__ import annotations

from engine import MoveUnit, Unit, UnitType
from engine.analysis import in_truce

from .evaluate import BALANCED, POTENTIAL_WEIGHT, Style, approach_weight, far_cells, far_travel
from .position import Position

__all__ = ["MoveScorer"]

_COVER_BONUS = 0.05  # tie-breaker towards cells where the nearest enemy hits less often


class MoveScorer:
    """Scores moves of the active side's units from one `Position` (cached per unit), in a `Style`."""

    def __init__(self, pos: Position, style: Style = BALANCED) -> None:
        self.pos = pos
        state = pos.state
        self.side = state.active
        self.threat = style.threat
        self.approach = approach_weight(state, self.side, style)
        self.travel = style.travel
        self.travel_threat = style.travel_threat
        self.fire_now = not in_truce(state)  # the opening truce (rules §6.1): no shot this turn ...
        self.fired_at = not in_truce(state, state.turn + 1)  # ... or none from the enemy next turn
        self._nearest: dict[UnitType, bytes] = {}  # travel to the nearest enemy, per unit type of the moving side
        self._base: dict[str, float] = {}
        self.stats = pos.stats
        # Per enemy: the unit, x, y, its weapon range, its next-turn reach, its worth per hit, its cell index.
        self.enemies: list[tuple[Unit, int, int, int, int, float, int]] = []
        for enemy in pos.side_units(self.side.other):
            stats = self.stats[enemy.type]
            ex, ey = pos.xy[enemy.id]
            reach = 0 if "move_or_fire" in stats.tags else stats.movement_mp
            cell = ey * pos.info.width + ex
            self.enemies.append((enemy, ex, ey, stats.range, reach, pos.hit_value[enemy.id], cell))

    def _outlook(self, unit: Unit, x: int, y: int, can_fire: bool) -> float:
        """What ``unit`` standing on (x, y) (its cell in ``unit``) can hit, risks and how far it is.

        How far, and which enemies can reach it, is in a straight line, or in MP of travel when the
        style says so (`Style.travel`, `Style.travel_threat`).
        """
        pos = self.pos
        odds = pos.odds
        weapon = self.stats[unit.type].range
        shot = 0.0
        survive = 1.0
        nearest, closest = 99, None
        travel = self.travel_threat
        here = y * pos.info.width + x
        for enemy, ex, ey, erange, ereach, eworth, ecell in self.enemies:
            dx = ex - x if ex > x else x - ex
            dy = ey - y if ey > y else y - ey
            d = dx if dx > dy else dy
            if d < nearest:
                nearest, closest = d, enemy
            if can_fire and self.fire_now and 1 <= d <= weapon:
                value = odds(unit, enemy, d)[0] * eworth
                if value > shot:
                    shot = value
            if not self.fired_at:
                continue
            if travel and d > erange:
                if d - 2 * ereach > erange:
                    continue  # out of its reach even on a road all the way (half a point a cell)
                table = pos.fields(enemy.type)
                if (table.fields[here] or table.field(here))[ecell] > 2 * ereach:
                    continue
                survive *= 1.0 - odds(enemy, unit, max(1, min(erange, d - ereach)))[0]
            elif d - ereach <= erange:
                survive *= 1.0 - odds(enemy, unit, d - ereach if d - ereach > 1 else 1)[0]
        far: float = 0
        if self.enemies:
            if self.travel:
                field = self._nearest.get(unit.type)
                if field is None:
                    field = self._nearest[unit.type] = pos.nearest_field(unit.type, unit.side)
                far = far_travel(field[here], weapon, nearest)
            else:
                far = far_cells(weapon, nearest)
        danger = (1.0 - survive) * pos.hit_value[unit.id]
        cover = 0.0 if closest is None else 1.0 - pos.chance(closest, unit, 1)
        return POTENTIAL_WEIGHT * shot - self.threat * danger - self.approach * far + _COVER_BONUS * 6 * cover

    def score(self, action: MoveUnit) -> float:
        """Gain of ``action`` over leaving the unit where it is."""
        unit = self.pos.by_id.get(action.unit_id)
        if unit is None or unit.cell is None:
            return -1.0
        info = self.pos.info
        base = self._base.get(unit.id)
        if base is None:
            x, y = self.pos.xy[unit.id]
            base = self._base[unit.id] = self._outlook(unit, x, y, True)
        index = info.index[action.to]
        can_fire = "move_or_fire" not in self.stats[unit.type].tags
        moved = self.pos.at(unit, index)
        return self._outlook(moved, index % info.width, index // info.width, can_fire) - base
