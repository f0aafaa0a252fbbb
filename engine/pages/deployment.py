"""Rule page: manual deployment (DEPLOY_UNIT, AUTO_DEPLOY, CONFIRM_DEPLOYMENT; rules §3.4)."""

from __future__ import annotations

from typing import Final

from msgspec.structs import replace

from ..actions import Action, AutoDeploy, ConfirmDeployment, DeployUnit
from ..board.info import board_info
from ..board.zones import deployment_cells, preferred_cells
from ..errors import IllegalAction
from ..flow.phases import enter
from ..movement import occupied_cells
from ..rng import pick
from ..state import Event, GameState, Unit, unit_by_id
from ..types import EventKind, Phase, Side

_AUTO_DEPLOY: Final = AutoDeploy()
_CONFIRM: Final = ConfirmDeployment()


def _deploying(state: GameState) -> Side:
    assert state.deploying is not None
    return state.deploying


def _may_redeploy(state: GameState, side: Side) -> bool:
    """A side may move placed units again as many times in all as it has units (rules §3.4)."""
    return state.redeployments < sum(1 for u in state.units if u.side is side)


def _offer_deploy(state: GameState) -> list[Action]:
    side = _deploying(state)
    info = board_info(state.board)
    cells = [info.labels[i] for i in deployment_cells(info, side, occupied_cells(state))]
    again = _may_redeploy(state, side)
    return [
        DeployUnit(unit_id=u.id, cell=c)
        for u in state.units
        if u.side is side and (u.cell is None or again)
        for c in cells
    ]


def _apply_deploy(state: GameState, action: DeployUnit) -> GameState:
    side = _deploying(state)
    unit = unit_by_id(state, action.unit_id)
    if unit is None:
        raise IllegalAction(f"there is no unit {action.unit_id} in this game", "unknown_unit")
    if unit.side is not side:
        raise IllegalAction(f"{unit.id} belongs to {unit.side.value}; {side.value} is deploying", "not_your_unit")
    if unit.cell is not None and not _may_redeploy(state, side):
        raise IllegalAction(
            f"{side.value} has moved placed units as often as it has units: place the rest or confirm",
            "redeploy_limit",
        )
    info = board_info(state.board)
    cell = info.index.get(action.cell)
    if cell is None or cell not in deployment_cells(info, side, occupied_cells(state)):
        raise IllegalAction(
            f"{action.cell} is not a legal deployment cell for {side.value} (own zone, not water or river, unoccupied)",
            "bad_cell",
        )
    units = tuple(replace(u, cell=action.cell) if u.id == unit.id else u for u in state.units)
    event = Event(kind=EventKind.UNIT_DEPLOYED, side=side, unit=unit.id, cell=action.cell, from_cell=unit.cell)
    redeployments = state.redeployments + (unit.cell is not None)
    return replace(state, units=units, redeployments=redeployments, events=(*state.events, event))


def _unplaced(state: GameState) -> list[str]:
    side = _deploying(state)
    return [u.id for u in state.units if u.side is side and u.cell is None]


def _offer_auto(state: GameState) -> list[Action]:
    return [_AUTO_DEPLOY] if _unplaced(state) else []


def _apply_auto(state: GameState, action: AutoDeploy) -> GameState:
    unplaced = _unplaced(state)
    if not unplaced:
        raise IllegalAction("every unit is already placed", "precondition")
    return auto_deploy(state, unplaced)


def _offer_confirm(state: GameState) -> list[Action]:
    return [] if _unplaced(state) else [_CONFIRM]


def _apply_confirm(state: GameState, action: ConfirmDeployment) -> GameState:
    unplaced = _unplaced(state)
    if unplaced:
        raise IllegalAction(f"place every unit first ({', '.join(unplaced)} still waiting)", "precondition")
    side = _deploying(state)
    event = Event(kind=EventKind.DEPLOYMENT_CONFIRMED, side=side)
    state = replace(state, events=(*state.events, event))
    if side is Side.DEFENDER:
        return replace(state, deploying=Side.ATTACKER, redeployments=0)
    return enter(replace(state, deploying=None, redeployments=0), Phase.TURN_START)


OFFERS = {DeployUnit: _offer_deploy, AutoDeploy: _offer_auto, ConfirmDeployment: _offer_confirm}
APPLY = {DeployUnit: _apply_deploy, AutoDeploy: _apply_auto, ConfirmDeployment: _apply_confirm}


def auto_deploy(state: GameState, unit_ids: list[str]) -> GameState:
    """Place each unit of ``unit_ids`` in order with one uniform pick (rules §3.4)."""
    info = board_info(state.board)
    occupied = {info.index[u.cell] for u in state.units if u.cell is not None}
    units = {u.id: u for u in state.units}
    rng = state.rng
    events = list(state.events)
    # Each side's preferred cells are found once and lose each cell as it is taken: the same lists a
    # scan of the board per unit would give (cells by (y, x), the occupied left out), without the scans.
    preferred: dict[Side, list[int]] = {}
    for unit_id in unit_ids:
        unit = units[unit_id]
        if unit.side not in preferred:
            preferred[unit.side] = preferred_cells(info, unit.side, occupied)
        candidates = preferred[unit.side] or deployment_cells(info, unit.side, occupied)
        if not candidates:
            raise ValueError(f"no legal deployment cell left for {unit_id}")
        choice, rng = pick(len(candidates), rng)
        cell = candidates[choice]
        if candidates is preferred[unit.side]:
            del candidates[choice]
        occupied.add(cell)
        units[unit_id] = replace(unit, cell=info.labels[cell])
        events.append(Event(kind=EventKind.UNIT_DEPLOYED, side=unit.side, unit=unit_id, cell=info.labels[cell]))
    ordered: tuple[Unit, ...] = tuple(units[u.id] for u in state.units)
    return replace(state, units=ordered, rng=rng, events=tuple(events))
