"""The rules as web pages: ``GET /rules`` renders ``docs/rules.md`` to HTML, offline, and
``GET /rules/short`` the player's summary ``docs/rules-short.md``, whose tables (units,
terrain, hits by distance) and numbers (the VP to win, the round limit, moves per turn...)
are filled in from the engine's data, so they never drift from the rules in force.

A small Markdown renderer for the subset the rules use (headings, paragraphs, lists with
continuation lines, pipe tables, fenced code, rules, ``**bold**``, ``*emphasis*``,
`code`, links); no dependency. Headings get ids (``6.1 Declaring attacks`` → ``s6-1``)
and every ``§6.1`` in the text links to its section, so the in-game help can link straight
to a rule. The page is rendered once per process and cached.
"""

from __future__ import annotations

import html
import re
from functools import cache
from pathlib import Path

from starlette.requests import Request
from starlette.responses import HTMLResponse, Response
from starlette.routing import Route

from engine import VictoryConfig
from engine.data import HIT_THRESHOLDS, STANDARD_TABLES, TERRAIN, UNITS

__all__ = [
    "ROUTES", "RULES_MD", "SHORT_MD", "render_markdown", "rules_page", "short_rules_markdown", "short_rules_page",
]

RULES_MD = Path(__file__).resolve().parent.parent / "docs" / "rules.md"
SHORT_MD = Path(__file__).resolve().parent.parent / "docs" / "rules-short.md"

_HEADING = re.compile(r"^(#{1,6})\s+(.*)$")
_BULLET = re.compile(r"^(\s*)[-*]\s+(.*)$")
_NUMBERED = re.compile(r"^(\s*)\d+\.\s+(.*)$")
_SECTION = re.compile(r"^(\d+(?:\.\d+)*)\.?\s")
_INLINE = re.compile(r"`([^`]+)`|\*\*(.+?)\*\*|\*([^*\s][^*]*?)\*|\[([^\]]+)\]\(([^)\s]+)\)|§(\d+(?:\.\d+)*)")


def _inline(text: str) -> str:
    """Escape ``text`` and render its inline marks (code first: nothing inside code is a mark)."""
    out: list[str] = []
    at = 0
    for m in _INLINE.finditer(text):
        out.append(html.escape(text[at:m.start()]))
        code, bold, em, label, href, section = m.groups()
        if code is not None:
            out.append(f"<code>{html.escape(code)}</code>")
        elif bold is not None:
            out.append(f"<strong>{_inline(bold)}</strong>")
        elif em is not None:
            out.append(f"<em>{_inline(em)}</em>")
        elif label is not None:
            safe = href if re.match(r"^(https?:|#|/)", href) else "#"
            out.append(f'<a href="{html.escape(safe)}">{_inline(label)}</a>')
        else:
            out.append(f'<a href="#s{section.replace(".", "-")}">§{section}</a>')
        at = m.end()
    out.append(html.escape(text[at:]))
    return "".join(out)


def _anchor(title: str) -> str:
    """An id for a heading: its section number (``s6-1``), else its words."""
    number = _SECTION.match(title)
    if number:
        return "s" + number.group(1).replace(".", "-")
    return re.sub(r"[^a-z0-9]+", "-", title.lower()).strip("-") or "section"


def _cells(row: str) -> list[str]:
    return [cell.strip() for cell in row.strip().strip("|").split("|")]


def _table(rows: list[str]) -> str:
    head, body = _cells(rows[0]), [_cells(r) for r in rows[2:]] if len(rows) > 1 else []
    th = "".join(f"<th>{_inline(c)}</th>" for c in head)
    trs = "".join("<tr>" + "".join(f"<td>{_inline(c)}</td>" for c in r) + "</tr>" for r in body)
    return f'<div class="tablewrap"><table><thead><tr>{th}</tr></thead><tbody>{trs}</tbody></table></div>'


def render_markdown(text: str) -> str:
    """``text`` (the Markdown subset above) as HTML; everything that is not a mark is escaped."""
    out: list[str] = []
    lines = text.splitlines()
    i = 0
    while i < len(lines):
        line = lines[i]
        if not line.strip():
            i += 1
        elif line.startswith("```"):
            end = i + 1
            while end < len(lines) and not lines[end].startswith("```"):
                end += 1
            out.append(f"<pre><code>{html.escape(chr(10).join(lines[i + 1:end]))}</code></pre>")
            i = end + 1
        elif (heading := _HEADING.match(line)) is not None:
            level, title = len(heading.group(1)), heading.group(2).strip()
            out.append(f'<h{level} id="{_anchor(title)}">{_inline(title)}</h{level}>')
            i += 1
        elif re.fullmatch(r"\s*(-{3,}|\*{3,})\s*", line):
            out.append("<hr>")
            i += 1
        elif line.lstrip().startswith("|"):
            end = i
            while end < len(lines) and lines[end].lstrip().startswith("|"):
                end += 1
            out.append(_table(lines[i:end]))
            i = end
        elif _BULLET.match(line) or _NUMBERED.match(line):
            i = _list(lines, i, out)
        else:
            end = i
            while end < len(lines) and lines[end].strip() and not _starts_block(lines[end]):
                end += 1
            out.append(f"<p>{_inline(' '.join(s.strip() for s in lines[i:end]))}</p>")
            i = end
    return "\n".join(out)


