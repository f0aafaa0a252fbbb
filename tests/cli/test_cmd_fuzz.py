"""`taktik fuzz`: clean runs exit 0; a planted bug exits 1 with a runnable regression test."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

from cli.main import main
from engine import decode_record
from tests.support import plant_card_loss


def test_a_clean_fuzz_run_exits_zero(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["fuzz", "--games", "3", "--seed", "40", "--out", str(tmp_path)]) == 0
    out = capsys.readouterr()
    assert "every invariant held" in out.out and "3/3 games" in out.err
    assert not list(tmp_path.iterdir())


def test_a_planted_bug_is_shrunk_into_a_failing_pytest_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    plant_card_loss(monkeypatch)
    assert main(["fuzz", "--games", "12", "--seed", "0", "--out", str(tmp_path)]) == 1
    printed = capsys.readouterr().out
    assert "cards_conserved" in printed and "shrunk from" in printed
    [test_file] = list(tmp_path.glob("test_fuzz_*.py"))
    [record_file] = list(tmp_path.glob("test_fuzz_*.json"))
    assert decode_record(record_file.read_bytes()).actions
    spec = importlib.util.spec_from_file_location("regression", test_file)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    test = next(getattr(module, n) for n in dir(module) if n.startswith("test_"))
    with pytest.raises(AssertionError, match="cards_conserved"):
        test()
    monkeypatch.undo()
    test()


def test_bad_arguments_are_refused() -> None:
    with pytest.raises(SystemExit):
        main(["fuzz", "--games", "0"])


def test_the_run_ends_with_its_rule_coverage(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["fuzz", "--games", "2", "--seed", "40", "--out", str(tmp_path)]) == 0
    printed = capsys.readouterr().out
    report = printed.split("rule coverage (reached/all):\n", 1)[1].splitlines()
    assert [line.split()[0] for line in report] == ["cards", "tactics", "effects", "phases", "windows", "victories",
                                                    "illegal"]
    assert "never: " in printed and "resignation" in printed  # what fuzzing cannot reach is named


def test_guided_and_parallel_runs_are_deterministic(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    outputs = []
    for extra in ([], ["--jobs", "2"], ["--guided"], ["--guided", "--jobs", "2"]):
        assert main(["fuzz", "--games", "3", "--seed", "9", "--unlisted", "2", "--out", str(tmp_path), *extra]) == 0
        outputs.append(capsys.readouterr().out)
    plain, pooled, guided, guided_pooled = outputs
    assert pooled == plain and guided_pooled == guided
    assert guided != plain  # the guide changed what was played

