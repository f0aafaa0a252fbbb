"""Rematch: after a game one seat offers, the other accepts or declines; a new match with sides swapped.

The new match has the same config and clock with a fresh seed (and commitment) and the
seats swapped: each player's existing token opens the *other* side there, so no new secret
is made or sent; each socket is told the new match id and the seat its token opens. A bot
accepts at once (and plays the other side), and so does a hotseat match, whose one client
holds both seats. An offer lives in memory only.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Literal

import msgspec
from msgspec.structs import replace

from engine import Side

if TYPE_CHECKING:  # the match holds its `Rematch`: importing these at run time would be circular
    from .creation import Creator
    from .match import Match

__all__ = ["Rematch", "RematchError", "RematchView", "answer_rematch", "tell_rematch"]

Choice = Literal["offer", "accept", "decline"]

_PEOPLE: dict[str, Literal["human", "hotseat", "outside_bot"]] = {
    "human": "human", "hotseat": "hotseat", "outside_bot": "outside_bot"}
"""The mode a rematch between people keeps, by the stored mode (a bot match's rematch is a bot match)."""


class RematchView(msgspec.Struct, frozen=True, kw_only=True):
    """The rematch as one socket sees it (docs/protocol.md)."""

    offered_by: Side | None
    declined_by: Side | None
    match_id: str | None  # the new match, once accepted
    seat: Side | None  # the seat this socket's token opens in the new match (None: spectator, or not yet)


@dataclass
class Rematch:
    """Where the rematch of one finished match stands."""

    offered_by: Side | None = None
    declined_by: Side | None = None
    match_id: str | None = None

    @property
    def started(self) -> bool:
        """Whether anyone has offered (or declined, or accepted) yet."""
        return self.offered_by is not None or self.declined_by is not None or self.match_id is not None

    def view(self, seat: Side | None) -> RematchView:
        swapped = seat.other if seat is not None and self.match_id is not None else None
        return RematchView(offered_by=self.offered_by, declined_by=self.declined_by, match_id=self.match_id,
                           seat=swapped)


class RematchError(ValueError):
    """The choice is not possible now; ``code`` is the protocol's reject code."""

    def __init__(self, code: Literal["bad_message", "forbidden"], reason: str) -> None:
        super().__init__(reason)
        self.code: Literal["bad_message", "forbidden"] = code
        self.reason = reason


def tell_rematch(match: Match) -> None:
    """Send every socket of ``match`` the rematch as its seat sees it (and fresh states from now on)."""
    from .protocol import RematchUpdate, encode  # the protocol names `RematchView`: a top import would loop

    match.refresh()
    for viewer in list(match.viewers):
        viewer.outbox.put_reply(encode(RematchUpdate(rematch=match.rematch.view(viewer.seat))))


async def answer_rematch(creator: Creator, match: Match, seat: Side | None, choice: Choice) -> bool:
    """Apply ``seat``'s ``choice`` to ``match``'s rematch; True when something changed.

    Raises `RematchError` when the choice is not possible now. Creates the new match on an
    accepted offer (immediately for a bot or hotseat match).
    """
    if seat is None:
        raise RematchError("forbidden", "spectators cannot ask for a rematch")
    if match.status != "over":
        raise RematchError("bad_message", "a rematch can be offered once the game is over")
    state = match.rematch
    if state.match_id is not None:
        raise RematchError("bad_message", f"the rematch is already being played: match {state.match_id}")
    if choice == "offer":
        if state.offered_by is seat:
            return False
        if state.offered_by is seat.other:  # both offered: that is an agreement
            return await _accept(creator, match)
        match.rematch = Rematch(offered_by=seat)
        if match.bot_side is not None or match.row.mode == "hotseat":
            return await _accept(creator, match)
        return True
    if state.offered_by is not seat.other:
        raise RematchError("bad_message", f"{seat.other.value} has not offered a rematch")
    if choice == "decline":
        match.rematch = Rematch(declined_by=seat)
        return True
    return await _accept(creator, match)


async def _accept(creator: Creator, match: Match) -> bool:
    from .creation import NewMatch  # here, not at the top: creation imports the match, which holds a Rematch

    bot_side = match.bot_side
    new = NewMatch(
        config=replace(match.config, seed=None),
        mode="bot" if bot_side is not None else _PEOPLE.get(match.row.mode, "human"),
        bot_side=bot_side.other if bot_side is not None else None,
        bot_policy=match.row.bot_policy,
        clock=match.clock.spec if match.clock is not None else None,
        token_hashes={side.other: digest for side, digest in match.token_hashes.items()},
    )
    created = await creator.create(new)
    match.rematch = Rematch(offered_by=match.rematch.offered_by, match_id=created.match.id)
    return True
