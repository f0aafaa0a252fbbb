"""Per-position tables for the bots' heuristics: where units stand, and the engine's odds of each shot.

Built once per state (`Position`) and read many times by `evaluate` and `MoveScorer`.
Every hit chance and damage comes from the engine (`engine.hit_chance_and_damage`, the
lean form of `engine.attack_odds`), so terrain, cover, card effects, tactics and combat
rules count exactly as the reducer counts them; the tables only remember answers. Unit
stats (range, movement, HP, VP) are the game's own (`unit_table`: a variant's rows where it
changes them), read once per position.
"""

from __future__ import annotations

from collections.abc import Mapping

from msgspec.structs import replace

from engine import GameState, Side, Unit, UnitStats, UnitType
from engine.analysis import can_move_unit, hit_chance_and_damage, movement_allowance
from engine.data import UNITS, BoardInfo, board_info, step_abilities, unit_stats

from .travel import UNREACHED, FieldTable, field_table, nearest_field

__all__ = [
    "DAMAGE_SHARE",
    "REACH_WEIGHT",
    "Position",
    "Shot",
    "UnitTable",
    "hit_value",
    "loss_value",
    "unit_table",
]

DAMAGE_SHARE = 0.4  # share of a unit's VP counted as lost when it is damaged but alive
REACH_WEIGHT = 0.6  # an attack that first needs a move counts less

Shot = tuple[Unit, float, int]
"""One possible attack: the target, the (discounted) hit chance and the damage of a hit."""

Odds = tuple[float, int]
"""The engine's hit chance and damage of one attack."""

UnitTable = Mapping[UnitType, UnitStats]
"""Every unit type's stats in one game."""


def unit_table(state: GameState) -> UnitTable:
    """The unit stats ``state``'s game plays with: the standard table, with its variant's rows (rules §3.1)."""
    tables = state.rules.tables
    if tables is None or not tables.units:
        return UNITS
    return {unit_type: unit_stats(unit_type, tables) for unit_type in UNITS}


def loss_value(stats: UnitStats, hp: int, share: float = DAMAGE_SHARE) -> float:
    """How much of the worth (VP) of a unit with ``stats`` is gone at ``hp``: all of it when destroyed,
    else ``share`` of it in proportion to the HP lost."""
    if hp <= 0:
        return float(stats.vp)
    return stats.vp * share * (stats.hp - hp) / stats.hp


def hit_value(unit: Unit, stats: UnitStats, damage: int = 1, share: float = DAMAGE_SHARE) -> float:
    """VP-worth one hit of ``damage`` takes from ``unit`` (whose type has ``stats``)."""
    return loss_value(stats, unit.hp - damage, share) - loss_value(stats, unit.hp, share)