def _starts_block(line: str) -> bool:
    return bool(line.startswith("```") or _HEADING.match(line) or line.lstrip().startswith("|")
                or _BULLET.match(line) or _NUMBERED.match(line))


def _list(lines: list[str], i: int, out: list[str]) -> int:
    """One list (bulleted or numbered) from line ``i``; indented lines continue the item before."""
    numbered = _NUMBERED.match(lines[i]) is not None
    items: list[str] = []
    while i < len(lines):
        line = lines[i]
        item = (_NUMBERED if numbered else _BULLET).match(line)
        if item is not None and not item.group(1):
            items.append(item.group(2).strip())
        elif line.strip() and line.startswith((" ", "\t")) and items:
            items[-1] += " " + line.strip()
        else:
            break
        i += 1
    tag = "ol" if numbered else "ul"
    out.append(f"<{tag}>" + "".join(f"<li>{_inline(item)}</li>" for item in items) + f"</{tag}>")
    return i


_PAGE = """<!doctype html>
<html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{title} · Taktik</title>
<link rel="stylesheet" href="/static/css/app.css">
</head><body class="rulespage"><nav class="rulesnav"><a class="brand" href="/">Taktik</a> <span>{title}</span>
<a href="/rules/short">Rules in brief</a> <a href="/rules">Full rules</a></nav>
<main class="rules">{body}</main></body></html>
"""


@cache
def _rendered() -> str | None:
    try:
        text = RULES_MD.read_text(encoding="utf-8")
    except OSError:
        return None
    return _PAGE.replace("{title}", "Rules").replace("{body}", render_markdown(text))


async def rules_page(request: Request) -> Response:
    """``GET /rules``: the rules of the game as one HTML page."""
    page = _rendered()
    if page is None:
        return HTMLResponse("<!doctype html><title>Rules</title><p>The rules (docs/rules.md) are not installed.</p>",
                            status_code=404)
    return HTMLResponse(page, headers={"Cache-Control": "no-cache", "X-Content-Type-Options": "nosniff"})


def _markdown_table(head: list[str], rows: list[list[str]]) -> str:
    lines = ["| " + " | ".join(head) + " |", "|" + " --- |" * len(head)]
    lines += ["| " + " | ".join(row) + " |" for row in rows]
    return "\n".join(lines)


def _signed(value: int) -> str:
    return "0" if value == 0 else f"{value:+d}".replace("-", "−")


def short_rules_markdown(text: str) -> str:
    """The player's summary with its placeholders filled from the engine's standard tables."""
    tables = STANDARD_TABLES
    victory = VictoryConfig()
    units = _markdown_table(["Unit", "Moves (MP)", "Range", "HP", "Damage", "Worth (VP)"], [
        [_UNIT_NAMES.get(kind.value, kind.value), str(u.movement_mp), str(u.range), str(u.hp), str(u.damage), str(u.vp)]
        for kind, u in UNITS.items()])
    terrain = _markdown_table(["Terrain", "Cost to enter (MP)", "Die modifier against a unit here", "Defence"], [
        [_TERRAIN_NAMES.get(kind.value, kind.value.lower()), "cannot enter" if t.blocks else str(t.move_cost),
         "—" if t.blocks else _signed(t.hit_modifier), "—" if t.blocks else _signed(t.defense)]
        for kind, t in TERRAIN.items()])
    hits = _markdown_table(["Distance", *[str(d + 1) if d + 1 < len(HIT_THRESHOLDS) else f"{d + 1} or more"
                                 for d in range(len(HIT_THRESHOLDS))]],
                  [["The die must reach", *[f"{n}+" if n < 6 else "6" for n in HIT_THRESHOLDS]]])
    points = victory.victory_points
    limit = victory.round_limit
    values = {
        "{units}": units, "{terrain}": terrain, "{hits}": hits,
        "{goal}": str(points.threshold if points else "—"), "{rounds}": str(limit.max_rounds if limit else "—"),
        "{moves}": str(tables.max_moves), "{storage}": str(tables.storage_limit),
        "{tactics}": str(tables.tactic_hand_size),
    }
    for key, value in values.items():
        text = text.replace(key, value)
    return text


_UNIT_NAMES = {"LIGHT_INFANTRY": "Light infantry", "MECHANIZED": "Mechanized", "SPECIAL": "Special forces"}
_TERRAIN_NAMES = {"PLAIN": "open ground", "ROUGH": "rough ground", "FOREST": "forest", "URBAN": "town",
                  "INDUSTRIAL": "industrial area", "HILL": "hill", "WATER": "water"}


@cache
def _short() -> str | None:
    try:
        text = SHORT_MD.read_text(encoding="utf-8")
    except OSError:
        return None
    return _PAGE.replace("{title}", "Rules in brief").replace("{body}", render_markdown(short_rules_markdown(text)))


async def short_rules_page(request: Request) -> Response:
    """``GET /rules/short``: the player's summary of the rules, its tables from the engine's data."""
    page = _short()
    if page is None:
        return HTMLResponse("<!doctype html><title>Rules</title><p>The rules summary (docs/rules-short.md) is not "
                            "installed.</p>", status_code=404)
    return HTMLResponse(page, headers={"Cache-Control": "no-cache", "X-Content-Type-Options": "nosniff"})


ROUTES: list[Route] = [
    Route("/rules", rules_page, methods=["GET"]),
    Route("/rules/short", short_rules_page, methods=["GET"]),
]
