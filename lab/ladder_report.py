"""A ladder's standings as a terminal table, as JSON and as one HTML page that opens offline.

All three show the same figures: each entry's rating (Elo points above the anchor) with its
95 % interval, games and score; the ATTACKER's edge; and the cross table of every pair's
results (the row's wins against the column, with the Wilson interval of the share). The HTML
page draws the ratings and their intervals as an inline SVG (no plotting library, nothing
fetched).
"""

from __future__ import annotations

import html
from collections.abc import Sequence
from typing import Any

import msgspec

from engine import Side

from .ladder import Standings
from .selfplay import GameResult

__all__ = ["format_standings", "standings_html", "standings_json"]


def _elo(x: float) -> str:
    return f"{x:+.0f}"


def _pct(x: float) -> str:
    return f"{x:.1%}"


def format_standings(s: Standings, title: str) -> str:
    """The standings as plain text: ratings, then the cross table, then the pairs with intervals."""
    fit = s.fit
    width = max(8, *(len(e.label) for e in s.entries))
    head = f"{'rank':<5} {'entry':<{width}} {'rating':>7}  {'95% CI':<15} {'games':>5} {'wins':>5} {'score':>6}"
    lines = [title, head]
    for rank, r in enumerate(fit.ratings, 1):
        ci = "(anchor)" if r.name == fit.anchor else f"[{_elo(r.low)}, {_elo(r.high)}]"
        lines.append(
            f"{rank:<5} {r.name:<{width}} {_elo(r.elo):>7}  {ci:<15} {r.games:>5} {r.wins:>5} {_pct(r.score):>6}"
        )
    low, high = fit.edge_interval
    lines.append(
        f"ATTACKER edge {_elo(fit.edge)} [{_elo(low)}, {_elo(high)}] Elo; ATTACKER won {s.attacker_wins} of "
        f"{s.games} games; endings: " + ", ".join(f"{k} {v}" for k, v in s.endings.items())
    )
    lines.append(f"ratings: Bradley-Terry on the Elo scale, {fit.anchor} = 0, {fit.prior:g} virtual even game(s) per "
                 "pair; 95% intervals")
    order = [r.name for r in fit.ratings]
    cell = max(7, width)
    lines.append("wins of the row against the column:")
    lines.append(" " * (width + 2) + "".join(f"{name:>{cell + 1}}" for name in order))
    for row in order:
        cells = []
        for column in order:
            p = s.pairing(row, column)
            cells.append(f"{'—' if p is None else f'{p.wins}/{p.games}':>{cell + 1}}")
        lines.append(f"  {row:<{width}}" + "".join(cells))
    for a_index, a in enumerate(order):
        for b in order[a_index + 1:]:
            p = s.pairing(a, b)
            if p is None:
                continue
            lo, hi = p.interval
            lines.append(
                f"  {a} vs {b}: {p.wins}/{p.games} ({_pct(p.rate)}, 95% CI {_pct(lo)}-{_pct(hi)}); "
                f"as ATTACKER {p.as_attacker[0]}/{p.as_attacker[1]}, as DEFENDER {p.as_defender[0]}/{p.as_defender[1]}"
            )
    return "\n".join(lines)


def standings_json(s: Standings, results: Sequence[GameResult], run: dict[str, Any]) -> bytes:
    """The standings, how the ladder was run (``run``) and every game, as JSON (keys sorted)."""
    fit = s.fit
    document = {
        "run": run,
        "entries": [
            {"label": e.label, "bot": e.bot, "options": dict(e.options), "outside": e.command is not None}
            for e in s.entries
        ],
        "anchor": fit.anchor,
        "prior": fit.prior,
        "ratings": [
            {"entry": r.name, "elo": round(r.elo, 1), "low": round(r.low, 1), "high": round(r.high, 1),
             "games": r.games, "wins": r.wins}
            for r in fit.ratings
        ],
        "attacker_edge": {"elo": round(fit.edge, 1), "low": round(fit.edge_interval[0], 1),
                          "high": round(fit.edge_interval[1], 1)},
        "pairs": [
            {"entry": p.entry, "opponent": p.opponent, "wins": p.wins, "games": p.games,
             "low": round(p.interval[0], 4), "high": round(p.interval[1], 4),
             "as_attacker": list(p.as_attacker), "as_defender": list(p.as_defender)}
            for p in s.pairings
        ],
        "games": [
            {"index": r.index, "seed": r.seed, "attacker": r.attacker, "defender": r.defender,
             "winner": None if r.winner is None else (r.attacker if r.winner is Side.ATTACKER else r.defender),
             "winning_side": None if r.winner is None else r.winner.value, "reason": r.reason, "turns": r.turns,
             "actions": r.actions, "record": f"games/game-{r.index:04d}.json"}
            for r in sorted(results, key=lambda r: r.index)
        ],
    }
    return msgspec.json.format(msgspec.json.encode(document, order="deterministic"), indent=2) + b"\n"


