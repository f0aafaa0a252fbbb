"""The random draw (`random_legal_action`): exactly the listing's action at the drawn index, so uniform."""

from __future__ import annotations

import math
import random
from collections import Counter

import pytest

from engine import (
    GameConfig,
    GameState,
    MoveUnit,
    Phase,
    decode_state,
    draw_index,
    encode_state,
    legal_action_count,
    legal_actions,
    new_game,
    random_legal_action,
    reduce,
    state_hash,
)


class Fixed:
    """An index source that always answers ``index`` (and remembers what it was asked)."""

    def __init__(self, index: int) -> None:
        self.index = index
        self.asked: list[int] = []

    def randrange(self, stop: int, /) -> int:
        self.asked.append(stop)
        return self.index


def fresh(state: GameState) -> GameState:
    """An equal state that no listing has seen, so the draw cannot use a cached listing."""
    return decode_state(encode_state(state))


def movement_position(seed: int, moves: int) -> GameState:
    """A position of a random default game in MOVEMENT after ``moves`` MOVE_UNITs this game."""
    state, made, choice = new_game(GameConfig(seed=seed)), 0, seed
    while True:
        legal = legal_actions(state)
        assert legal, "the game ended before the position was found"
        moving = [a for a in legal if isinstance(a, MoveUnit)]
        if state.phase is Phase.MOVEMENT and len(moving) > 40 and made >= moves:
            return fresh(state)
        if moving and made < moves:
            index, choice = draw_index(len(moving), choice)
            state, made = reduce(state, moving[index]), made + 1
            continue
        index, choice = draw_index(len(legal), choice)
        state = reduce(state, legal[index])


POSITIONS = {
    "deployment start": lambda: new_game(GameConfig(seed=4, deployment="manual")),
    "first movement": lambda: movement_position(1, 0),
    "mid-game movement": lambda: movement_position(2, 12),
    "crowded movement": lambda: movement_position(7, 30),
}


@pytest.mark.parametrize("name", POSITIONS)
def test_every_index_draws_exactly_the_listed_action(name: str) -> None:
    state = POSITIONS[name]()
    listing = legal_actions(fresh(state))
    assert legal_action_count(fresh(state)) == len(listing)
    for index, expected in enumerate(listing):
        source = Fixed(index)
        assert random_legal_action(fresh(state), source) == expected, index
        assert source.asked == [len(listing)]  # one draw, over the whole listing


def _chi_square_bound(dof: int) -> float:
    """The chi-square value exceeded with probability about 1e-4 (Wilson-Hilferty)."""
    z = 3.719  # the standard normal's 1 - 1e-4 quantile
    return dof * (1 - 2 / (9 * dof) + z * math.sqrt(2 / (9 * dof))) ** 3


def _chi_square(counts: Counter[int], n: int, draws: int) -> float:
    expected = draws / n
    return sum((counts[i] - expected) ** 2 / expected for i in range(n))


@pytest.mark.parametrize("name", ["first movement", "crowded movement"])
def test_draws_are_uniform_over_the_listing(name: str) -> None:
    state = POSITIONS[name]()
    listing = legal_actions(fresh(state))
    where = {action: i for i, action in enumerate(listing)}
    n, draws = len(listing), 40 * len(listing)
    rng = random.Random(18)
    drawn = Counter(where[random_legal_action(state, rng)] for _ in range(draws))  # type: ignore[index]
    assert _chi_square(drawn, n, draws) < _chi_square_bound(n - 1)
    # The test has power: drawing a unit first and then one of its moves is not uniform here.
    by_unit: dict[str, list[int]] = {}
    for i, action in enumerate(listing):
        if isinstance(action, MoveUnit):
            by_unit.setdefault(action.unit_id, []).append(i)
    groups = list(by_unit.values())
    biased = Counter(rng.choice(rng.choice(groups)) for _ in range(draws))
    assert _chi_square(biased, n, draws) > _chi_square_bound(n - 1)


def test_a_seeded_playout_is_the_same_game_drawn_or_listed() -> None:
    listed, drawn = new_game(GameConfig(seed=5)), new_game(GameConfig(seed=5))
    by_list, by_draw = random.Random(9), random.Random(9)
    steps = 0
    while True:
        legal = legal_actions(listed)
        action = random_legal_action(drawn, by_draw)
        if not legal:
            assert action is None
            break
        listed = reduce(listed, legal[by_list.randrange(len(legal))])
        assert action is not None
        drawn = reduce(drawn, action)
        steps += 1
    assert state_hash(listed) == state_hash(drawn) and steps > 100


def test_a_finished_game_draws_nothing_and_asks_for_no_index() -> None:
    state = new_game(GameConfig(seed=3))
    rng = random.Random(1)
    while legal_actions(state):
        state = reduce(state, legal_actions(state)[rng.randrange(len(legal_actions(state)))])
    source = Fixed(0)
    assert random_legal_action(fresh(state), source) is None and source.asked == []
    assert legal_action_count(fresh(state)) == 0


def test_a_source_answering_outside_its_range_is_named() -> None:
    state = POSITIONS["first movement"]()
    with pytest.raises(ValueError, match=r"randrange\(\d+\) returned -1"):
        random_legal_action(state, Fixed(-1))
    legal_actions(state)  # and when the listing is at hand
    with pytest.raises(ValueError, match=r"randrange\(\d+\) returned -1"):
        random_legal_action(state, Fixed(-1))
