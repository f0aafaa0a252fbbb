"""Rule page: tactics in reaction windows (PLAY_TACTIC, PASS_REACTION; rules §9)."""

from __future__ import annotations

from msgspec.structs import replace

from ..actions import Action, PassReaction, PlayTactic
from ..cards.effects import add_card_effects
from ..cards.game import card_of, game_card
from ..cards.hooks import can_play_tactic
from ..cards.instants import InstantPlay, apply_instants
from ..combat.queue import advance_queue, attack_valid, cancel_pending
from ..combat.roll import compute_roll
from ..errors import IllegalAction
from ..flow.windows import has_marked, reaction_windows, tactic_plays
from ..state import Event, GameState, ReactionMark, player_of, with_player
from ..types import EventKind, Phase, Side

_PASS = PassReaction()


def _offer_tactics(state: GameState) -> list[Action]:
    assert state.to_act is not None
    return list(tactic_plays(state, state.to_act))


def _tactic_problem(state: GameState, side: Side, action: PlayTactic) -> str:
    """The most specific reason ``action`` is not among ``side``'s tactic plays."""
    card = game_card(state.rules, action.card_id)
    if card is None or card.kind != "tactic":
        return f"{action.card_id} is not a tactic card"
    if action.card_id not in player_of(state, side).tactics:
        return f"{card.name} is not in your hand"
    windows = reaction_windows(state)
    if card.window not in {w.window for w in windows}:
        names = ", ".join(w.window.value for w in windows) or "none"
        return f"{card.name} is played in {card.window.value if card.window else '?'}; open windows: {names}"
    role = "active" if side is state.active else "reacting"
    if card.side not in (role, "either"):
        return f"{card.name} is for the {card.side} player; you are the {role} player"
    if not can_play_tactic(state, side):
        return "an effect forbids you to play tactics now"
    if has_marked(state, side, windows[0].instance):
        return "you have already played or passed in this window"
    return f"{card.name} cannot be aimed at targets={list(action.targets)} params={action.params}"


def _apply_tactic(state: GameState, action: PlayTactic) -> GameState:
    side = state.to_act
    assert side is not None
    if action not in tactic_plays(state, side):
        raise IllegalAction(_tactic_problem(state, side, action), "cannot_play_tactic")
    card = card_of(state.rules, action.card_id)
    instance = reaction_windows(state)[0].instance
    player = player_of(state, side)
    hand = tuple(t for t in player.tactics if t != action.card_id)
    state = with_player(state, replace(player, tactics=hand, played_tactics=(*player.played_tactics, action.card_id)))
    state, _ = add_card_effects(state, card, side, action.targets, action.params.quadrant, action.params.option)
    event = Event(
        kind=EventKind.TACTIC_PLAYED,
        side=side,
        card=action.card_id,
        unit=action.targets[0] if action.targets else None,
        detail=action.params.quadrant.value if action.params.quadrant else None,
    )
    state = replace(
        state,
        reactions=(*state.reactions, ReactionMark(instance=instance, side=side, played=True)),
        events=(*state.events, event),
    )
    state = apply_instants(
        state, card, InstantPlay(side=side, targets=action.targets, params=action.params), action.params.option
    )
    return _recheck_pending(state)


def _recheck_pending(state: GameState) -> GameState:
    """After a tactic in DICE_RESOLUTION: cancel an attack made invalid, else recompute its roll."""
    if state.phase is not Phase.DICE_RESOLUTION or state.pending_attack is None:
        return state
    if not attack_valid(state, state.pending_attack):
        return advance_queue(cancel_pending(state, "cancelled by a tactic"))
    if state.last_roll is not None:
        roll = compute_roll(state, state.last_roll.natural)
        if roll != state.last_roll:
            event = Event(kind=EventKind.ROLL_CHANGED, side=state.active, value=roll.modified, detail=roll.outcome)
            state = replace(state, last_roll=roll, events=(*state.events, event))
    return state


def _offer_pass(state: GameState) -> list[Action]:
    return [_PASS]


def _apply_pass(state: GameState, action: PassReaction) -> GameState:
    side = state.to_act
    windows = reaction_windows(state)
    if side is None or side is state.active or not windows:
        raise IllegalAction("PASS_REACTION is only for the reacting player holding priority", "no_priority")
    event = Event(kind=EventKind.REACTION_PASSED, side=side, detail=windows[0].window.value)
    mark = ReactionMark(instance=windows[0].instance, side=side, played=False)
    return replace(state, reactions=(*state.reactions, mark), events=(*state.events, event))


OFFERS = {PlayTactic: _offer_tactics, PassReaction: _offer_pass}
APPLY = {PlayTactic: _apply_tactic, PassReaction: _apply_pass}
