"""The match service's timekeeper: clocks, presence and abandoned-seat claims of loaded matches.

Kept apart from `MatchService` (which owns the path every action takes) so that the part of
the service about time reads on its own. The service calls in at a few points: when a match
is taken into memory (`equip`), when a socket joins or leaves (`arrived`, `departed`), before
and after each action (`flag_if_out_of_time`, `elapsed_ms`, `restart_clock`) and to vet a
match action a client sends (`match_action_problem`). One watcher task per loaded live
match sleeps until the running clock runs out or an absent seat becomes claimable,
whichever comes first, and is woken by every change (docs/server.md).
"""

from __future__ import annotations

import asyncio
import logging
from typing import TYPE_CHECKING, Any

from engine import Action, Side, Timeout, acting_side, match_actions

from .clocks import Clock
from .match import Match, Viewer
from .presence import Presence
from .protocol import Ack, ClockUpdate, ErrorCode, PresenceUpdate, Reject, encode

if TYPE_CHECKING:  # the service holds its timekeeper
    from .matches import MatchService

__all__ = ["Timekeeper"]

log = logging.getLogger("taktik.matches")


class Timekeeper:
    """Clocks, presence and claims for the matches of one `MatchService`."""

    def __init__(self, service: MatchService, clock: Clock) -> None:
        self._service = service
        self.clock = clock

    def equip(self, match: Match) -> None:
        """Give a match just taken into memory its time source, presence and watcher."""
        service = self._service
        match.timer = self.clock
        match.presence = Presence(bot_side=match.bot_side, abandon_after=service.limits.abandon_after,
                                  since=self.clock.now())
        open_seat = match.row.open_seat
        match.open_seat = Side(open_seat) if open_seat is not None and open_seat in Side.__members__ else None
        if match.version > 0 and match.open_seat is None:  # a game under way: its clocks run again at once
            match.presence.seen.update((Side.ATTACKER, Side.DEFENDER))
        self.start_clock(match)
        if match.watcher is None and match.status == "live" and not service.closing:
            match.watcher = asyncio.create_task(self._watch(match))

    # -- presence --------------------------------------------------------------------

    def arrived(self, match: Match, viewer: Viewer) -> bool:
        """A socket joined ``match``; True when its seat was away until now (then everyone was told)."""
        if viewer.seat is None or match.presence is None or not match.presence.arrive(viewer.seat):
            return False
        self._presence_changed(match, but=viewer)
        return True

    def departed(self, match: Match, viewer: Viewer) -> None:
        """A socket left ``match``; tell everyone when that was its seat's last."""
        if viewer.seat is not None and match.presence is not None and match.presence.depart(viewer.seat,
                                                                                             self.clock.now()):
            self._presence_changed(match)

    def seat_joined(self, match: Match) -> None:
        """An open challenge's free seat was taken: the match is an ordinary one now."""
        match.open_seat = None
        match.refresh()
        self.start_clock(match)
        self._service.fan_out(match)

    def _presence_changed(self, match: Match, but: Viewer | None = None) -> None:
        match.refresh()
        assert match.presence is not None
        self._tell(match, encode(PresenceUpdate(presence=match.presence.view(match.claim_at()))), but)
        self._update_claims(match)

    def _update_claims(self, match: Match) -> None:
        """Tell every socket when the claim of an absent seat becomes allowed, or stops being allowed."""
        claimable = match.claimable(self.clock.now())
        if claimable != match.claim_open:
            match.claim_open = claimable
            match.refresh()
            self._service.fan_out(match)

    def _tell(self, match: Match, text: str, but: Viewer | None = None) -> None:
        for viewer in list(match.viewers):
            if viewer is not but:
                viewer.outbox.put_reply(text)

    # -- clocks ----------------------------------------------------------------------

    def _clock_runs(self, match: Match) -> bool:
        presence = match.presence
        return (match.clock is not None and match.status == "live" and match.open_seat is None
                and presence is not None and presence.everyone_seen)

    def start_clock(self, match: Match) -> None:
        """Start the clocks once both seats have connected (they stand where the log left them)."""
        clock = match.clock
        if clock is None or clock.since is not None or not self._clock_runs(match):
            return
        clock.since = self.clock.now()
        match.refresh()
        self._tell(match, encode(ClockUpdate(clock=clock.view(match.running, clock.since))))

    def restart_clock(self, match: Match, now: float) -> None:
        """After an action: the clock of the seat now to act runs from ``now`` (none once the game is over)."""
        if match.clock is not None:
            match.clock.since = now if self._clock_runs(match) else None

    def elapsed_ms(self, match: Match, action: Action, now: float) -> int | None:
        """The clock time ``action`` took, for its log row (None for a match without a clock)."""
        clock, runner = match.clock, match.running
        if clock is None:
            return None
        if runner is None:
            return 0
        if isinstance(action, Timeout):
            return clock.remaining[runner]
        return min(clock.elapsed_ms(now), clock.remaining[runner])

    async def flag_if_out_of_time(self, match: Match) -> None:
        """Under the match lock: append TIMEOUT when the running seat's time is gone (at exactly 0 too)."""
        clock, runner = match.clock, match.running
        if clock is None or runner is None or clock.elapsed_ms(self.clock.now()) < clock.remaining[runner]:
            return
        timeout = clock.timeout(runner)
        outcome = await self._service.apply(match, runner, None, timeout)
        if isinstance(outcome, Reject):  # cannot happen while the engine lists it; never spin on it
            log.error("match %s: the timeout of %s was refused (%s); its clock stops", match.id, runner.value,
                      outcome.reason)
            clock.since = None

    def match_action_problem(self, match: Match, seat: Side, action: Action) -> tuple[ErrorCode, str] | None:
        """What the server adds to the engine for a match action sent by ``seat`` (None: the engine decides)."""
        side = acting_side(match.state, action)
        if isinstance(action, Timeout):
            return "forbidden", "only the server says when time runs out"
        if side is not seat:
            return "forbidden", f"this socket plays {seat.value}; it cannot act for {side.value if side else None}"
        if action in match_actions(match.state) and action not in match.seat_match_actions(seat, self.clock.now()):
            return "forbidden", (f"{seat.value} may claim the win only once {seat.other.value}, to act, has been "
                                 f"away {self._service.limits.abandon_after:g} s")
        return None

    # -- the watcher -----------------------------------------------------------------

    async def _watch(self, match: Match) -> None:
        """Wake when the running clock runs out or an absent seat becomes claimable; act on it."""
        try:
            while not self._service.closing and match.status == "live":
                match.changed.clear()
                wake = [t for t in (self._deadline(match), self._claim_wake(match)) if t is not None]
                waits: list[asyncio.Future[Any]] = [asyncio.ensure_future(match.changed.wait())]
                if wake:
                    waits.append(asyncio.ensure_future(self.clock.sleep_until(min(wake))))
                try:
                    await asyncio.wait(waits, return_when=asyncio.FIRST_COMPLETED)
                finally:
                    for waiting in waits:
                        waiting.cancel()
                await self._service.shielded(self._on_time(match))
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("the clock watcher of match %s failed", match.id)
        finally:
            match.watcher = None

    def _deadline(self, match: Match) -> float | None:
        return None if match.clock is None else match.clock.deadline(match.running)

    def _claim_wake(self, match: Match) -> float | None:
        return None if match.claim_open else match.claim_at()

    async def _on_time(self, match: Match) -> Ack:
        async with match.lock:
            await self.flag_if_out_of_time(match)
        self._update_claims(match)
        return Ack(seq=0, version=match.version)
