"""Bot policies: how a server-played seat picks its action.

A policy is a pure function ``choose(view, legal, seed) -> (action, next_seed)``:

- ``view`` is ``player_view(state, bot_seat)``: the bot sees exactly what a person in
  that seat would, never the opponent's cards, the deck order or the rng;
- ``legal`` is the non-empty list of legal actions for that seat, in engine order;
- ``seed`` is a 32-bit number for the bot's own randomness (``engine.rng`` functions take
  and return one), and ``next_seed`` is the seed for its next decision.

The server runs policies on a worker thread, so a policy may think for a while (say up to
a second) without stalling other matches. To add one, write the function and register it
in `POLICIES`; ``taktik serve --bot NAME`` chooses the policy for new bot matches.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from engine import Action, GameState
from engine.rng import pick

__all__ = ["POLICIES", "Policy", "mix_seed", "random_policy"]

Policy = Callable[[GameState, Sequence[Action], int], tuple[Action, int]]


def random_policy(view: GameState, legal: Sequence[Action], seed: int) -> tuple[Action, int]:
    """Pick uniformly among the legal actions with the engine's LCG."""
    index, seed = pick(len(legal), seed)
    return legal[index], seed


POLICIES: dict[str, Policy] = {"random": random_policy}
"""Policies by name; the first registered is the default."""


def mix_seed(bot_seed: int, version: int) -> int:
    """A bot seed for the decision at ``version`` of a match whose bot was given ``bot_seed``."""
    return (bot_seed ^ (version * 0x9E3779B1)) & 0xFFFFFFFF
