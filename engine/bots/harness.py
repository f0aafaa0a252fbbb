"""What the command line needs to run bots and the fuzzer, in one place under `engine.bots`.

The server may use the engine only through its public package and the bot API
(``tests/test_layers.py``); ``taktik selfplay`` and ``taktik fuzz`` import the series
runner (`engine.selfplay`) and the fuzzer (`engine.fuzz`) through this module. Were
`engine/__init__.py` to re-export them, this module could go.
"""

from __future__ import annotations

from ..fuzz import FuzzOptions, Shrunk, fuzz_game, game_seed, pytest_source, random_config, shrink
from ..selfplay import GameResult, GameSpec, format_summary, play_spec, schedule, summarize

__all__ = [
    "FuzzOptions",
    "GameResult",
    "GameSpec",
    "Shrunk",
    "format_summary",
    "fuzz_game",
    "game_seed",
    "play_spec",
    "pytest_source",
    "random_config",
    "schedule",
    "shrink",
    "summarize",
]
