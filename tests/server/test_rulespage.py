"""The rules page (server/rulespage.py): a small Markdown renderer and ``GET /rules``."""

from __future__ import annotations

import urllib.request

from engine import TerrainType, VictoryConfig
from engine.data import HIT_THRESHOLDS, TERRAIN, UNITS
from server.rulespage import RULES_MD, SHORT_MD, render_markdown, short_rules_markdown

from .conftest import LiveServer

UNIT_WORDS = {"LIGHT_INFANTRY": "Light infantry", "MECHANIZED": "Mechanized", "SPECIAL": "Special forces"}


def test_headings_get_section_ids_and_section_marks_link_to_them() -> None:
    out = render_markdown("## 6. Combat\n### 6.1 Declaring attacks\nSee §6.1 and §9.")
    assert '<h2 id="s6">6. Combat</h2>' in out
    assert '<h3 id="s6-1">6.1 Declaring attacks</h3>' in out
    assert '<p>See <a href="#s6-1">§6.1</a> and <a href="#s9">§9</a>.</p>' in out


def test_inline_marks_render_and_everything_else_is_escaped() -> None:
    out = render_markdown("**Decision:** a *reacting* player; `a < b` <script>x</script> [rules](https://x.org/r)")
    assert "<strong>Decision:</strong>" in out and "<em>reacting</em>" in out
    assert "<code>a &lt; b</code>" in out and "&lt;script&gt;" in out and "<script>" not in out
    assert '<a href="https://x.org/r">rules</a>' in out
    assert 'href="#"' in render_markdown("[bad](javascript:alert(1))")


def test_tables_lists_and_code_blocks() -> None:
    md = ("| a | b |\n| --- | --- |\n| 1 | **2** |\n\n- one\n  more\n- two\n\n"
          "1. first\n2. second\n\n```\nx < y\n```\n---")
    out = render_markdown(md)
    assert "<thead><tr><th>a</th><th>b</th></tr></thead><tbody><tr><td>1</td><td><strong>2</strong></td></tr>" in out
    assert "<ul><li>one more</li><li>two</li></ul>" in out
    assert "<ol><li>first</li><li>second</li></ol>" in out
    assert "<pre><code>x &lt; y</code></pre>" in out and out.endswith("<hr>")


def test_the_whole_rules_file_renders_every_section() -> None:
    text = RULES_MD.read_text(encoding="utf-8")
    out = render_markdown(text)
    sections = [line.split()[1] for line in text.splitlines() if line.startswith("### ")]
    for number in sections:
        assert f'id="s{number.replace(".", "-")}"' in out, number


def test_the_server_serves_the_rules_page(server: LiveServer) -> None:
    with urllib.request.urlopen(f"{server.base}/rules", timeout=10) as answer:
        assert answer.status == 200 and answer.headers["Content-Type"].startswith("text/html")
        page = answer.read().decode()
    assert "<title>Rules · Taktik</title>" in page and 'id="s9-1"' in page and "Reaction windows" in page


def test_the_rules_in_brief_take_their_tables_from_the_engine() -> None:
    text = short_rules_markdown(SHORT_MD.read_text(encoding="utf-8"))
    assert "{" not in text  # every placeholder filled
    for kind, unit in UNITS.items():
        row = next(line for line in text.splitlines() if line.startswith("| ") and UNIT_WORDS[kind.value] in line)
        figures = [unit.movement_mp, unit.range, unit.hp, unit.damage, unit.vp]
        assert [c.strip() for c in row.strip("|").split("|")][1:] == [str(f) for f in figures]
    hits = next(line for line in text.splitlines() if line.startswith("| The die must reach"))
    assert [c.strip() for c in hits.strip("|").split("|")][1:] == [f"{n}+" if n < 6 else "6" for n in HIT_THRESHOLDS]
    town = next(line for line in text.splitlines() if line.startswith("| town"))
    urban = TERRAIN[TerrainType.URBAN]
    assert town.split("|")[2].strip() == str(urban.move_cost) and town.split("|")[4].strip() == f"+{urban.defense}"
    assert f"**{VictoryConfig().victory_points.threshold} victory points (VP)**" in text  # type: ignore[union-attr]
    assert f"After round **{VictoryConfig().round_limit.max_rounds}**" in text  # type: ignore[union-attr]


def test_the_server_serves_the_rules_in_brief_linking_the_full_rules(server: LiveServer) -> None:
    with urllib.request.urlopen(f"{server.base}/rules/short", timeout=10) as answer:
        assert answer.status == 200 and answer.headers["Content-Type"].startswith("text/html")
        page = answer.read().decode()
    assert "<title>Rules in brief · Taktik</title>" in page and '<a href="/rules">the full rules</a>' in page
    assert "How to win" in page and "<th>Distance</th>" in page
