"""Presence: which seats have a socket open, since when a seat is away, and when it counts as abandoned.

A seat is present while at least one of its sockets is open; a bot seat always is. When a
seat's last socket closes the server notes the time; once the seat has been away
``abandon_after`` seconds *and* it is that seat's decision, the other seat may claim the
win (an engine ``CLAIM_VICTORY``), or keep waiting. Everything here lives in memory: after a
restart every human seat counts as away from the moment its match was loaded, so a restart
never makes a seat claimable at once.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import msgspec

from engine import Side

__all__ = ["Presence", "PresenceView"]


class PresenceView(msgspec.Struct, frozen=True, kw_only=True):
    """Who is connected, as every socket sees it (docs/protocol.md)."""

    attacker: bool
    defender: bool
    claim_at: float | None  # when the seat not to act may claim the absent seat to act; None: no claim coming


@dataclass
class Presence:
    """The seats' sockets and absences in one match (times are `Clock` times)."""

    bot_side: Side | None
    abandon_after: float
    since: float  # when the match was loaded: a seat never seen counts as away from then
    sockets: dict[Side, int] = field(default_factory=dict)
    away_since: dict[Side, float] = field(default_factory=dict)
    seen: set[Side] = field(default_factory=set)

    def __post_init__(self) -> None:
        for side in (Side.ATTACKER, Side.DEFENDER):
            if side is self.bot_side:
                self.seen.add(side)
            else:
                self.away_since[side] = self.since

    def arrive(self, seat: Side) -> bool:
        """A socket of ``seat`` opened; True when the seat was away until now."""
        self.seen.add(seat)
        self.sockets[seat] = self.sockets.get(seat, 0) + 1
        return self.away_since.pop(seat, None) is not None

    def depart(self, seat: Side, now: float) -> bool:
        """A socket of ``seat`` closed at ``now``; True when that was its last one."""
        left = self.sockets.get(seat, 0) - 1
        self.sockets[seat] = max(0, left)
        if left > 0 or seat is self.bot_side:
            return False
        self.away_since[seat] = now
        return True

    def present(self, seat: Side) -> bool:
        """Whether ``seat`` has a socket open (a bot seat always has)."""
        return seat is self.bot_side or self.sockets.get(seat, 0) > 0

    @property
    def everyone_seen(self) -> bool:
        """Both seats have connected at least once (a bot seat counts as connected)."""
        return len(self.seen) == 2

    def claim_at(self, to_act: Side | None) -> float | None:
        """When the seat not to act may claim the absent seat ``to_act``'s win; None if it is present."""
        if to_act is None or self.present(to_act) or to_act not in self.away_since:
            return None
        return self.away_since[to_act] + self.abandon_after

    def view(self, claim_at: float | None) -> PresenceView:
        """What every socket is told (``claim_at`` as the match computes it)."""
        return PresenceView(attacker=self.present(Side.ATTACKER), defender=self.present(Side.DEFENDER),
                            claim_at=claim_at)
