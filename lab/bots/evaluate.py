"""A hand-written evaluation of a position, shared by the greedy and MCTS bots.

Victory comes from destroyed enemy VP (and annihilation), so the evaluation counts, from
one side's point of view, in *VP*:

* **material**: VP of destroyed enemy units minus own, plus a share for damaged units;
* **offense**: what the active side can still expect to destroy this turn — the pending
  attack (exactly, once rolled), the queue (each target's HP as a small distribution,
  so overkill counts once) and undeclared potential (each unit that can still fire, from
  where it stands or, before moving, within its reach; shots assigned greedily by
  marginal value, at most the free declaration slots);
* **threat**: the same for the other side's next turn — each enemy unit's best shot from
  where it could stand after moving (its movement points in a straight line), counted as
  likely as the unit is to survive this turn's attacks, and discounted because the active
  side shoots first;
* every hit chance and damage is the engine's (`engine.hit_chance_and_damage`): cover,
  defense, card effects and tactics in play (Clear Line of Fire, Precision Shot,
  Coordinated Maneuver ...) count exactly as the reducer counts them; every unit stat
  (range, movement, HP, VP) and limit is the game's own, a variant's where it changes them;
* **approach**: a small penalty for units far from any fight (larger for the ATTACKER,
  who must win by destroying; the DEFENDER wins ties), growing towards the round limit;
  far in a straight line, or (``Style.travel``) in MP walked over the board's step costs
  to a cell with an enemy in range (`lab.bots.travel`), which leads round a river;
* **cards**: a small value per stored bonus and tactic in hand (and a drawn bonus that
  still fits the store), so they are spent only when playing them gains more; a little
  for each storage slot beyond the base limit.

Everything is a deterministic function of the state (no sets are iterated, fixed order).
"""

from __future__ import annotations

from dataclasses import dataclass

from engine import GameState, Phase, Side, UnitStats
from engine.analysis import can_attack_after_move, in_truce, max_moves, storage_limit
from engine.data import CARDS, game_tables

from .position import DAMAGE_SHARE, REACH_WEIGHT, Position, Shot, loss_value
from .travel import UNREACHED

__all__ = [
    "APPROACH_WEIGHT",
    "BALANCED",
    "POTENTIAL_WEIGHT",
    "STORED_VALUE",
    "TACTIC_VALUE",
    "THREAT_WEIGHT",
    "TRAVEL_CAP",
    "WIN_SCORE",
    "Style",
    "approach_weight",
    "evaluate",
    "far_cells",
    "far_travel",
    "standoff",
]

WIN_SCORE = 50.0
"""Score of a won game (minus for a lost one); far above any material swing."""
POTENTIAL_WEIGHT = 0.9  # undeclared attacks count a little less than declared ones
THREAT_WEIGHT = 0.3  # the enemy's next turn counts less: we shoot first, and it may not come (tuned)
APPROACH_WEIGHT = {Side.ATTACKER: 0.06, Side.DEFENDER: 0.02}  # per cell beyond own range, growing with time
APPROACH_CAP = 12  # cells; farther counts the same
TRAVEL_CAP = 30  # MP of travel; a detour round a river is longer than the straight line, so the cap is higher
STORED_VALUE = 0.35  # per stored bonus
TACTIC_VALUE = 0.3  # per tactic in hand
SLOT_VALUE = 0.05  # per storage slot: room to keep one more bonus later
TIE_BIAS = 0.5  # the DEFENDER wins ties at the round limit


@dataclass(frozen=True)
class Style:
    """How a side weighs the enemy's next turn, closing in and damage: the knobs of the evaluation.

    `BALANCED` is the tuned default that the greedy bot plays. The MCTS bot drafts a turn
    plan in several styles and keeps the one whose simulated outcome is best.
    """

    threat: float = THREAT_WEIGHT  # weight of what the enemy can destroy in its next turn
    approach: float = 1.0  # multiplier of `APPROACH_WEIGHT`, the pull towards the enemy
    travel: bool = False  # measure the approach in MP of travel (`lab.bots.travel`), not in a straight line
    travel_threat: bool = False  # an enemy threatens only where it can walk into range (`lab.bots.travel`)
    rival_approach: bool = True  # count the enemy's approach pull too (zero-sum); False: only the judged side's
    standoff: bool = False  # drop the enemy's approach pull while no unit is within reach of an enemy (`standoff`)
    damage_share: float = DAMAGE_SHARE  # a damaged unit counts this share of its VP as lost, by HP lost (`loss_value`)

    def __post_init__(self) -> None:
        share = self.damage_share
        if isinstance(share, bool) or not isinstance(share, int | float) or not 0 <= share <= 1:
            raise ValueError(f"damage_share must be a number from 0 to 1, not {share!r}")


