"""One match in memory: its position, its log, who is watching, and what each viewer is sent.

A `Match` changes only through `advance`, called by the match service after the action is
committed to the store. Everything a socket receives about the position is built here from
``player_view(state, seat)`` (never from the raw state) and cached per version and viewer
kind, so an update costs one view, one ``legal_actions`` and one encoding per kind however
many sockets watch.
"""

from __future__ import annotations

import asyncio
import hashlib
import hmac
import time
from dataclasses import dataclass, field
from typing import Protocol, cast

from engine import (
    RULES_VERSION,
    Action,
    ClaimVictory,
    Event,
    GameConfig,
    GameState,
    Rules,
    Side,
    Timeout,
    legal_actions,
    match_actions,
    player_view,
)
from engine.analysis import decision, describe_event, max_moves
from engine.data import TERRAIN_LEGEND, game_tables

from . import __version__
from .answers import Answers
from .catalogue import CardInfo, card_info
from .clocks import Clock, MatchClock, SystemClock
from .outbox import Outbox
from .presence import Presence
from .protocol import EventText, MatchStatus, StateUpdate, Welcome, encode
from .rematch import Rematch
from .score import Score, score_of
from .senders import sender_of
from .store import ActionRow, MatchRow, Progress

__all__ = ["EVENT_TEXTS_LIMIT", "Match", "Viewer", "event_text", "hash_token", "progress_of", "shown_status"]

EVENT_TEXTS_LIMIT = 20_000
"""Event texts kept (`event_text`): far more than the distinct events of the live matches' latest
positions, and a few MB at most; when full the memo starts afresh."""

_event_texts: dict[Event, EventText] = {}


def event_text(event: Event, rules: Rules) -> EventText:
    """``event`` of a game with ``rules`` with its sentence (`describe_event`), remembered: every viewer
    kind of every process holding the match describes the same events of a position, and a sentence
    built its way cost about 10 µs, a twentieth of a worker's CPU (docs/deploy.md, "CPU per action").
    A card event of a variant game names a card of that game only, so it is described afresh."""
    if event.card is not None and rules.card_changes is not None:
        return EventText(event=event, text=describe_event(event, rules))
    found = _event_texts.get(event)
    if found is None:
        if len(_event_texts) >= EVENT_TEXTS_LIMIT:
            _event_texts.clear()
        found = _event_texts[event] = EventText(event=event, text=describe_event(event, rules))
    return found


class Viewer(Protocol):
    """A socket watching a match: its seat (None: spectator) and its outbox."""

    @property
    def seat(self) -> Side | None: ...

    @property
    def outbox(self) -> Outbox: ...


def hash_token(token: str) -> bytes:
    """What the store keeps of a seat token: its SHA-256."""
    return hashlib.sha256(token.encode("utf-8")).digest()


def progress_of(state: GameState, version: int, status: MatchStatus) -> Progress:
    """The lobby's summary of ``state``."""
    return Progress(
        status=status,
        version=version,
        turn=state.turn,
        phase=state.phase.value,
        to_act=state.to_act.value if state.to_act else None,
        winner=state.winner.value if state.winner else None,
        victory_reason=state.victory_reason,
    )


def shown_status(row: MatchRow) -> MatchStatus:
    """The status a stored match is shown with: ``other_rules`` when this engine plays other rules."""
    if row.rules_version != RULES_VERSION:
        return "other_rules"
    return cast(MatchStatus, row.progress.status)


