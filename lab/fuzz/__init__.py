"""Fuzzing the engine: random legal playouts with every invariant checked at every step.

Checked at every position (`lab.fuzz.invariants`): ``to_act`` follows the rules and is
None exactly in VICTORY; ``legal_actions`` is empty exactly in VICTORY, lists nothing
twice and is the same for an equal, freshly decoded state; states round-trip through the
codec; every view hides the opponent's cards, the draw pile and the rng; units are sane;
common cards and tactics are conserved; the action counter and cap hold. At every
decision: every listed action is accepted without changing the input, every listed
action round-trips through the action codec, and well-formed unlisted actions (mutations
of listed ones and strays) are rejected with `IllegalAction` leaving the state
byte-identical. At the end: the game ended within its cap and the replay of its record
reproduces every hash.

A failure is shrunk (`shrink`: cut after the failing step, then delta debugging) to a
minimal record, which `pytest_source` turns into a ready-to-run regression test.

>>> from lab.fuzz import fuzz_game, random_config
>>> fuzz_game(random_config(3), seed=3).failure is None
True
"""

from __future__ import annotations

from .configs import random_config, random_terrain
from .invariants import STATE_CHECKS, STEP_CHECKS, Failure, check_state, check_step
from .runner import INVALID, FuzzOptions, GameOutcome, check_record, check_sequence, fuzz_game
from .shrink import Shrunk, ddmin, pytest_source, shrink

__all__ = [
    "INVALID",
    "STATE_CHECKS",
    "STEP_CHECKS",
    "Failure",
    "FuzzOptions",
    "GameOutcome",
    "Shrunk",
    "check_record",
    "check_sequence",
    "check_state",
    "check_step",
    "ddmin",
    "fuzz_game",
    "game_seed",
    "pytest_source",
    "random_config",
    "random_terrain",
    "shrink",
]


def game_seed(seed: int, index: int) -> int:
    """Seed of fuzz game ``index`` of a run with ``seed`` (config and choices derive from it)."""
    return (seed + index) & 0xFFFFFFFF