BALANCED = Style()

HpDist = dict[int, float]
"""A unit's HP after some attacks, as a distribution: HP → probability."""
Shooter = list[Shot]
"""A unit that can fire: its possible shots (each with its own chance and damage)."""


def _add_shot(dist: HpDist, p: float, damage: int) -> HpDist:
    new: HpDist = {}
    for hp, prob in dist.items():
        if hp <= 0:
            new[hp] = new.get(hp, 0.0) + prob
            continue
        new[hp - damage] = new.get(hp - damage, 0.0) + prob * p
        new[hp] = new.get(hp, 0.0) + prob * (1 - p)
    return new


def _marginal(stats: UnitStats, dist: HpDist, damage: int, share: float) -> float:
    """Expected VP one more sure hit of ``damage`` takes from a unit with ``stats`` and HP ``dist``
    (a damaged unit's ``share``: `loss_value`)."""
    return sum(
        prob * (loss_value(stats, hp - damage, share) - loss_value(stats, hp, share))
        for hp, prob in dist.items()
        if hp > 0
    )


def _queue(pos: Position) -> tuple[float, dict[str, HpDist]]:
    """Expected VP the pending and queued attacks destroy, and each target's HP distribution."""
    state = pos.state
    attacks = ([state.pending_attack] if state.pending_attack else []) + list(state.attack_queue)
    dists: dict[str, HpDist] = {}
    units = pos.by_id
    total = 0.0
    for n, attack in enumerate(attacks):
        attacker, target = units.get(attack.attacker), units.get(attack.target)
        if attacker is None or target is None:
            continue
        p, damage = pos.odds(attacker, target, pos.distance(attacker, target))
        if n == 0 and state.pending_attack is not None and state.last_roll is not None:
            p = 1.0 if state.last_roll.outcome == "HIT" else 0.0
        elif p <= 0:
            continue
        dist = dists.get(target.id, {target.hp: 1.0})
        total += p * _marginal(pos.stats[target.type], dist, damage, pos.damage_share)
        dists[target.id] = _add_shot(dist, p, damage)
    return total, dists


def _assign(shooters: list[Shooter], dists: dict[str, HpDist], slots: int, pos: Position) -> float:
    """Expected VP of the best ``slots`` shots, each unit firing once, overkill counted once.

    Greedy assignment by marginal value: the best shot fires first, then the next best
    given the HP it probably took, and so on.
    """
    units, stats, share = pos.by_id, pos.stats, pos.damage_share
    marginal: dict[str, float] = {t: _marginal(stats[units[t].type], d, 1, share) for t, d in dists.items()}
    total = 0.0
    remaining = list(shooters)
    for _ in range(min(slots, len(remaining))):
        best_gain, best_n, best_target, best_p, best_damage = 0.0, -1, "", 0.0, 1
        for n, options in enumerate(remaining):
            for target, p, damage in options:
                if damage == 1:
                    value = marginal.get(target.id)
                    if value is None:
                        value = marginal[target.id] = _marginal(stats[target.type], {target.hp: 1.0}, 1, share)
                else:
                    value = _marginal(stats[target.type], dists.get(target.id, {target.hp: 1.0}), damage, share)
                gain = p * value
                if gain > best_gain:
                    best_gain, best_n, best_target, best_p, best_damage = gain, n, target.id, p, damage
        if best_n < 0:
            break
        remaining.pop(best_n)
        target = units[best_target]
        dist = _add_shot(dists.get(best_target, {target.hp: 1.0}), best_p, best_damage)
        dists[best_target] = dist
        marginal[best_target] = _marginal(stats[target.type], dist, 1, share)
        total += best_gain
    return total


