"""The card definition of an instance id, asked at every action that looks at a card.

`cards.py` holds msgspec Structs, so it stays pure Python in the compiled build (setup.py);
`card_of` lives here so that the build compiles it, and `cards.py` re-exports it (import it
from there: this module reads `CARDS`, so `cards.py` imports it last).
"""

from __future__ import annotations

from .cards import CARDS, CardDef

__all__ = ["card_of"]


def card_of(instance_id: str) -> CardDef:
    """The definition of a card instance id such as ``"air_cover#2"`` (or a bare card id)."""
    return CARDS[instance_id.partition("#")[0]]
