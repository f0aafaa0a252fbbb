"""Presence: which seats have a socket open, since when a seat is away, and when it counts as abandoned.

A seat is present while at least one of its sockets is open; a bot seat always is. When a
seat's last socket closes the server notes the time; once the seat has been away
``abandon_after`` seconds *and* it is that seat's decision, the other seat may claim the
win (an engine ``CLAIM_VICTORY``), or keep waiting. Everything here lives in memory: after a
restart every human seat counts as away from the moment its match was loaded, so a restart
never makes a seat claimable at once.

Across several server processes (docs/deploy.md) a seat is present while it has a socket on
this process *or* another live process says it holds one (`remote`, fed by the bus through
`Timekeeper`). Those reports expire unless their process renews them: a dead process cannot
keep a seat present. When a seat's last connection anywhere goes, its ``away_since`` is the
time this process learns it.
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
    remote: dict[Side, dict[str, float]] = field(default_factory=dict)  # seat -> other process -> last report

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
        """A socket of ``seat`` closed at ``now``; True when the seat is away now (its last connection anywhere)."""
        left = self.sockets.get(seat, 0) - 1
        self.sockets[seat] = max(0, left)
        if left > 0 or seat is self.bot_side:
            return False
        return self._left(seat, now)

    def local(self, seat: Side) -> int:
        """How many sockets ``seat`` has open on this process."""
        return self.sockets.get(seat, 0)

    def present(self, seat: Side) -> bool:
        """Whether ``seat`` has a socket open here or on another live process (a bot seat always has)."""
        return seat is self.bot_side or self.sockets.get(seat, 0) > 0 or bool(self.remote.get(seat))

    # -- other processes -------------------------------------------------------------

    def held_elsewhere(self, seat: Side, process: str, now: float) -> bool:
        """``process`` reports a socket of ``seat`` at ``now``; True when the seat was away until now."""
        was = self.present(seat)
        self.remote.setdefault(seat, {})[process] = now
        self.seen.add(seat)
        self.away_since.pop(seat, None)
        return not was

    def released_elsewhere(self, seat: Side, process: str, now: float) -> bool:
        """``process`` no longer holds ``seat`` (learnt at ``now``); True when the seat is away now."""
        if self.remote.get(seat, {}).pop(process, None) is None:
            return False
        return self._left(seat, now)

    def expire(self, before: float, now: float) -> bool:
        """Forget reports older than ``before`` (their process fell silent); True when a seat went away."""
        changed = False
        for seat, reports in self.remote.items():
            stale = [process for process, at in reports.items() if at < before]
            for process in stale:
                del reports[process]
            if stale and self._left(seat, now):
                changed = True
        return changed

    def _left(self, seat: Side, now: float) -> bool:
        if self.present(seat) or seat in self.away_since:
            return False
        self.away_since[seat] = now
        return True

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
