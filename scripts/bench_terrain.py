"""Terrain generation benchmark: median `generate_terrain` time per board size.

    python scripts/bench_terrain.py [--runs 7] [--seed 1] [--profile WxH]

Each size is generated ``--runs`` times with consecutive seeds (after one warm-up run)
and the median is printed together with the cost per 1000 cells, so growth against the
cell count is visible. ``--profile WxH`` instead prints a cProfile summary for one map.

Targets (2-core machine): 20x30 under 50 ms, 200x300 under 2 s.
"""

from __future__ import annotations

import argparse
import cProfile
import pstats
import statistics
import time

from engine.data import generate_terrain

SIZES = ((20, 30), (40, 60), (80, 120), (200, 300))
TARGETS_MS = {(20, 30): 50.0, (200, 300): 2000.0}


def median_ms(width: int, height: int, runs: int, seed: int) -> tuple[float, float]:
    """Median and maximum wall time of ``runs`` generations, in milliseconds."""
    generate_terrain(seed, width, height)  # warm-up: imports, allocator
    times = []
    for k in range(runs):
        start = time.perf_counter()
        generate_terrain(seed + k, width, height)
        times.append((time.perf_counter() - start) * 1000.0)
    return statistics.median(times), max(times)


def bench(runs: int, seed: int) -> None:
    print(f"generate_terrain, default params, median of {runs} seeds from {seed}")
    print(f"{'size':>9} {'cells':>7} {'median ms':>10} {'max ms':>8} {'ms/1000 cells':>14}  target")
    for width, height in SIZES:
        median, worst = median_ms(width, height, runs, seed)
        cells = width * height
        target = TARGETS_MS.get((width, height))
        verdict = "" if target is None else f"< {target:.0f} ms {'ok' if median < target else 'MISSED'}"
        print(
            f"{width:>4}x{height:<4} {cells:>7} {median:>10.1f} {worst:>8.1f} {median / cells * 1000:>14.2f}  {verdict}"
        )


def profile(width: int, height: int, seed: int) -> None:
    profiler = cProfile.Profile()
    profiler.enable()
    generate_terrain(seed, width, height)
    profiler.disable()
    pstats.Stats(profiler).sort_stats("cumulative").print_stats(25)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=7, help="timed runs per size (default 7)")
    parser.add_argument("--seed", type=int, default=1, help="first seed (default 1)")
    parser.add_argument("--profile", metavar="WxH", default=None, help="profile one map of this size instead")
    args = parser.parse_args()
    if args.profile:
        width, height = (int(part) for part in args.profile.lower().split("x"))
        profile(width, height, args.seed)
    else:
        bench(args.runs, args.seed)


if __name__ == "__main__":
    main()
