"""Bot policies: how a server-played seat picks its action.

A policy is a function ``choose(view, legal, seed) -> (action, next_seed)``:

- ``view`` is ``player_view(state, bot_seat)``: the bot sees exactly what a person in
  that seat would, never the opponent's cards, the deck order or the rng;
- ``legal`` is the non-empty list of legal actions for that seat, in engine order;
- ``seed`` is a 32-bit number for the bot's own randomness (``engine.rng`` functions take
  and return one), and ``next_seed`` is the seed for its next decision.

Every engine bot (`engine.bots.BOTS`: greedy, mcts, random) is registered under its own
name with its default options; greedy comes first and is the default: it answers in a few
milliseconds. mcts plays stronger (it wins about six games in ten against greedy) but
thinks for about 2.5 s once per turn on a 20x30 map. ``taktik serve --bot NAME``
chooses the policy for new bot matches.

The server runs policies on a worker thread, so a policy may think for a while without
stalling the event loop; it does hold the interpreter lock while it thinks, which is why
the default is the fast bot. To add a policy, write the function and register it in
`POLICIES`.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from engine import Action, GameState
from engine.bots import get_bot, mix_seed

__all__ = ["ABOUT", "POLICIES", "Policy", "mix_seed", "random_policy"]

Policy = Callable[[GameState, Sequence[Action], int], tuple[Action, int]]

POLICIES: dict[str, Policy] = {name: get_bot(name).choose for name in ("greedy", "mcts", "random")}
"""Policies by name; the first registered is the default.

A match's bot decides at each version ``v`` with seed ``mix_seed(bot_seed, v)`` unless it
carries on from its previous decision's next seed."""

random_policy: Policy = POLICIES["random"]
"""A uniform pick among the legal actions; the fallback when a policy fails."""

ABOUT: dict[str, str] = {
    "greedy": "Greedy: quick, takes the best-looking action",
    "mcts": "Strong: plans its whole turn (slower)",
    "random": "Random: any legal action (for testing)",
}
"""What the lobby shows for each policy (a policy without an entry is shown by its name)."""
