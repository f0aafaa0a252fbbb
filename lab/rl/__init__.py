"""Reinforcement-learning environments on top of `legal_actions` (needs numpy: ``pip install taktik[rl]``).

* `ActionSpace`: a fixed numbering of every action for a board size and unit roster
  (pure Python; importable without numpy as ``lab.rl.actions``);
* `TaktikEnv`: Gymnasium-style single-agent environment (the other seat is a bot);
* `TaktikAECEnv`: both seats as agents, PettingZoo AEC style;
* `encode_observation`: board planes, features and the action mask from a player view;
* `ModelBot`: a model trained on `TaktikEnv` (e.g. MaskablePPO) playing as a lab bot.

The engine itself never imports numpy: only this package does, lazily, when one of the
numpy-backed names is first used.
"""

from __future__ import annotations

from typing import Any

from .actions import MALUS_SLOTS, STORAGE_SLOTS, ActionSpace, roster_of

__all__ = [
    "MALUS_SLOTS",
    "STORAGE_SLOTS",
    "ActionSpace",
    "ModelBot",
    "TaktikAECEnv",
    "TaktikEnv",
    "encode_observation",
    "roster_of",
]

_LAZY = {
    "TaktikEnv": ("env", "TaktikEnv"),
    "TaktikAECEnv": ("aec", "TaktikAECEnv"),
    "encode_observation": ("observation", "encode_observation"),
    "ModelBot": ("model_bot", "ModelBot"),
}


def __getattr__(name: str) -> Any:
    if name in _LAZY:
        from importlib import import_module

        module, attr = _LAZY[name]
        return getattr(import_module(f"{__name__}.{module}"), attr)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