def _offense(pos: Position, side: Side) -> tuple[float, dict[str, HpDist]]:
    """Expected VP ``side`` (the active side) can still destroy this turn, and the targets' HP after it."""
    state = pos.state
    total, dists = _queue(pos)
    if state.phase not in (Phase.CARD_DRAW, Phase.CARD_RESOLUTION, Phase.MOVEMENT, Phase.ATTACK) or in_truce(state):
        return total, dists
    slots = game_tables(state.rules.tables).max_attacks_per_turn - len(state.attack_queue)
    enemies = pos.side_units(side.other)
    movable = state.phase is not Phase.ATTACK and state.moves_this_turn < max_moves(state, side)
    shooters: list[Shooter] = []
    stats = pos.stats
    for unit in pos.side_units(side):
        if unit.has_attacked:
            continue
        move_or_fire = "move_or_fire" in stats[unit.type].tags
        can_fire = not (move_or_fire and unit.has_moved and not can_attack_after_move(state, unit))
        reach = pos.reach(unit) if movable and not move_or_fire else 0
        options = pos.shot_options(unit, enemies, reach, can_fire)
        if options:
            shooters.append(options)
    return total + POTENTIAL_WEIGHT * _assign(shooters, dists, slots, pos), dists


def _threat(pos: Position, side: Side, dists: dict[str, HpDist], travel: bool = False) -> float:
    """Expected VP ``side`` (the side not to move) could destroy in its next turn.

    Each enemy shot counts as likely as the enemy is to survive this turn's attacks
    (``dists``); an enemy is assumed to close its movement points in a straight line
    (and such shots are discounted). With ``travel`` a shot that needs a move counts only
    when the enemy can walk to a cell in range over the board's step costs (`lab.bots.travel`).
    Nothing while that turn lies in the opening truce (rules §6.1).
    """
    if in_truce(pos.state, pos.state.turn + 1):
        return 0.0
    targets = pos.side_units(side.other)
    xy = pos.xy
    index = pos.info.index
    cells = [index[t.cell] for t in targets if t.cell is not None] if travel else []
    shooters: list[Shooter] = []
    for unit in pos.side_units(side):
        stats = pos.stats[unit.type]
        dist = dists.get(unit.id)
        alive = 1.0 if dist is None else sum(p for hp, p in dist.items() if hp > 0)
        if alive <= 0:
            continue
        ux, uy = xy[unit.id]
        options: list[Shot] = []
        moving = 0 if "move_or_fire" in stats.tags else stats.movement_mp
        if travel:
            assert unit.cell is not None
            table, here = pos.fields(unit.type), index[unit.cell]
        for n, target in enumerate(targets):
            tx, ty = xy[target.id]
            d = ux - tx if ux > tx else tx - ux  # Chebyshev, inline: the hottest loop of an evaluation
            dy = uy - ty if uy > ty else ty - uy
            if dy > d:
                d = dy
            if travel and d > stats.range:
                if d - 2 * moving > stats.range:
                    continue  # out of reach even on a road all the way (half a point a cell)
                field = table.fields[cells[n]] or table.field(cells[n])
                if field[here] > 2 * moving:
                    continue
                d = min(stats.range, d - moving) + moving  # roads may carry it farther than a straight line
            elif d - moving > stats.range:
                continue
            weight = 1.0 if d <= stats.range else REACH_WEIGHT
            p, damage = pos.odds(unit, target, max(1, d - moving))
            if p > 0:
                options.append((target, alive * weight * p, damage))
        if options:
            shooters.append(options)
    return _assign(shooters, {}, game_tables(pos.state.rules.tables).max_attacks_per_turn, pos)


def approach_weight(state: GameState, side: Side, style: Style = BALANCED) -> float:
    """Penalty per cell a unit of ``side`` stands beyond its range from the nearest enemy.

    The ATTACKER must destroy to win, so it is pushed forward harder, and harder as the
    round limit nears.
    """
    limit = state.rules.victory.round_limit
    progress = min(1.0, state.turn / (2 * limit.max_rounds)) if limit is not None else 0.5
    return APPROACH_WEIGHT[side] * style.approach * (1.0 + progress)


def far_cells(weapon: int, nearest: int) -> int:
    """Cells beyond a unit's ``weapon`` range to the nearest enemy, capped."""
    return min(APPROACH_CAP, max(0, nearest - weapon))