@dataclass(eq=False)
class Match:
    """A loaded match. ``version`` is the number of accepted actions."""

    row: MatchRow
    config: GameConfig  # seed included: never sent while the game runs
    token_hashes: dict[Side, bytes]
    state: GameState
    actions: list[Action]
    hashes: list[str]
    status: MatchStatus = "live"
    read_only_reason: str | None = None  # why a broken or other-rules match is read-only
    # seat -> client seq -> (ply, action JSON). Nested, not keyed by (seat, seq): such a key holds
    # an enum member, so the collector keeps tracking it, one tuple per action for ever.
    seqs: dict[Side, dict[int, tuple[int, str]]] = field(default_factory=dict)
    last_seq: dict[Side, int] = field(default_factory=dict)
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    viewers: set[Viewer] = field(default_factory=set)
    spectator_addresses: dict[Viewer, str] = field(default_factory=dict)  # client address of each spectator
    bot_task: asyncio.Task[None] | None = None
    bot_rng: int = 0
    touched: float = field(default_factory=time.monotonic)
    wanted: float = field(default_factory=time.monotonic)  # when a socket or request last asked for it (`get`)
    clock: MatchClock | None = None  # None: the match has no clock
    timer: Clock = field(default_factory=SystemClock)  # where this match reads the time
    presence: Presence | None = None  # set by the match service when it takes the match in
    open_seat: Side | None = None  # an open challenge's seat nobody has joined yet
    rematch: Rematch = field(default_factory=Rematch)
    claim_open: bool = False  # the absent seat to act may be claimed now (as last told to the sockets)
    changed: asyncio.Event = field(default_factory=asyncio.Event)  # wakes the clock watcher
    watcher: asyncio.Task[None] | None = None
    answers: Answers = field(default_factory=Answers)  # questions about this version (server/questions.py)
    _texts: dict[Side | None, str] = field(default_factory=dict)
    _texts_at: float | None = None
    _legal: tuple[Action, ...] | None = None
    _score: Score | None = None  # `score_of` the current position (the same for every viewer)
    _senders: tuple[tuple[Action, Side | None], ...] | None = None  # the match actions now, each with its sender

    @property
    def id(self) -> str:
        return self.row.id

    @property
    def version(self) -> int:
        return len(self.actions)

    @property
    def bot_side(self) -> Side | None:
        return Side(self.row.bot_side) if self.row.bot_side else None

    def sent_before(self, seat: Side, seq: int | None) -> tuple[int, str] | None:
        """The (ply, action JSON) logged for ``seat``'s client ``seq``, if it was accepted."""
        return self.seqs.get(seat, {}).get(seq) if seq is not None else None

    def remember(self, rows: list[ActionRow]) -> None:
        """Index the client sequence numbers of logged actions (for idempotent resends)."""
        for row in rows:
            if row.client_seq is not None:
                seat = Side(row.seat)
                self.seqs.setdefault(seat, {})[row.client_seq] = (row.ply, row.action)
                self.last_seq[seat] = max(self.last_seq.get(seat, 0), row.client_seq)

    def seat_of(self, token: str) -> Side | None:
        """The seat ``token`` opens, or None; constant-time comparison against every seat."""
        digest = hash_token(token)
        found: Side | None = None
        for seat, stored in self.token_hashes.items():
            if hmac.compare_digest(digest, stored):
                found = seat
        return found

    def legal(self) -> tuple[Action, ...]:
        """``legal_actions`` of the current position, computed once per version."""
        if self._legal is None:
            self._legal = tuple(legal_actions(self.state)) if self.status == "live" else ()
        return self._legal

    def advance(self, state: GameState, action: Action, row: ActionRow,
                legal: tuple[Action, ...] | None = None) -> None:
        """Take the committed ``action`` (whose log row is ``row``) into memory.

        ``legal`` may carry ``legal_actions(state)`` when the caller already computed it.
        """
        if self.clock is not None and row.elapsed_ms is not None:  # a fork's prefix is untimed
            self.clock.step(self.state, state, row.elapsed_ms)
        self.state = state
        self.actions.append(action)
        self.hashes.append(row.state_hash)
        self.remember([row])
        if state.to_act is None:
            self.status = "over"
        self._texts.clear()
        self._legal = legal if self.status == "live" else ()
        self._score = self._senders = None
        self.touched = time.monotonic()
        self.changed.set()

    def mark_broken(self, reason: str) -> None:
        """Serve this match read-only from now on: its log no longer replays."""
        self._read_only("broken", reason)

    def mark_other_rules(self, reason: str) -> None:
        """Serve this match read-only: it was played under rules this engine does not play."""
        self._read_only("other_rules", reason)

    def _read_only(self, status: MatchStatus, reason: str) -> None:
        self.status = status
        self.read_only_reason = reason
        self._texts.clear()
        self._legal = None
        self._score = self._senders = None

    def state_text(self, seat: Side | None, now: float | None = None) -> str:
        """The encoded `StateUpdate` for ``seat`` (None: spectator) at the current version.

        Cached per version and viewer kind. While a clock runs the text depends on the time
        too (``server_time``), so then it is cached for one instant only: a fan-out passes
        one ``now`` for every socket. Presence, claims and rematches clear it (`refresh`).
        """
        if now is None:
            now = self.timer.now()
        if self.running is not None and now != self._texts_at:
            self._texts.clear()
            self._texts_at = now
        text = self._texts.get(seat)
        if text is None:
            text = self._texts[seat] = encode(self._update(seat, now))
        return text

    def refresh(self) -> None:
        """Forget the encoded states: something besides the position changed (presence, rematch, claims)."""
        self._texts.clear()
        self.changed.set()

    @property
    def running(self) -> Side | None:
        """The seat whose clock runs now, or None."""
        if self.clock is None or self.clock.since is None or self.status != "live":
            return None
        return self.state.to_act

    def claim_at(self) -> float | None:
        """When the seat not to act may claim the absent seat to act (None: no claim coming)."""
        if self.presence is None or self.status != "live" or self.open_seat is not None or self.row.mode == "hotseat":
            return None  # a hotseat's two seats are one person: nobody to claim against
        return self.presence.claim_at(self.state.to_act)

    def claimable(self, now: float) -> bool:
        """Whether the seat not to act may claim the win now."""
        at = self.claim_at()
        return at is not None and now >= at

    def seat_match_actions(self, seat: Side | None, now: float) -> tuple[Action, ...]:
        """The match actions ``seat`` may send now: those it is the sender of (`sender_of`) that the server
        allows now (RESIGN while the game runs, CLAIM_VICTORY once allowed; TIMEOUT never: the server's)."""
        if seat is None or self.status != "live":
            return ()
        if self._senders is None:  # once per version: every socket's update asks
            self._senders = tuple((action, sender_of(self.state, action)) for action in match_actions(self.state))
        return tuple(action for action, sender in self._senders if sender is seat and self._allowed_now(action, now))

    def _allowed_now(self, action: Action, now: float) -> bool:
        """What the server adds to the engine for a match action sent by a socket (docs/protocol.md)."""
        if isinstance(action, Timeout):
            return False
        return not isinstance(action, ClaimVictory) or self.claimable(now)

    def welcome(self, seat: Side | None, max_message_bytes: int) -> str:
        """The encoded `Welcome` for a socket bound to ``seat``."""
        return encode(
            Welcome(
                match_id=self.id,
                seat=seat,
                mode=self.row.mode,
                bot_side=self.bot_side,
                seed_commitment=self.row.seed_commitment,
                rules_version=self.row.rules_version,
                server_version=__version__,
                max_message_bytes=max_message_bytes,
                cards=self._own_cards(),
            )
        )

    def _own_cards(self) -> tuple[CardInfo, ...]:
        """The cards this match carries beyond the shipped ones (its rules' changes), for the client to read."""
        changes = self.state.rules.card_changes
        return () if changes is None else tuple(card_info(card) for card in changes.cards)

    def score(self) -> Score:
        """`score_of` the current position, worked out once per version (points are public)."""
        if self._score is None:
            self._score = score_of(self.state)
        return self._score

    def _update(self, seat: Side | None, now: float) -> StateUpdate:
        view = player_view(self.state, seat)
        to_act = self.state.to_act
        mine = seat is not None and to_act is seat and self.status == "live"
        return StateUpdate(
            match_id=self.id,
            version=self.version,
            status=self.status,
            seat=seat,
            to_act=to_act if self.status == "live" else None,
            legal_actions=self.legal() if mine else (),
            last_seq=self.last_seq.get(seat, 0) if seat is not None else 0,
            view=view,
            events=tuple(event_text(e, view.rules) for e in view.events),
            move_limit=max_moves(self.state, self.state.active),
            attack_limit=game_tables(self.state.rules.tables).max_attacks_per_turn,
            decision=decision(self.state, view),
            legend=TERRAIN_LEGEND,
            broken_reason=self.read_only_reason,
            clock=None if self.clock is None else self.clock.view(self.running, now),
            presence=None if self.presence is None else self.presence.view(self.claim_at()),
            match_actions=self.seat_match_actions(seat, now),
            rematch=self.rematch.view(seat) if self.status == "over" and self.rematch.started else None,
            score=self.score(),
            open_seat=self.open_seat,
        )
