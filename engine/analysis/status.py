"""Who decides now and why (rules §4.4, §9): the answer a screen shows above the board.

`decision` names the deciding side, the kind of decision, the open reaction windows, the
card or attack it concerns and where the turn stands on the phase ruler. Everything is
derived from the state by the code `reduce` itself uses (`decide_to_act`, the phase table
of `flow`, `reaction_windows`), so a rules change changes what a client says with it.

>>> from engine import GameConfig, new_game
>>> d = decision(new_game(GameConfig(seed=7)))
>>> d.side.value, d.kind.value, [s.name for s in d.ruler]
('ATTACKER', 'draw_card', ['Draw', 'Cards', 'Move', 'Attack', 'Dice'])
"""

from __future__ import annotations

from enum import StrEnum

import msgspec

from ..cards.game import card_of
from ..flow.phases import NEXT_PHASE, PHASE_ACTIONS, decide_to_act
from ..flow.windows import reaction_windows
from ..state import Attack, GameState
from ..types import Phase, Side, Window

__all__ = ["PHASE_NAMES", "TURN_RULER", "Decision", "DecisionKind", "PhaseStep", "decision", "useful_response"]


class DecisionKind(StrEnum):
    """What the deciding side is asked to do."""

    DEPLOY = "deploy"  # place units (manual deployment, §3.4)
    DRAW_CARD = "draw_card"  # draw the turn's card (§4.1, §7.6)
    RESOLVE_BONUS = "resolve_bonus"  # play, store or discard the drawn bonus (§7.3)
    RESOLVE_MALUS = "resolve_malus"  # accept or cancel the drawn malus (§7.4)
    CHOOSE_VICTIMS = "choose_victims"  # pick the victims of an accepted targeted malus (§7.4)
    PLAY_STORED = "play_stored"  # play stored bonuses or go on to movement (§7.3)
    MOVE = "move"  # move units (§5)
    DECLARE_ATTACKS = "declare_attacks"  # queue attacks (§6.1)
    ROLL = "roll"  # roll for the pending attack (§6.3)
    APPLY_ROLL = "apply_roll"  # apply the rolled result of the pending attack (§6.4)
    FINISH_TURN = "finish_turn"  # no attack left: end the turn
    REACT = "react"  # play a tactic or pass in the open reaction window(s) (§9)
    GAME_OVER = "game_over"  # nobody decides any more


class PhaseStep(msgspec.Struct, frozen=True, kw_only=True):
    """A phase with its short name for people."""

    phase: Phase
    name: str


PHASE_NAMES: dict[Phase, str] = {
    Phase.DEPLOYMENT: "Deployment",
    Phase.TURN_START: "Turn start",
    Phase.CARD_DRAW: "Draw",
    Phase.CARD_RESOLUTION: "Cards",
    Phase.MOVEMENT: "Move",
    Phase.ATTACK: "Attack",
    Phase.DICE_RESOLUTION: "Dice",
    Phase.END_TURN: "End of turn",
    Phase.VICTORY: "Game over",
}
"""Short names of the phases, as a ruler or a button shows them."""


def _turn_ruler() -> tuple[PhaseStep, ...]:
    """The resting phases of one turn in the order `NEXT_PHASE` walks them (§4.1)."""
    steps: list[PhaseStep] = []
    phase = Phase.TURN_START
    for _ in NEXT_PHASE:  # the order is a cycle through every phase of a turn once
        if phase in PHASE_ACTIONS:
            steps.append(PhaseStep(phase=phase, name=PHASE_NAMES[phase]))
        phase = NEXT_PHASE[phase]
    return tuple(steps)


TURN_RULER: tuple[PhaseStep, ...] = _turn_ruler()
"""The phases a player acts in during a turn, in order: the ruler above the board."""

_RULER_INDEX = {step.phase: i for i, step in enumerate(TURN_RULER)}


