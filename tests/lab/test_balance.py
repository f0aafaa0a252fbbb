"""lab.balance: same seeds under both rule sets, and numbers that agree with the records."""

from __future__ import annotations

import pytest

from engine import EventKind, GameConfig, GameRecord, RoundLimit, Side, VictoryConfig, replay
from engine.data import base_card_id
from lab.balance import (
    BalanceGame,
    CardUsage,
    Lengths,
    compare,
    difference_interval,
    play_balance_game,
    schedule_balance,
)
from lab.selfplay import wilson_interval
from lab.variant import apply_variant, decode_variant

SMALL = GameConfig(
    terrain="\n".join(["." * 10] * 12), victory=VictoryConfig(max_actions=160, round_limit=RoundLimit(max_rounds=4))
)
VARIANT = decode_variant(b'{"name": "more_cover", "cards": {"change": {"air_cover": {"copies_60": 6}}}}')


def test_both_rule_sets_play_the_same_seeds_with_sides_alternating() -> None:
    items = schedule_balance(("greedy", "random"), 3, 40, SMALL, apply_variant(SMALL, VARIANT))
    assert [(i.rules, i.spec.config.seed, i.spec.attacker) for i in items] == [
        ("base", 40, "greedy"), ("base", 41, "random"), ("base", 42, "greedy"),
        ("variant", 40, "greedy"), ("variant", 41, "random"), ("variant", 42, "greedy"),
    ]
    assert all(i.spec.config.rules is None for i in items[:3])
    assert all(i.spec.config.rules == VARIANT.rules for i in items[3:])


@pytest.fixture(scope="module")
def played() -> list[tuple[BalanceGame, GameRecord]]:
    items = schedule_balance(("random", "random"), 2, 7, SMALL, apply_variant(SMALL, VARIANT))
    return [play_balance_game(item, lambda _: None) for item in items]


def test_a_games_numbers_are_those_of_its_record(played: list[tuple[BalanceGame, GameRecord]]) -> None:
    for game, record in played:
        states = list(replay(record))
        final = states[-1]
        assert game.winner is final.winner
        assert game.reason == (final.victory_reason or "unfinished")
        assert (game.turns, game.actions) == (final.turn, len(states) - 1)
        draws: dict[str, int] = {}
        for state in states:
            for event in state.events:
                if event.kind is EventKind.CARD_DRAWN and event.card:
                    draws[base_card_id(event.card)] = draws.get(base_card_id(event.card), 0) + 1
        assert {card: usage.draws for card, usage in game.cards.items() if usage.draws} == draws
        assert all("@" not in card and "#" not in card for card in game.cards)  # counted under the standard id


def test_the_comparison_adds_up_the_games(played: list[tuple[BalanceGame, GameRecord]]) -> None:
    games = [game for game, _ in played]
    c = compare(list(reversed(games)), variant="more_cover", bots=("random", "random"), seed=7)  # any order
    for stats, rules in ((c.base, "base"), (c.changed, "variant")):
        mine = [g for g in games if g.rules == rules]
        wins = sum(g.winner is Side.ATTACKER for g in mine)
        assert (stats.games, stats.attacker_wins) == (len(mine), wins)
        assert stats.attacker_interval == wilson_interval(wins, len(mine))
        assert stats.actions.values == tuple(g.actions for g in sorted(mine, key=lambda g: g.index))
        assert sum(stats.endings.values()) == len(mine)
        assert sum(u.plays for u in stats.cards.values()) == sum(u.plays for g in mine for u in g.cards.values())
    assert c.difference == pytest.approx(c.changed.attacker_rate - c.base.attacker_rate)


def test_difference_interval_contains_the_difference_and_narrows_with_games() -> None:
    low, high = difference_interval(6, 10, 4, 10)
    assert low < 0.2 < high
    low_many, high_many = difference_interval(600, 1000, 400, 1000)
    assert low < low_many < 0.2 < high_many < high
    assert difference_interval(5, 10, 5, 10)[0] == pytest.approx(-difference_interval(5, 10, 5, 10)[1])


def test_lengths_quartiles() -> None:
    lengths = Lengths.of([4, 1, 3, 2])
    assert (lengths.low, lengths.quartile1, lengths.median, lengths.quartile3, lengths.high) == (1, 1.75, 2.5, 3.25, 4)
    assert lengths.mean == 2.5 and lengths.values == (4, 1, 3, 2)


def test_card_usage_adds() -> None:
    total = CardUsage(draws=1, plays=2) + CardUsage(stores=3, cancels=1)
    assert total == CardUsage(draws=1, plays=2, stores=3, cancels=1)
