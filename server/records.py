"""Read-only views of a stored match: its record (seed revealed only after the game) and
the position after any step (for the replay page), built from the log alone.

While a match runs, its record has no seed and no hashes: the seed would reveal every
hand, the deck order and every future die, and a state hash is a check a 2**32 seed search
could run against. Once it is over the record is complete, and the seed and salt open the
commitment published at creation (see `server.seeds`).
"""

from __future__ import annotations

import msgspec
from msgspec.structs import replace

from engine import (
    RULES_VERSION,
    Action,
    GameConfig,
    GameRecord,
    GameState,
    Side,
    decode_action,
    new_game,
    player_view,
    reduce,
    state_hash,
)
from engine.analysis import describe_event

from .clocks import MatchClock, SeatTimes, decode_spec
from .match import shown_status
from .protocol import EventText, MatchStatus
from .store import ActionRow, MatchRow

__all__ = ["NoSuchStep", "RecordView", "StepView", "Unreadable", "record_answer", "step_answer"]

_ENCODER = msgspec.json.Encoder()


class Unreadable(Exception):
    """A stored match these rules cannot read back; the message says where (an HTTP 409 ``unavailable``).

    Its config no longer decodes or builds a start, a logged action no longer decodes, or
    (for a position) the log does not replay up to it.
    """


class NoSuchStep(LookupError):
    """A position past the end of a match's log."""


class RecordView(msgspec.Struct, frozen=True, kw_only=True):
    """``GET /api/matches/{id}/record``: ``record`` is a `taktik replay` file once the game is over."""

    match_id: str
    status: MatchStatus
    seed_commitment: str
    seed: int | None  # revealed once the game is over
    salt: str | None  # likewise; sha256(f"{seed}:{salt}") == seed_commitment
    record: GameRecord
    elapsed_ms: tuple[int | None, ...] | None = None  # clock time each action took (None: no clock)
    clocks: tuple[SeatTimes, ...] | None = None  # clocks[k]: both clocks after k actions (None: no clock)


class StepView(msgspec.Struct, frozen=True, kw_only=True):
    """``GET /api/matches/{id}/steps/{step}``: the position after ``step`` actions."""

    match_id: str
    status: MatchStatus
    step: int
    steps: int  # actions in the log
    action: Action | None  # the action that led here (None at step 0)
    to_act: Side | None
    complete: bool  # True: the whole state (game over); False: what a spectator sees
    state: GameState
    events: tuple[EventText, ...]
    clock: SeatTimes | None = None  # both clocks after ``step`` actions (None: no clock)


def record_answer(row: MatchRow, rows: list[ActionRow]) -> bytes:
    """The `RecordView` of a stored match, encoded (an analyst's work: engine values cross processes as JSON)."""
    return _ENCODER.encode(_record_view(row, rows))


def step_answer(row: MatchRow, rows: list[ActionRow], step: int) -> bytes:
    """The `StepView` after ``step`` actions, encoded; `NoSuchStep` past the log."""
    if step > len(rows):
        raise NoSuchStep(f"the log has {len(rows)} steps")
    return _ENCODER.encode(_step_view(row, rows, step))


def _config(row: MatchRow) -> GameConfig:
    try:
        return msgspec.json.decode(row.config, type=GameConfig)
    except msgspec.DecodeError as err:
        raise Unreadable(f"its config no longer loads: {err}{_under(row)}") from None


def _under(row: MatchRow) -> str:
    """Why a stored match may not read: it was played under other rules."""
    if row.rules_version == RULES_VERSION:
        return ""
    return f" (played under rules version {row.rules_version}; this server plays {RULES_VERSION})"


def _record_view(row: MatchRow, rows: list[ActionRow]) -> RecordView:
    config = _config(row)
    actions: list[Action] = []
    for logged in rows:
        try:
            actions.append(decode_action(logged.action))
        except ValueError as err:  # InvalidAction: the text no longer names an action of these rules
            raise Unreadable(f"step {logged.ply} of its log no longer decodes: {err}{_under(row)}") from None
    over = row.progress.status == "over"
    record = GameRecord(
        config=config if over else replace(config, seed=None),
        actions=tuple(actions),
        hashes=tuple(r.state_hash for r in rows) if over else None,
        rules_version=row.rules_version,
    )
    timed = _clock_of(row) is not None
    return RecordView(match_id=row.id, status=shown_status(row), seed_commitment=row.seed_commitment,
                      seed=config.seed if over else None, salt=row.salt if over else None, record=record,
                      elapsed_ms=tuple(r.elapsed_ms for r in rows) if timed else None,
                      clocks=_clocks(row, config, actions, rows) if timed else None)


def _clock_of(row: MatchRow) -> MatchClock | None:
    try:
        spec = decode_spec(row.clock)
    except msgspec.DecodeError:
        return None
    return MatchClock(spec) if spec is not None else None


def _clocks(row: MatchRow, config: GameConfig, actions: list[Action],
            rows: list[ActionRow]) -> tuple[SeatTimes, ...] | None:
    """Both clocks after each step, replaying the log (None when it does not replay: the record stays readable)."""
    clock = _clock_of(row)
    if clock is None:
        return None
    times = [clock.times()]
    try:
        state = new_game(config)
        for action, logged in zip(actions, rows, strict=True):
            after = reduce(state, action)
            if logged.elapsed_ms is not None:
                clock.step(state, after, logged.elapsed_ms)
            times.append(clock.times())
            state = after
    except Exception:  # a broken or other-rules log: the times are simply not shown
        return None
    return tuple(times)


def _step_view(row: MatchRow, rows: list[ActionRow], step: int) -> StepView:
    try:
        state = new_game(_config(row))
    except ValueError as err:
        raise Unreadable(f"its config no longer builds a starting position: {err}{_under(row)}") from None
    action: Action | None = None
    clock = _clock_of(row)
    for logged in rows[:step]:
        try:
            action = decode_action(logged.action, state)
            before, state = state, reduce(state, action)
            if clock is not None and logged.elapsed_ms is not None:
                clock.step(before, state, logged.elapsed_ms)
        except Exception as err:  # InvalidAction, IllegalAction, or whatever an edited log provokes
            raise Unreadable(f"the log does not replay at step {logged.ply}: {err}{_under(row)}") from None
        if state_hash(state) != logged.state_hash:
            raise Unreadable(f"the log does not replay at step {logged.ply}: the state hash differs{_under(row)}")
    complete = row.progress.status == "over"
    shown = state if complete else player_view(state, None)
    return StepView(
        match_id=row.id, status=shown_status(row), step=step, steps=len(rows), action=action,
        to_act=state.to_act, complete=complete, state=shown,
        events=tuple(EventText(event=e, text=describe_event(e, shown.rules)) for e in shown.events),
        clock=clock.times() if clock is not None else None,
    )
