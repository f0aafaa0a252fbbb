"""`taktik balance`: a tiny run end to end, its reports against its records, and bad arguments."""

from __future__ import annotations

import contextlib
import io
import json
import re
from pathlib import Path
from typing import Any

import msgspec
import pytest

from cli.main import main
from engine import EventKind, GameConfig, RoundLimit, Side, VictoryConfig, decode_record, replay
from engine.data import base_card_id
from lab.selfplay import wilson_interval

SMALL = GameConfig(
    terrain="\n".join(["." * 10] * 12), victory=VictoryConfig(max_actions=200, round_limit=RoundLimit(max_rounds=4))
)
VARIANT = {
    "name": "long_reach",
    "description": "mechanized reach 4, Air Cover twice as common",
    "cards": {"change": {"air_cover": {"copies_60": 4}}},
    "tables": {"units": {"MECHANIZED": {"range": 4}}, "hit_thresholds": [3, 4, 4, 5]},
}


def write(tmp_path: Path, name: str, data: Any) -> str:
    path = tmp_path / name
    path.write_bytes(data if isinstance(data, bytes) else json.dumps(data).encode())
    return str(path)


@pytest.fixture(scope="module")
def run(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, str, str]:
    """One tiny run shared by the tests (capsys is per test, so output is captured here)."""
    tmp = tmp_path_factory.mktemp("balance")
    out = tmp / "out"
    argv = [
        "balance", write(tmp, "variant.json", VARIANT), "--games", "2", "--bots", "greedy,random", "--seed", "5",
        "--config", write(tmp, "small.json", msgspec.json.encode(SMALL)), "--out", str(out),
    ]
    stdout, stderr = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(stdout), contextlib.redirect_stderr(stderr):
        assert main(argv) == 0
    return out, stdout.getvalue(), stderr.getvalue()


def test_writes_records_and_reports(run: tuple[Path, str, str]) -> None:
    out, printed, progress = run
    for rules in ("base", "variant"):
        assert sorted(p.name for p in (out / rules).glob("game-*.json")) == ["game-0000.json", "game-0001.json"]
    assert "ATTACKER win rate, variant − base" in printed and "95% CI (Wilson)" in printed
    assert "*air_cover" in printed  # the changed card is marked
    assert re.search(r"tables\.units\.MECHANIZED\.range +3 → 4", printed)  # and so are the changed tables
    assert re.search(r"cards\.change\.air_cover\.copies_60 +\d+ → \d+", printed)  # card changes, field by field
    assert "4/4 games" in progress
    assert (out / "balance.txt").read_text().strip() in printed
    page = (out / "balance.html").read_text()
    assert page.count("<svg") == 3  # the plots are inline
    assert not re.search(r"""(src|href)\s*=\s*["'](?!#)""", page)  # nothing to fetch: it opens offline


def test_the_reports_agree_with_the_records(run: tuple[Path, str, str]) -> None:
    out, _, _ = run
    report = json.loads((out / "balance.json").read_text())["comparison"]
    seeds = {}
    for rules, key in (("base", "base"), ("variant", "changed")):
        wins, turns, actions, endings, draws, plays = 0, [], [], {}, {}, {}
        for path in sorted((out / rules).glob("game-*.json")):
            record = decode_record(path.read_bytes())
            seeds.setdefault(rules, []).append(record.config.seed)
            assert (record.config.rules is not None) == (rules == "variant")
            states = list(replay(record))
            final = states[-1]
            wins += final.winner is Side.ATTACKER
            turns.append(final.turn)
            actions.append(len(record.actions))
            ending = final.victory_reason or "unfinished"
            endings[ending] = endings.get(ending, 0) + 1
            for state in states:
                for event in state.events:
                    if event.card is None:
                        continue
                    card = base_card_id(event.card)
                    if event.kind is EventKind.CARD_DRAWN:
                        draws[card] = draws.get(card, 0) + 1
                    if event.kind in (EventKind.BONUS_PLAYED, EventKind.TACTIC_PLAYED):
                        plays[card] = plays.get(card, 0) + 1
        stats = report[key]
        assert stats["games"] == 2 and stats["attacker_wins"] == wins
        assert stats["attacker_interval"] == list(wilson_interval(wins, 2))
        assert stats["turns"]["values"] == turns and stats["actions"]["values"] == actions
        assert stats["actions"]["mean"] == sum(actions) / 2
        assert stats["endings"] == endings
        assert {c: u["draws"] for c, u in stats["cards"].items() if u["draws"]} == draws
        assert {c: u["plays"] for c, u in stats["cards"].items() if u["plays"]} == plays
    assert seeds["base"] == seeds["variant"] == [5, 6]
    assert report["difference"] == report["changed"]["attacker_rate"] - report["base"]["attacker_rate"]
    assert [c["field"] for c in report["changed_rules"]] == [
        "cards.change.air_cover.copies_60",
        "tables.units.MECHANIZED.range",
        "tables.hit_thresholds",
    ]


@pytest.mark.parametrize(
    ("variant", "extra", "message"),
    [
        ({"name": "x", "cards": {"change": {"air_cuver": {}}}}, [], "$.cards.change.air_cuver: unknown card"),
        ({"name": "x", "tables": {"units": {"SPECIAL": {"range": -1}}}}, [], "$.tables.units.SPECIAL.range"),
        ({"name": "x", "scenario": {"deck": "big"}}, [], "$.scenario.deck"),
        ({"name": "x"}, ["--bots", "greedy"], "--bots needs two bots, like greedy,greedy"),
        ({"name": "x"}, ["--bots", "greedy,nobody"], "unknown bot 'nobody'; known bots: greedy, mcts, "
         "oep, random, strong"),
    ],
)
def test_bad_arguments_stop_before_anything_runs(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], variant: dict[str, Any], extra: list[str], message: str
) -> None:
    out = tmp_path / "out"
    code = main(["balance", write(tmp_path, "v.json", variant), "--out", str(out), *extra])
    err = capsys.readouterr().err
    assert code == 2 and message in err and len(err.splitlines()) <= 3
    assert not out.exists()  # nothing ran, nothing written


def test_missing_variant_file_and_bad_games(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["balance", str(tmp_path / "nope.json"), "--out", str(tmp_path / "o")]) == 2
    assert "nope.json: cannot read" in capsys.readouterr().err
    with pytest.raises(SystemExit) as exited:
        main(["balance", write(tmp_path, "v.json", {"name": "x"}), "--games", "0", "--out", str(tmp_path / "o")])
    assert exited.value.code == 2 and "--games" in capsys.readouterr().err
