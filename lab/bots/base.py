"""The bot interface: one function from what a seat may see to one legal action.

A bot is any object with a ``name`` and a ``choose`` method::

    action, seed = bot.choose(view, legal, seed)

* ``view`` is ``player_view(state, state.to_act)``: the position as the deciding seat
  sees it (hidden cards are ``"?"``, ``rng`` is 0). A bot never receives the real state.
* ``legal`` is ``legal_actions(state)``, in canonical order; it is never empty.
* ``seed`` is the bot's own 32-bit LCG seed (``engine.rng``). ``choose`` returns the
  chosen action (an element of ``legal``) and the next seed, which the caller passes to
  the next call, exactly as the engine threads ``state.rng``.

A bot that can think within a time also has ``within(seconds, clock) -> bot``: the same bot
deciding within ``seconds`` of the injected ``clock`` (MCTS does; a live seat passes the
budget its game clock leaves, `client.BotPolicy`). Quick bots need none.

Bots are deterministic: no I/O, no clock (unless one is injected), no global state, and
the same ``(view, legal, seed)`` given to a fresh bot always gives the same
``(action, seed)``. A bot may remember its own earlier choices (the MCTS bot follows the
turn plan it chose), so a game between bots replays exactly from its seeds.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol, runtime_checkable

from engine import Action, GameState, Side, mix_seed

__all__ = ["Bot", "seat_seed"]

@runtime_checkable
class Bot(Protocol):
    """A player that picks one of the legal actions for the seat that must decide."""

    @property
    def name(self) -> str:
        """Registry name of the bot ("random", "greedy", "mcts", ...)."""
        ...

    def choose(self, view: GameState, legal: Sequence[Action], rng: int) -> tuple[Action, int]:
        """Return ``(action, next_rng)``; ``action`` is an element of ``legal``."""
        ...


def seat_seed(game_seed: int, side: Side, salt: int = 0) -> int:
    """The starting seed of the bot playing ``side`` in the game with ``game_seed``."""
    return mix_seed(game_seed, 1 if side is Side.ATTACKER else 2, salt)
