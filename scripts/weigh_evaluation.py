"""Does a change of the evaluation make the greedy bot stronger? Greedy with it against greedy as shipped.

    python scripts/weigh_evaluation.py CHANGE [CHANGE ...] [--games 200] [--seed 60001] [--jobs 1]

A CHANGE is ``NAME=VALUE`` or several joined by commas (``threat=0.8,approach=3``). A NAME is
a field of `lab.bots.evaluate.Style` (``threat``, ``approach``, ``damage_share``, ``travel``, ...) or
one of the evaluation's weights in `CONSTANTS` (``REACH_WEIGHT``, ``STORED_VALUE``, ...), or
``move_limit``, the moves greedy plays out per decision (a whole number, 16 as shipped). Every change
plays ``--games`` games on the seeds from ``--seed`` on, the changed bot the ATTACKER in the
even games, and prints its wins with the 95 % Wilson interval. Tune on seeds below 70000; a
change worth keeping is then measured once on held-out seeds (docs/bots.md, "Held-out seeds").

The weights are module globals that the evaluation reads as it runs: the changed bot sets
them for its own decisions and puts them back after each one. Within a process one game
runs at a time and its bots decide in turn, so the shipped bot never sees a changed weight.
"""

from __future__ import annotations

import argparse
import dataclasses
import time
from collections.abc import Sequence
from types import ModuleType
from typing import Any

from engine import Action, GameConfig, GameState, Side
from lab.bots import Bot, evaluate, position
from lab.bots.deploy import unsearched_choice
from lab.bots.determinize import sample_world
from lab.bots.evaluate import Style
from lab.bots.greedy import GreedyBot, greedy_action
from lab.runner import Tick, run_games
from lab.selfplay import play_game, wilson_interval

CONSTANTS: dict[str, tuple[ModuleType, ...]] = {
    "REACH_WEIGHT": (position, evaluate),  # a shot that first needs a move (both modules hold the name)
    "POTENTIAL_WEIGHT": (evaluate,),  # undeclared shots against declared ones (greedy's move pre-score keeps its own)
    "STORED_VALUE": (evaluate,),  # a stored bonus
    "TACTIC_VALUE": (evaluate,),  # a tactic in hand
    "SLOT_VALUE": (evaluate,),  # a storage slot
    "TIE_BIAS": (evaluate,),  # the DEFENDER's edge towards the round limit
}
"""The evaluation's weights a change may set, and the modules whose global of that name is read."""

_STYLE_FIELDS = {f.name: f for f in dataclasses.fields(Style)}

Change = tuple[tuple[str, float | bool], ...]  # move_limit's value is an int
"""``(name, value)`` pairs, in the order given."""


def parse_change(text: str) -> Change:
    """``NAME=VALUE[,NAME=VALUE...]`` as pairs; ValueError names a bad name or value."""
    pairs: list[tuple[str, float | bool]] = []
    for part in text.split(","):
        name, sep, raw = part.partition("=")
        name, raw = name.strip(), raw.strip()
        if not sep or not name or not raw:
            raise ValueError(f"{part!r} is not NAME=VALUE")
        if name == "move_limit":
            if not raw.isdigit() or int(raw) < 1:
                raise ValueError(f"move_limit is a whole number of moves >= 1, not {raw!r}")
            pairs.append((name, int(raw)))
            continue
        field = _STYLE_FIELDS.get(name)
        if field is None and name not in CONSTANTS:
            known = ", ".join([*_STYLE_FIELDS, *CONSTANTS, "move_limit"])
            raise ValueError(f"{name!r} is neither a Style field nor an evaluation weight; known: {known}")
        if field is not None and isinstance(field.default, bool):
            if raw not in ("true", "false"):
                raise ValueError(f"{name} is true or false, not {raw!r}")
            pairs.append((name, raw == "true"))
            continue
        try:
            value = float(raw)
        except ValueError:
            raise ValueError(f"{name} needs a number, not {raw!r}") from None
        if value != value or value in (float("inf"), float("-inf")):
            raise ValueError(f"{name} needs a finite number, not {raw!r}")
        pairs.append((name, value))
    change = tuple(pairs)
    style_of(change)  # the style's own checks (a share is 0..1)
    return change


