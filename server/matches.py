"""The match service: load a match by replaying its log, accept actions, tell every viewer.

This is the whole of the server's game logic, testable without a socket. For one `act`
(server contract, order of work): under the match's lock, a resend of an accepted ``seq``
gets its original answer; then game over, stale version, reused ``seq`` and the sender
(`server.senders`: the seat to act, or the side a match action names) are checked; the
engine alone decides legality (`reduce`); the action and the new state
hash are committed to the store; only then does the match in memory change and every viewer
get its own `player_view`. A bot seat is played by the same path, its choice computed on a
worker thread. With several processes on one PostgreSQL log, `server.replication` keeps
each process's copy in step (the methods under "replication" below).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Callable, Coroutine
from typing import TYPE_CHECKING, Any

import msgspec

from engine import (
    MATCH_ACTION_ORDER,
    RULES_VERSION,
    Action,
    GameConfig,
    IllegalAction,
    InvalidAction,
    Side,
    check_references,
    encode_action,
    legal_actions,
    mix_seed,
    new_game,
    player_view,
    reduce,
    state_hash,
)

from .bots import BotRoster
from .clocks import Clock, MatchClock, SystemClock, decode_spec
from .database import Storage
from .match import Match, Viewer, progress_of
from .protocol import Ack, Act, ErrorCode, MatchStatus, Reject
from .rematch import Rematch
from .senders import replay_row, sender_problem
from .settings import Limits
from .store import ActionRow, MatchRow, StoreConflict, StoreUnavailable
from .timekeeper import Timekeeper

if TYPE_CHECKING:
    from .replication import Replication

__all__ = ["MatchService", "MatchUnavailable", "rebuild"]

log = logging.getLogger("taktik.matches")

Outcome = Ack | Reject


class MatchUnavailable(Exception):
    """The match exists but not even its starting position can be built."""


def rebuild(row: MatchRow, seats: dict[str, bytes], rows: list[ActionRow]) -> Match:
    """Replay a stored match, checking every stored hash (run this off the event loop).

    A log that stops replaying leaves the match broken at its last good position. A match
    stored under another `RULES_VERSION` is replayed as far as this engine agrees with its
    log and served read-only with status ``other_rules``, never as broken. Raises
    `MatchUnavailable` when the starting position itself cannot be built.
    """
    other_rules = row.rules_version != RULES_VERSION
    try:
        config = msgspec.json.decode(row.config, type=GameConfig)
        state = new_game(config)
    except Exception as err:
        versions = f" ({_versions(row)})" if other_rules else ""
        raise MatchUnavailable(f"cannot build the starting position: {err}{versions}") from None
    match = Match(row=row, config=config, token_hashes={Side(s): h for s, h in seats.items()}, state=state,
                  actions=[], hashes=[], rematch=Rematch.from_stored(row.rematch))
    spec = decode_spec(row.clock) if row.clock is not None else None
    match.clock = MatchClock(spec) if spec is not None else None
    problem: str | None = None
    for expected_ply, logged in enumerate(rows):
        try:
            if logged.ply != expected_ply:
                raise ValueError(f"ply {expected_ply} is missing from the log")
            state, action = replay_row(state, logged)
        except Exception as err:
            problem = f"step {expected_ply}: {err}"
            break
        match.advance(state, action, logged)
    if other_rules:
        shown = "" if problem is None else f"; shown at step {match.version} of {len(rows)}, where the rules part ways"
        match.mark_other_rules(f"{_versions(row)}: read only{shown}")
    elif problem is not None:
        match.mark_broken(problem)
    elif match.status == "live" and row.progress.status == "broken":
        match.mark_broken(row.broken_reason or "marked broken")
    return match


def _versions(row: MatchRow) -> str:
    return f"played under rules version {row.rules_version}; this server plays {RULES_VERSION}"


class MatchService:
    """Loaded matches by id, and everything that happens to them."""

    def __init__(self, db: Storage, limits: Limits, bots: BotRoster | None = None,
                 clock: Clock | None = None) -> None:
        self.db = db
        self.replication: Replication | None = None  # set when several processes share a PostgreSQL log
        self.event_handlers: dict[str, Callable[[str, dict[str, Any]], None]] = {}  # match events from elsewhere
        self.limits = limits
        self.bots = bots or BotRoster()
        self.clock: Clock = clock or SystemClock()
        self.time = Timekeeper(self, self.clock)  # clocks, presence and claims (issue 17)
        self._matches: dict[str, Match] = {}
        self._load_locks: dict[str, asyncio.Lock] = {}
        self._unavailable: dict[str, str] = {}  # matches whose start cannot even be built
        self._inflight: set[asyncio.Task[Any]] = set()
        self._closing = False
        self._janitor: asyncio.Task[None] | None = None
        self._resumer: asyncio.Task[None] | None = None

    def start(self) -> None:
        """Start unloading idle matches and resume every running clock (call from the running event loop)."""
        self._janitor = asyncio.create_task(self._unload_idle())
        self._resumer = asyncio.create_task(self._resume_clocks())

    async def _resume_clocks(self) -> None:
        """Load every live match with a clock, so its clock runs (and can run out) after a restart."""
        try:
            for match_id in await self.db.timed_live():
                with contextlib.suppress(MatchUnavailable):
                    await self.get(match_id)
        except Exception:
            log.exception("could not resume the clocks of live matches")

    async def close(self) -> None:
        """Stop bots, finish every action already being committed; the database stays open."""
        self._closing = True
        tasks = [m.bot_task for m in self._matches.values() if m.bot_task is not None]
        tasks += [m.watcher for m in self._matches.values() if m.watcher is not None]
        if self._janitor is not None:
            tasks.append(self._janitor)
        if self._resumer is not None:
            tasks.append(self._resumer)
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        await asyncio.gather(*self._inflight, return_exceptions=True)

    def loaded(self, match_id: str) -> Match | None:
        """The match if it is in memory (no loading)."""
        return self._matches.get(match_id)

    async def get(self, match_id: str) -> Match | None:
        """The match, loading it by replay on first access; None if there is no such match."""
        match = self._matches.get(match_id)
        if match is not None:
            if self.replication is not None:
                match.wanted = time.monotonic()  # not forgotten while it refreshes...
                await self.replication.refresh(match)
            match.wanted = time.monotonic()  # ...nor while the caller's socket says hello
            return match
        if match_id in self._unavailable:
            raise MatchUnavailable(self._unavailable[match_id])
        lock = self._load_locks.setdefault(match_id, asyncio.Lock())
        async with lock:
            match = self._matches.get(match_id)
            if match is None:
                match = await self._load(match_id)
            if match is None:
                self._load_locks.pop(match_id, None)
                return None
            if match_id not in self._matches:
                self._matches[match_id] = match
                self.time.equip(match)
            match = self._matches[match_id]
        match.wanted = time.monotonic()
        self._play_bot(match)
        return match

    def adopt(self, match: Match) -> None:
        """Take a newly created match into memory."""
        self._matches[match.id] = match
        self.time.equip(match)
        self._play_bot(match)

    async def _load(self, match_id: str) -> Match | None:
        found = await self.db.load(match_id)
        if found is None:
            return None
        row, seats, rows = found
        try:
            match = await asyncio.to_thread(rebuild, row, seats, rows)
        except MatchUnavailable as err:
            self._unavailable[match_id] = str(err)
            if row.progress.status != "broken" and row.rules_version == RULES_VERSION:
                log.error("match %s is broken: %s", match_id, err)
                await self.db.mark_broken(match_id, str(err))
            raise
        if match.status == "broken" and row.progress.status != "broken":
            log.error("match %s is broken: %s", match_id, match.read_only_reason)
            await self.db.mark_broken(match_id, match.read_only_reason or "broken")
        return match

    # -- viewers ---------------------------------------------------------------------

    def join(self, match: Match, viewer: Viewer, address: str | None = None) -> Reject | None:
        """Let ``viewer`` watch ``match`` and queue its first state; a `Reject` if it may not.

        Each seat has ``sockets_per_seat`` places of its own, so spectators can never crowd a
        player out; spectators have ``spectators_per_match`` places, at most
        ``spectators_per_address`` of them from one client ``address`` (when it is known).
        """
        limits = self.limits
        if viewer.seat is not None:
            same = sum(1 for v in match.viewers if v.seat is viewer.seat)
            if same >= limits.sockets_per_seat:
                return Reject(code="rate_limited", reason=f"{viewer.seat.value} already has {same} connections")
        else:
            watching = sum(1 for v in match.viewers if v.seat is None)
            if watching >= limits.spectators_per_match:
                return Reject(code="rate_limited", reason=f"the match already has {watching} spectators")
            if address is not None:
                mine = sum(1 for a in match.spectator_addresses.values() if a == address)
                if mine >= limits.spectators_per_address:
                    return Reject(code="rate_limited", reason=f"your address already watches with {mine} connections")
                match.spectator_addresses[viewer] = address
        match.viewers.add(viewer)
        match.touched = time.monotonic()
        arrived = self.time.arrived(match, viewer)
        viewer.outbox.put_reply(match.welcome(viewer.seat, self.limits.max_message_bytes))
        viewer.outbox.put_state(match.state_text(viewer.seat))
        if arrived:
            self.time.start_clock(match)
        return None

    def leave(self, match: Match, viewer: Viewer) -> None:
        """Stop sending to ``viewer``."""
        if viewer not in match.viewers:
            return
        match.viewers.discard(viewer)
        match.spectator_addresses.pop(viewer, None)
        match.touched = time.monotonic()
        self.time.departed(match, viewer)

    def fan_out(self, match: Match) -> None:
        """Send every socket of ``match`` its state now."""
        self._fan_out(match)

    def _fan_out(self, match: Match) -> None:
        now = self.clock.now()  # one instant for every socket: one encoding per viewer kind
        for viewer in list(match.viewers):
            viewer.outbox.put_state(match.state_text(viewer.seat, now))

    # -- actions ---------------------------------------------------------------------

    async def submit(self, match: Match, seat: Side, act: Act) -> Outcome:
        """Play ``act`` for ``seat``; the answer for the sender (`Ack` once durable, or `Reject`)."""
        return await self._shielded(self._submit(match, seat, act.seq, act.version, act.action))

    @property
    def closing(self) -> bool:
        """The server is shutting down: start nothing new."""
        return self._closing

    async def apply(self, match: Match, seat: Side, seq: int | None, action: Action) -> Outcome:
        """Apply ``action`` for ``seat`` now; the caller holds ``match.lock`` (the timekeeper's TIMEOUT)."""
        return await self._apply(match, seat, seq, action, encode_action(action))

    async def shielded(self, work: Coroutine[Any, Any, Outcome]) -> Outcome:
        """Run ``work`` to its end even if the caller is cancelled."""
        return await self._shielded(work)

    async def _shielded(self, work: Coroutine[Any, Any, Outcome]) -> Outcome:
        # Once started, an action runs to its end even if the socket that sent it goes away:
        # a commit must never be left without its in-memory update.
        task = asyncio.ensure_future(work)
        self._inflight.add(task)
        task.add_done_callback(self._inflight.discard)
        return await asyncio.shield(task)

    async def _submit(self, match: Match, seat: Side, seq: int | None, version: int, action: Action) -> Outcome:
        async with match.lock:
            await self.time.flag_if_out_of_time(match)  # the clock is the judge: an act after the flag loses
            payload = encode_action(action)
            prior = match.sent_before(seat, seq)
            if prior is not None and prior == (version, payload):
                return Ack(seq=seq or 0, version=prior[0] + 1)
            problem = self._check(match, seat, seq, version, prior is not None, action)
            if problem is not None:
                return _reject(problem[0], problem[1], seq)
            return await self._apply(match, seat, seq, action, payload)

    def _check(self, match: Match, seat: Side, seq: int | None, version: int,
               seq_used: bool, action: Action) -> tuple[ErrorCode, str] | None:
        if match.status == "broken":
            return "forbidden", f"this match is broken and read-only ({match.read_only_reason})"
        if match.status == "other_rules":
            return "forbidden", f"this match was {_versions(match.row)}, so it is read-only"
        if match.status == "over":
            return "game_over", "the game is over"
        if version != match.version:
            return "stale_version", f"the match is at version {match.version}, not {version}"
        if seq is not None and (seq_used or seq <= match.last_seq.get(seat, 0)):
            return "bad_message", (f"seq {seq} was already used; the last accepted seq of {seat.value} is "
                                   f"{match.last_seq.get(seat, 0)}")
        if type(action) in MATCH_ACTION_ORDER:
            return self.time.match_action_problem(match, seat, action)
        return sender_problem(match.state, seat, action)

    async def _apply(self, match: Match, seat: Side, seq: int | None, action: Action, payload: str) -> Outcome:
        now = self.clock.now()
        elapsed = self.time.elapsed_ms(match, action, now)
        try:
            check_references(action, match.state)
            state = reduce(match.state, action)
            digest = state_hash(state)
            # Computed now, before the commit, when a socket or the bot here will be sent them:
            # an engine failure then still changes nothing, and the engine's per-board caches are
            # warm. With several processes the seat to act is often on another one, which lists
            # them itself: then nobody here needs them, and `Match.legal` lists them if one asks.
            legal = tuple(legal_actions(state)) if self._wants_legal(match, state.to_act) else None
        except InvalidAction as err:
            return _reject("bad_message", str(err), seq)
        except IllegalAction as err:
            return _reject("illegal_action", err.reason, seq)
        except Exception:
            log.exception("engine failure in match %s on %s", match.id, payload)
            return _reject("internal_error", "the engine failed on this action; nothing changed", seq)
        row = ActionRow(ply=match.version, seat=seat.value, client_seq=seq, action=payload, state_hash=digest,
                        elapsed_ms=elapsed)
        status: MatchStatus = "over" if state.to_act is None else "live"
        try:
            await self.db.append(match.id, row, progress_of(state, row.ply + 1, status))
        except StoreUnavailable as err:
            log.warning("cannot log action %d of match %s: %s", row.ply, match.id, err)
            return _reject("unavailable", "the match database cannot be reached now; nothing was acknowledged, "
                           "send the action again with the same seq", seq)
        except Exception as err:
            if isinstance(err, StoreConflict) and self.replication is not None:
                return await self._lost_race(match, seat, seq, row.ply, payload)
            log.exception("could not log action %d of match %s", row.ply, match.id)
            if not await self._logged_anyway(match, row):
                return _reject("internal_error", "the action could not be saved; nothing changed", seq)
        match.advance(state, action, row, legal)
        self.time.restart_clock(match, now)
        self._fan_out(match)
        if self.replication is not None:
            self.replication.committed(match, row)
        self._play_bot(match)
        return Ack(seq=seq or 0, version=match.version)

    @staticmethod
    def _wants_legal(match: Match, to_act: Side | None) -> bool:
        """Whether the legal actions of the next position will be sent or played here (``to_act`` is to act)."""
        return to_act is not None and (to_act is match.bot_side or any(v.seat is to_act for v in match.viewers))

    async def _logged_anyway(self, match: Match, row: ActionRow) -> bool:
        """After a failed append, find out what the log holds at ``row.ply``."""
        try:
            stored = await self.db.action_at(match.id, row.ply)
        except Exception:
            log.exception("cannot read back match %s", match.id)
            stored = None
        if stored is None or stored == row:
            return stored is not None
        match.mark_broken(f"the log holds a different action at step {row.ply}")
        self._fan_out(match)
        return False

    # -- bots ------------------------------------------------------------------------

    def _play_bot(self, match: Match) -> None:
        side = match.bot_side
        if (side is not None and not self._closing and match.bot_task is None and match.status == "live"
                and match.state.to_act is side):
            match.bot_task = asyncio.create_task(self._bot_turns(match, side))

    async def _bot_turns(self, match: Match, side: Side) -> None:
        roster = self.bots
        fallback = roster.policies.get(roster.fallback) if roster.fallback else None
        policy = roster.policies.get(match.row.bot_policy or "") or fallback
        if policy is None:
            log.error("match %s has a %r bot seat, which this server cannot play", match.id, match.row.bot_policy)
            match.bot_task = None
            return
        failures = 0
        try:
            while failures < 3:
                await asyncio.sleep(self.limits.bot_delay)
                if match.status != "live" or match.state.to_act is not side:
                    return
                if self.replication is not None and not await self.replication.hold_bot_seat(match):
                    await asyncio.sleep(self.replication.lease_seconds / 4)  # another process plays it
                    continue
                version, legal = match.version, match.legal()
                view = player_view(match.state, side)
                # Replicated, a decision may be made by any process: its seed comes from the log alone.
                carried = match.bot_rng if self.replication is None else 0
                seed = carried or mix_seed(match.row.bot_seed or 0, version)
                chooser = policy if failures == 0 or fallback is None else fallback
                try:
                    action, match.bot_rng = await roster.think(chooser, view, legal, seed)
                except Exception:
                    log.exception("bot policy failed in match %s", match.id)
                    failures += 1
                    continue
                outcome = await self._shielded(self._submit(match, side, None, version, action))
                if isinstance(outcome, Reject) and outcome.code != "stale_version":
                    log.warning("bot move refused in match %s: %s %s", match.id, outcome.code, outcome.reason)
                    failures += 1
                else:
                    failures = 0
            log.error("bot of match %s gave up after repeated failures", match.id)
        finally:
            match.bot_task = None

    # -- replication (server/replication.py) -----------------------------------------

    def publish_event(self, match_id: str, name: str, data: dict[str, Any]) -> None:
        """Tell the other server processes something about a match that is not in its log (e.g. presence).

        Nothing to do on a single process. Each process that hears it calls its handler
        registered in ``event_handlers[name]`` with ``(match_id, data)``.
        """
        if self.replication is not None:
            self.replication.publish_event(match_id, name, data)

    async def seat_joined_elsewhere(self, match: Match) -> bool:
        """Whether another process gave this open challenge's free seat its token since it was loaded here.

        The challenge was joined through another process's HTTP API, so this copy's seat
        hashes are stale: they are read again, and the match becomes an ordinary one here too.
        """
        seat = match.open_seat
        if seat is None:
            return False
        loaded = await self.db.load(match.id)
        if loaded is None or seat.value not in loaded[1] or match.open_seat is None:
            return False
        match.row = loaded[0]
        match.token_hashes[seat] = loaded[1][seat.value]
        self.time.seat_joined(match)
        return True

    def live_matches(self) -> list[Match]:
        """The loaded matches still being played."""
        return [m for m in self._matches.values() if m.status == "live"]

    def take_logged(self, match: Match, rows: list[ActionRow]) -> None:
        """Apply actions another process committed (the caller holds ``match.lock``), then tell viewers.

        Rows must follow on from ``match.version``; each is replayed and its state hash checked,
        as when loading. A row that does not replay marks the match broken here: this copy and
        the log disagree, and nothing more is acknowledged from it.
        """
        before = match.version
        for row in rows:
            if row.ply < match.version:
                continue
            try:
                if row.ply != match.version:
                    raise ValueError(f"ply {match.version} is missing")
                state, action = replay_row(match.state, row)
            except Exception as err:
                log.error("match %s: a replicated action does not replay: %s", match.id, err)
                match.mark_broken(f"step {row.ply}: {err}")
                self._fan_out(match)
                return
            match.advance(state, action, row)
        if match.version != before:
            self.time.restart_clock(match, self.clock.now())  # the seat now to act: its clock runs from here
            self._fan_out(match)
            self._play_bot(match)

    async def _lost_race(self, match: Match, seat: Side, seq: int | None, version: int, payload: str) -> Outcome:
        """Another process committed this ply first: catch up, then answer as if we had known."""
        assert self.replication is not None
        try:
            await self.replication.catch_up(match)
        except StoreUnavailable:
            return _reject("unavailable", "the match database cannot be reached now; send the action again", seq)
        prior = match.sent_before(seat, seq)
        if prior is not None and prior == (version, payload):
            return Ack(seq=seq or 0, version=version + 1)
        return _reject("stale_version", f"another action came first; the match is at version {match.version}", seq)

    # -- memory ----------------------------------------------------------------------

    async def _unload_idle(self) -> None:
        period = min(60.0, self.limits.idle_unload_seconds / 2)
        while True:
            await asyncio.sleep(period)
            self.unload_idle()

    def forget_unwatched(self, match: Match, now: float | None = None) -> bool:
        """Unload ``match`` if nothing here needs its next positions; whether it did.

        A process keeps a match it replicates only while something here uses it: a socket
        (or one that asked for it within twice ``hello_timeout`` and may be about to join: a
        socket joins by its hello, at most ``hello_timeout`` after `get` returned), a bot
        seat, a running clock. Otherwise replaying each action another process commits, and
        checking its hash, is work nobody looks at (with two workers, a quarter of the matches
        were held this way by the process that created them); the next `get` reloads the match
        from the log instead.
        """
        now = time.monotonic() if now is None else now
        if (match.viewers or match.bot_side is not None or match.bot_task is not None or match.lock.locked()
                or match.running is not None or now - match.wanted < 2 * self.limits.hello_timeout):
            return False
        if match.watcher is not None:
            match.watcher.cancel()
        if self._matches.get(match.id) is match:
            del self._matches[match.id]
            self._load_locks.pop(match.id, None)
        return True

    def unload_idle(self, now: float | None = None) -> None:
        """Forget matches nobody has watched for a while (they reload from the log on access)."""
        limit = (time.monotonic() if now is None else now) - self.limits.idle_unload_seconds
        for match_id, match in list(self._matches.items()):
            if (not match.viewers and match.bot_task is None and not match.lock.locked() and match.touched < limit
                    and match.running is None):  # a running clock keeps its match in memory to time it out
                if match.watcher is not None:
                    match.watcher.cancel()
                del self._matches[match_id]
                self._load_locks.pop(match_id, None)


def _reject(code: ErrorCode, reason: str, seq: int | None) -> Reject:
    return Reject(code=code, reason=reason, seq=seq)
