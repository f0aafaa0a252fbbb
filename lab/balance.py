"""Balance: the standard rules against a variant, on the same seeds, side by side (no I/O here).

`schedule_balance` gives the games: for each rule set (``base``, ``variant``) the same
series as `lab.selfplay.schedule` (seeds ``seed, seed + 1, ...``, the bots swapping sides
every game). `play_balance_game` plays one and reads its numbers off its record
(`game_stats`), so what the report says is what the written records say. `compare` adds
the games up per rule set:

- the ATTACKER's win rate with its 95 % Wilson interval (`lab.selfplay.wilson_interval`),
  and the variant's difference to the base with a 95 % interval (Newcombe's hybrid score
  interval, from the two Wilson intervals);
- game length in turns and actions (mean, quartiles, extremes, and every game's value for
  a histogram);
- how games ended, per victory condition (``unfinished`` for the action cap);
- per card: draws, plays for effect (bonus or tactic), stores, cancels (a bonus spent to
  cancel a malus, or a malus cancelled). A card the variant changes is counted under its
  standard id (`engine.base_card_id`).

The comparison also names what the variant changes: its cards, and each table entry and
scenario field with the base and the variant value (`lab.changes.rule_changes`).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import msgspec

from engine import EventKind, GameConfig, GameRecord, GameState, Side, replay
from engine.data import base_card_id

from .changes import RuleChange
from .selfplay import GameSpec, play_spec, schedule, wilson_interval

__all__ = [
    "RULE_SETS",
    "BalanceGame",
    "BalanceItem",
    "CardUsage",
    "Comparison",
    "Lengths",
    "RuleSetStats",
    "compare",
    "difference_interval",
    "game_stats",
    "play_balance_game",
    "schedule_balance",
]

RULE_SETS = ("base", "variant")


class CardUsage(msgspec.Struct, frozen=True, kw_only=True):
    """How often one card was drawn, played for effect, stored, and used in a cancel."""

    draws: int = 0
    plays: int = 0
    stores: int = 0
    cancels: int = 0

    def __add__(self, other: CardUsage) -> CardUsage:
        return CardUsage(
            draws=self.draws + other.draws,
            plays=self.plays + other.plays,
            stores=self.stores + other.stores,
            cancels=self.cancels + other.cancels,
        )


class BalanceGame(msgspec.Struct, frozen=True, kw_only=True):
    """The numbers of one game, read off its record."""

    rules: str  # "base" or "variant"
    index: int
    seed: int
    attacker: str  # bot names
    defender: str
    winner: Side | None
    reason: str  # victory condition, or "unfinished"
    turns: int
    actions: int
    cards: dict[str, CardUsage]  # by standard card id


@dataclass(frozen=True)
class BalanceItem:
    """One game to play: which rule set, and the game itself."""

    rules: str
    spec: GameSpec


def schedule_balance(
    bots: tuple[str, str], games: int, seed: int, base: GameConfig, variant: GameConfig
) -> list[BalanceItem]:
    """``games`` games under each rule set on the same seeds, sides alternating (base first)."""
    return [
        BalanceItem(rules, spec)
        for rules, config in (("base", base), ("variant", variant))
        for spec in schedule(bots, games, seed, config)
    ]


def play_balance_game(item: BalanceItem, tick: Callable[[object], None]) -> tuple[BalanceGame, GameRecord]:
    """Play ``item``; its numbers (from its record) and the record. ``tick`` hears every decision."""
    result = play_spec(item.spec, tick)
    return game_stats(item.rules, item.spec, result.record), result.record


_COUNTED = {
    EventKind.CARD_DRAWN: "draws",
    EventKind.BONUS_PLAYED: "plays",
    EventKind.TACTIC_PLAYED: "plays",
    EventKind.BONUS_STORED: "stores",
}


def game_stats(rules: str, spec: GameSpec, record: GameRecord) -> BalanceGame:
    """Replay ``record`` and count what happened: the winner, the ending, the length, the cards."""
    counts: dict[str, dict[str, int]] = {}

    def count(card: str | None, what: str) -> None:
        if card is not None:
            row = counts.setdefault(base_card_id(card), {})
            row[what] = row.get(what, 0) + 1

    final: GameState | None = None
    for state in replay(record):
        final = state
        for event in state.events:
            if event.kind in _COUNTED:
                count(event.card, _COUNTED[event.kind])
            elif event.kind is EventKind.MALUS_CANCELLED:
                count(event.card, "cancels")  # the malus
                count(event.detail, "cancels")  # the bonus spent on it
    assert final is not None
    return BalanceGame(
        rules=rules,
        index=spec.index,
        seed=spec.config.seed if spec.config.seed is not None else 1,
        attacker=spec.attacker,
        defender=spec.defender,
        winner=final.winner,
        reason=final.victory_reason or "unfinished",
        turns=final.turn,
        actions=len(record.actions),
        cards={card: CardUsage(**row) for card, row in sorted(counts.items())},
    )


class Lengths(msgspec.Struct, frozen=True, kw_only=True):
    """A length distribution: summary numbers and every game's value (in game order)."""

    mean: float
    low: int
    quartile1: float
    median: float
    quartile3: float
    high: int
    values: tuple[int, ...]

    @classmethod
    def of(cls, values: Sequence[int]) -> Lengths:
        ordered = sorted(values)
        if not ordered:
            return cls(mean=0.0, low=0, quartile1=0.0, median=0.0, quartile3=0.0, high=0, values=())
        return cls(
            mean=sum(ordered) / len(ordered),
            low=ordered[0],
            quartile1=_quantile(ordered, 0.25),
            median=_quantile(ordered, 0.5),
            quartile3=_quantile(ordered, 0.75),
            high=ordered[-1],
            values=tuple(values),
        )