def standings_html(s: Standings, title: str) -> str:
    """One self-contained HTML page with the ratings (a table and an SVG of the intervals) and the cross table."""
    fit = s.fit
    order = [r.name for r in fit.ratings]
    rows = "".join(
        f"<tr><td>{rank}</td><th>{html.escape(r.name)}</th><td>{_elo(r.elo)}</td>"
        f"<td>{'anchor' if r.name == fit.anchor else f'{_elo(r.low)} … {_elo(r.high)}'}</td>"
        f"<td>{r.games}</td><td>{r.wins}</td><td>{_pct(r.score)}</td>"
        f"<td>{html.escape(_describe(s, r.name))}</td></tr>"
        for rank, r in enumerate(fit.ratings, 1)
    )
    cross_head = "".join(f"<th>{html.escape(name)}</th>" for name in order)
    cross = ""
    for row in order:
        cells = ""
        for column in order:
            p = s.pairing(row, column)
            if p is None:
                cells += "<td class=none>—</td>"
                continue
            lo, hi = p.interval
            shade = round(255 - 120 * abs(p.rate - 0.5) * 2)
            color = f"rgb({shade},255,{shade})" if p.rate >= 0.5 else f"rgb(255,{shade},{shade})"
            cells += (f"<td style='background:{color}' title='95% CI {_pct(lo)}–{_pct(hi)}; as ATTACKER "
                      f"{p.as_attacker[0]}/{p.as_attacker[1]}, as DEFENDER {p.as_defender[0]}/{p.as_defender[1]}'>"
                      f"{p.wins}/{p.games}<br><small>{_pct(p.rate)} ({_pct(lo)}–{_pct(hi)})</small></td>")
        cross += f"<tr><th>{html.escape(row)}</th>{cells}</tr>"
    low, high = fit.edge_interval
    endings = ", ".join(f"{html.escape(k)} {v}" for k, v in s.endings.items())
    return f"""<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>{html.escape(title)}</title>
<style>
body {{ font: 15px/1.45 system-ui, sans-serif; margin: 2em auto; max-width: 60em; color: #222; }}
table {{ border-collapse: collapse; margin: 1em 0; }}
th, td {{ border: 1px solid #ccc; padding: .3em .6em; text-align: right; }}
th {{ background: #f4f4f4; }}
td.none {{ color: #999; text-align: center; }}
small {{ color: #555; }}
</style></head><body>
<h1>{html.escape(title)}</h1>
<p>Ratings: Bradley–Terry on the Elo scale (400 points: 10 to 1), <b>{html.escape(fit.anchor)} = 0</b>, with
{fit.prior:g} virtual even game(s) per pair; intervals are 95 %. Every pair played the same seeds with sides
alternating. ATTACKER edge {_elo(fit.edge)} Elo ({_elo(low)} … {_elo(high)}); the ATTACKER won
{s.attacker_wins} of {s.games} games. Endings: {endings}.</p>
{_svg(s)}
<table><tr><th>rank</th><th>entry</th><th>rating</th><th>95 % interval</th><th>games</th><th>wins</th>
<th>score</th><th>what</th></tr>{rows}</table>
<h2>Pairs</h2>
<p>Wins of the row against the column, the share and its 95 % Wilson interval (hover for the sides).</p>
<table><tr><th></th>{cross_head}</tr>{cross}</table>
</body></html>
"""


def _describe(s: Standings, label: str) -> str:
    return next((e.describe() for e in s.entries if e.label == label), "")


def _svg(s: Standings) -> str:
    """Each rating as a dot on a horizontal line with its interval as a bar."""
    ratings = s.fit.ratings
    lows = [min(r.low, r.elo) for r in ratings]
    highs = [max(r.high, r.elo) for r in ratings]
    left, right = min([*lows, 0.0]), max([*highs, 0.0])
    span = max(right - left, 1.0)
    width, label_width, row = 640, 120, 26
    height = row * len(ratings) + 30

    def x(value: float) -> float:
        return label_width + (value - left) / span * (width - label_width - 20)

    parts = [f"<svg xmlns='http://www.w3.org/2000/svg' width='{width}' height='{height}' role='img' "
             "aria-label='ratings with 95 % intervals'>",
             f"<line x1='{x(0):.1f}' y1='0' x2='{x(0):.1f}' y2='{height - 20}' stroke='#999' stroke-dasharray='3 3'/>"]
    for i, r in enumerate(ratings):
        y = 14 + i * row
        parts.append(f"<text x='{label_width - 8}' y='{y + 4}' text-anchor='end' font-size='13'>{html.escape(r.name)}"
                     "</text>")
        parts.append(f"<line x1='{x(r.low):.1f}' y1='{y}' x2='{x(r.high):.1f}' y2='{y}' stroke='#4a7' "
                     "stroke-width='6' stroke-linecap='round' opacity='.6'/>")
        parts.append(f"<circle cx='{x(r.elo):.1f}' cy='{y}' r='5' fill='#263'/>")
        parts.append(f"<text x='{x(r.elo):.1f}' y='{y - 8}' text-anchor='middle' font-size='11'>{_elo(r.elo)}</text>")
    parts.append(f"<text x='{x(left):.1f}' y='{height - 4}' font-size='11'>{_elo(left)}</text>")
    parts.append(f"<text x='{x(right):.1f}' y='{height - 4}' font-size='11' text-anchor='end'>{_elo(right)}</text>")
    parts.append("</svg>")
    return "".join(parts)
