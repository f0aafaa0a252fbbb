"""``strong``: the registry's name for the top-rated bot, the lobby's strongest level.

Today that is the MCTS bot with its default options (`MCTSBot`): it rated highest on the
ladder of docs/bots.md (held-out seeds 71001..71008), above the evolutionary planner
(``oep``). The name stays when another bot takes the place, so the lobby,
`taktik serve --bot strong` and scripts need not change.
"""

from __future__ import annotations

from dataclasses import dataclass

from .mcts import MCTSBot

__all__ = ["StrongBot"]


@dataclass(frozen=True)
class StrongBot(MCTSBot):
    """The top-rated bot (`MCTSBot`, default options) under the name ``strong``."""

    name: str = "strong"
