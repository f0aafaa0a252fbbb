"""lab.report: the terminal table, JSON and HTML name what the variant changes, tables and scenario too."""

from __future__ import annotations

import html
import json

import pytest

from engine import GameConfig, Side
from lab.balance import BalanceGame, CardUsage, Comparison, compare
from lab.changes import rule_changes
from lab.report import comparison_json, format_comparison, html_report
from lab.variant import decode_variant

VARIANT = decode_variant(
    json.dumps(
        {
            "name": "long_reach",
            "cards": {"change": {"air_cover": {"copies_60": 4}}},
            "tables": {"units": {"MECHANIZED": {"range": 4}}, "hit_thresholds": [3, 4, 4, 5]},
            "scenario": {"terrain": "\n".join(["." * 30] * 12)},
        }
    ).encode()
)
GAMES = [
    BalanceGame(
        rules=rules, index=i, seed=5 + i, attacker="greedy", defender="random", winner=Side.ATTACKER if i else None,
        reason="annihilation" if i else "unfinished", turns=6 + i, actions=90 + i,
        cards={"air_cover": CardUsage(draws=1, plays=1)},
    )
    for rules in ("base", "variant")
    for i in range(2)
]


def comparison(changed: bool = True) -> Comparison:
    return compare(
        GAMES, variant=VARIANT.name, bots=("greedy", "random"), seed=5, changed_cards=VARIANT.changed_cards,
        changed_rules=rule_changes(GameConfig(), VARIANT) if changed else (),
    )


def test_the_terminal_table_lists_each_changed_value_base_to_variant() -> None:
    text = format_comparison(comparison())
    lines = text.splitlines()
    start = lines.index("rules changed (base → variant):")
    listed = [line.split() for line in lines[start + 1 : start + 5]]
    assert listed[0] == ["cards.change.air_cover.copies_60", "2", "→", "4"]  # card changes itemized first
    assert listed[1] == ["tables.units.MECHANIZED.range", "3", "→", "4"]
    assert listed[2] == ["tables.hit_thresholds", "[3,4,5,6]", "→", "[3,4,4,5]"]
    assert listed[3][0] == "scenario.terrain" and listed[3][-1].endswith("…")  # a whole map is shortened
    assert len(" ".join(listed[3])) < 120
    assert "*air_cover" in text  # the card mark stays


def test_a_comparison_without_changed_rules_has_no_rules_section() -> None:
    assert "rules changed" not in format_comparison(comparison(changed=False))


def test_the_json_carries_every_change_whole() -> None:
    report = json.loads(comparison_json(comparison(), GAMES))["comparison"]
    by_field = {c["field"]: (c["base"], c["variant"]) for c in report["changed_rules"]}
    assert by_field["tables.units.MECHANIZED.range"] == (3, 4)
    assert by_field["tables.hit_thresholds"] == ([3, 4, 5, 6], [3, 4, 4, 5])
    assert by_field["scenario.terrain"][1] == "\n".join(["." * 30] * 12)
    assert report["changed_cards"] == ["air_cover"]


def test_the_html_report_has_a_table_of_the_changes() -> None:
    pytest.importorskip("matplotlib", reason="the HTML report's plots need the [reports] extra")
    page = html_report(comparison())
    section = page[page.index("<h2>Rules changed</h2>") : page.index("<h2>Results</h2>")]
    assert "<tr><th><code>tables.units.MECHANIZED.range</code></th><td>3</td><td>4</td></tr>" in section
    assert f"<td>{html.escape('[3,4,4,5]')}</td>" in section
    assert "Rules changed" not in html_report(comparison(changed=False))
