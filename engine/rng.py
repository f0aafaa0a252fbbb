"""The engine's only source of randomness: a 32-bit linear congruential generator.

Every function is pure: it takes the current seed and returns the value together with
the next seed, which the caller writes back into the state (rules §1.3, seed threading).

>>> next_seed(1)
1015568748
>>> roll_d6(1)
(1, 1015568748)
>>> shuffle(tuple(range(10)), 1)
((1, 0, 3, 5, 2, 4, 7, 9, 6, 8), 70837908)
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final, TypeVar

__all__ = [
    "DEFAULT_SEED", "draw_index", "mix_seed", "next_seed", "pick", "rand_float", "rand_int", "roll_d6", "shuffle",
]

T = TypeVar("T")

DEFAULT_SEED = 1
_MULTIPLIER: Final = 1664525
_INCREMENT: Final = 1013904223
_MASK: Final = 0xFFFFFFFF
_TWO_POW_32: Final = 4294967296.0


def next_seed(seed: int) -> int:
    """Advance the generator one step: ``(seed * 1664525 + 1013904223) mod 2**32``."""
    return (seed * _MULTIPLIER + _INCREMENT) & _MASK


def roll_d6(seed: int) -> tuple[int, int]:
    """Roll one six-sided die: ``(value 1..6, next seed)``; consumes one step."""
    seed = (seed * _MULTIPLIER + _INCREMENT) & _MASK
    return seed % 6 + 1, seed


def mix_seed(*parts: int) -> int:
    """Combine integers into one 32-bit seed (deterministic, well spread).

    >>> mix_seed(7, 0) != mix_seed(7, 1)
    True
    """
    seed = 0x9E3779B9
    for part in parts:
        seed = next_seed((seed ^ (part & _MASK)) * 0x85EBCA6B & _MASK)
        seed = next_seed(seed ^ (part >> 32 & _MASK))
    return seed


def pick(n: int, seed: int) -> tuple[int, int]:
    """Pick a uniform index in ``0..n-1`` for gameplay: ``(index, next seed)``; one step."""
    if n <= 0:
        raise ValueError(f"cannot pick from {n} items")
    seed = (seed * _MULTIPLIER + _INCREMENT) & _MASK
    return seed % n, seed


def shuffle(items: Sequence[T], seed: int) -> tuple[tuple[T, ...], int]:
    """Fisher-Yates shuffle: ``(shuffled tuple, next seed)``; consumes ``len(items) - 1`` steps.

    For ``i`` from ``n - 1`` down to ``1``: advance one step, ``j = next mod (i + 1)``,
    swap items ``i`` and ``j``. A sequence of at most one item consumes nothing.
    """
    out = list(items)
    for i in range(len(out) - 1, 0, -1):
        seed = (seed * _MULTIPLIER + _INCREMENT) & _MASK
        j = seed % (i + 1)
        out[i], out[j] = out[j], out[i]
    return tuple(out), seed


def rand_float(seed: int) -> tuple[float, int]:
    """Terrain helper: a float in ``[0, 1)`` as ``next / 2**32``; one step."""
    seed = (seed * _MULTIPLIER + _INCREMENT) & _MASK
    return seed / _TWO_POW_32, seed


def rand_int(a: int, b: int, seed: int) -> tuple[int, int]:
    """Terrain helper: an int in ``[a, b]`` as ``a + floor(float * (b - a + 1))``; one step."""
    value, seed = rand_float(seed)
    return a + int(value * (b - a + 1)), seed


def draw_index(n: int, seed: int) -> tuple[int, int]:
    """A uniform index in ``0..n-1`` for tools and bots: ``(index, next seed)``; one step.

    The seed advances exactly as in `pick`, but the index comes from the high bits of a
    scrambled copy of the new seed, ``(scramble(next) * n) >> 32``. Two weaknesses of the raw
    LCG are avoided: its low bits repeat with short periods (the lowest bit alternates, so
    two ``pick(2, ...)`` per step always agree), and its high bits change little between
    nearby seeds (seeds 0..39 would all give about the same first index). The rules
    prescribe `pick` for gameplay; a chooser outside the rules should use this.

    >>> def every_other(choose, seed=1):  # the first of two picks per step, ten times
    ...     firsts = []
    ...     for _ in range(10):
    ...         first, seed = choose(2, seed)
    ...         _, seed = choose(2, seed)
    ...         firsts.append(first)
    ...     return firsts
    >>> every_other(pick)
    [0, 0, 0, 0, 0, 0, 0, 0, 0, 0]
    >>> every_other(draw_index)
    [0, 0, 1, 0, 1, 0, 0, 1, 0, 0]
    >>> sorted({draw_index(10, seed)[0] for seed in range(40)})
    [0, 1, 2, 3, 4, 5, 6, 7, 8, 9]
    """
    if n <= 0:
        raise ValueError(f"cannot pick from {n} items")
    seed = (seed * _MULTIPLIER + _INCREMENT) & _MASK
    return (_scramble(seed) * n) >> 32, seed


def _scramble(value: int) -> int:
    """A bijective 32-bit mix in which every input bit affects every output bit (xor-shift, multiply)."""
    value ^= value >> 16
    value = (value * 0x85EBCA6B) & _MASK
    value ^= value >> 13
    value = (value * 0xC2B2AE35) & _MASK
    return value ^ (value >> 16)