def _quantile(ordered: Sequence[int], q: float) -> float:
    """Linear interpolation between closest ranks (numpy's default)."""
    position = q * (len(ordered) - 1)
    below = math.floor(position)
    above = min(below + 1, len(ordered) - 1)
    return ordered[below] + (ordered[above] - ordered[below]) * (position - below)


class RuleSetStats(msgspec.Struct, frozen=True, kw_only=True):
    """One rule set's games, added up."""

    games: int
    attacker_wins: int
    attacker_rate: float
    attacker_interval: tuple[float, float]  # 95 % Wilson
    turns: Lengths
    actions: Lengths
    endings: dict[str, int]  # victory condition (or "unfinished") → games
    cards: dict[str, CardUsage]  # standard card id → usage over all games


class Comparison(msgspec.Struct, frozen=True, kw_only=True):
    """Base and variant side by side."""

    variant: str
    bots: tuple[str, str]
    games: int  # per rule set
    seed: int
    base: RuleSetStats
    changed: RuleSetStats  # the variant's
    difference: float  # variant's attacker win rate minus the base's
    difference_interval: tuple[float, float]  # 95 %, Newcombe
    changed_cards: tuple[str, ...]
    changed_rules: tuple[RuleChange, ...] = ()  # tables and scenario, base → variant


def difference_interval(wins_a: int, games_a: int, wins_b: int, games_b: int) -> tuple[float, float]:
    """95 % interval of ``rate_a − rate_b`` (Newcombe's hybrid score method, from Wilson intervals).

    >>> low, high = difference_interval(60, 100, 50, 100)
    >>> round(low, 3), round(high, 3)
    (-0.037, 0.232)
    """
    p_a = wins_a / games_a if games_a else 0.0
    p_b = wins_b / games_b if games_b else 0.0
    low_a, high_a = wilson_interval(wins_a, games_a)
    low_b, high_b = wilson_interval(wins_b, games_b)
    d = p_a - p_b
    return (
        d - math.sqrt((p_a - low_a) ** 2 + (high_b - p_b) ** 2),
        d + math.sqrt((high_a - p_a) ** 2 + (p_b - low_b) ** 2),
    )


def _stats(games: Sequence[BalanceGame]) -> RuleSetStats:
    wins = sum(1 for g in games if g.winner is Side.ATTACKER)
    endings: dict[str, int] = {}
    cards: dict[str, CardUsage] = {}
    for game in games:
        endings[game.reason] = endings.get(game.reason, 0) + 1
        for card, usage in game.cards.items():
            cards[card] = cards.get(card, CardUsage()) + usage
    return RuleSetStats(
        games=len(games),
        attacker_wins=wins,
        attacker_rate=wins / len(games) if games else 0.0,
        attacker_interval=wilson_interval(wins, len(games)),
        turns=Lengths.of([g.turns for g in games]),
        actions=Lengths.of([g.actions for g in games]),
        endings=dict(sorted(endings.items())),
        cards=dict(sorted(cards.items())),
    )


def compare(
    games: Sequence[BalanceGame],
    *,
    variant: str,
    bots: tuple[str, str],
    seed: int,
    changed_cards: tuple[str, ...] = (),
    changed_rules: tuple[RuleChange, ...] = (),
) -> Comparison:
    """Add up ``games`` (in any order) per rule set, and the difference the variant makes."""
    by_rules = {name: sorted((g for g in games if g.rules == name), key=lambda g: g.index) for name in RULE_SETS}
    base, changed = _stats(by_rules["base"]), _stats(by_rules["variant"])
    return Comparison(
        variant=variant,
        bots=bots,
        games=max(base.games, changed.games),
        seed=seed,
        base=base,
        changed=changed,
        difference=changed.attacker_rate - base.attacker_rate,
        difference_interval=difference_interval(
            changed.attacker_wins, changed.games, base.attacker_wins, base.games
        ),
        changed_cards=changed_cards,
        changed_rules=changed_rules,
    )
