"""Fuzz games as independent jobs, so `lab.runner.run_games` can play them anywhere.

A `FuzzJob` holds everything one game needs (config, seed, options, guide); `play_fuzz`
plays it and returns the outcome with the game's own `Coverage`. The caller merges the
coverages in job order, so totals do not depend on where or in which order games ran.
"""

from __future__ import annotations

from dataclasses import dataclass

from engine import GameConfig, GameState

from ..runner import Tick
from .coverage import Coverage, Guide
from .runner import FuzzOptions, GameOutcome, fuzz_game

__all__ = ["GUIDE_WAVE", "FuzzJob", "FuzzResult", "play_fuzz"]

GUIDE_WAVE = 50
"""Games per wave of a guided run: each wave is guided by the coverage of the waves before it.

A fixed number (not one per worker) so a guided run is the same on any backend."""


@dataclass(frozen=True)
class FuzzJob:
    """One fuzz game: game ``index`` of the run, played from ``config`` with choices from ``seed``."""

    index: int
    seed: int
    config: GameConfig
    options: FuzzOptions
    guide: Guide | None = None


@dataclass(frozen=True)
class FuzzResult:
    """How one fuzz game went and what it exercised."""

    index: int
    seed: int
    config: GameConfig
    outcome: GameOutcome
    coverage: Coverage


@dataclass
class _Ticking(Coverage):
    """A coverage that also reports every position reached as a decision (progress bars)."""

    tick: Tick | None = None

    def observe(self, state: GameState) -> None:
        super().observe(state)
        if self.tick is not None:
            self.tick(state)


def play_fuzz(job: FuzzJob, tick: Tick | None = None) -> FuzzResult:
    """Play ``job``; ``tick`` is called once per position reached."""
    watching = _Ticking(tick=tick)
    outcome = fuzz_game(job.config, job.seed, job.options, watching, job.guide)
    return FuzzResult(job.index, job.seed, job.config, outcome, Coverage(watching.counts))
