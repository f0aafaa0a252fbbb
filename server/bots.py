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

The server runs policies on a worker thread, so a policy may think for a while without
stalling the event loop; it does hold the interpreter lock while it thinks, which is why
the default is the fast bot.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field

from engine import Action, GameState

__all__ = ["BotRoster", "Policy"]

Policy = Callable[[GameState, Sequence[Action], int], tuple[Action, int]]


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

    def __post_init__(self) -> None:
        if self.fallback is not None and self.fallback not in self.policies:
            raise ValueError(f"fallback bot {self.fallback!r} is not one of {', '.join(self.policies)}")

    def describe(self, name: str) -> str:
        """The lobby's words for ``name``."""
        return self.about.get(name, name)
