"""The fuzzer plays games with the variant deck `field_manual` (cards only as data) without an invariant failing."""

from __future__ import annotations

import pytest

from engine import GameConfig
from lab.fuzz import FuzzOptions, fuzz_game
from tests.support import shipped_deck

VARIANT_FIRST = tuple(i for i in shipped_deck(60, "field_manual") if i not in set(shipped_deck(60)))


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_fuzzed_games_with_the_variant_deck_keep_every_invariant(seed: int) -> None:
    # The variant's cards are drawn first, so their effects are in play for most of the game.
    rest = tuple(i for i in shipped_deck(60, "field_manual") if i not in VARIANT_FIRST)
    config = GameConfig(seed=seed, cards="field_manual", draw_pile=VARIANT_FIRST + rest)
    outcome = fuzz_game(config, seed=seed, options=FuzzOptions(unlisted=2))
    assert outcome.failure is None, outcome.failure
    assert len(outcome.actions) > 50


def test_a_sampled_world_of_a_variant_game_deals_from_the_variant_deck() -> None:
    # The state carries its deck source, so a determinizing bot rebuilds the right deck.
    from engine import Side, new_game, player_view
    from lab.bots.determinize import sample_world

    state = new_game(GameConfig(seed=4, cards="field_manual"))
    assert state.rules.cards == "field_manual"
    world, _ = sample_world(player_view(state, Side.ATTACKER), 9)
    assert sorted(world.draw_pile) == sorted(state.draw_pile)
    assert new_game(GameConfig(seed=4)).rules.cards == "standard"