def style_of(change: Change) -> Style:
    """The shipped style with the Style fields of ``change``."""
    fields: dict[str, Any] = {name: value for name, value in change if name in _STYLE_FIELDS}
    return Style(**fields)


def describe(change: Change) -> str:
    """The change as it is written on the command line."""
    return ",".join(f"{name}={_written(value)}" for name, value in change)


def _written(value: float | bool) -> str:
    return str(value).lower() if isinstance(value, bool) else format(value, "g")


class ChangedGreedy:
    """The greedy bot deciding with one change of the evaluation (a `lab.bots.Bot`)."""

    name = "changed"

    def __init__(self, change: Change) -> None:
        self.style = style_of(change)
        self.weights = [
            (module, name, value) for name, value in change if name in CONSTANTS for module in CONSTANTS[name]
        ]
        self.shipped = GreedyBot()
        self.move_limit = int(dict(change).get("move_limit", self.shipped.move_limit))

    def choose(self, view: GameState, legal: Sequence[Action], rng: int) -> tuple[Action, int]:
        """As `GreedyBot.choose`, with the changed style and weights during this decision only."""
        unsearched = unsearched_choice(view, legal, rng, self.shipped.deploy)
        if unsearched is not None:
            return unsearched
        saved = [(module, name, getattr(module, name)) for module, name, _ in self.weights]
        for module, name, value in self.weights:
            setattr(module, name, value)
        try:
            world, rng = sample_world(view, rng)
            return greedy_action(world, legal, self.move_limit, self.style), rng
        finally:
            for module, name, value in saved:
                setattr(module, name, value)


def play(item: tuple[Change, int, int], tick: Tick) -> tuple[Change, bool, bool]:
    """One game of ``item`` = (change, seed, index): whether the changed bot won, and whether the ATTACKER did."""
    change, seed, index = item
    changed_side = Side.ATTACKER if index % 2 == 0 else Side.DEFENDER
    bots: dict[Side, Bot] = {changed_side: ChangedGreedy(change), changed_side.other: GreedyBot()}
    _, final = play_game(GameConfig(seed=seed), bots, tick)
    return change, final.winner is changed_side, final.winner is Side.ATTACKER


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("changes", nargs="+", metavar="CHANGE", help="NAME=VALUE[,NAME=VALUE...]")
    parser.add_argument("--games", type=int, default=200, help="games per change (default 200)")
    parser.add_argument("--seed", type=int, default=60001, help="the first game's seed (default 60001, a tuning seed)")
    parser.add_argument("--jobs", type=int, default=1, help="processes (default 1)")
    args = parser.parse_args(argv)
    if args.games < 1 or args.jobs < 1 or not 0 <= args.seed <= 0xFFFFFFFF:
        parser.error("--games and --jobs must be at least 1, --seed a 32-bit seed")
    try:
        changes = [parse_change(text) for text in args.changes]
    except ValueError as problem:
        parser.error(str(problem))
    print(
        f"greedy with each change against greedy as shipped, {args.games} games each, "
        f"seeds {args.seed}..{args.seed + args.games - 1}, sides alternating",
        flush=True,
    )
    for change in changes:
        started = time.perf_counter()
        items = [(change, args.seed + i, i) for i in range(args.games)]
        results = list(run_games(items, play, jobs=args.jobs))
        wins = sum(won for _, won, _ in results)
        attacker = sum(attacker_won for _, _, attacker_won in results)
        low, high = wilson_interval(wins, args.games)
        print(
            f"{describe(change)}: {wins}/{args.games} = {wins / args.games:.1%} (95 % CI {low:.1%}-{high:.1%}), "
            f"ATTACKER won {attacker}; {time.perf_counter() - started:.0f} s",
            flush=True,
        )


if __name__ == "__main__":
    main()
