"""Planned deployment: place units out of the enemy's first strike but close to the fight.

Only games with manual deployment (``GameConfig(deployment="manual")``, rules §3.4) give a
seat this decision; the default game deploys automatically inside `new_game`. The greedy
and MCTS bots answer it with `deployment_plan` (their ``deploy`` option, on by default;
with ``deploy=false`` they press AUTO_DEPLOY, `greedy.sensible_actions`), one rule for
both seats:

* a unit must not stand where an enemy unit could fire at it before it has moved: when the
  enemy takes the first turn (the DEFENDER's case, §3.4), no cell within an enemy unit's
  first-turn reach (its movement points over the board's own step costs, `BoardInfo.steps`,
  then its weapon range; a move-or-fire unit's range only) from any cell the enemy stands
  on, or, while the enemy has not deployed, could deploy on;
* among the cells left, each unit takes the one from which it walks least (in MP, the
  travel fields of `lab.bots.travel`) until an enemy (or the enemy's zone) is in its range,
  the most valuable units first; ties go to the cell farthest from the units already
  placed, so the line spreads, then to canonical order.

When no safe cell is left for a unit it takes the closest legal cell anyway. The plan
reads only the view (the board, the units placed so far and the unit tables), so it is
the same at every decision of the seat's deployment; `deployment_action` places one
unplaced unit per call and never moves a placed one, so deployment ends within one
action per unit.
"""

from __future__ import annotations

from collections.abc import Sequence

from engine import Action, AutoDeploy, ConfirmDeployment, DeployUnit, GameState, Phase, Side, UnitType, unit_order
from engine.data import BoardInfo, board_info, home_side, step_abilities, unit_stats

from .travel import UNREACHED, Steps, field_table, nearest_field

__all__ = ["deployment_action", "deployment_plan", "first_strike_cells", "unsearched_choice"]


def _steps(state: GameState, info: BoardInfo, unit_type: UnitType) -> Steps:
    tables = state.rules.tables
    overlays = None if tables is None else tables.overlay_costs()
    return info.steps(unit_type, step_abilities(state.rules), overlays)


def _enemy_cells(state: GameState, info: BoardInfo, enemy: Side) -> list[int]:
    """Where the enemy stands, or, while none of its units is placed, every cell of its zone."""
    placed = sorted(info.index[u.cell] for u in state.units if u.side is enemy and u.cell is not None)
    if placed:
        return placed
    return [i for i in range(info.size) if home_side(i // info.width, info.height) is enemy]


def first_strike_cells(state: GameState, side: Side) -> set[int]:
    """Cell indices an enemy of ``side`` could fire at on its next turn, from where it stands or may deploy.

    Per enemy unit type: a least-cost search over the board's step costs from the enemy's
    cells with the type's movement points (half-points, as the engine counts them), then
    every cell within the type's range of a cell reached. A move-or-fire type fires only
    from where it stands.
    """
    info = board_info(state.board)
    enemy = side.other
    starts = _enemy_cells(state, info, enemy)
    width, height = info.width, info.height
    hit: set[int] = set()
    for unit_type in sorted({u.type for u in state.units if u.side is enemy}, key=lambda t: t.value):
        stats = unit_stats(unit_type, state.rules.tables)
        budget = 0 if "move_or_fire" in stats.tags else 2 * stats.movement_mp
        steps = _steps(state, info, unit_type)
        best = [UNREACHED] * info.size
        buckets: list[list[int]] = [list(starts)]
        for cell in starts:
            best[cell] = 0
        spent = 0
        while spent < len(buckets) and spent <= budget:
            for cell in buckets[spent]:
                if best[cell] != spent:
                    continue
                for after, cost in steps[cell]:
                    total = spent + cost
                    if total <= budget and total < best[after]:
                        best[after] = total
                        while len(buckets) <= total:
                            buckets.append([])
                        buckets[total].append(after)
            spent += 1
        weapon = stats.range
        for cell in range(info.size):
            if best[cell] > budget:
                continue
            x, y = cell % width, cell // width
            for yy in range(max(0, y - weapon), min(height, y + weapon + 1)):
                row = yy * width
                hit.update(range(row + max(0, x - weapon), row + min(width, x + weapon + 1)))
    return hit


def _spread(info: BoardInfo, cell: int, mine: list[int]) -> int:
    """Chebyshev distance from ``cell`` to the nearest cell in ``mine`` (0 when there is none)."""
    x, y = cell % info.width, cell // info.width
    return min((max(abs(x - m % info.width), abs(y - m // info.width)) for m in mine), default=0)


def deployment_plan(view: GameState, legal: Sequence[Action]) -> dict[str, str]:
    """Cell label for each unplaced unit of the deploying seat (``view.to_act``), as the rule above places them."""
    side = view.to_act
    assert side is not None
    info = board_info(view.board)
    open_cells: dict[str, list[int]] = {}
    for action in legal:
        if isinstance(action, DeployUnit):
            open_cells.setdefault(action.unit_id, []).append(info.index[action.cell])
    units = [u for u in view.units if u.side is side and u.cell is None and u.id in open_cells]
    if not units:
        return {}
    enemy_first = view.active is side.other  # the side to take turn 1 strikes before this seat moves
    unsafe = first_strike_cells(view, side) if enemy_first else set()
    targets = tuple(_enemy_cells(view, info, side.other))
    taken = {info.index[u.cell] for u in view.units if u.cell is not None}
    mine = [info.index[u.cell] for u in view.units if u.side is side and u.cell is not None]
    tables = view.rules.tables
    units.sort(key=lambda u: (-unit_stats(u.type, tables).vp, unit_order(u.id)))
    plan: dict[str, str] = {}
    for unit in units:
        stats = unit_stats(unit.type, tables)
        walk = nearest_field(field_table(_steps(view, info, unit.type), info.width, stats.range), targets)
        free = [c for c in open_cells[unit.id] if c not in taken]
        if not free:
            continue
        safe = [c for c in free if c not in unsafe] or free
        cell = min(safe, key=lambda c: (walk[c], -min(_spread(info, c, mine), 3), c))
        plan[unit.id] = info.labels[cell]
        taken.add(cell)
        mine.append(cell)
    return plan


def deployment_action(view: GameState, legal: Sequence[Action]) -> Action:
    """The next deployment action of the planned layout: place one unplaced unit, or confirm.

    A placed unit is never moved again, so a seat's deployment takes at most one action per
    unit and its confirmation; a unit the plan has no cell for is placed by AUTO_DEPLOY.
    """
    for unit_id, cell in deployment_plan(view, legal).items():  # the most valuable unit first
        place = DeployUnit(unit_id=unit_id, cell=cell)
        if place in legal:
            return place
    for action in legal:
        if isinstance(action, (AutoDeploy, ConfirmDeployment)):
            return action
    return legal[0]


def unsearched_choice(view: GameState, legal: Sequence[Action], rng: int, deploy: bool) -> tuple[Action, int] | None:
    """A bot's choice when there is nothing to weigh: the only legal action, or (``deploy``) a manual
    deployment's `deployment_action`; else None. No legal action at all is an error: the game is over."""
    if not legal:
        raise ValueError("no legal action to choose from (the game is over)")
    if len(legal) == 1:
        return legal[0], rng
    if deploy and view.phase is Phase.DEPLOYMENT:
        return deployment_action(view, legal), rng
    return None
