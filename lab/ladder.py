"""A rating ladder: a round robin of bots, every pair on the same seeds with sides alternating.

An `Entry` is a contestant: a label, a registered bot and its options (``mcts`` or a variant
of it, ``wide = mcts + {"wide": true}``), or an outside program that plays over the wire (the
command line plays those games through a server, `cli.ladder_wire`; this module only
schedules them and rates their results). Each pair of entries plays ``games`` games on seeds
``seed, seed + 1, ...``, the first entry of the pair as ATTACKER in even games, so every pair
meets on the very same deals. The results are fitted into ratings (`lab.rating`: Bradley–Terry
on the Elo scale, with 95 % intervals) and a table of every pair's results with its Wilson
interval (`standings`).

>>> entries = [Entry("random", "random"), Entry("greedy", "greedy")]
>>> [(g.index, g.config.seed, g.attacker.label, g.defender.label) for g in schedule_ladder(entries, 2, 5)]
[(0, 5, 'random', 'greedy'), (1, 6, 'greedy', 'random')]
"""

from __future__ import annotations

import itertools
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from msgspec.structs import replace

from engine import GameConfig, GameRecord, GameState, IllegalAction, ReplayMismatch, Side, replay
from engine.analysis import unit_vp

from .bots import Bot, get_bot
from .rating import Fit, Game, fit_ratings
from .runner import Tick
from .selfplay import GameResult, play_game, wilson_interval

__all__ = [
    "Entry",
    "LadderGame",
    "Pairing",
    "Standings",
    "play_ladder_game",
    "result_from_record",
    "schedule_ladder",
    "standings",
]


@dataclass(frozen=True)
class Entry:
    """One contestant: ``label`` names it in the tables; a lab bot (``bot`` and ``options``) or an outside
    program (``command``, which plays a seat given its link; its games need a server)."""

    label: str
    bot: str | None = None
    options: Mapping[str, object] = field(default_factory=dict)
    command: tuple[str, ...] | None = None

    def __post_init__(self) -> None:
        if (self.bot is None) == (self.command is None):
            raise ValueError(f"entry {self.label!r} needs either a bot or an outside command")

    @property
    def outside(self) -> bool:
        """True for a program that plays over the wire."""
        return self.command is not None

    def build(self) -> Bot:
        """The lab bot this entry plays with (ValueError for an outside entry or a bad option)."""
        if self.bot is None:
            raise ValueError(f"entry {self.label!r} is an outside program, not a lab bot")
        return get_bot(self.bot, **self.options)

    def describe(self) -> str:
        """What the entry is, in one line."""
        if self.command is not None:
            return "outside: " + " ".join(self.command)
        options = ", ".join(f"{k}={v}" for k, v in sorted(self.options.items()))
        return f"{self.bot}" + (f" ({options})" if options else "")


@dataclass(frozen=True)
class LadderGame:
    """One game of the ladder: its index, config and the two entries."""

    index: int
    config: GameConfig
    attacker: Entry
    defender: Entry

    @property
    def over_the_wire(self) -> bool:
        """True when an outside program plays one of the seats."""
        return self.attacker.outside or self.defender.outside


def schedule_ladder(
    entries: Sequence[Entry], games: int, seed: int, config: GameConfig | None = None
) -> list[LadderGame]:
    """Every pair of ``entries`` (in their order) plays ``games`` games on seeds ``seed, seed + 1, ...``."""
    labels = [e.label for e in entries]
    if len(set(labels)) != len(labels):
        raise ValueError(f"entry labels must differ: {', '.join(labels)}")
    if len(entries) < 2:
        raise ValueError("a ladder needs at least two entries")
    base = config or GameConfig()
    out: list[LadderGame] = []
    for first, second in itertools.combinations(entries, 2):
        for k in range(games):
            attacker, defender = (first, second) if k % 2 == 0 else (second, first)
            out.append(LadderGame(len(out), replace(base, seed=(seed + k) & 0xFFFFFFFF), attacker, defender))
    return out


