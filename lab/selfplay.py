"""Self-play: bots play each other; results with confidence intervals (no I/O here).

A series of ``games`` between two bots alternates sides: game ``i`` is played with config
seed ``seed + i`` (mod 2**32), the first bot as ATTACKER in even games and as DEFENDER
in odd ones. Each seat's bot gets its own LCG seed, derived from the game seed and the
side (`lab.bots.seat_seed`), so every game is reproducible on its own.

>>> from engine import UnitSpec, UnitType
>>> spec = schedule(("random", "random"), games=2, seed=5, config=GameConfig(terrain="." * 8 + "\\n" + "." * 8,
...     units=(UnitSpec(id="A1", side=Side.ATTACKER, type=UnitType.LIGHT_INFANTRY, cell="A1"),
...            UnitSpec(id="D1", side=Side.DEFENDER, type=UnitType.LIGHT_INFANTRY, cell="H2"))))
>>> [(g.index, g.config.seed, g.attacker, g.defender) for g in spec]
[(0, 5, 'random', 'random'), (1, 6, 'random', 'random')]
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field

from msgspec.structs import replace

from engine import GameConfig, GameRecord, GameState, Side, legal_actions, new_game, player_view, record_game, reduce
from engine.analysis import unit_vp
from engine.data import CARDS

from .bots import Bot, get_bot, seat_seed

__all__ = [
    "GameResult",
    "GameSpec",
    "Standing",
    "Summary",
    "format_summary",
    "play_game",
    "play_spec",
    "schedule",
    "summarize",
    "wilson_interval",
]


@dataclass(frozen=True)
class GameSpec:
    """One game of a series: its index, config and which bot (by name) plays which side."""

    index: int
    config: GameConfig
    attacker: str
    defender: str
    options: Mapping[str, Mapping[str, object]] = field(default_factory=dict)  # per bot name

    def bot_name(self, side: Side) -> str:
        """The name of the bot playing ``side``."""
        return self.attacker if side is Side.ATTACKER else self.defender


@dataclass(frozen=True)
class GameResult:
    """How one game went."""

    index: int
    seed: int
    attacker: str
    defender: str
    winner: Side | None
    reason: str | None
    actions: int
    turns: int
    vp: tuple[int, int]  # unit VP of ATTACKER, DEFENDER
    record: GameRecord
    cards: tuple[tuple[str, int], ...] = ()  # (card id, times played for effect), by card id

    def winner_name(self) -> str | None:
        """Name of the bot that won (None for an unfinished game)."""
        if self.winner is None:
            return None
        return self.attacker if self.winner is Side.ATTACKER else self.defender


def schedule(
    names: tuple[str, str],
    games: int,
    seed: int,
    config: GameConfig | None = None,
    options: Mapping[str, Mapping[str, object]] | None = None,
) -> list[GameSpec]:
    """The games of a series: seeds ``seed, seed + 1, ...``; the bots swap sides every game."""
    base = config or GameConfig()
    first, second = names
    return [
        GameSpec(
            index=i,
            config=replace(base, seed=(seed + i) & 0xFFFFFFFF),
            attacker=first if i % 2 == 0 else second,
            defender=second if i % 2 == 0 else first,
            options=dict(options or {}),
        )
        for i in range(games)
    ]


def play_game(
    config: GameConfig, bots: Mapping[Side, Bot], on_action: Callable[[GameState], None] | None = None
) -> tuple[GameRecord, GameState]:
    """Play one game to the end; returns its record (with hashes) and the final state.

    Each bot sees only ``player_view(state, side)`` and the legal actions.
    """
    state = new_game(config)
    game_seed = config.seed if config.seed is not None else 1
    seeds = {side: seat_seed(game_seed, side) for side in (Side.ATTACKER, Side.DEFENDER)}
    actions = []
    while state.to_act is not None:
        side = state.to_act
        legal = legal_actions(state)
        action, seeds[side] = bots[side].choose(player_view(state, side), legal, seeds[side])
        if action not in legal:
            raise RuntimeError(f"bot {bots[side].name} chose an illegal action {action!r}")
        state = reduce(state, action)
        actions.append(action)
        if on_action is not None:
            on_action(state)
    return record_game(config, actions), state


def play_spec(spec: GameSpec, on_action: Callable[[GameState], None] | None = None) -> GameResult:
    """Play the game ``spec`` describes (bots built from the registry by name)."""
    bots = {side: get_bot(spec.bot_name(side), **spec.options.get(spec.bot_name(side), {})) for side in Side}
    plays: dict[str, int] = {}

    def count(state: GameState) -> None:
        for event in state.events:
            if event.kind in _PLAYED and event.card is not None:
                card = event.card.partition("#")[0]
                plays[card] = plays.get(card, 0) + 1
        if on_action is not None:
            on_action(state)

    record, final = play_game(spec.config, bots, count)
    return GameResult(
        index=spec.index,
        seed=spec.config.seed or 1,
        attacker=spec.attacker,
        defender=spec.defender,
        winner=final.winner,
        reason=final.victory_reason,
        actions=len(record.actions),
        turns=final.turn,
        vp=(unit_vp(final, Side.ATTACKER), unit_vp(final, Side.DEFENDER)),
        record=record,
        cards=tuple(sorted(plays.items())),
    )


_PLAYED = ("bonus_played", "tactic_played")
"""The event kinds of a card played for its effect (a cancelling bonus is not "played")."""


def wilson_interval(wins: float, games: int, z: float = 1.96) -> tuple[float, float]:
    """Wilson score interval of a win rate (95 % for ``z = 1.96``).

    >>> low, high = wilson_interval(70, 100)
    >>> round(low, 3), round(high, 3)
    (0.604, 0.781)
    """
    if games <= 0:
        return 0.0, 1.0
    p = wins / games
    denominator = 1 + z * z / games
    centre = (p + z * z / (2 * games)) / denominator
    margin = z * math.sqrt(p * (1 - p) / games + z * z / (4 * games * games)) / denominator
    return max(0.0, centre - margin), min(1.0, centre + margin)


@dataclass
class Standing:
    """One bot's results in a series."""

    name: str
    games: int = 0
    wins: int = 0
    as_attacker: tuple[int, int] = (0, 0)  # (wins, games)
    as_defender: tuple[int, int] = (0, 0)

    @property
    def rate(self) -> float:
        """Win rate."""
        return self.wins / self.games if self.games else 0.0

    @property
    def interval(self) -> tuple[float, float]:
        """95 % Wilson interval of the win rate."""
        return wilson_interval(self.wins, self.games)


