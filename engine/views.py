"""`player_view`: the state as one player (or a spectator) may see it (rules §7.6)."""

from __future__ import annotations

from msgspec.structs import replace

from .cards.game import card_of
from .state import HIDDEN, Event, GameState, PlayerState
from .types import Side

__all__ = ["player_view"]


def player_view(state: GameState, player: Side | None) -> GameState:
    """``state`` with everything ``player`` may not see replaced by ``"?"`` (`HIDDEN`).

    Hidden: the opponent's stored bonuses and tactic hand (their counts stay visible), a
    bonus the opponent drew and has not yet played or discarded, the draw-pile order and
    the rng (set to 0). ``player=None`` is a spectator, who sees neither hand. The result
    keeps the `GameState` shape, so views encode, decode and display like states; it is
    not a real position and must not be fed to `reduce`.
    """
    players = (_player_part(state.players[0], player), _player_part(state.players[1], player))
    pending = state.pending_card
    if pending is not None and pending.drawer is not player and card_of(state.rules, pending.card).kind == "bonus":
        pending = replace(pending, card=HIDDEN)
    events = tuple(_event_part(e, player) for e in state.events)
    return replace(
        state,
        players=players,
        pending_card=pending,
        draw_pile=(HIDDEN,) * len(state.draw_pile),
        rng=0,
        events=events,
    )


def _player_part(part: PlayerState, viewer: Side | None) -> PlayerState:
    if part.side is viewer:
        return part
    return replace(part, stored=(HIDDEN,) * len(part.stored), tactics=(HIDDEN,) * len(part.tactics))


def _event_part(event: Event, viewer: Side | None) -> Event:
    if event.private_to is None or event.private_to is viewer:
        return event
    return replace(event, card=HIDDEN)
