"""Observation and action spaces: gymnasium's when it is installed, small stand-ins otherwise.

The environments never need gymnasium; these stand-ins carry the same facts (shape,
dtype, bounds, ``n``) and a ``contains``/``sample`` pair, so code written against the
Gymnasium API keeps working. With gymnasium installed, `EnvBase` is ``gymnasium.Env``
and the spaces are real ``gymnasium.spaces`` (what its API checker wants).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np

__all__ = ["AECBase", "BoxSpec", "DictSpec", "DiscreteSpec", "EnvBase", "make_spaces"]

# Typed as Any: the checks must pass with and without these optional packages installed.
_gym: Any
_AECEnv: Any
try:  # pragma: no cover - depends on the environment
    import gymnasium as _gym  # type: ignore[import-not-found, no-redef, unused-ignore]
except ImportError:  # pragma: no cover
    _gym = None

try:  # pragma: no cover
    from pettingzoo import AECEnv as _AECEnv  # type: ignore[import-not-found, import-untyped, no-redef, unused-ignore]
except ImportError:  # pragma: no cover
    _AECEnv = None

EnvBase: type = _gym.Env if _gym is not None else object
"""Base class of `TaktikEnv`: ``gymnasium.Env`` when installed."""
AECBase: type = _AECEnv if _AECEnv is not None else object
"""Base class of `TaktikAECEnv`: ``pettingzoo.AECEnv`` when installed."""


@dataclass(frozen=True)
class DiscreteSpec:
    """Integers ``0..n-1`` (like ``gymnasium.spaces.Discrete``)."""

    n: int
    dtype: Any = np.int64

    def contains(self, x: Any) -> bool:
        """True for an integer in range."""
        return isinstance(x, (int, np.integer)) and 0 <= int(x) < self.n

    def sample(self, mask: np.ndarray[Any, Any] | None = None, rng: np.random.Generator | None = None) -> int:
        """A uniform (masked) element."""
        gen = rng or np.random.default_rng(0)
        choices = np.flatnonzero(mask) if mask is not None else np.arange(self.n)
        return int(gen.choice(choices))


@dataclass(frozen=True)
class BoxSpec:
    """An array of fixed shape and dtype within bounds (like ``gymnasium.spaces.Box``)."""

    low: float
    high: float
    shape: tuple[int, ...]
    dtype: Any

    def contains(self, x: Any) -> bool:
        """True for an array of this shape and dtype within the bounds."""
        return (
            isinstance(x, np.ndarray)
            and x.shape == self.shape
            and x.dtype == np.dtype(self.dtype)
            and bool(np.all(x >= self.low))
            and bool(np.all(x <= self.high))
        )


@dataclass(frozen=True)
class DictSpec:
    """Named sub-spaces (like ``gymnasium.spaces.Dict``)."""

    spaces: dict[str, BoxSpec] = field(default_factory=dict)

    def contains(self, x: Any) -> bool:
        """True for a dict with exactly these keys, each in its space."""
        return (
            isinstance(x, dict) and set(x) == set(self.spaces) and all(s.contains(x[k]) for k, s in self.spaces.items())
        )

    def __getitem__(self, key: str) -> BoxSpec:
        return self.spaces[key]


def make_spaces(
    actions: int, height: int, width: int, planes: int, features: int, *, with_mask: bool = True
) -> tuple[Any, Any]:
    """``(action_space, observation_space)`` for a board of ``height`` × ``width``; the mask only ``with_mask``."""
    shapes: dict[str, tuple[float, float, tuple[int, ...], Any]] = {
        "board": (0.0, 1.0, (planes, height, width), np.float32),
        "features": (-2.0, 10.0, (features,), np.float32),
    }
    if with_mask:
        shapes["action_mask"] = (0, 1, (actions,), np.int8)
    if _gym is not None:
        spaces: Any = _gym.spaces
        boxes = {k: spaces.Box(low=lo, high=hi, shape=shape, dtype=dt) for k, (lo, hi, shape, dt) in shapes.items()}
        return spaces.Discrete(actions), spaces.Dict(boxes)
    return DiscreteSpec(actions), DictSpec({k: BoxSpec(lo, hi, shape, dt) for k, (lo, hi, shape, dt) in shapes.items()})
