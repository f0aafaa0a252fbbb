"""A balance comparison as a terminal table, as JSON, and as one HTML file that opens offline.

All three name what the variant changes: the tables and scenario, each value as
``field: base → variant`` (`lab.changes`), and the changed cards, marked in the card table.
The HTML report embeds its plots as inline SVG (made with matplotlib, the optional extra
``taktik[reports]``): the attacker's win rate with its 95 % interval per rule set, the game
length histogram, and card usage. Nothing is fetched when it opens.
"""

from __future__ import annotations

import html
import io
from collections.abc import Sequence
from typing import Any

import msgspec

from .balance import BalanceGame, CardUsage, Comparison, Lengths, RuleSetStats
from .changes import RuleChange

__all__ = ["comparison_json", "format_comparison", "html_report", "require_plotting"]

_KINDS = ("draws", "plays", "stores", "cancels")
_VALUE_WIDTH = 40  # characters of a changed value shown (a whole map would not fit); the JSON has it all


def _pct(x: float) -> str:
    return f"{x:.1%}"


def _interval(bounds: tuple[float, float]) -> str:
    return f"[{bounds[0]:+.1%}, {bounds[1]:+.1%}]"


def _rows(c: Comparison) -> list[tuple[str, str, str]]:
    """(what, base, variant) rows shared by the terminal table and the HTML report."""
    b, v = c.base, c.changed
    rows = [
        ("games", str(b.games), str(v.games)),
        ("ATTACKER wins", str(b.attacker_wins), str(v.attacker_wins)),
        ("ATTACKER win rate", _pct(b.attacker_rate), _pct(v.attacker_rate)),
        ("95% CI (Wilson)", f"[{_pct(b.attacker_interval[0])}, {_pct(b.attacker_interval[1])}]",
         f"[{_pct(v.attacker_interval[0])}, {_pct(v.attacker_interval[1])}]"),
    ]
    for label, lb, lv in (("turns", b.turns, v.turns), ("actions", b.actions, v.actions)):
        rows.append((f"{label}: mean", f"{lb.mean:.1f}", f"{lv.mean:.1f}"))
        rows.append((f"{label}: min / Q1 / median / Q3 / max", _five(lb), _five(lv)))
    for ending in sorted({*b.endings, *v.endings}):
        rows.append((f"ended by {ending}", str(b.endings.get(ending, 0)), str(v.endings.get(ending, 0))))
    return rows


def _five(lengths: Lengths) -> str:
    return (
        f"{lengths.low} / {lengths.quartile1:g} / {lengths.median:g} / {lengths.quartile3:g} / {lengths.high}"
    )


def _value(value: Any) -> str:
    """A changed value as compact JSON, as a variant file writes it, shortened past `_VALUE_WIDTH`."""
    text = msgspec.json.encode(value).decode()
    return text if len(text) <= _VALUE_WIDTH else text[: _VALUE_WIDTH - 1] + "…"


def _change(change: RuleChange) -> tuple[str, str]:
    """``(field, "base → variant")`` of one changed value."""
    return change.field, f"{_value(change.base)} → {_value(change.variant)}"


def _card_rows(c: Comparison) -> list[tuple[str, CardUsage, CardUsage]]:
    cards = sorted({*c.base.cards, *c.changed.cards})
    return [(card, c.base.cards.get(card, CardUsage()), c.changed.cards.get(card, CardUsage())) for card in cards]


