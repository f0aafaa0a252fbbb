"""The common deck: drawing (recycling the discard pile) and the end-of-turn shuffle (§7.6)."""

from __future__ import annotations

from msgspec.structs import replace

from ..rng import shuffle
from ..state import Event, GameState
from ..types import EventKind

__all__ = ["card_available", "draw_top", "shuffle_draw_pile"]


def card_available(state: GameState) -> bool:
    """True when a card can be drawn: the draw pile or the discard pile is not empty."""
    return bool(state.draw_pile or state.discard_pile)


def draw_top(state: GameState) -> tuple[GameState, str]:
    """Take the top card; first recycle the discard pile (shuffled) if the draw pile is empty."""
    if not state.draw_pile:
        pile, rng = shuffle(state.discard_pile, state.rng)
        event = Event(kind=EventKind.DECK_RECYCLED, value=len(pile))
        state = replace(state, draw_pile=pile, discard_pile=(), rng=rng, events=(*state.events, event))
    card = state.draw_pile[0]
    return replace(state, draw_pile=state.draw_pile[1:]), card


def shuffle_draw_pile(state: GameState) -> GameState:
    """END_TURN step 4: shuffle the remaining draw pile (``n - 1`` rng steps)."""
    pile, rng = shuffle(state.draw_pile, state.rng)
    return replace(state, draw_pile=pile, rng=rng)
