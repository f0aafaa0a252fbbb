"""How much do the dice decide? The dice luck of each side in recorded games, and who won.

    python scripts/dice_luck.py DIR [DIR ...]

Each DIR is what `taktik ladder --out` or `taktik selfplay --out` wrote: game records
(``game-*.json``, in DIR or DIR/games). Every game is replayed; at each attack roll the
engine's own odds (`engine.analysis.attack_preview`: card effects, terrain and tactics in
play) say how likely the roll was to hit, and the die says whether it did. What a hit is
worth is the share of its target's VP that the HP it removes make up (a kill of a fresh
one-hit unit: all of its VP; the first of two hits that destroy a unit: half). A side's
**dice luck** is the sum over its rolls of that worth times (hit: 1 or 0, minus the chance
it had): the VP its dice gave it beyond what its attacks were worth. Over the six faces of
a roll it averages nothing, so over many games it averages nothing for any bot. Rerolls and
changes after the roll are choices, not luck, and are not counted.

It prints the spread of the luck difference between the sides, how often the luckier side
won, and two figures from it:

* the **score at equal dice**, with its 95 % interval: the score less what the luck
  difference explains (luck is a control variate: its mean is known to be 0, so subtracting
  its share keeps the estimate fair and narrows the interval: by 10-13 % in docs/bots.md's games);
* a logistic fit of the result on the luck difference: how much one VP of dice luck moves
  the odds of winning, and so what a rating edge is worth in VP of luck.

With a two-bot ladder's ``ladder.json`` beside the records the figures are by bot (the bot
that is not the ladder's anchor); from a selfplay directory, by side (the ATTACKER's).
"""

from __future__ import annotations

import argparse
import json
import math
import statistics
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from engine import GameRecord, GameState, RollDice, Side, decode_record, new_game, reduce
from engine.analysis import attack_preview
from engine.data import unit_stats
from lab.rating import ELO


@dataclass(frozen=True)
class Game:
    """One replayed game: each side's dice luck in VP, its rolls, and the winner (None: a draw or unfinished)."""

    luck: dict[Side, float]
    rolls: dict[Side, int]
    winner: Side | None
    names: dict[Side, str]  # the bot on each side ("ATTACKER"/"DEFENDER" when unknown)


def dice_luck(record: GameRecord) -> tuple[dict[Side, float], dict[Side, int], GameState]:
    """Each side's dice luck in VP and number of attack rolls over ``record``, and the final state."""
    luck = {Side.ATTACKER: 0.0, Side.DEFENDER: 0.0}
    rolls = {Side.ATTACKER: 0, Side.DEFENDER: 0}
    state = new_game(record.config)
    for action in record.actions:
        if isinstance(action, RollDice):
            side, vp, state = roll_luck(state, action)
            luck[side] += vp
            rolls[side] += 1
        else:
            state = reduce(state, action)
    return luck, rolls, state


def roll_luck(state: GameState, action: RollDice) -> tuple[Side, float, GameState]:
    """Who rolls the pending attack's die in ``state``, the dice luck of that roll in VP, and the state after it."""
    attack = state.pending_attack
    after = reduce(state, action)  # raises when there is nothing to roll
    assert attack is not None
    odds = attack_preview(state, attack).odds
    target = next(u for u in state.units if u.id == attack.target)
    stats = unit_stats(target.type, state.rules.tables)
    worth = stats.vp * min(odds.damage, target.hp) / stats.hp  # the share of its VP the hit's HP make up
    hit = after.last_roll is not None and after.last_roll.outcome == "HIT"  # after any automatic reroll
    return state.active, worth * (hit - odds.hit_chance), after


def load(directory: Path) -> tuple[list[Game], str]:
    """Every game record under ``directory`` replayed, and whose score the fit gives: from a two-bot ladder
    (its ``ladder.json``) the bot that is not its anchor, with each game's bots; else the ATTACKER."""
    names_of: dict[str, dict[Side, str]] = {}
    subject = Side.ATTACKER.value
    ladder = directory / "ladder.json"
    if ladder.is_file():
        try:
            run = json.loads(ladder.read_text())
            entries = [entry["label"] for entry in run["entries"]]  # what its games call the bots
            anchor = run["anchor"]
            sides = [(Path(g["record"]).name, g["attacker"], g["defender"]) for g in run["games"]]
        except (KeyError, TypeError) as err:
            raise ValueError(f"{ladder}: not a ladder's ladder.json (no {err})") from None
        if len(entries) != 2:
            raise ValueError(f"{ladder}: a ladder of {len(entries)} bots; the fit compares two")
        subject = entries[1] if entries[0] == anchor else entries[0]
        for name, attacker, defender in sides:
            names_of[name] = {Side.ATTACKER: attacker, Side.DEFENDER: defender}
    files = sorted(directory.glob("game-*.json")) or sorted((directory / "games").glob("game-*.json"))
    if not files:
        raise ValueError(f"{directory}: no game records (game-*.json) in it or in its games/")
    games = []
    for path in files:
        try:
            record = decode_record(path.read_bytes())
        except ValueError as err:
            raise ValueError(f"{path}: not a game record: {err}") from None
        luck, rolls, final = dice_luck(record)
        names = names_of.get(path.name, {side: side.value for side in Side})
        games.append(Game(luck, rolls, final.winner, names))
    return games, subject


@dataclass(frozen=True)
class Fit:
    """P(win) = 1 / (1 + exp(-(a + b x))) for x the luck difference in VP, with b's standard error."""

    a: float
    b: float
    b_error: float


_NEWTON_STEPS = 50  # a fit converges in under ten; one that does not has no maximum


