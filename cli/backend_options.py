"""``--jobs N`` and ``--ray [ADDRESS]``: where the bulk commands (selfplay, fuzz) play their games.

Both only choose a backend of `lab.runner.run_games`; the records written and the
tables printed are the same whichever is chosen.
"""

from __future__ import annotations

import argparse

from lab.runner import LOCAL_RAY

from .game_options import whole_number

__all__ = ["add_backend_options"]


def add_backend_options(parser: argparse.ArgumentParser) -> None:
    """Add ``--jobs`` and ``--ray`` (``args.jobs``, ``args.ray``: None, `LOCAL_RAY` or an address)."""
    parser.add_argument("--jobs", type=whole_number(1, 256), default=1, help="games played in parallel processes")
    parser.add_argument(
        "--ray",
        nargs="?",
        const=LOCAL_RAY,
        default=None,
        metavar="ADDRESS",
        help="play games as Ray tasks: alone, on a local Ray with this machine's cores; with an address "
        "(auto, ray://HOST:10001, HOST:6379), on that cluster (needs the extra taktik[cluster])",
    )
