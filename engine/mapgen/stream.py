"""A cursor over the engine's LCG stream for the duration of one generation call.

The map generator makes hundreds of draws; threading ``(value, seed)`` pairs by hand
through every helper would bury the algorithm. `Draws` keeps the current seed and a
step counter in one small mutable object that never leaves `generate_terrain`, so the
generator stays a pure function of its inputs. Every value comes from `engine.rng`
(rules §1.3: ``float = next / 2**32``, ``int(a, b) = a + floor(float * (b - a + 1))``).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TypeVar

from ..rng import rand_float, rand_int, shuffle

__all__ = ["Draws"]

T = TypeVar("T")


class Draws:
    """The current seed and the number of LCG steps consumed since the start."""

    __slots__ = ("seed", "steps")

    def __init__(self, seed: int) -> None:
        self.seed = seed  # current stream value; the generator's next seed at the end
        self.steps = 0  # LCG steps consumed so far

    def fraction(self) -> float:
        """A float in ``[0, 1)``; one step."""
        value, self.seed = rand_float(self.seed)
        self.steps += 1
        return value

    def integer(self, low: int, high: int) -> int:
        """An int in ``[low, high]``; one step."""
        value, self.seed = rand_int(low, high, self.seed)
        self.steps += 1
        return value

    def index(self, n: int) -> int:
        """An index in ``0 .. n-1`` (``n >= 1``); one step, even when ``n == 1``."""
        return self.integer(0, n - 1)

    def shuffled(self, items: Sequence[T]) -> list[T]:
        """Fisher-Yates shuffle (rules §1.3); ``len(items) - 1`` steps."""
        out, self.seed = shuffle(items, self.seed)
        self.steps += max(0, len(items) - 1)
        return list(out)
