"""The match service's timekeeper: clocks, presence and abandoned-seat claims of loaded matches.

Kept apart from `MatchService` (which owns the path every action takes) so that the part of
the service about time reads on its own. The service calls in at a few points: when a match
is taken into memory (`equip`), when a socket joins or leaves (`arrived`, `departed`), before
and after each action (`flag_if_out_of_time`, `elapsed_ms`, `restart_clock`) and to vet a
match action a client sends (`match_action_problem`). One watcher task per loaded live
match sleeps until the running clock runs out or an absent seat becomes claimable,
whichever comes first, and is woken by every change (docs/server.md).

With several processes (a `Replication`), presence is shared on the bus: a process publishes
a ``presence`` event when its socket count for a seat goes 0→1 or 1→0, and once per sweep
(`presence_heartbeat`) a ``presence.held`` event listing every (match, seat) it holds; the
reports of a process not heard for ``3 × sweep_seconds`` expire.
"""

from __future__ import annotations

import asyncio
import logging
from typing import TYPE_CHECKING, Any

from engine import Action, Side, Timeout, match_actions

from .clocks import Clock
from .match import Match, Viewer
from .presence import Presence
from .protocol import Ack, ClockUpdate, ErrorCode, PresenceUpdate, Reject, encode
from .senders import sender_problem

if TYPE_CHECKING:  # the service holds its timekeeper
    from .matches import MatchService

__all__ = ["Timekeeper"]

HELD = "presence.held"  # the periodic event listing every (match, seat) a process holds
EXPIRE_AFTER = 3  # sweeps without a word from a process before its seats stop counting

log = logging.getLogger("taktik.matches")


class Timekeeper:
    """Clocks, presence and claims for the matches of one `MatchService`."""

    def __init__(self, service: MatchService, clock: Clock) -> None:
        self._service = service
        self.clock = clock
        service.event_handlers["presence"] = self._heard_presence
        service.event_handlers[HELD] = self._heard_held

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
        seat, presence = viewer.seat, match.presence
        if seat is None or presence is None:
            return False
        first_here = presence.local(seat) == 0
        away = presence.arrive(seat)
        if first_here:
            self._publish(match, seat, connected=True)
        if away:
            self._presence_changed(match, but=viewer)
        return away

    def departed(self, match: Match, viewer: Viewer) -> None:
        """A socket left ``match``; tell everyone when that was its seat's last."""
        seat, presence = viewer.seat, match.presence
        if seat is None or presence is None:
            return
        away = presence.depart(seat, self.clock.now())
        if presence.local(seat) == 0:
            self._publish(match, seat, connected=False)
        if away:
            self._presence_changed(match)

    # -- presence on other processes -------------------------------------------------

    def _origin(self) -> str | None:
        replication = self._service.replication
        return None if replication is None else replication.origin

    def _publish(self, match: Match, seat: Side, *, connected: bool) -> None:
        origin = self._origin()
        if origin is not None and seat is not match.bot_side:
            self._service.publish_event(match.id, "presence",
                                        {"process": origin, "seat": seat.value, "connected": connected})

    def presence_heartbeat(self, interval: float) -> None:
        """Once per sweep: list the seats this process holds, and forget processes silent for 3 sweeps."""
        origin = self._origin()
        if origin is None:
            return
        held = sorted([match.id, seat.value] for match in self._service.live_matches() if match.presence
                      for seat in (Side.ATTACKER, Side.DEFENDER)
                      if seat is not match.bot_side and match.presence.local(seat) > 0)
        self._service.publish_event("", HELD, {"process": origin, "seats": held})
        self.expire_presence(self.clock.now() - EXPIRE_AFTER * interval)

    def expire_presence(self, before: float) -> None:
        """Drop the reports of other processes last heard before ``before`` (they died, or lost the bus)."""
        now = self.clock.now()
        for match in self._service.live_matches():
            if match.presence is not None and match.presence.expire(before, now):
                self._presence_changed(match)

    def _heard_presence(self, match_id: str, data: dict[str, Any]) -> None:
        match = self._service.loaded(match_id)
        process, seat, connected = data.get("process"), data.get("seat"), data.get("connected")
        if match is None or match.presence is None or not isinstance(process, str) or not isinstance(seat, str) \
                or seat not in Side.__members__:
            return
        side, now = Side(seat), self.clock.now()
        if connected is True:
            self._remote_changed(match, match.presence.held_elsewhere(side, process, now))
        elif connected is False:
            self._remote_changed(match, match.presence.released_elsewhere(side, process, now))

    def _heard_held(self, _match_id: str, data: dict[str, Any]) -> None:
        process, seats = data.get("process"), data.get("seats")
        if not isinstance(process, str) or not isinstance(seats, list):
            return
        listed = {(pair[0], pair[1]) for pair in seats if isinstance(pair, list) and len(pair) == 2}
        now = self.clock.now()
        for match in self._service.live_matches():
            presence = match.presence
            if presence is None:
                continue
            changed = False
            for side in (Side.ATTACKER, Side.DEFENDER):
                if (match.id, side.value) in listed:
                    changed |= presence.held_elsewhere(side, process, now)
                else:  # the full list: a seat it no longer names, it no longer holds
                    changed |= presence.released_elsewhere(side, process, now)
            self._remote_changed(match, changed)

    def _remote_changed(self, match: Match, changed: bool) -> None:
        if changed:
            self._presence_changed(match)
            self.start_clock(match)

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
        if isinstance(outcome, Reject) and outcome.code == "stale_version":
            return  # another process holding the match flagged it (or saw an action) first: caught up, timing on
        if isinstance(outcome, Reject):  # cannot happen while the engine lists it; never spin on it
            log.error("match %s: the timeout of %s was refused (%s); its clock stops", match.id, runner.value,
                      outcome.reason)
            clock.since = None

    def match_action_problem(self, match: Match, seat: Side, action: Action) -> tuple[ErrorCode, str] | None:
        """What the server adds to the engine for a match action sent by ``seat`` (None: the engine decides)."""
        if isinstance(action, Timeout):
            return "forbidden", "only the server says when time runs out"
        problem = sender_problem(match.state, seat, action)
        if problem is not None:
            return problem
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
                if wake:
                    waits = [asyncio.ensure_future(match.changed.wait()),
                             asyncio.ensure_future(self.clock.sleep_until(min(wake)))]
                    try:
                        await asyncio.wait(waits, return_when=asyncio.FIRST_COMPLETED)
                    finally:
                        for waiting in waits:
                            waiting.cancel()
                else:  # nothing timed: only a change can matter (this wakes once per action, so no tasks)
                    await match.changed.wait()
                if match.running is None:  # no clock runs out: only the claims can have changed
                    self._update_claims(match)
                else:
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