class Decision(msgspec.Struct, frozen=True, kw_only=True):
    """Who must decide now, what about, and where the turn stands."""

    side: Side | None  # who decides (`GameState.to_act`); None once the game is over
    kind: DecisionKind
    phase: Phase
    phase_name: str  # short name of `phase`
    windows: tuple[Window, ...] = ()  # the open reaction windows (§9.1), whoever decides
    card: str | None = None  # the drawn card instance concerned ("?" when the viewer may not see it)
    attack: Attack | None = None  # the pending attack concerned
    ruler: tuple[PhaseStep, ...] = TURN_RULER  # the turn's phases in order
    at: int | None = None  # index of `phase` in `ruler`; None outside a turn (deployment, game over)
    next_phase: PhaseStep | None = None  # where NEXT_PHASE leads from `phase` (None where it cannot be played)
    useful: bool = True  # False: the deciding side may only react, and no response can help it (see `useful_response`)


def decision(state: GameState, view: GameState | None = None) -> Decision:
    """Who decides in ``state`` and why.

    ``view`` is the `player_view` the decision will be shown with: the card named comes from
    it, so a card the viewer may not see stays ``"?"``. Without it everything is named.
    Works on real states only (a view's hidden hands cannot say who holds priority).
    """
    shown = state if view is None else view
    side = decide_to_act(state)
    phase = state.phase
    windows = tuple(w.window for w in reaction_windows(state))
    following = NEXT_PHASE.get(phase) if phase in PHASE_ACTIONS else None
    kind, card, attack = _what(state, shown, side)
    return Decision(
        side=side,
        kind=kind,
        phase=phase,
        phase_name=PHASE_NAMES[phase],
        windows=windows,
        card=card,
        attack=attack,
        at=_RULER_INDEX.get(phase),
        next_phase=PhaseStep(phase=following, name=PHASE_NAMES[following]) if following is not None else None,
        useful=useful_response(state) if kind is DecisionKind.REACT else True,
    )


def useful_response(state: GameState) -> bool:
    """Whether the side holding reaction priority could gain anything by playing a tactic (§9.3).

    The engine offers a reaction whenever a tactic is playable, even when it cannot help: after
    a roll that already misses the reacting side's unit, no tactic can improve that attack (a
    re-roll can only turn the miss into a hit, a defence bonus keeps it a miss). A lasting
    effect may still matter for another attack declared on the same unit later this turn, so
    that case stays useful. Nothing here simulates a play: a re-roll would reveal a future die.
    Outside a reaction window every decision counts as useful.
    """
    side = decide_to_act(state)
    attack = state.pending_attack
    roll = state.last_roll
    if side is None or side is state.active or attack is None or roll is None or roll.outcome != "MISS":
        return True
    return any(later.target == attack.target for later in state.attack_queue)


def _what(state: GameState, shown: GameState, side: Side | None) -> tuple[DecisionKind, str | None, Attack | None]:
    """The kind of decision, with the drawn card or pending attack it concerns."""
    pending = shown.pending_card
    card = pending.card if pending is not None else None
    attack = state.pending_attack
    if side is None:
        return DecisionKind.GAME_OVER, None, None
    if state.phase is Phase.DEPLOYMENT:
        return DecisionKind.DEPLOY, None, None
    if state.pending_card is not None and state.pending_card.accepted:
        return DecisionKind.CHOOSE_VICTIMS, card, None
    if side is not state.active:
        return DecisionKind.REACT, None, attack
    match state.phase:
        case Phase.CARD_DRAW:
            return DecisionKind.DRAW_CARD, None, None
        case Phase.CARD_RESOLUTION if state.pending_card is None:
            return DecisionKind.PLAY_STORED, None, None
        case Phase.CARD_RESOLUTION if state.pending_card is not None:
            malus = card_of(state.rules, state.pending_card.card).kind == "malus"
            return (DecisionKind.RESOLVE_MALUS if malus else DecisionKind.RESOLVE_BONUS), card, None
        case Phase.MOVEMENT:
            return DecisionKind.MOVE, None, None
        case Phase.ATTACK:
            return DecisionKind.DECLARE_ATTACKS, None, None
        case Phase.DICE_RESOLUTION if attack is None:
            return DecisionKind.FINISH_TURN, None, None
        case Phase.DICE_RESOLUTION:
            return (DecisionKind.APPLY_ROLL if state.last_roll else DecisionKind.ROLL), None, attack
    raise ValueError(f"nobody can decide in phase {state.phase.value}")  # a transient phase never rests