def format_comparison(c: Comparison) -> str:
    """The comparison as a plain-text table (base and variant side by side)."""
    rows = _rows(c)
    width = max(len(r[0]) for r in rows)
    column = max(24, *(len(r[1]) for r in rows), *(len(r[2]) for r in rows))
    lines = [
        f"variant {c.variant!r}: {c.games} games per rule set, bots {c.bots[0]} vs {c.bots[1]}, "
        f"seeds {c.seed}..{c.seed + c.games - 1}",
    ]
    if c.changed_rules:
        lines.append("rules changed (base → variant):")
        field_width = max(len(change.field) for change in c.changed_rules)
        lines += [f"  {field:<{field_width}}  {values}" for field, values in map(_change, c.changed_rules)]
    lines.append(f"{'':<{width}}  {'base':<{column}}  variant")
    lines += [f"{what:<{width}}  {base:<{column}}  {variant}".rstrip() for what, base, variant in rows]
    label = "ATTACKER win rate, variant − base"
    lines.append(f"{label:<{width}}  {c.difference:+.1%} (95% CI {_interval(c.difference_interval)})")
    cards = _card_rows(c)
    if cards:
        lines.append("cards (draws/plays/stores/cancels)" + (" — * changed by the variant" if c.changed_cards else ""))
        card_width = max(len(card) for card, _, _ in cards) + 2
        for card, base, variant in cards:
            mark = "*" if card in c.changed_cards else " "
            lines.append(f"  {mark}{card:<{card_width}} {_usage(base):<19} {_usage(variant)}")
    return "\n".join(lines)


def _usage(u: CardUsage) -> str:
    return "/".join(str(getattr(u, k)) for k in _KINDS)


def comparison_json(c: Comparison, games: Sequence[BalanceGame]) -> bytes:
    """The comparison and every game's numbers as JSON (keys sorted)."""
    ordered = sorted(games, key=lambda g: (g.rules != "base", g.index))
    return msgspec.json.format(
        msgspec.json.encode({"comparison": c, "games": ordered}, order="deterministic"), indent=2
    ) + b"\n"


# --- HTML ---------------------------------------------------------------------------------


def html_report(c: Comparison) -> str:
    """A self-contained HTML page: the tables and three inline SVG plots."""
    plots = _plots(c)
    rows = "".join(
        f"<tr><th>{html.escape(what)}</th><td>{html.escape(base)}</td><td>{html.escape(variant)}</td></tr>"
        for what, base, variant in _rows(c)
    )
    rows += (
        f"<tr><th>ATTACKER win rate, variant − base</th><td colspan=2>{c.difference:+.1%} "
        f"(95% CI {html.escape(_interval(c.difference_interval))})</td></tr>"
    )
    cards = "".join(
        f"<tr><th>{html.escape(card)}{' *' if card in c.changed_cards else ''}</th>"
        + "".join(f"<td>{getattr(base, k)}</td>" for k in _KINDS)
        + "".join(f"<td>{getattr(variant, k)}</td>" for k in _KINDS)
        + "</tr>"
        for card, base, variant in _card_rows(c)
    )
    heads = "".join(f"<th>{k}</th>" for k in _KINDS)
    changes = "".join(
        f"<tr><th><code>{html.escape(change.field)}</code></th><td>{html.escape(_value(change.base))}</td>"
        f"<td>{html.escape(_value(change.variant))}</td></tr>"
        for change in c.changed_rules
    )
    changed = (
        f"<h2>Rules changed</h2>\n<p>Tables and scenario values the variant changes (the cards it changes are "
        f"marked * below).</p>\n<table><tr><th>field</th><th>base</th><th>variant</th></tr>{changes}</table>\n"
        if changes
        else ""
    )
    title = html.escape(f"Balance: {c.variant}")
    return f"""<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>{title}</title>
<style>
body {{ font: 15px/1.4 system-ui, sans-serif; margin: 2em auto; max-width: 60em; color: #222; }}
table {{ border-collapse: collapse; margin: 1em 0; }}
th, td {{ border: 1px solid #ccc; padding: .25em .6em; text-align: right; }}
th:first-child {{ text-align: left; }}
figure {{ margin: 1.5em 0; }}
</style></head><body>
<h1>{title}</h1>
<p>{c.games} games per rule set, bots {html.escape(c.bots[0])} vs {html.escape(c.bots[1])} (sides alternating),
seeds {c.seed}..{c.seed + c.games - 1}; both rule sets on the same seeds.</p>
{changed}<h2>Results</h2>
<table><tr><th></th><th>base</th><th>variant</th></tr>{rows}</table>
<figure>{plots["win_rate"]}<figcaption>ATTACKER win rate with 95 % Wilson intervals.</figcaption></figure>
<h2>Game length</h2>
<figure>{plots["lengths"]}<figcaption>Games by length in turns.</figcaption></figure>
<h2>Cards</h2>
<p>Per card over all games: draws, plays for effect, stores, cancels (* changed by the variant).</p>
<table><tr><th rowspan=2>card</th><th colspan=4>base</th><th colspan=4>variant</th></tr>
<tr>{heads}{heads}</tr>{cards}</table>
<figure>{plots["cards"]}<figcaption>Plays for effect per game, per card.</figcaption></figure>
</body></html>
"""


