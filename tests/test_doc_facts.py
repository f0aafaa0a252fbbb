"""What README.md and docs/ count and limit agrees with the code, and the files they name exist.

Each test reads a figure where a page states it and compares it with the value the code
has now, so a change on either side that leaves the other behind fails here, naming both.
Figures measured by a benchmark are not checked here (they are quoted from its output);
counts, limits and defaults are.
"""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

import pytest

from engine import EventKind, GameConfig, Side, VictoryConfig, new_game
from engine.data import DECK_SOURCES
from engine.mapgen import generate_terrain
from lab.bots import bot_options
from lab.fuzz.coverage import universe
from server.pgbatch import WRITERS
from server.settings import ClusterTuning, Limits

ROOT = Path(__file__).resolve().parent.parent
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]


def page(name: str) -> str:
    return (ROOT / name).read_text(encoding="utf-8")


def stated(name: str, pattern: str) -> list[str]:
    """Every match of ``pattern``'s first group in page ``name``, one line at a time; at least one."""
    text = re.sub(r"\s*\n\s*", " ", page(name))  # a sentence may wrap anywhere
    found = re.findall(pattern, text)
    assert found, f"{name} no longer says {pattern!r}: update this test with the page"
    return found


def number(text: str) -> int:
    return int(text.replace(",", ""))


def test_the_event_kinds_are_counted_right() -> None:
    assert [number(n) for n in stated("docs/engine.md", r"`StrEnum` of the ([\d,]+) things")] == [len(EventKind)]


def test_the_standard_cards_are_counted_right() -> None:
    common, tactics = DECK_SOURCES["standard"]
    assert stated("docs/engine.md", r"holds the (\d+) common-deck cards and (\d+) tactics") == [
        (str(len(common)), str(len(tactics)))
    ]
    assert {number(n) for n in stated("docs/bots.md", r"of the ([\d,]+)-card pool")} == {len(tactics)}


def test_the_default_game_is_described_right() -> None:
    state = new_game(GameConfig())
    forces = {side: sum(unit.side is side for unit in state.units) for side in Side}
    said = stated("README.md", r"an ATTACKER with (\d+) units against a DEFENDER with (\d+) on a (\d+) × (\d+) board")
    assert said == [(str(forces[Side.ATTACKER]), str(forces[Side.DEFENDER]), str(state.board.width),
                     str(state.board.height))]
    victory = VictoryConfig()
    assert {number(n) for n in stated("docs/server.md", r"at most ([\d,]+) by default")} == {victory.max_actions}


def test_the_python_version_is_the_one_the_package_requires() -> None:
    required = tomllib.loads(page("pyproject.toml"))["project"]["requires-python"]
    assert required == ">=3.11"
    assert stated("README.md", r"needs Python (3\.\d+) or newer") == ["3.11"]
    assert stated("docs/lab.md", r"need Python (3\.\d+)\+") == ["3.11"]


def _limit_value(text: str) -> float:
    """``"8192"``, ``"20 s"``, ``"0.5/s"``, ``"0.1 s/s"``, ``"1 MiB"`` → the number the code holds."""
    match = re.fullmatch(r"([\d,.]+)\s*(MiB|s/s|s|/s)?", text.strip())
    assert match, f"cannot read the limit {text!r}"
    value = float(match.group(1).replace(",", ""))
    return value * 2**20 if match.group(2) == "MiB" else value


def test_the_server_limits_table_gives_every_limit_with_its_default() -> None:
    rows = re.findall(r"^\| ((?:`\w+`(?:, )?)+) \| ([^|]+) \|", page("docs/server.md"), re.M)
    documented: dict[str, float] = {}
    for fields, values in rows:
        names = re.findall(r"`(\w+)`", fields)
        parts = values.split(", ")
        if not all(name in Limits.__struct_fields__ for name in names):
            continue  # another table (options, tests)
        assert len(parts) == len(names), f"docs/server.md: {fields} has {len(parts)} values"
        documented.update(zip(names, map(_limit_value, parts), strict=True))
    defaults = Limits()
    assert sorted(documented) == sorted(Limits.__struct_fields__), "docs/server.md's limits table: missing or extra"
    for name, value in documented.items():
        code = getattr(defaults, name)
        assert value == code, f"docs/server.md gives {name} = {value}, the code {code}"


def test_the_postgresql_connections_are_the_pool_and_one_per_writer() -> None:
    pool = ClusterTuning().pool_size
    said = stated("docs/server.md", r"\(default (\d+); the appends have up to (\d+) more")
    assert said == [(str(pool), str(WRITERS))]
    assert stated("docs/deploy.md", r"\| `--pool-size` \| `taktik serve` \| (\d+) \|") == [str(pool)]
    assert set(stated("docs/deploy.md", r"appends have up to (\d+) more")) == {str(WRITERS)}
    assert set(stated("docs/deploy.md", r"up to (\d+) writers per process")) == {str(WRITERS)}
    assert stated("docs/deploy.md", r"\(pool size \+ (\d+)\)") == [str(WRITERS)]


def test_the_board_sides_of_a_generated_map_are_the_documented_range() -> None:
    [(low, high)] = stated("docs/terrain.md", r"`width` and `height` must each be (\d+)\.\.(\d+)")
    for side, ok in ((int(low) - 1, False), (int(low), True), (int(high), True), (int(high) + 1, False)):
        if ok:
            generate_terrain(1, side, int(low))
        else:
            with pytest.raises(ValueError, match="outside"):
                generate_terrain(1, side, int(low))


def test_the_mcts_defaults_are_the_documented_ones() -> None:
    options = bot_options("mcts")
    assert {number(n) for n in stated("docs/bots.md", r"\(default (\d+)\), so it is deterministic")} == {
        options["iterations"]
    }


def test_the_fuzz_coverage_shown_counts_every_category_of_the_engine() -> None:
    block = re.search(r"rule coverage \(reached/all\):\n(.*?)```", page("docs/lab.md"), re.S)
    assert block, "docs/lab.md no longer shows a coverage table"
    rows = re.findall(r"^\s+([a-z ]+?)\s+\d+/(\d+)", block.group(1), re.M)
    shown = {name.strip(): int(total) for name, total in rows}
    assert shown == {category: len(names) for category, names in universe().items()}


PATH = re.compile(r"(?<![\w/.-])((?:engine|lab|server|cli|web|scripts|tests|docs|assets|\.ci)/[\w./-]*\w)")


@pytest.mark.parametrize("doc", PAGES, ids=[str(p.relative_to(ROOT)) for p in PAGES])
def test_every_file_a_page_names_exists(doc: Path) -> None:
    named = {m.group(1) for m in PATH.finditer(doc.read_text(encoding="utf-8"))}
    placeholders = re.compile(r"[A-Z]{2,}|NNNN")  # docs/variants/NAME.json, DIR/game-NNNN.json
    missing = sorted(path for path in named if not placeholders.search(path) and not (ROOT / path).exists())
    assert not missing, f"{doc.relative_to(ROOT)} names files that do not exist: {', '.join(missing)}"
