"""Instant ops: the one-off actions of a card (hook ``instant``), and which cards may carry them.

A lasting effect is a record that the hooks read (`engine.effects`, `engine.hooks`); an
instant op changes the state once, when its card is played, and leaves no record. Each
op here declares everything a card needs to carry it:

- ``kinds``: the card kinds whose page applies it. A bonus acts when its player plays it
  in their own CARD_RESOLUTION, MOVEMENT or ATTACK phase, a malus when it is applied to
  its drawer (after the victims are chosen), a tactic in its reaction window;
- ``windows``: for a tactic, the reaction windows in which the op has something to act on;
- ``scope``: what the effect is written against (``targets`` or ``pending_attack``);
- ``needs``: what the play must name: ``units`` on the board (a unit-targeting bonus or
  tactic, a malus with chosen victims), a ``destroyed_unit`` and a cell to return it to,
  or nothing beyond the window (``roll``: the die of the pending attack).

`engine.cards` rejects a card that combines op, kind, window, scope and targeting in any
other way, and the card pages (bonuses, maluses, reactions) apply instant ops only
through `apply_instants`, so a card that loads is a card that acts.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Literal

from msgspec.structs import replace

from ..actions import NO_PARAMS, Params
from ..rng import roll_d6
from ..state import Event, GameState, Unit, player_of, with_player
from ..tables import unit_stats
from ..types import EventKind, Side, Window, unit_order

if TYPE_CHECKING:  # cards.py validates against this registry, so it imports this module
    from .defs import CardDef

__all__ = ["ATTACK_WINDOWS", "INSTANT_OPS", "CardKind", "InstantOp", "InstantPlay", "apply_instants"]

CardKind = Literal["bonus", "malus", "tactic"]

ATTACK_WINDOWS = frozenset({Window.BEFORE_ATTACK_ROLL, Window.AFTER_ATTACK_ROLL, Window.BEFORE_DAMAGE})
"""The reaction windows that open while an attack is pending (rules §9.1)."""

_ROLLED_WINDOWS = frozenset({Window.AFTER_ATTACK_ROLL, Window.BEFORE_DAMAGE})
_ALL_WINDOWS = frozenset(Window)


@dataclass(frozen=True)
class InstantPlay:
    """One play of a card, as its instant ops see it."""

    side: Side  # who plays it (for a malus: its drawer)
    targets: tuple[str, ...] = ()  # the aimed units, or a malus's victims
    params: Params = NO_PARAMS  # the cell of a returned unit
    value: int = 0  # the effect's value (add_hp, set_hp), set per effect by `apply_instants`


@dataclass(frozen=True)
class InstantOp:
    """An instant op and the cards that may carry it (see the module docstring)."""

    name: str
    kinds: frozenset[CardKind]
    windows: frozenset[Window]
    scope: Literal["targets", "pending_attack"]
    needs: Literal["units", "destroyed_unit", "roll"]
    apply: Callable[[GameState, InstantPlay], GameState]
    summary: str
    rolls_dice: bool = False  # draws from the rng: a bot treats the play as a chance event


def _restore_hp(state: GameState, play: InstantPlay) -> GameState:
    tables = state.rules.tables
    units = tuple(replace(u, hp=unit_stats(u.type, tables).hp) if u.id in play.targets else u for u in state.units)
    restored = tuple(Event(kind=EventKind.UNIT_RESTORED, side=play.side, unit=t) for t in play.targets)
    return replace(state, units=units, events=(*state.events, *restored))


def _add_hp(state: GameState, play: InstantPlay) -> GameState:
    units = tuple(replace(u, hp=u.hp + play.value) if u.id in play.targets else u for u in state.units)
    events = tuple(Event(kind=EventKind.UNIT_RESTORED, side=play.side, unit=t, value=play.value) for t in play.targets)
    return replace(state, units=units, events=(*state.events, *events))


def _set_hp(state: GameState, play: InstantPlay) -> GameState:
    units = tuple(replace(u, hp=play.value) if u.id in play.targets else u for u in state.units)
    events = tuple(Event(kind=EventKind.UNIT_RESTORED, side=play.side, unit=t, value=play.value) for t in play.targets)
    return replace(state, units=units, events=(*state.events, *events))


def _return_unit(state: GameState, play: InstantPlay) -> GameState:
    unit_id, cell, side = play.targets[0], play.params.cell, play.side
    assert cell is not None, "a destroyed_unit op is only offered with a cell (targeting own_destroyed_unit)"
    player = player_of(state, side)
    record = next(u for u in player.destroyed if u.id == unit_id)
    hp = unit_stats(record.type, state.rules.tables).hp
    unit = Unit(id=unit_id, side=side, type=record.type, cell=cell, hp=hp, has_moved=True, has_attacked=True)
    state = with_player(state, replace(player, destroyed=tuple(u for u in player.destroyed if u.id != unit_id)))
    units = sorted((*state.units, unit), key=lambda u: unit_order(u.id))
    event = Event(kind=EventKind.UNIT_RETURNED, side=side, unit=unit_id, cell=cell)
    return replace(state, units=tuple(units), events=(*state.events, event))


def _mark_attacked(state: GameState, play: InstantPlay) -> GameState:
    units = tuple(replace(u, has_attacked=True) if u.id in play.targets else u for u in state.units)
    return replace(state, units=units)


def _reroll_die(state: GameState, play: InstantPlay) -> GameState:
    if state.last_roll is None:
        return state
    natural, rng = roll_d6(state.rng)
    event = Event(kind=EventKind.DICE_REROLLED, side=play.side, value=natural)
    return replace(state, rng=rng, last_roll=replace(state.last_roll, natural=natural), events=(*state.events, event))


INSTANT_OPS: Mapping[str, InstantOp] = {
    op.name: op
    for op in (
        InstantOp(
            name="restore_hp",
            kinds=frozenset({"bonus", "tactic"}),
            windows=_ALL_WINDOWS,
            scope="targets",
            needs="units",
            apply=_restore_hp,
            summary="each target unit is back to its full HP",
        ),
        InstantOp(
            name="add_hp",
            kinds=frozenset({"bonus", "tactic"}),
            windows=_ALL_WINDOWS,
            scope="targets",
            needs="units",
            apply=_add_hp,
            summary="each target unit gains `value` HP, even above its full strength",
        ),
        InstantOp(
            name="set_hp",
            kinds=frozenset({"bonus", "tactic"}),
            windows=_ALL_WINDOWS,
            scope="targets",
            needs="units",
            apply=_set_hp,
            summary="each target unit has exactly `value` HP",
        ),
        InstantOp(
            name="return_unit",
            kinds=frozenset({"bonus", "tactic"}),
            windows=_ALL_WINDOWS,
            scope="targets",
            needs="destroyed_unit",
            apply=_return_unit,
            summary="the destroyed target comes back at full HP on the chosen entry cell, spent for this turn",
        ),
        InstantOp(
            name="mark_attacked",
            kinds=frozenset({"malus", "tactic"}),
            windows=_ALL_WINDOWS,
            scope="targets",
            needs="units",
            apply=_mark_attacked,
            summary="each target unit counts as having attacked this turn",
        ),
        InstantOp(
            name="reroll_die",
            kinds=frozenset({"tactic"}),
            windows=_ROLLED_WINDOWS,
            scope="pending_attack",
            needs="roll",
            apply=_reroll_die,
            summary="the pending attack's die is rolled again (its modifiers are then recomputed)",
            rolls_dice=True,
        ),
    )
}
"""Every instant op by name, in the order the loader lists them."""


def apply_instants(state: GameState, card: CardDef, play: InstantPlay, option: int | None = None) -> GameState:
    """Perform the instant ops of ``card``, in the order of its effects, for ``play`` (of the chosen ``option``)."""
    for effect in card.effects:
        if effect.is_instant and (effect.option is None or effect.option == option):
            state = INSTANT_OPS[effect.op].apply(state, dataclasses.replace(play, value=int(effect.value)))
    return state