class Position:
    """Per-state tables the heuristics share: coordinates, hit values and the odds asked so far."""

    def __init__(self, state: GameState, damage_share: float = DAMAGE_SHARE) -> None:
        self.state = state
        self.damage_share = damage_share  # `loss_value`'s share, for every value read from this position
        self.stats: UnitTable = unit_table(state)
        info = board_info(state.board)
        self.info: BoardInfo = info
        self.placed: list[Unit] = [u for u in state.units if u.cell is not None]
        self.by_id: dict[str, Unit] = {u.id: u for u in self.placed}
        self.xy: dict[str, tuple[int, int]] = {}
        self.hit_value: dict[str, float] = {}
        self.sides: dict[Side, list[Unit]] = {Side.ATTACKER: [], Side.DEFENDER: []}
        self._odds = _odds_table(state)
        self._moved: dict[tuple[str, int], Unit] = {}
        self._nearest: dict[str, int] | None = None
        self._nearest_fields: dict[tuple[UnitType, Side], bytes] = {}
        self._travel: dict[str, int] | None = None
        self._tables: dict[UnitType, FieldTable] = {}
        width = info.width
        for unit in self.placed:
            assert unit.cell is not None
            index = info.index[unit.cell]
            self.xy[unit.id] = (index % width, index // width)
            self.hit_value[unit.id] = hit_value(unit, self.stats[unit.type], share=damage_share)
            self.sides[unit.side].append(unit)

    def side_units(self, side: Side) -> list[Unit]:
        """Placed units of ``side``, in unit order."""
        return self.sides[side]

    def distance(self, a: Unit, b: Unit) -> int:
        """Chebyshev distance between two placed units."""
        ax, ay = self.xy[a.id]
        bx, by = self.xy[b.id]
        return max(abs(ax - bx), abs(ay - by))

    def nearest_enemy(self) -> dict[str, int]:
        """Each placed unit's Chebyshev distance to the nearest enemy (99 when there is none); computed once."""
        found = self._nearest
        if found is None:
            found = {}
            xy = self.xy
            attackers = [xy[u.id] for u in self.sides[Side.ATTACKER]]
            defenders = [xy[u.id] for u in self.sides[Side.DEFENDER]]
            best_d = [99] * len(defenders)
            for unit, (ax, ay) in zip(self.sides[Side.ATTACKER], attackers, strict=True):
                best = 99
                for n, (dx, dy) in enumerate(defenders):
                    d = ax - dx if ax > dx else dx - ax
                    e = ay - dy if ay > dy else dy - ay
                    if e > d:
                        d = e
                    if d < best:
                        best = d
                    if d < best_d[n]:
                        best_d[n] = d
                found[unit.id] = best
            for unit, d in zip(self.sides[Side.DEFENDER], best_d, strict=True):
                found[unit.id] = d
            self._nearest = found
        return found

    def fields(self, unit_type: UnitType) -> FieldTable:
        """The travel fields of ``unit_type`` (`lab.bots.travel`): ``fields(t).field(target)[cell]`` is
        the half-points such a unit walks from ``cell`` (occupancy aside) to have cell ``target`` in range."""
        table = self._tables.get(unit_type)
        if table is None:
            state = self.state
            tables = state.rules.tables
            overlays = None if tables is None else tables.overlay_costs()
            steps = self.info.steps(unit_type, step_abilities(state.rules), overlays)
            table = self._tables[unit_type] = field_table(steps, self.info.width, self.stats[unit_type].range)
        return table

    def nearest_field(self, unit_type: UnitType, side: Side) -> bytes:
        """Half-points a ``unit_type`` unit of ``side`` walks from each cell (occupancy aside) until an
        enemy is in its range (`lab.bots.travel.nearest_field`)."""
        key = (unit_type, side)
        found = self._nearest_fields.get(key)
        if found is None:
            index = self.info.index
            targets = tuple(index[enemy.cell] for enemy in self.sides[side.other] if enemy.cell is not None)
            found = self._nearest_fields[key] = nearest_field(self.fields(unit_type), targets)
        return found

    def travel(self) -> dict[str, int]:
        """Each placed unit's half-points of travel to a cell with an enemy in range (`UNREACHED` if none)."""
        found = self._travel
        if found is None:
            found = {}
            index = self.info.index
            # For the side not to move, the least over the enemies' fields at the unit's cell: a few lookups,
            # where combining whole fields (`nearest_field`) would cost a pass over the board each time the
            # enemy layout is new, as it is after every move of the side to move.
            cells = {side: [index[u.cell] for u in units if u.cell is not None] for side, units in self.sides.items()}
            active = self.state.active
            for unit in self.placed:
                assert unit.cell is not None
                if unit.side is active:  # its enemies stand still this turn: their combined field is shared
                    found[unit.id] = self.nearest_field(unit.type, active)[index[unit.cell]]
                    continue
                table = self.fields(unit.type)
                fields = table.fields
                here = index[unit.cell]
                best = UNREACHED
                for target in cells[unit.side.other]:
                    cost = (fields[target] or table.field(target))[here]
                    if cost < best:
                        best = cost
                found[unit.id] = best
            self._travel = found
        return found

    def at(self, unit: Unit, index: int) -> Unit:
        """``unit`` as if it stood on cell ``index`` (to ask the engine about a move)."""
        key = (unit.id, index)
        moved = self._moved.get(key)
        if moved is None:
            moved = self._moved[key] = replace(unit, cell=self.info.labels[index])
        return moved

    def odds(self, attacker: Unit, target: Unit, distance: int) -> Odds:
        """The engine's hit chance (0 when an effect forbids the attack) and damage, from ``distance``.

        The units' cells are read as given (see `at`); ``distance`` may be shorter than
        theirs for a shot from a spot still to be reached.
        """
        key = (attacker, target, distance)
        found = self._odds.get(key)
        if found is None:
            found = self._odds[key] = hit_chance_and_damage(self.state, attacker, target, distance)
        return found

    def chance(self, attacker: Unit, target: Unit, distance: int) -> float:
        """Hit chance of ``attacker`` against ``target`` from ``distance`` (`odds`)."""
        return self.odds(attacker, target, distance)[0]

    def reach(self, unit: Unit) -> int:
        """Cells ``unit`` could still close in this turn (0 when it cannot move any more)."""
        if unit.has_moved or not can_move_unit(self.state, unit):
            return 0
        return movement_allowance(self.state, unit) // 2

    def shot_options(self, attacker: Unit, enemies: list[Unit], reach: int, can_fire: bool = True) -> list[Shot]:
        """Every attack ``attacker`` could make, now or after closing ``reach`` cells.

        A shot that first needs a move is asked from the closer distance and its chance
        scaled by `REACH_WEIGHT`.
        """
        weapon = self.stats[attacker.type].range
        ax, ay = self.xy[attacker.id]
        xy = self.xy
        options: list[Shot] = []
        for target in enemies:
            tx, ty = xy[target.id]
            d = ax - tx if ax > tx else tx - ax  # Chebyshev, inline: asked for every shooter and target
            dy = ay - ty if ay > ty else ty - ay
            if dy > d:
                d = dy
            if can_fire and 1 <= d <= weapon:
                p, damage = self.odds(attacker, target, d)
            elif reach and d - reach <= weapon:
                p, damage = self.odds(attacker, target, max(1, d - reach))
                p *= REACH_WEIGHT
            else:
                continue
            if p > 0:
                options.append((target, p, damage))
        return options


_OddsKey = tuple[Unit, Unit, int]
_Context = tuple[int, int, int, object, int]  # board, rules, effects (by identity), pending attack, its number
_TABLES: dict[_Context, tuple[object, object, object, dict[_OddsKey, Odds]]] = {}
_CONTEXTS = 16  # a lookahead moves between a few contexts (a card played changes the effects)
_TABLE_LIMIT = 50_000


def _odds_table(state: GameState) -> dict[_OddsKey, Odds]:
    """Answers shared by every position of one context, keyed by the two units and the distance.

    The engine's answer depends on the units, the distance, the board, the rules, the live
    effects and the pending attack; the positions a lookahead visits mostly share all but
    the units, so they share this table. The entry holds the board, rules and effects it
    was made for and is used only for those very objects, so an id is never mistaken.
    """
    key = (id(state.board), id(state.rules), id(state.effects), state.pending_attack, state.attack_seq)
    entry = _TABLES.get(key)
    if (
        entry is not None
        and entry[0] is state.board
        and entry[1] is state.rules
        and entry[2] is state.effects
        and len(entry[3]) < _TABLE_LIMIT
    ):
        return entry[3]
    if len(_TABLES) >= _CONTEXTS:
        _TABLES.clear()  # one atomic step (a server's bot threads may share this)
    table: dict[_OddsKey, Odds] = {}
    _TABLES[key] = (state.board, state.rules, state.effects, table)
    return table
