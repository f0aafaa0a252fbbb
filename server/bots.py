"""Bot seats: the policies a server-played seat may use, handed to the server by its host.

A policy is a function ``choose(view, legal, seed) -> (action, next_seed)``:

- ``view`` is ``player_view(state, bot_seat)``: the bot sees exactly what a person in
  that seat would, never the opponent's cards, the deck order or the rng;
- ``legal`` is the non-empty list of legal actions for that seat, in engine order;
- ``seed`` is a 32-bit number for the bot's own randomness, and ``next_seed`` is the seed
  for its next decision.

The server plays no bot of its own: whoever starts it (``taktik serve`` in `cli`) builds a
`BotRoster` from the lab's bots and passes it in `Settings`. A server started with an empty
roster refuses bot matches with a clear error.

The roster also carries the host's advice for people: a ``hint`` policy (the bot's choice for
a seat's decision, with its reason in words, from that seat's view) and an ``estimate`` (the
ATTACKER's win chance in a position, for the replay viewer's evaluation graph).

Every policy, hint and estimate runs on the roster's own worker threads (`think`), never on
the event loop: the loop goes on answering other sockets and matches while a bot thinks.
A thinking bot holds the interpreter lock in turns with the loop (Python switches threads
every few milliseconds), so the loop is slowed, never stopped; the results do not depend on
which worker ran them.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import TypeVar

from engine import Action, GameState

__all__ = ["BotRoster", "Estimate", "HintPolicy", "Policy"]

Policy = Callable[[GameState, Sequence[Action], int], tuple[Action, int]]
HintPolicy = Callable[[GameState, Sequence[Action], int], tuple[Action, str]]
"""``hint(view, legal, seed) -> (action, reason)``: what the bot would play, and why, in words."""
Estimate = Callable[[GameState], float]
"""``estimate(view) -> p``: the ATTACKER's chance to win the position, 0..1."""

_T = TypeVar("_T")


@dataclass(frozen=True)
class BotRoster:
    """The bots a server can seat, by name, with what the lobby says of each."""

    policies: Mapping[str, Policy] = field(default_factory=dict)
    """Policies by name. A match's bot decides at each version ``v`` with seed
    ``mix_seed(bot_seed, v)`` unless it carries on from its previous decision's next seed."""
    about: Mapping[str, str] = field(default_factory=dict)
    """What the lobby shows for each policy (a policy without an entry is shown by its name)."""
    fallback: str | None = None
    """The policy that plays when the chosen one fails (it must be one of ``policies``)."""
    hint: HintPolicy | None = None
    """Answers a seat's `hint` query (None: the server offers no hints)."""
    estimate: Estimate | None = None
    """The win estimate of the replay viewer's evaluation graph (None: no graph)."""
    thinkers: int = 2
    """Worker threads that run policies, hints and estimates (bots of different matches think side by side)."""
    _pool: ThreadPoolExecutor = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        if self.fallback is not None and self.fallback not in self.policies:
            raise ValueError(f"fallback bot {self.fallback!r} is not one of {', '.join(self.policies)}")
        if self.thinkers < 1:
            raise ValueError("a roster needs at least one thinker thread")
        object.__setattr__(self, "_pool", ThreadPoolExecutor(self.thinkers, thread_name_prefix="bot"))

    async def think(self, work: Callable[..., _T], *args: object) -> _T:
        """Run ``work(*args)`` on a worker thread and await its result; the event loop stays free."""
        return await asyncio.get_running_loop().run_in_executor(self._pool, work, *args)

    def describe(self, name: str) -> str:
        """The lobby's words for ``name``."""
        return self.about.get(name, name)
