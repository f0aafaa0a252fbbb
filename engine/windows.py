"""Reaction windows derived from the state, and who holds priority in them (rules §9)."""

from __future__ import annotations

import msgspec

from .types import Window

__all__ = ["OpenWindow", "has_marked", "priority_holder", "reaction_windows", "tactic_plays", "tactic_rank"]


class OpenWindow(msgspec.Struct, frozen=True):
    """A reaction window open now and the key of its instance (shared by post-roll windows)."""

    window: Window
    instance: str


# The functions asked at every action live in window_plays.py, which the compiled build compiles
# (this module's Struct keeps it pure); imported last, as window_plays imports OpenWindow from here.
from .window_plays import has_marked, priority_holder, reaction_windows, tactic_plays, tactic_rank  # noqa: E402
