"""Per-position tables for the bots' heuristics: where units stand, how well covered, hit chances.

Built once per state (`Position`) and read many times by `evaluate` and `MoveScorer`,
so the inner loops are dictionary lookups and small integer arithmetic.
"""

from __future__ import annotations

from engine import (
    TERRAIN,
    UNITS,
    BoardInfo,
    GameState,
    Hook,
    Side,
    TerrainType,
    Unit,
    attack_roll_modifiers,
    board_info,
    can_attack,
    can_move_unit,
    defense_modifiers,
    movement_allowance,
    required_roll,
)

__all__ = [
    "DAMAGE_SHARE",
    "REACH_WEIGHT",
    "Position",
    "Shot",
    "hit_chance",
    "hit_value",
    "loss_value",
    "required",
    "terrain_protection",
]

DAMAGE_SHARE = 0.4  # share of a unit's VP counted as lost when it is damaged but alive
REACH_WEIGHT = 0.6  # an attack that first needs a move counts less

Shot = tuple[Unit, float]
"""One possible attack: the target and the (discounted) hit chance."""

_HIT: dict[tuple[int, int], float] = {
    (req, mod): sum(1 for n in range(1, 7) if min(6, max(1, n + mod)) >= req) / 6
    for req in range(1, 7)
    for mod in range(-12, 13)
}
_PROTECTION: dict[TerrainType, int] = {t: stats.defense - stats.hit_modifier for t, stats in TERRAIN.items()}
_REQUIRED: tuple[int, ...] = tuple(required_roll(max(1, d)) for d in range(16))


def required(distance: int) -> int:
    """Required modified roll at ``distance`` (`engine.tables.required_roll`, tabulated)."""
    return _REQUIRED[distance] if distance < 16 else _REQUIRED[15]


def hit_chance(required_roll_: int, modifier: int) -> float:
    """Chance that one d6 plus ``modifier`` (clamped to 1..6) reaches ``required_roll_``."""
    return _HIT[(required_roll_, -12 if modifier < -12 else 12 if modifier > 12 else modifier)]


def terrain_protection(info: BoardInfo, index: int) -> int:
    """What the terrain of cell ``index`` subtracts from rolls against a unit there (cover + defense)."""
    return _PROTECTION[info.terrain[index]]


def loss_value(unit: Unit, hp: int) -> float:
    """How much of ``unit``'s worth (its VP) is gone at ``hp``."""
    stats = UNITS[unit.type]
    if hp <= 0:
        return float(stats.vp)
    return stats.vp * DAMAGE_SHARE * (stats.hp - hp) / stats.hp


def hit_value(unit: Unit, damage: int = 1) -> float:
    """VP-worth one hit of ``damage`` takes from ``unit``."""
    return loss_value(unit, unit.hp - damage) - loss_value(unit, unit.hp)


class Position:
    """Per-state tables the heuristics share: coordinates, protection, hit values (built once)."""

    def __init__(self, state: GameState) -> None:
        self.state = state
        info = board_info(state.board)
        self.info = info
        self.placed: list[Unit] = [u for u in state.units if u.cell is not None]
        self.by_id: dict[str, Unit] = {u.id: u for u in self.placed}
        self.xy: dict[str, tuple[int, int]] = {}
        self.protection: dict[str, int] = {}
        self.hit_value: dict[str, float] = {}
        self.sides: dict[Side, list[Unit]] = {Side.ATTACKER: [], Side.DEFENDER: []}
        roll_effects = defense_effects = attack_denials = False
        for effect in state.effects:
            roll_effects |= effect.hook is Hook.MODIFY_ATTACK_ROLL
            defense_effects |= effect.hook is Hook.MODIFY_DEFENSE
            attack_denials |= effect.hook is Hook.CAN_ATTACK
        self.roll_effects = roll_effects
        self.attack_denials = attack_denials
        width = info.width
        for unit in self.placed:
            assert unit.cell is not None
            index = info.index[unit.cell]
            self.xy[unit.id] = (index % width, index // width)
            protection = _PROTECTION[info.terrain[index]]
            if defense_effects:
                protection += sum(m.value for m in defense_modifiers(state, unit))
            self.protection[unit.id] = protection
            self.hit_value[unit.id] = hit_value(unit)
            self.sides[unit.side].append(unit)

    def side_units(self, side: Side) -> list[Unit]:
        """Placed units of ``side``, in unit order."""
        return self.sides[side]

    def distance(self, a: Unit, b: Unit) -> int:
        """Chebyshev distance between two placed units."""
        ax, ay = self.xy[a.id]
        bx, by = self.xy[b.id]
        return max(abs(ax - bx), abs(ay - by))

    def chance(self, attacker: Unit, target: Unit, distance: int) -> float:
        """Hit chance of ``attacker`` against ``target`` from ``distance`` (effects and protection)."""
        mod = -self.protection[target.id]
        if self.roll_effects:
            mod += sum(m.value for m in attack_roll_modifiers(self.state, attacker, target, distance))
        return hit_chance(required(distance), mod)

    def may_attack(self, attacker: Unit, target: Unit) -> bool:
        """False when an effect forbids this attack (ceasefire, mechanical failure, ...)."""
        return not self.attack_denials or can_attack(self.state, attacker, target)

    def reach(self, unit: Unit) -> int:
        """Cells ``unit`` could still close in this turn (0 when it cannot move any more)."""
        if unit.has_moved or not can_move_unit(self.state, unit):
            return 0
        return movement_allowance(self.state, unit) // 2

    def shot_options(self, attacker: Unit, enemies: list[Unit], reach: int, can_fire: bool = True) -> list[Shot]:
        """Every attack ``attacker`` could make, now or after closing ``reach`` cells.

        A shot that first needs a move has its chance scaled by `REACH_WEIGHT`.
        """
        weapon = UNITS[attacker.type].range
        ax, ay = self.xy[attacker.id]
        xy = self.xy
        options: list[Shot] = []
        for target in enemies:
            tx, ty = xy[target.id]
            d = max(abs(ax - tx), abs(ay - ty))
            if can_fire and 1 <= d <= weapon:
                p = self.chance(attacker, target, d)
            elif reach and d - reach <= weapon:
                p = REACH_WEIGHT * self.chance(attacker, target, max(1, d - reach))
            else:
                continue
            if p > 0 and self.may_attack(attacker, target):
                options.append((target, p))
        return options
