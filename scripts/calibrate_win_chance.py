"""Win-estimate calibration: Brier score, log loss and a calibration table over recorded games.

    python scripts/calibrate_win_chance.py DIR [DIR ...] [--fit] [--bins 10]

Reads every game record in the folders (``game-NNNN.json``, as ``taktik selfplay --out`` and
``taktik ladder --out`` write them), takes the positions the replay viewer's evaluation graph
judges (the spectator's view at the first position of every turn, `lab.calibration.points`)
and prints how well the shipped estimate (`lab.bots.win_chance`) predicts the outcome, beside
the estimate before issue 33 (the logistic curve of the full evaluation, 3 VP a unit). With
``--fit`` it fits the model's weights on these games and prints them (for
``lab.bots.advice.WIN_MODEL``): fit on games of the tuning seeds, report on held-out ones
(docs/bots.md, "Held-out seeds").
"""

from __future__ import annotations

import argparse
import math
from pathlib import Path

from engine import GameState, Phase, Side, decode_record
from lab.bots import win_chance
from lab.bots.evaluate import WIN_SCORE, evaluate
from lab.calibration import Calibration, fit, points, report


def legacy_chance(state: GameState) -> float:
    """The estimate before issue 33: the full evaluation (approach term included) on a logistic curve, 3 VP a unit."""
    if state.phase is Phase.VICTORY:
        return 1.0 if state.winner is Side.ATTACKER else 0.0
    score = max(-WIN_SCORE, min(WIN_SCORE, evaluate(state, Side.ATTACKER)))
    return 1.0 / (1.0 + math.exp(-score / 3.0))


def show(name: str, c: Calibration) -> None:
    print(f"{name}: Brier {c.brier:.4f} (always the base rate: {c.base_brier:.4f}), log loss {c.log_loss:.4f}; "
          f"turn 1: predicted {c.first_turn_predicted:.1%}, the ATTACKER won {c.first_turn_observed:.1%}")
    print("  estimate    positions  mean estimate  ATTACKER won  95% CI (Wilson)")
    for b in c.bins:
        print(f"  {b.low:.1f}-{b.high:.1f}    {b.count:>9}  {b.predicted:>13.1%}  {b.observed:>12.1%}  "
              f"{b.interval[0]:.1%}-{b.interval[1]:.1%}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("folders", nargs="+", type=Path, metavar="DIR")
    parser.add_argument("--fit", action="store_true", help="fit the model's weights on these games and print them")
    parser.add_argument("--bins", type=int, default=10)
    args = parser.parse_args()
    files = sorted(f for folder in args.folders for f in folder.rglob("game-*.json"))
    if not files:
        parser.error("no game-*.json records in " + ", ".join(map(str, args.folders)))
    judged = points(decode_record(f.read_bytes()) for f in files)
    games = sum(1 for p in judged if p.turn == 1)
    print(f"{len(files)} records, {games} finished games, {len(judged)} positions (first of every turn)")
    show("shipped estimate", report(judged, win_chance, args.bins))
    show("estimate before issue 33", report(judged, legacy_chance, args.bins))
    if args.fit:
        model = fit(judged)
        print(f"fitted: WIN_MODEL = WinModel({model.weights})")
        show("fitted (in sample)", report(judged, lambda s: win_chance(s, model), args.bins))


if __name__ == "__main__":
    main()
