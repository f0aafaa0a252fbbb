"""`GameRecord` and `replay`: the rules version a record carries, old integer versions included."""

from __future__ import annotations

import json

import msgspec
import pytest

from engine import (
    LEGACY_VERSIONS,
    RULES_VERSION,
    DrawCard,
    GameConfig,
    GameRecord,
    ReplayMismatch,
    decode_record,
    encode_record,
    record_game,
    replay,
)

RECORD = record_game(GameConfig(seed=3), [DrawCard()])
OTHER_RULES = "0.0ldrul3s"  # a version no engine plays


def test_a_new_record_carries_this_engines_rules_version_and_round_trips() -> None:
    assert RECORD.rules_version == RULES_VERSION
    text = encode_record(RECORD)
    assert json.loads(text)["rules_version"] == RULES_VERSION
    assert decode_record(text) == RECORD


def test_a_record_with_the_old_integer_version_reads_as_the_same_rules_derived_version() -> None:
    data = json.loads(encode_record(RECORD))
    data["rules_version"] = 1
    old = decode_record(json.dumps(data))
    assert old.rules_version == LEGACY_VERSIONS["1"] and old.actions == RECORD.actions
    assert msgspec.convert(data, GameRecord).rules_version == LEGACY_VERSIONS["1"]
    assert GameRecord(config=RECORD.config, rules_version=1).rules_version == LEGACY_VERSIONS["1"]
    assert GameRecord(config=RECORD.config, rules_version="1").rules_version == LEGACY_VERSIONS["1"]
    if LEGACY_VERSIONS["1"] == RULES_VERSION:  # until the rules change, a version 1 record plays on
        assert list(replay(old)) == list(replay(RECORD))
    with pytest.raises(ValueError, match="rules_version"):
        decode_record(json.dumps({**data, "rules_version": True}))


def test_replay_refuses_a_record_of_other_rules_naming_both_versions() -> None:
    old = msgspec.structs.replace(RECORD, rules_version=OTHER_RULES)
    with pytest.raises(ValueError, match=rf"rules version {OTHER_RULES}; this engine plays {RULES_VERSION}"):
        list(replay(old))


def test_replay_across_versions_is_explicit_and_still_checks_every_hash() -> None:
    old = msgspec.structs.replace(RECORD, rules_version=OTHER_RULES)
    assert [s for s in replay(old, across_versions=True)] == list(replay(RECORD))
    forged = msgspec.structs.replace(old, hashes=("0" * 64,))
    with pytest.raises(ReplayMismatch):
        list(replay(forged, across_versions=True))