def play_ladder_game(game: LadderGame, tick: Tick | None = None) -> GameResult:
    """Play ``game`` between two lab bots in this process (a module-level function: pools and Ray run it)."""
    if game.over_the_wire:
        raise ValueError(f"game {game.index} has an outside player: it is played over the wire")
    bots = {Side.ATTACKER: game.attacker.build(), Side.DEFENDER: game.defender.build()}
    record, final = play_game(game.config, bots, tick)
    return _result(game, record, final)


def result_from_record(game: LadderGame, record: GameRecord) -> GameResult:
    """The result of ``game`` played elsewhere (over the wire), from its record: replayed, every hash checked.

    ValueError when the record is not of this game's config, does not replay, or ends before the game does.
    """
    if record.config != game.config:
        raise ValueError(f"the record is of another game than game {game.index} (its config differs)")
    final = None
    try:
        for state in replay(record):
            final = state
    except (IllegalAction, ReplayMismatch) as err:
        raise ValueError(str(err)) from None
    if final is None or final.winner is None:
        raise ValueError(f"game {game.index} is not over in its record")
    return _result(game, record, final)


def _result(game: LadderGame, record: GameRecord, final: GameState) -> GameResult:
    return GameResult(
        index=game.index,
        seed=game.config.seed or 1,
        attacker=game.attacker.label,
        defender=game.defender.label,
        winner=final.winner,
        reason=final.victory_reason,
        actions=len(record.actions),
        turns=final.turn,
        vp=(unit_vp(final, Side.ATTACKER), unit_vp(final, Side.DEFENDER)),
        record=record,
    )


@dataclass(frozen=True)
class Pairing:
    """One entry's results against another: wins, games, the Wilson interval, and by side."""

    entry: str
    opponent: str
    wins: int
    games: int
    as_attacker: tuple[int, int]  # (wins, games)
    as_defender: tuple[int, int]

    @property
    def rate(self) -> float:
        """Share of the games won."""
        return self.wins / self.games if self.games else 0.0

    @property
    def interval(self) -> tuple[float, float]:
        """95 % Wilson interval of the share won."""
        return wilson_interval(self.wins, self.games)


@dataclass(frozen=True)
class Standings:
    """The ladder's outcome: the rating fit, every pair's results, how the games ended."""

    entries: tuple[Entry, ...]
    fit: Fit
    pairings: tuple[Pairing, ...]  # both directions of every pair that played
    games: int
    attacker_wins: int
    endings: Mapping[str, int]

    def pairing(self, entry: str, opponent: str) -> Pairing | None:
        """``entry``'s results against ``opponent`` (None if they did not play)."""
        return next((p for p in self.pairings if p.entry == entry and p.opponent == opponent), None)


def standings(entries: Sequence[Entry], results: Sequence[GameResult], anchor: str, prior: float = 1.0) -> Standings:
    """Rate ``results`` (games between ``entries``) with ``anchor`` at 0 and gather every pair's results."""
    labels = {e.label for e in entries}
    if anchor not in labels:
        raise ValueError(f"the anchor {anchor!r} is not an entry; entries: {', '.join(e.label for e in entries)}")
    finished = [r for r in results if r.winner is not None]
    fit = fit_ratings(
        [Game(r.attacker, r.defender, r.winner is Side.ATTACKER) for r in finished], anchor=anchor, prior=prior
    )
    pairings = []
    for a, b in itertools.permutations([e.label for e in entries], 2):
        mine = [r for r in finished if {r.attacker, r.defender} == {a, b}]
        if not mine:
            continue
        attacking = [r for r in mine if r.attacker == a]
        defending = [r for r in mine if r.defender == a]
        won_attacking = sum(r.winner is Side.ATTACKER for r in attacking)
        won_defending = sum(r.winner is Side.DEFENDER for r in defending)
        pairings.append(Pairing(a, b, won_attacking + won_defending, len(mine), (won_attacking, len(attacking)),
                                (won_defending, len(defending))))
    endings: dict[str, int] = {}
    for r in results:
        endings[r.reason or "unfinished"] = endings.get(r.reason or "unfinished", 0) + 1
    return Standings(
        entries=tuple(entries),
        fit=fit,
        pairings=tuple(pairings),
        games=len(results),
        attacker_wins=sum(r.winner is Side.ATTACKER for r in results),
        endings=dict(sorted(endings.items())),
    )
