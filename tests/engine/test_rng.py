"""The LCG, dice and shuffles match the rules' test vectors (§1.3)."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from engine.rng import next_seed, pick, rand_float, rand_int, roll_d6, shuffle


def test_seed_sequence_from_one_matches_the_vectors() -> None:
    seeds = []
    seed = 1
    for _ in range(5):
        seed = next_seed(seed)
        seeds.append(seed)
    assert seeds == [1015568748, 1586005467, 2165703038, 3027450565, 217083232]


def test_d6_sequence_from_one_matches_the_vectors() -> None:
    rolls = []
    seed = 1
    for _ in range(5):
        value, seed = roll_d6(seed)
        rolls.append(value)
    assert rolls == [1, 4, 3, 2, 5]


def test_first_d6_from_seed_42_is_two() -> None:
    assert roll_d6(42)[0] == 2


def test_shuffle_of_ten_from_seed_one_matches_the_vector() -> None:
    assert shuffle(list(range(10)), 1) == ((1, 0, 3, 5, 2, 4, 7, 9, 6, 8), 70837908)


@given(st.integers(0, 2**32 - 1), st.integers(0, 40))
def test_shuffle_consumes_n_minus_one_steps_and_permutes(seed: int, n: int) -> None:
    items = list(range(n))
    shuffled, after = shuffle(items, seed)
    expected = seed
    for _ in range(max(0, n - 1)):
        expected = next_seed(expected)
    assert after == expected
    assert sorted(shuffled) == items


def test_shuffle_of_one_or_no_item_consumes_nothing() -> None:
    assert shuffle([], 5) == ((), 5)
    assert shuffle(["x"], 5) == (("x",), 5)


@given(st.integers(0, 2**32 - 1), st.integers(1, 1000))
def test_pick_is_one_step_and_in_range(seed: int, n: int) -> None:
    index, after = pick(n, seed)
    assert 0 <= index < n
    assert after == next_seed(seed)
    assert index == next_seed(seed) % n


@given(st.integers(0, 2**32 - 1))
def test_terrain_helpers_follow_the_definition(seed: int) -> None:
    value, after = rand_float(seed)
    assert value == next_seed(seed) / 2**32 and 0 <= value < 1 and after == next_seed(seed)
    number, _ = rand_int(3, 7, seed)
    assert number == 3 + int(value * 5) and 3 <= number <= 7


def test_d6_values_cover_one_to_six() -> None:
    seed, seen = 1, set()
    for _ in range(60):
        value, seed = roll_d6(seed)
        seen.add(value)
    assert seen == {1, 2, 3, 4, 5, 6}
