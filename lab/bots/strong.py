"""``strong``: the registry's name for the top-rated bot, the lobby's strongest level.

Today that is the evolutionary planner with its default options (`EvolutionBot`): it rated
highest on the ladder of docs/bots.md (held-out seeds). The name stays when a better bot
takes the place, so the lobby, `taktik serve --bot strong` and scripts need not change.
"""

from __future__ import annotations

from dataclasses import dataclass

from .oep import EvolutionBot

__all__ = ["StrongBot"]


@dataclass(frozen=True)
class StrongBot(EvolutionBot):
    """The top-rated bot (`EvolutionBot`, default options) under the name ``strong``."""

    name: str = "strong"
