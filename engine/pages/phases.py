"""Rule page: leaving phases and ending the turn (NEXT_PHASE, END_TURN; rules §4.5)."""

from __future__ import annotations

from ..actions import Action, EndTurn, NextPhase
from ..cards.deck import card_available
from ..errors import IllegalAction
from ..flow.phases import NEXT_PHASE, enter
from ..state import GameState
from ..types import Phase

_NEXT_PHASE = NextPhase()
_END_TURN = EndTurn()


def _next_phase_problem(state: GameState) -> str | None:
    phase = state.phase
    if phase is Phase.CARD_DRAW and card_available(state):
        return "a card is available: draw it (DRAW_CARD) before leaving CARD_DRAW"
    if phase is Phase.CARD_RESOLUTION and state.pending_card is not None:
        return f"the drawn card {state.pending_card.card} must be dealt with before leaving CARD_RESOLUTION"
    if phase is Phase.DICE_RESOLUTION and (state.pending_attack is not None or state.attack_queue):
        return "attacks are still waiting to be resolved (resolve them, or END_TURN to drop them)"
    return None


def _offer_next_phase(state: GameState) -> list[Action]:
    return [] if _next_phase_problem(state) else [_NEXT_PHASE]


def _apply_next_phase(state: GameState, action: NextPhase) -> GameState:
    problem = _next_phase_problem(state)
    if problem:
        raise IllegalAction(problem, "precondition")
    return enter(state, NEXT_PHASE[state.phase])


def _offer_end_turn(state: GameState) -> list[Action]:
    return [_END_TURN] if state.last_roll is None else []


def _apply_end_turn(state: GameState, action: EndTurn) -> GameState:
    if state.last_roll is not None:
        raise IllegalAction("the attack roll must be resolved (RESOLVE_ATTACK) before ending the turn", "precondition")
    return enter(state, Phase.END_TURN)


OFFERS = {NextPhase: _offer_next_phase, EndTurn: _offer_end_turn}
APPLY = {NextPhase: _apply_next_phase, EndTurn: _apply_end_turn}
