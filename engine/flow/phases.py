"""The turn as a table: phase order, what each phase allows, and entry housekeeping (§4).

`enter` runs a phase's entry steps and, for transient phases, keeps going (END_TURN →
TURN_START → CARD_DRAW) in a bounded loop that raises on a cycle. `decide_to_act`
derives who must decide (§4.4).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Final

from msgspec.structs import replace

from ..actions import (
    AcceptMalus,
    ActionBase,
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
from ..cards.deck import shuffle_draw_pile
from ..cards.effects import expire_phase_effects, expire_turn_end_effects
from ..combat.queue import advance_queue, cancel_pending
from ..state import Event, GameState
from ..types import EventKind, Phase, Side
from .victory import check_end_turn
from .windows import priority_holder

__all__ = [
    "CHOOSER_ACTIONS",
    "DEPLOYMENT_ACTIONS",
    "NEXT_PHASE",
    "PHASE_ACTIONS",
    "PRIORITY_ACTIONS",
    "allowed_action_types",
    "decide_to_act",
    "enter",
]

NEXT_PHASE: dict[Phase, Phase] = {
    Phase.TURN_START: Phase.CARD_DRAW,
    Phase.CARD_DRAW: Phase.CARD_RESOLUTION,
    Phase.CARD_RESOLUTION: Phase.MOVEMENT,
    Phase.MOVEMENT: Phase.ATTACK,
    Phase.ATTACK: Phase.DICE_RESOLUTION,
    Phase.DICE_RESOLUTION: Phase.END_TURN,
    Phase.END_TURN: Phase.TURN_START,
}
"""The phase order of §4.1: where NEXT_PHASE (or a transient phase) leads."""

_Types = frozenset[type[ActionBase]]

PHASE_ACTIONS: Final[dict[Phase, _Types]] = {
    Phase.CARD_DRAW: frozenset({NextPhase, DrawCard}),
    Phase.CARD_RESOLUTION: frozenset({NextPhase, PlayBonus, StoreBonus, DiscardBonus, AcceptMalus, CancelMalus}),
    Phase.MOVEMENT: frozenset({NextPhase, EndTurn, PlayBonus, CancelMalus, MoveUnit, PlayTactic}),
    Phase.ATTACK: frozenset({NextPhase, EndTurn, PlayBonus, CancelMalus, DeclareAttack, WithdrawAttack}),
    Phase.DICE_RESOLUTION: frozenset({NextPhase, EndTurn, RollDice, ResolveAttack, PlayTactic}),
}
"""§4.5 gating: the action types the active player may use in each resting phase."""

CHOOSER_ACTIONS: Final[_Types] = frozenset({ChooseMalusTargets})
"""While an accepted malus awaits its victims, only its chooser acts."""
PRIORITY_ACTIONS: Final[_Types] = frozenset({PlayTactic, PassReaction})
"""While the reacting player holds priority, only these are legal."""
DEPLOYMENT_ACTIONS: Final[_Types] = frozenset({DeployUnit, AutoDeploy, ConfirmDeployment})


def awaiting_victims(state: GameState) -> bool:
    """True while an accepted targeted malus waits for its chooser."""
    return state.pending_card is not None and state.pending_card.accepted


def allowed_action_types(state: GameState) -> _Types:
    """Action types that can be legal for ``state.to_act`` now (before page preconditions)."""
    if state.phase is Phase.VICTORY:
        return frozenset()
    if state.phase is Phase.DEPLOYMENT:
        return DEPLOYMENT_ACTIONS
    if awaiting_victims(state):
        return CHOOSER_ACTIONS
    if state.to_act is not state.active:
        return PRIORITY_ACTIONS
    return PHASE_ACTIONS.get(state.phase, frozenset())


def decide_to_act(state: GameState) -> Side | None:
    """Who must decide now (rules §4.4)."""
    if state.phase is Phase.VICTORY:
        return None
    if state.phase is Phase.DEPLOYMENT:
        return state.deploying
    if state.pending_card is not None and state.pending_card.accepted:
        return state.pending_card.drawer.other
    return priority_holder(state) or state.active


def _turn_start(state: GameState, came_from: Phase | None) -> tuple[GameState, Phase | None]:
    # Expiring reads neither the side nor the turn: the switch joins the one copy below.
    active, turn = (state.active.other, state.turn + 1) if came_from is Phase.END_TURN else (state.active, state.turn)
    state = expire_phase_effects(state, Phase.TURN_START)
    units = tuple(
        [replace(u, has_moved=False, has_attacked=False) if u.has_moved or u.has_attacked else u for u in state.units]
    )
    event = Event(kind=EventKind.TURN_STARTED, side=active, value=turn)
    state = replace(
        state,
        active=active,
        turn=turn,
        units=units,
        moves_this_turn=0,
        drawn_this_turn=False,
        attack_queue=(),
        withdrawals=0,
        pending_attack=None,
        last_roll=None,
        attack_seq=0,
        reactions=(),
        events=(*state.events, event),
    )
    return state, Phase.CARD_DRAW


def _rest(state: GameState, came_from: Phase | None) -> tuple[GameState, Phase | None]:
    return state, None


def _attack(state: GameState, came_from: Phase | None) -> tuple[GameState, Phase | None]:
    return replace(state, attack_queue=()), None


def _dice_resolution(state: GameState, came_from: Phase | None) -> tuple[GameState, Phase | None]:
    return advance_queue(state), None


def _end_turn(state: GameState, came_from: Phase | None) -> tuple[GameState, Phase | None]:
    if state.pending_attack is not None:
        state = cancel_pending(state, "the turn ended")
    if state.attack_queue:
        dropped = tuple(
            Event(kind=EventKind.ATTACK_DROPPED, side=state.active, unit=a.attacker, target=a.target)
            for a in state.attack_queue
        )
        state = replace(state, attack_queue=(), events=state.events + dropped)
    state = check_end_turn(state)
    if state.phase is Phase.VICTORY:
        return state, None
    state = expire_turn_end_effects(state)
    state = shuffle_draw_pile(state)
    return state, Phase.TURN_START


_ENTRY: Final[dict[Phase, Callable[[GameState, Phase | None], tuple[GameState, Phase | None]]]] = {
    Phase.TURN_START: _turn_start,
    Phase.CARD_DRAW: _rest,
    Phase.CARD_RESOLUTION: _rest,
    Phase.MOVEMENT: _rest,
    Phase.ATTACK: _attack,
    Phase.DICE_RESOLUTION: _dice_resolution,
    Phase.END_TURN: _end_turn,
}

_ENTERED: Final = {phase: Event(kind=EventKind.PHASE_ENTERED, detail=phase.value) for phase in Phase}
"""Each phase's PHASE_ENTERED event, made once: events are immutable, and equal ones encode the same."""

_MAX_TRANSITIONS: Final = 8  # END_TURN → TURN_START → CARD_DRAW is the longest chain


def enter(state: GameState, phase: Phase) -> GameState:
    """Enter ``phase``: its housekeeping, then onwards through transient phases until one rests."""
    came_from: Phase | None = state.phase
    for _ in range(_MAX_TRANSITIONS):
        if phase is not Phase.TURN_START:  # TURN_START expires after switching sides
            state = expire_phase_effects(state, phase)
        state = replace(state, phase=phase, events=(*state.events, _ENTERED[phase]))
        state, following = _ENTRY[phase](state, came_from)
        if following is None or state.phase is Phase.VICTORY:
            return state
        came_from, phase = phase, following
    raise RuntimeError(f"phase transitions did not settle (stuck at {phase.value})")
