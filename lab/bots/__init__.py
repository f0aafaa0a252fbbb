"""Bots: players built only on `player_view`, `legal_actions` and the engine's LCG.

Every bot has the same interface (`Bot`)::

    action, seed = bot.choose(view, legal, seed)

where ``view = player_view(state, state.to_act)``, ``legal = legal_actions(state)`` and
``seed`` is the bot's own 32-bit LCG seed, threaded from call to call like ``state.rng``.
Bots are deterministic: the same inputs give a fresh bot the same action and next seed.

Registry: `get_bot` builds a bot by name with keyword options, e.g.
``get_bot("mcts", iterations=400)``; `BOTS` lists the names. ``strong`` names the
top-rated bot (today the MCTS bot, ``mcts``).

>>> sorted(BOTS)
['greedy', 'mcts', 'oep', 'random', 'strong']
>>> get_bot("mcts", iterations=50).iterations
50
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from typing import Any

from .advice import hint, win_chance
from .base import Bot, seat_seed
from .determinize import sample_world
from .greedy import GreedyBot
from .mcts import MCTSBot
from .oep import EvolutionBot
from .random_bot import RandomBot
from .strong import StrongBot

__all__ = [
    "ABOUT",
    "BOTS",
    "Bot",
    "EvolutionBot",
    "GreedyBot",
    "MCTSBot",
    "RandomBot",
    "StrongBot",
    "bot_options",
    "get_bot",
    "hint",
    "sample_world",
    "seat_seed",
    "win_chance",
]

BOTS: dict[str, Callable[..., Bot]] = {
    "random": RandomBot,
    "greedy": GreedyBot,
    "mcts": MCTSBot,
    "oep": EvolutionBot,
    "strong": StrongBot,
}
"""Bot factories by registry name."""

ABOUT: dict[str, str] = {
    "greedy": "Greedy: quick, takes the best-looking action",
    "mcts": "Tree search: plans its turn through sampled replies (slower)",
    "oep": "Planner: evolves whole turns against the evaluation",
    "random": "Random: any legal action (for testing)",
    "strong": "Strong: plans its whole turn (slower)",
}
"""One line a player reads about each bot (the lobby's bot picker shows it)."""


def bot_options(name: str) -> dict[str, object]:
    """The options ``name`` accepts, with their defaults."""
    factory = _factory(name)
    if not dataclasses.is_dataclass(factory):
        return {}
    options: dict[str, object] = {}
    for f in dataclasses.fields(factory):
        if f.name == "name" or not f.init:
            continue
        if f.default is not dataclasses.MISSING:
            options[f.name] = f.default
        elif f.default_factory is not dataclasses.MISSING:
            options[f.name] = f.default_factory()
        else:
            options[f.name] = None  # required
    return options


def get_bot(name: str, **options: Any) -> Bot:
    """Build the bot registered as ``name`` with ``options``; ValueError names a bad name or option.

    >>> get_bot("greedy").name
    'greedy'
    >>> get_bot("chess")
    Traceback (most recent call last):
    ...
    ValueError: unknown bot 'chess'; known bots: greedy, mcts, oep, random, strong
    """
    factory = _factory(name)
    allowed = bot_options(name)
    unknown = sorted(set(options) - set(allowed))
    if unknown:
        raise ValueError(f"bot {name!r} has no option {', '.join(unknown)}; options: {', '.join(allowed) or 'none'}")
    return factory(**options)


def _factory(name: str) -> Callable[..., Bot]:
    try:
        return BOTS[name]
    except KeyError:
        raise ValueError(f"unknown bot {name!r}; known bots: {', '.join(sorted(BOTS))}") from None