def far_travel(half_points: int, weapon: int, nearest: int) -> float:
    """MP of travel (from ``half_points``) a unit needs before it can fire, capped.

    A unit that can reach no firing cell at all (walled in by water) counts its straight-line
    `far_cells` instead.
    """
    if half_points >= UNREACHED:
        return float(far_cells(weapon, nearest))
    return min(float(TRAVEL_CAP), half_points / 2)


def _approach(pos: Position, side: Side, style: Style) -> float:
    if not pos.side_units(side.other):
        return 0.0
    stats = pos.stats
    total = 0.0
    if style.travel:
        travel = pos.travel()
        for unit in pos.side_units(side):
            walk = travel[unit.id]
            if walk < UNREACHED:
                total += walk / 2 if walk < 2 * TRAVEL_CAP else TRAVEL_CAP
            else:  # walled in: the straight line
                total += far_cells(stats[unit.type].range, pos.nearest_enemy()[unit.id])
    else:
        nearest = pos.nearest_enemy()
        for unit in pos.side_units(side):
            beyond = nearest[unit.id] - stats[unit.type].range
            if beyond > 0:
                total += beyond if beyond < APPROACH_CAP else APPROACH_CAP
    return approach_weight(pos.state, side, style) * total


def standoff(pos: Position) -> bool:
    """True when no placed unit of either side stands within reach (MP + range, straight line) of an enemy.

    In a standoff the zero-sum approach term pays a side for keeping away: a unit walking towards
    many enemies shortens their approach term more than its own. `Style.standoff` then judges
    only the judged side's own pull, so a side that must close in drafts a march.
    """
    stats = pos.stats
    for unit, nearest in pos.nearest_enemy().items():
        unit_stats = stats[pos.by_id[unit].type]
        if nearest <= unit_stats.movement_mp + unit_stats.range:
            return False
    return True


def _losses(state: GameState, side: Side, pos: Position) -> float:
    stats, share = pos.stats, pos.damage_share
    lost = sum(float(stats[u.type].vp) for u in state.player(side).destroyed)
    placed = [u for u in state.units if u.side is side and u.cell is not None]
    return lost + sum(loss_value(stats[u.type], u.hp, share) for u in placed)


def _cards(state: GameState, side: Side) -> float:
    """Cards in hand, a drawn bonus the side can still store, and room to store more later."""
    player = state.player(side)
    value = STORED_VALUE * len(player.stored) + TACTIC_VALUE * len(player.tactics)
    limit = storage_limit(state, side)
    pending = state.pending_card
    if pending is not None and pending.drawer is side and len(player.stored) < limit:
        card = CARDS.get(pending.card.split("#")[0])
        if card is not None and card.kind == "bonus":
            value += STORED_VALUE
    return value + SLOT_VALUE * limit  # the base limit counts the same for both sides


def evaluate(
    state: GameState,
    side: Side,
    pos: Position | None = None,
    style: Style = BALANCED,
) -> float:
    """Score of ``state`` for ``side`` in VP-like units: positive is good for ``side``.

    ``±WIN_SCORE`` once the game is over. Symmetric: ``evaluate(s, A) == -evaluate(s, D)``
    (unless ``style.rival_approach`` is off). ``style`` weighs the threat and approach terms.
    """
    if state.phase is Phase.VICTORY:
        return WIN_SCORE if state.winner is side else -WIN_SCORE
    pos = pos or Position(state, style.damage_share)
    active = state.active
    other = active.other
    score = _losses(state, other, pos) - _losses(state, active, pos)
    offense, dists = _offense(pos, active)
    score += offense - style.threat * _threat(pos, other, dists, style.travel_threat)
    if style.rival_approach and not (style.standoff and standoff(pos)):
        score += _approach(pos, other, style) - _approach(pos, active, style)
    elif side is active:  # only the judged side's own pull: the enemy's does not shrink because we came closer
        score -= _approach(pos, active, style)
    else:
        score += _approach(pos, other, style)
    score += _cards(state, active) - _cards(state, other)
    limit = state.rules.victory.round_limit
    if limit is not None:
        bias = TIE_BIAS * min(1.0, state.turn / (2 * limit.max_rounds))
        score += bias if active is Side.DEFENDER else -bias
    return score if side is active else -score
