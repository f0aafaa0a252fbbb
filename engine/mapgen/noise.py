"""Fractal value noise (rules §11 step 5), integer-exact and platform independent.

Each octave places a lattice of pseudo-random values, one per lattice point, from a
32-bit integer hash of ``(ix, iy, key)``; a cell's value is the bilinear blend of its
four lattice corners with smoothstep weights ``t * t * (3 - 2t)``. Three octaves, the
first with lattice spacing ``noise_base_scale * max(W, H)`` cells and amplitude 0.55,
each next one with half the spacing and half the amplitude; the sum is divided by the
total amplitude, so values lie in ``[0, 1)``. Only ``+ - * /``, comparisons and
``floor`` touch floats, so every machine computes the same doubles.

The key comes from the current stream value (passed in, never advanced) plus a salt
per field, so elevation and moisture differ.
"""

from __future__ import annotations

from math import floor

from .geometry import Grid

__all__ = ["ELEVATION_SALT", "MOISTURE_SALT", "OCTAVES", "noise_field"]

OCTAVES = 3
FIRST_AMPLITUDE = 0.55
ELEVATION_SALT = 0x2545F491
MOISTURE_SALT = 0x9E3779B9
_MASK = 0xFFFFFFFF
_TWO_POW_32 = 4294967296.0


def _lattice_value(ix: int, iy: int, key: int) -> float:
    """A value in ``[0, 1)`` for lattice point ``(ix, iy)``; pure 32-bit integer mixing."""
    h = (ix * 0x8DA6B343 + iy * 0xD8163841 + key * 0xCB1AB31F) & _MASK
    h ^= h >> 13
    h = (h * 0x5BD1E995) & _MASK
    h ^= h >> 15
    h = (h * 0x27D4EB2D) & _MASK
    h ^= h >> 16
    return h / _TWO_POW_32


def _smooth(t: float) -> float:
    return t * t * (3.0 - 2.0 * t)


def noise_field(grid: Grid, seed: int, salt: int, base_scale: float) -> list[float]:
    """Row-major noise values in ``[0, 1)`` for every cell."""
    w, h = grid.width, grid.height
    values = [0.0] * grid.size
    spacing = base_scale * max(w, h)
    amplitude = FIRST_AMPLITUDE
    total = 0.0
    for octave in range(OCTAVES):
        key = (seed + salt + octave * 0x632BE5AB) & _MASK
        columns = [(floor(x / spacing), _smooth(x / spacing - floor(x / spacing))) for x in range(w)]
        lattice_w = floor((w - 1) / spacing) + 2
        lattice_h = floor((h - 1) / spacing) + 2
        lattice = [[_lattice_value(ix, iy, key) for ix in range(lattice_w)] for iy in range(lattice_h)]
        for y in range(h):
            iy = floor(y / spacing)
            ty = _smooth(y / spacing - iy)
            top, bottom = lattice[iy], lattice[iy + 1]
            row = [a + (b - a) * ty for a, b in zip(top, bottom, strict=True)]
            base = y * w
            for x, (ix, tx) in enumerate(columns):
                left = row[ix]
                values[base + x] += amplitude * (left + (row[ix + 1] - left) * tx)
        total += amplitude
        amplitude = amplitude / 2
        spacing = spacing / 2
    return [v / total for v in values]
