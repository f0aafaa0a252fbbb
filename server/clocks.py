"""Match clocks: the clock chosen at creation, and each seat's time, kept from the action log.

The engine knows nothing of time. The server measures how long the seat to act took for
each action and stores it with the action (``ActionRow.elapsed_ms``); a seat's time is its
budget minus what the log says it spent, so a restarted server resumes every clock where
the log left it (the downtime is charged to nobody). When the running seat's time is gone
the match service appends an engine ``TIMEOUT`` (docs/protocol.md, docs/decisions.md).

Time comes from a `Clock` given in the server settings: `SystemClock` in production; tests
pass one they move by hand, so no test waits for real seconds.
"""

from __future__ import annotations

import asyncio
import time
from dataclasses import dataclass, field
from typing import Annotated, Literal, Protocol

import msgspec
from msgspec import Meta

from engine import GameState, Side, Timeout

__all__ = ["Clock", "ClockSpec", "ClockView", "MatchClock", "SeatTimes", "SystemClock"]

DAY = 86_400
Initial = Annotated[int, Meta(ge=10, le=30 * DAY, description="seconds on each seat's chess clock")]
Increment = Annotated[int, Meta(ge=0, le=DAY, description="seconds added when one of the seat's turns ends")]
PerTurn = Annotated[int, Meta(ge=10, le=14 * DAY, description="seconds for each turn")]


class Clock(Protocol):
    """Where the server reads the time: seconds since the epoch, and a way to wait."""

    def now(self) -> float: ...

    async def sleep_until(self, when: float) -> None:
        """Return once `now` has reached ``when`` (a deadline, not a duration: no rounding on the way)."""
        ...


class SystemClock:
    """The real time."""

    def now(self) -> float:
        return time.time()

    async def sleep_until(self, when: float) -> None:
        while (left := when - time.time()) > 0:  # asyncio's timer may wake a hair early
            await asyncio.sleep(left)


class ClockSpec(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """``{"initial": S, "increment": S}`` (a chess clock per seat) or ``{"per_turn": S}``, whole seconds."""

    initial: Initial | None = None
    increment: Increment | None = None
    per_turn: PerTurn | None = None

    def __post_init__(self) -> None:
        if self.per_turn is not None and (self.initial is not None or self.increment is not None):
            raise ValueError("a clock is either per_turn or initial (+ increment), not both")
        if self.per_turn is None and self.initial is None:
            raise ValueError("a clock needs initial (seconds per seat) or per_turn (seconds per turn)")

    @property
    def kind(self) -> Literal["game", "turn"]:
        """``"game"`` for a chess clock, ``"turn"`` for a per-turn one (the engine TIMEOUT's ``clock``)."""
        return "turn" if self.per_turn is not None else "game"

    @property
    def budget_ms(self) -> int:
        """What each seat starts with (per game, or per turn)."""
        return 1000 * (self.per_turn if self.per_turn is not None else self.initial or 0)


class SeatTimes(msgspec.Struct, frozen=True, kw_only=True):
    """Each seat's time in milliseconds."""

    attacker: int
    defender: int


class ClockView(msgspec.Struct, frozen=True, kw_only=True):
    """The clocks as a `state` carries them (docs/protocol.md)."""

    initial_ms: int | None
    increment_ms: int | None
    per_turn_ms: int | None
    remaining_ms: SeatTimes
    running: Side | None
    server_time: float


def _turn_key(state: GameState) -> tuple[int, Side | None]:
    return state.turn, state.deploying


@dataclass
class MatchClock:
    """The two seats' time in one match.

    ``remaining`` is each seat's time when the running seat's clock last started
    (``since``, a `Clock` time), or as it stands while no clock runs (``since`` None).
    """

    spec: ClockSpec
    remaining: dict[Side, int] = field(default_factory=dict)
    since: float | None = None

    def __post_init__(self) -> None:
        if not self.remaining:
            self.remaining = {Side.ATTACKER: self.spec.budget_ms, Side.DEFENDER: self.spec.budget_ms}

    def step(self, before: GameState, after: GameState, elapsed_ms: int) -> None:
        """Charge ``elapsed_ms`` to the seat that was to act in ``before``, then apply turn changes.

        A chess clock gives ``increment`` to the active seat when its turn ends; a per-turn
        clock gives both seats a fresh budget when a turn (or a deploying side) changes.
        """
        runner = before.to_act
        if runner is not None:
            self.remaining[runner] = max(0, self.remaining[runner] - elapsed_ms)
        if _turn_key(after) != _turn_key(before):
            if self.spec.per_turn is not None:
                self.remaining = {side: self.spec.budget_ms for side in self.remaining}
            elif after.turn != before.turn:
                self.remaining[before.active] += 1000 * (self.spec.increment or 0)

    def elapsed_ms(self, now: float) -> int:
        """Milliseconds the running clock has run since it started (0 when none runs)."""
        return 0 if self.since is None else max(0, round((now - self.since) * 1000))

    def left_ms(self, runner: Side | None, now: float) -> dict[Side, int]:
        """Each seat's time at ``now`` with ``runner``'s clock running (None: none runs)."""
        left = dict(self.remaining)
        if runner is not None and self.since is not None:
            left[runner] = max(0, left[runner] - self.elapsed_ms(now))
        return left

    def deadline(self, runner: Side | None) -> float | None:
        """The `Clock` time at which ``runner`` runs out, or None when no clock runs."""
        if runner is None or self.since is None:
            return None
        return self.since + self.remaining[runner] / 1000

    def timeout(self, runner: Side) -> Timeout:
        """The engine action that says ``runner``'s time ran out."""
        return Timeout(side=runner, clock=self.spec.kind)

    def view(self, runner: Side | None, now: float) -> ClockView:
        """The clocks as sent to clients at ``now``."""
        running = runner if self.since is not None else None
        left = self.left_ms(running, now)
        spec = self.spec
        return ClockView(
            initial_ms=None if spec.initial is None else 1000 * spec.initial,
            increment_ms=None if spec.per_turn is not None else 1000 * (spec.increment or 0),
            per_turn_ms=None if spec.per_turn is None else 1000 * spec.per_turn,
            remaining_ms=SeatTimes(attacker=left[Side.ATTACKER], defender=left[Side.DEFENDER]),
            running=running,
            server_time=now,
        )

    def times(self) -> SeatTimes:
        """Each seat's time as it stands between actions (for records and replay steps)."""
        return SeatTimes(attacker=self.remaining[Side.ATTACKER], defender=self.remaining[Side.DEFENDER])


def decode_spec(text: str | None) -> ClockSpec | None:
    """The clock a match row stores (None: no clock)."""
    return None if text is None else msgspec.json.decode(text, type=ClockSpec)


def encode_spec(spec: ClockSpec | None) -> str | None:
    """A clock as a match row stores it."""
    return None if spec is None else msgspec.json.encode(spec).decode()