@dataclass
class Summary:
    """Results of a series."""

    games: int
    standings: list[Standing]
    side_wins: dict[Side, int]
    reasons: dict[str, int]
    mean_actions: float
    actions_margin: float | None  # half-width of the 95 % confidence interval of mean_actions (None: under 2 games)
    mean_turns: float
    cards: dict[str, tuple[int, int]] = field(default_factory=dict)  # card id → (games it was played in, plays)


def summarize(results: Sequence[GameResult]) -> Summary:
    """Wins per bot and side, win rates with 95 % Wilson intervals, average length, cards played."""
    standings: dict[str, Standing] = {}
    side_wins = {Side.ATTACKER: 0, Side.DEFENDER: 0}
    reasons: dict[str, int] = {}
    for result in sorted(results, key=lambda r: r.index):
        for side, name in ((Side.ATTACKER, result.attacker), (Side.DEFENDER, result.defender)):
            if result.attacker == result.defender:  # a mirror match: tell the series' two seats apart
                first = (side is Side.ATTACKER) == (result.index % 2 == 0)
                name = f"{name} #{1 if first else 2}"
            entry = standings.setdefault(name, Standing(name))
            won = int(result.winner is side)
            entry.games += 1
            entry.wins += won
            if side is Side.ATTACKER:
                entry.as_attacker = (entry.as_attacker[0] + won, entry.as_attacker[1] + 1)
            else:
                entry.as_defender = (entry.as_defender[0] + won, entry.as_defender[1] + 1)
        if result.winner is not None:
            side_wins[result.winner] += 1
        reasons[result.reason or "unfinished"] = reasons.get(result.reason or "unfinished", 0) + 1
    cards: dict[str, tuple[int, int]] = {}
    for result in results:
        for card, times in result.cards:
            games, plays = cards.get(card, (0, 0))
            cards[card] = (games + 1, plays + times)
    n = len(results)
    return Summary(
        games=n,
        standings=list(standings.values()),
        side_wins=side_wins,
        reasons=reasons,
        mean_actions=sum(r.actions for r in results) / n if n else 0.0,
        actions_margin=_margin([r.actions for r in results]),
        mean_turns=sum(r.turns for r in results) / n if n else 0.0,
        cards=dict(sorted(cards.items())),
    )


def _margin(values: Sequence[int], z: float = 1.96) -> float | None:
    """Half-width of the normal-approximation confidence interval of the mean of ``values``
    (None for fewer than two values, which say nothing about the spread)."""
    n = len(values)
    if n < 2:
        return None
    mean = sum(values) / n
    variance = sum((v - mean) ** 2 for v in values) / (n - 1)
    return z * math.sqrt(variance / n)


def format_summary(summary: Summary) -> str:
    """The results as a plain-text table."""
    lines = [
        f"{'bot':<14} {'games':>5} {'wins':>5} {'win rate':>8}  {'95% CI (Wilson)':<16} "
        f"{'as ATTACKER':>11} {'as DEFENDER':>11}"
    ]
    for s in summary.standings:
        low, high = s.interval
        lines.append(
            f"{s.name:<14} {s.games:>5} {s.wins:>5} {s.rate:>8.1%}  [{low:.1%}, {high:.1%}]".ljust(57)
            + f" {s.as_attacker[0]:>5}/{s.as_attacker[1]:<5} {s.as_defender[0]:>5}/{s.as_defender[1]:<5}"
        )
    reasons = ", ".join(f"{k} {v}" for k, v in sorted(summary.reasons.items()))
    lines.append(
        f"side wins: ATTACKER {summary.side_wins[Side.ATTACKER]}, DEFENDER {summary.side_wins[Side.DEFENDER]}; "
        f"endings: {reasons}"
    )
    spread = f" ± {summary.actions_margin:.1f}" if summary.actions_margin is not None else ""
    interval = " (95% CI)" if summary.actions_margin is not None else ""
    lines.append(
        f"average length: {summary.mean_actions:.1f}{spread} actions{interval}, {summary.mean_turns:.1f} turns"
    )
    for kind, title in (("tactic", "tactics"), ("bonus", "bonuses")):
        played = [(card, counts) for card, counts in summary.cards.items() if CARDS[card].kind == kind]
        if played:
            shares = (f"{card} {games / max(1, summary.games):.1%} ({plays})" for card, (games, plays) in played)
            lines.append(f"{title} played, share of games (plays): " + ", ".join(shares))
    return "\n".join(lines)