def _chance(log_odds: float) -> float:
    """1 / (1 + exp(-log_odds)), for any finite log-odds."""
    if log_odds < 0:
        odds = math.exp(log_odds)
        return odds / (1 + odds)
    return 1 / (1 + math.exp(-log_odds))


def logistic_fit(xs: Sequence[float], ys: Sequence[int]) -> Fit:
    """Maximum likelihood of the two-parameter logistic model, by Newton's method.

    ValueError when there is none: every game went the same way, no luck varied, or the luckier
    side won every game (the likelihood grows without end as the slope does)."""
    a = b = 0.0
    for _ in range(_NEWTON_STEPS):
        ga = gb = haa = hab = hbb = 0.0
        for x, y in zip(xs, ys, strict=True):
            p = _chance(a + b * x)
            w = p * (1 - p)
            ga, gb = ga + y - p, gb + (y - p) * x
            haa, hab, hbb = haa + w, hab + w * x, hbb + w * x * x
        det = haa * hbb - hab * hab
        if det <= 0:
            raise ValueError("the results cannot be fitted (every game went the same way, or no luck varied)")
        da, db = (hbb * ga - hab * gb) / det, (haa * gb - hab * ga) / det
        a, b = a + da, b + db
        if abs(da) < 1e-10 and abs(db) < 1e-10:
            break
    else:
        raise ValueError("the results cannot be fitted (every game went one way, or the luckier side won every game)")
    return Fit(a, b, math.sqrt(haa / det))


def report(games: list[Game], who: str) -> list[str]:
    """The lines the script prints for ``games``, the figures those of ``who`` (a bot or a side)."""
    decided = [g for g in games if g.winner is not None]
    if len(decided) < 2:
        return [f"{len(games)} games, {len(decided)} decided: too few to say what the dice decide"]
    xs, ys = [], []
    for g in decided:
        me = Side.ATTACKER if g.names[Side.ATTACKER] == who else Side.DEFENDER
        xs.append(g.luck[me] - g.luck[me.other])
        ys.append(int(g.winner is me))
    spread = statistics.pstdev(xs)
    unequal = [(x, y) for x, y in zip(xs, ys, strict=True) if x != 0]
    luckier_won = sum((x > 0) == bool(y) for x, y in unequal)
    rolls = statistics.mean(g.rolls[Side.ATTACKER] + g.rolls[Side.DEFENDER] for g in decided)
    lines = [
        f"{len(games)} games ({len(decided)} decided), {rolls:.1f} attack rolls a game",
        f"dice luck, {who} minus the other, in VP: mean {statistics.mean(xs):+.2f}, sd {spread:.2f}, "
        f"median |difference| {statistics.median(abs(x) for x in xs):.2f}",
        f"the luckier side won {luckier_won} of {len(unequal)} games with a difference "
        f"({luckier_won / max(1, len(unequal)):.1%})",
        f"{who} won {sum(ys)} of {len(ys)} ({sum(ys) / len(ys):.1%})",
    ]
    lines += [f"{who} at equal dice: {_at_equal_dice(xs, ys)}"]
    try:
        fit = logistic_fit(xs, ys)
    except ValueError as err:
        return [*lines, f"no fit: {err}"]
    low, high = math.exp(fit.b - 1.96 * fit.b_error), math.exp(fit.b + 1.96 * fit.b_error)
    swing = _chance(fit.a + fit.b * spread) - _chance(fit.a - fit.b * spread)  # one sd of luck either way
    lines += [
        f"fit: each VP of dice luck multiplies {who}'s odds by {math.exp(fit.b):.2f} (95% CI {low:.2f}-{high:.2f}); "
        f"one sd of luck either way moves its winning chance by {swing:.1%}",
    ]
    if low <= 1:
        return [*lines, "the dice did not measurably decide these games"]
    elo_per_vp = fit.b * ELO
    return [
        *lines,
        f"so one VP of dice luck a game is worth {elo_per_vp:+.0f} Elo: a +200 Elo edge is as much as "
        f"{200 / elo_per_vp:.1f} VP of dice luck every game ({200 / elo_per_vp / spread:.2f} sd)",
    ]


def _at_equal_dice(xs: Sequence[float], ys: Sequence[int]) -> str:
    """The score less the part the luck differences ``xs`` explain, with its 95 % interval and the raw score's.

    ``score - beta * luck`` per game, ``beta`` the least-squares slope of the result on the luck:
    luck has mean 0 whoever plays, so the mean is still the score at equal dice, and its spread
    is smaller by the share of the results the luck explains."""
    n = len(ys)
    raw_error = 1.96 * statistics.stdev(ys) / math.sqrt(n)
    beta = statistics.covariance(xs, ys) / statistics.variance(xs) if statistics.variance(xs) > 0 else 0.0
    adjusted = [y - beta * x for x, y in zip(xs, ys, strict=True)]
    mean, error = statistics.mean(adjusted), 1.96 * statistics.stdev(adjusted) / math.sqrt(n)
    return f"{mean:.1%} ± {error:.1%} (95% CI; the raw score {statistics.mean(ys):.1%} ± {raw_error:.1%})"


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("dirs", nargs="+", type=Path, metavar="DIR", help="a ladder's or selfplay's --out directory")
    args = parser.parse_args(argv)
    games: list[Game] = []
    subjects = set()
    try:
        for directory in args.dirs:
            if not directory.is_dir():
                raise ValueError(f"{directory}: not a directory")
            found, subject = load(directory)
            games += found
            subjects.add(subject)
        if len(subjects) > 1:
            raise ValueError(f"the directories compare different things ({', '.join(sorted(subjects))}): give one kind")
    except (ValueError, OSError) as err:
        print(f"dice_luck: {err}", file=sys.stderr)
        return 2
    print("\n".join(report(games, subjects.pop())))
    return 0


if __name__ == "__main__":
    sys.exit(main())
