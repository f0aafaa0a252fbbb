"""What a bonus or tactic may be aimed at: every legal ``(targets, params)`` of one play.

The card pages list actions from these options and check played actions against the
same options, so offering and accepting can never disagree.
"""

from __future__ import annotations

from typing import Final

from msgspec.structs import replace

from ..actions import NO_PARAMS, Params
from ..board.info import board_info
from ..board.zones import entry_cells
from ..combat.queue import attack_problem, placed_unit
from ..movement import occupied_cells
from ..state import GameState, Unit, player_of
from ..tables import UNITS, unit_stats
from ..types import Hook, Quadrant, Side, unit_order
from .defs import CardDef
from .hooks import can_move_unit, can_resupply

__all__ = ["TargetOption", "is_neutral", "playable_options", "target_options"]

_QUADRANTS: Final = tuple(Quadrant)  # NW, NE, SW, SE; iterating an Enum class runs Python code

TargetOption = tuple[tuple[str, ...], Params]
"""One legal aim of a card: ``(targets, params)`` exactly as the action spells them."""


def _unit_fits(state: GameState, card: CardDef, unit: Unit) -> bool:
    spec = card.targeting
    if spec.unit_types and unit.type not in spec.unit_types:
        return False
    if spec.unit_tags and not any(tag in spec.unit_tags for tag in UNITS[unit.type].tags):
        return False
    for need in spec.require:
        if need == "damaged" and not 0 < unit.hp < unit_stats(unit.type, state.rules.tables).hp:
            return False
        if need == "can_resupply" and not can_resupply(state, unit):
            return False
        if need == "cannot_move" and can_move_unit(state, unit):
            return False
    return True


def target_options(state: GameState, side: Side, card: CardDef) -> list[TargetOption]:
    """Every ``(targets, params)`` with which ``side`` may play ``card`` for effect now.

    Listed in canonical order (units in unit order, cells by (y, x), quadrants NW, NE, SW, SE),
    each aim once per option of a card that offers options (``params.option``, in the card's order).
    Phase, hand and permission checks are the caller's; this only answers "aimed at what".
    """
    aims = _aims(state, side, card)
    if not card.options:
        return aims
    return [(targets, replace(params, option=i)) for targets, params in aims for i in range(len(card.options))]


def _aims(state: GameState, side: Side, card: CardDef) -> list[TargetOption]:
    kind = card.targeting.kind
    pending = state.pending_attack
    if kind == "none":
        return [((), NO_PARAMS)]
    if kind == "own_unit":
        return [
            ((u.id,), NO_PARAMS)
            for u in state.units
            if u.side is side and u.cell is not None and _unit_fits(state, card, u)
        ]
    if kind == "own_destroyed_unit":
        info = board_info(state.board)
        cells = entry_cells(info, side, occupied_cells(state))
        destroyed = sorted({u.id: u for u in player_of(state, side).destroyed}.values(), key=lambda u: unit_order(u.id))
        return [((u.id,), Params(cell=info.labels[c])) for u in destroyed for c in cells]
    if kind == "quadrant":
        return [((), Params(quadrant=q)) for q in _QUADRANTS]
    if pending is None:
        return []
    if kind == "pending_attack":
        return [((), NO_PARAMS)]
    if kind == "pending_attacker":
        return [((pending.attacker,), NO_PARAMS)]
    if kind == "pending_target":
        return [((pending.target,), NO_PARAMS)]
    # supporter: another own unit that could itself declare against the pending target
    target = placed_unit(state, pending.target)
    if target is None:
        return []
    return [
        ((u.id,), NO_PARAMS)
        for u in state.units
        if u.side is side and u.id != pending.attacker and attack_problem(state, u, target) is None
    ]


def is_neutral(state: GameState, side: Side, card: CardDef) -> bool:
    """A card that cannot be played for effect now: no effect, no target, or non-cumulative and active."""
    return not playable_options(state, side, card)


def playable_options(state: GameState, side: Side, card: CardDef) -> list[TargetOption]:
    """`target_options` of a card that is not neutral (`is_neutral`), else none: one look at the targets for both."""
    if not card.effects:
        return []
    if not card.cumulative and any(
        e.source_card == card.id and e.controller is side and e.hook is not Hook.INSTANT for e in state.effects
    ):
        return []
    if card.targeting.kind == "own_destroyed_unit" and not player_of(state, side).destroyed:
        return []  # the usual case, asked at every listing: no unit to bring back, no cells to look at
    return target_options(state, side, card)
