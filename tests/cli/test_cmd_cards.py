"""`taktik cards schema` and `taktik cards check FILE`, run through the real command line."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from cli.main import main
from engine.data import CardFile, card_file_schema

VARIANT = Path(__file__).resolve().parents[2] / "engine" / "data" / "variants" / "field_manual.json"


def test_schema_prints_the_card_file_schema(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["cards", "schema"]) == 0
    schema = json.loads(capsys.readouterr().out)
    assert schema == json.loads(json.dumps(card_file_schema()))
    defs = schema["$defs"]
    assert schema["$ref"] == f"#/$defs/{CardFile.__name__}"
    assert {"CardDef", "EffectDef", "AuraDef", "AllOf", "Near"} <= set(defs)
    # The condition union is tagged by "if", so an editor completes the fact names.
    assert defs["Near"]["properties"]["if"] == {"enum": ["near"]}
    assert defs["Near"]["properties"]["within"]["maximum"] == 6


def test_check_accepts_the_variant_deck(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["cards", "check", str(VARIANT)]) == 0
    assert capsys.readouterr().out == f"{VARIANT}: 14 cards, all valid\n"


def test_check_reports_every_bad_card_with_its_path(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    data = json.loads(VARIANT.read_text())
    data["common"][0]["effects"][0]["when"] = {"if": "sunny"}
    data["common"][3]["effects"][0]["faces"] = [7]
    data["common"][6]["effects"][0]["aura"] = {"radius": 12}
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(data))
    assert main(["cards", "check", str(bad)]) == 1
    captured = capsys.readouterr()
    lines = captured.err.splitlines()
    assert captured.out == ""
    assert [line.split(": ")[1] for line in lines[:3]] == [
        "$.common[0].effects[0].when.if",
        "$.common[3].effects[0].faces[0]",
        "$.common[6].effects[0].aura.radius",
    ]
    assert "card 'forest_ambush'" in lines[0] and "unknown condition 'sunny'" in lines[0]
    assert lines[3] == f"{bad}: 3 cards refused"
    assert "Traceback" not in captured.err


def test_check_explains_a_file_that_is_not_a_card_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    broken = tmp_path / "broken.json"
    broken.write_text('{"common": [')
    assert main(["cards", "check", str(broken)]) == 1
    err = capsys.readouterr().err
    assert "card data: " in err and "Traceback" not in err
    assert main(["cards", "check", str(tmp_path / "missing.json")]) == 2
    assert "cannot be read" in capsys.readouterr().err
