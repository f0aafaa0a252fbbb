"""Where the rematch of one finished match stands, and what a seat's choice makes of it.

After the game one seat offers, the other accepts or declines; an accepted offer becomes a new
match with the sides swapped (`server.rematches` creates it, stores the change and tells every
socket). This module is the vocabulary and the decision alone, with no I/O: the protocol names
`RematchView`, a `Match` holds a `Rematch`, and both import it from here.
"""

from __future__ import annotations

from typing import Literal

import msgspec
from msgspec.structs import replace

from engine import Side

__all__ = ["Choice", "Rematch", "RematchError", "RematchView", "answered"]

Choice = Literal["offer", "accept", "decline"]

class RematchView(msgspec.Struct, frozen=True, kw_only=True):
    """The rematch as one socket sees it (docs/protocol.md)."""

    offered_by: Side | None
    declined_by: Side | None
    match_id: str | None  # the new match, once accepted
    seat: Side | None  # the seat this socket's token opens in the new match (None: spectator, or not yet)


class Rematch(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """Where the rematch of one finished match stands; stored with the match (`stored`, `from_stored`)."""

    offered_by: Side | None = None
    declined_by: Side | None = None
    match_id: str | None = None  # the new match, once accepted

    @property
    def started(self) -> bool:
        """Whether anyone has offered (or declined, or accepted) yet."""
        return self.offered_by is not None or self.declined_by is not None or self.match_id is not None

    def view(self, seat: Side | None) -> RematchView:
        swapped = seat.other if seat is not None and self.match_id is not None else None
        return RematchView(offered_by=self.offered_by, declined_by=self.declined_by, match_id=self.match_id,
                           seat=swapped)

    def stored(self) -> str | None:
        """The text the store keeps (None before anyone chose anything)."""
        return msgspec.json.encode(self).decode() if self.started else None

    @classmethod
    def from_stored(cls, text: str | None) -> Rematch:
        return cls() if text is None else msgspec.json.decode(text, type=cls)


class RematchError(ValueError):
    """The choice is not possible now; ``code`` is the protocol's reject code."""

    def __init__(self, code: Literal["bad_message", "forbidden"], reason: str) -> None:
        super().__init__(reason)
        self.code: Literal["bad_message", "forbidden"] = code
        self.reason = reason


def answered(rematch: Rematch, seat: Side | None, choice: Choice, *, over: bool,
             answers_itself: bool) -> tuple[Rematch, bool] | None:
    """The rematch after ``seat``'s ``choice``, and whether that makes a new match; None: nothing changes.

    ``over``: the game has ended. ``answers_itself``: the other seat accepts any offer at once
    (a bot, or the one person of a hotseat match). An offer both seats made is an agreement.
    Raises `RematchError` when the choice is not possible now. An accepted rematch comes back
    without its ``match_id``: the caller creates the match and sets it.
    """
    if seat is None:
        raise RematchError("forbidden", "spectators cannot ask for a rematch")
    if not over:
        raise RematchError("bad_message", "a rematch can be offered once the game is over")
    if rematch.match_id is not None:
        raise RematchError("bad_message", f"the rematch is already being played: match {rematch.match_id}")
    if choice == "offer":
        if rematch.offered_by is seat:
            return None
        if rematch.offered_by is seat.other:
            return rematch, True
        offered = Rematch(offered_by=seat)
        return offered, answers_itself
    if rematch.offered_by is not seat.other:
        raise RematchError("bad_message", f"{seat.other.value} has not offered a rematch")
    if choice == "decline":
        return Rematch(declined_by=seat), False
    return replace(rematch, declined_by=None), True
