"""How many actions a turn can take: the bound that follows from the rules (rules §4.6).

Every step of a turn is limited by a count the rules keep, so no sequence of legal actions
loops inside a turn. For the active side with ``F`` units (standing or destroyed), ``S``
stored bonuses when the turn starts and ``M`` = ``max_attacks_per_turn``:

========================================  =====================
CARD_DRAW and CARD_RESOLUTION              ``S + 5``
MOVEMENT (a move per unit, two window      ``3F + 3``
actions per window instance)
ATTACK (declarations, withdrawals)         ``F + 2M + 1``
DICE_RESOLUTION (per attack: roll,         ``6M + 1``
resolve, two windows of two actions)
========================================  =====================

so a turn takes at most ``4F + 8M + S + 10`` actions, both sides' included (116 for a
DEFENDER of 15 units with 6 stored bonuses in the standard tables). Manual deployment takes
at most ``2F + 2`` actions per side: each unit placed, as many moves of placed units as
units, one AUTO_DEPLOY and one CONFIRM_DEPLOYMENT.
"""

from __future__ import annotations

from ..state import GameState, player_of
from ..tables import game_tables
from ..types import Side

__all__ = ["deployment_action_bound", "turn_action_bound"]


def _force(state: GameState, side: Side) -> int:
    """Units of ``side`` in the game: standing, waiting to deploy or destroyed (one may come back)."""
    return sum(1 for u in state.units if u.side is side) + len(player_of(state, side).destroyed)


def turn_action_bound(state: GameState) -> int:
    """The most actions the turn under way in ``state`` can take from its start: ``4F + 8M + S + 10``.

    ``state`` is at the start of a turn (its CARD_DRAW, nothing done yet), when ``S`` is read.
    """
    side = state.active
    stored = len(player_of(state, side).stored)
    attacks = game_tables(state.rules.tables).max_attacks_per_turn
    return 4 * _force(state, side) + 8 * attacks + stored + 10


def deployment_action_bound(state: GameState, side: Side) -> int:
    """The most actions ``side`` can take in manual deployment: ``2F + 2``."""
    return 2 * _force(state, side) + 2
