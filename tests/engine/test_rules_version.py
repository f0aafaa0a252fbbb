"""`RULES_VERSION` is derived from the rules data: it moves with a card, a table or the default config."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

from msgspec.structs import replace

from engine import RULES_EPOCH, RULES_VERSION, GameConfig, UnitType, VictoryConfig
from engine.rules_version import derive_rules_version, rules_data

REPO = Path(__file__).resolve().parents[2]


def version_of(data: dict[str, Any], epoch: int = RULES_EPOCH) -> str:
    return derive_rules_version(epoch, data)


def test_the_version_is_the_epoch_and_a_fingerprint_of_the_rules_data() -> None:
    assert re.fullmatch(rf"{RULES_EPOCH}\.[0-9a-f]{{8}}", RULES_VERSION)
    assert version_of(rules_data()) == RULES_VERSION


def test_equal_data_gives_the_same_version() -> None:
    data = rules_data()
    rebuilt = {**data, "units": dict(reversed(list(data["units"].items()))),
               "default_config": GameConfig(victory=VictoryConfig())}
    assert version_of(rebuilt) == RULES_VERSION


def test_changing_a_card_field_changes_the_version() -> None:
    data = rules_data()
    first, *rest = data["cards"]["common"]
    for changed in (replace(first, copies_60=first.copies_60 + 1), replace(first, text=first.text + "!")):
        assert version_of({**data, "cards": {**data["cards"], "common": (changed, *rest)}}) != RULES_VERSION
    tactic, *others = data["cards"]["tactics"]
    effect = replace(tactic.effects[0], value=tactic.effects[0].value + 1)
    changed = replace(tactic, effects=(effect, *tactic.effects[1:]))
    assert version_of({**data, "cards": {**data["cards"], "tactics": (changed, *others)}}) != RULES_VERSION


def test_reordering_the_deck_changes_the_version() -> None:
    data = rules_data()
    common = data["cards"]["common"]
    assert version_of({**data, "cards": {**data["cards"], "common": common[::-1]}}) != RULES_VERSION


def test_changing_a_table_value_changes_the_version() -> None:
    data = rules_data()
    units = dict(data["units"])
    units[UnitType.SPECIAL] = replace(units[UnitType.SPECIAL], hp=units[UnitType.SPECIAL].hp + 1)
    assert version_of({**data, "units": units}) != RULES_VERSION
    assert version_of({**data, "hit_thresholds": (3, 4, 5, 5)}) != RULES_VERSION
    assert version_of({**data, "max_attacks_per_turn": 6}) != RULES_VERSION


def test_changing_a_default_of_the_config_changes_the_version() -> None:
    data = rules_data()
    # An explicit field equal to a default encodes away in a record; here it must not.
    assert version_of({**data, "default_config": GameConfig(deck=90)}) != RULES_VERSION
    longer = GameConfig(victory=VictoryConfig(max_actions=4000))
    assert version_of({**data, "default_config": longer}) != RULES_VERSION


def test_bumping_the_epoch_changes_the_version() -> None:
    assert version_of(rules_data(), RULES_EPOCH + 1) == f"{RULES_EPOCH + 1}.{RULES_VERSION.split('.')[1]}"


def test_every_process_derives_the_same_version() -> None:
    for hash_seed in ("0", "12345"):
        out = subprocess.run([sys.executable, "-c", "from engine import RULES_VERSION; print(RULES_VERSION)"],
                             cwd=REPO, capture_output=True, text=True, check=True,
                             env={**os.environ, "PYTHONHASHSEED": hash_seed})
        assert out.stdout.strip() == RULES_VERSION