def require_plotting() -> None:
    """Raise RuntimeError naming the extra to install when matplotlib is missing."""
    _pyplot()


def _pyplot() -> Any:
    try:
        import matplotlib
    except ImportError:
        raise RuntimeError("the HTML report's plots need matplotlib: pip install 'taktik[reports]'") from None
    matplotlib.use("Agg")  # no display: files only
    matplotlib.rcParams["svg.hashsalt"] = "taktik"  # stable ids: the same report, the same bytes
    matplotlib.rcParams["svg.fonttype"] = "none"  # text stays text (small, searchable)
    import matplotlib.pyplot as plt

    return plt


def _svg(fig: Any) -> str:
    buffer = io.StringIO()
    fig.savefig(buffer, format="svg", bbox_inches="tight", metadata={"Date": None})
    text = buffer.getvalue()
    return text[text.index("<svg") :]  # inline: no XML prolog or doctype


def _plots(c: Comparison) -> dict[str, str]:
    plt = _pyplot()
    sets: tuple[tuple[str, RuleSetStats], ...] = (("base", c.base), ("variant", c.changed))
    colours = ("#4c72b0", "#dd8452")
    out: dict[str, str] = {}

    fig, ax = plt.subplots(figsize=(5, 3))
    rates = [s.attacker_rate for _, s in sets]
    errors = [[r - s.attacker_interval[0] for r, (_, s) in zip(rates, sets, strict=True)],
              [s.attacker_interval[1] - r for r, (_, s) in zip(rates, sets, strict=True)]]
    ax.bar([n for n, _ in sets], rates, yerr=errors, capsize=8, color=colours)
    ax.set_ylim(0, 1)
    ax.set_ylabel("ATTACKER win rate")
    out["win_rate"] = _svg(fig)
    plt.close(fig)

    fig, ax = plt.subplots(figsize=(7, 3))
    values = [s.turns.values for _, s in sets]
    low = min((min(v) for v in values if v), default=0)
    high = max((max(v) for v in values if v), default=1)
    step = max(1, (high - low + 1) // 20)
    bins = [edge - 0.5 for edge in range(low, high + step + 1, step)]  # whole turns sit mid-bin
    ax.hist([list(v) for v in values], bins=bins, label=[n for n, _ in sets], color=colours)
    ax.set_xlabel("turns")
    ax.set_ylabel("games")
    ax.legend()
    out["lengths"] = _svg(fig)
    plt.close(fig)

    cards = sorted({*c.base.cards, *c.changed.cards})
    fig, ax = plt.subplots(figsize=(7, max(2.0, 0.25 * len(cards) + 1)))
    positions = list(range(len(cards)))
    for offset, ((name, stats), colour) in enumerate(zip(sets, colours, strict=True)):
        per_game = [stats.cards.get(card, CardUsage()).plays / max(1, stats.games) for card in cards]
        ax.barh([p + 0.4 * offset for p in positions], per_game, height=0.4, label=name, color=colour)
    ax.set_yticks([p + 0.2 for p in positions], cards)
    ax.invert_yaxis()
    ax.set_xlabel("plays per game")
    ax.legend()
    out["cards"] = _svg(fig)
    plt.close(fig)
    return out
