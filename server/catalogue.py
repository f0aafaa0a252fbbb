"""The live game's catalogue: what every card says and what every unit type is worth.

``GET /api/cards``  every shipped card (tactic, bonus, malus) with its name, kind, text and warning.
A match played with its own cards (a variant, an uploaded card file) sends those in its
`Welcome` (`card_info`), so the client reads them from the match, not from here.
``GET /api/units``  the unit table (full-strength HP, movement, range, damage, VP, tags),
so the board can mark damaged units.

Both are fixed for the life of the process (they are the engine's rules data), so each is
encoded once.
"""

from __future__ import annotations

from functools import cache

import msgspec
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

from engine.data import CARDS, UNITS, CardDef

__all__ = ["ROUTES", "CardInfo", "UnitInfo", "card_info"]


class CardInfo(msgspec.Struct, frozen=True, kw_only=True):
    """What a player needs to read a card."""

    id: str
    name: str
    kind: str  # bonus | malus | tactic
    card_class: str = msgspec.field(name="class")
    category: str
    text: str
    timing: str
    cancel_power: str
    window: str | None
    side: str | None
    options: tuple[str, ...] = ()  # what a player chooses between when playing it (`params.option`)
    warning: str | None = None  # where the card's text says more than its rules do: shown to players


def card_info(card: CardDef) -> CardInfo:
    """What a player reads of ``card``."""
    return CardInfo(
        id=card.id, name=card.name, kind=card.kind, card_class=card.card_class, category=card.category,
        text=card.text, timing=card.timing, cancel_power=card.cancel_power,
        window=card.window.value if card.window is not None else None, side=card.side, options=card.options,
        warning=card.warning,
    )


class UnitInfo(msgspec.Struct, frozen=True, kw_only=True):
    """One row of the unit table."""

    hp: int
    movement_mp: int
    range: int
    damage: int
    vp: int
    tags: tuple[str, ...]


_ENCODER = msgspec.json.Encoder()


@cache
def _cards_json() -> bytes:
    return _ENCODER.encode([card_info(c) for c in CARDS.values()])


@cache
def _units_json() -> bytes:
    units = {kind.value: UnitInfo(hp=row.hp, movement_mp=row.movement_mp, range=row.range, damage=row.damage,
                                  vp=row.vp, tags=row.tags) for kind, row in UNITS.items()}
    return _ENCODER.encode(units)


async def cards(request: Request) -> Response:
    return Response(_cards_json(), media_type="application/json", headers={"Cache-Control": "no-cache"})


async def units(request: Request) -> Response:
    return Response(_units_json(), media_type="application/json", headers={"Cache-Control": "no-cache"})


ROUTES: list[Route] = [
    Route("/api/cards", cards, methods=["GET"]),
    Route("/api/units", units, methods=["GET"]),
]
