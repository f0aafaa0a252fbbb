"""Duplicate-key detection (server/jsonkeys.py): exact, escape-aware, and only ever a DecodeError."""

from __future__ import annotations

import msgspec
import pytest

from server.jsonkeys import check_unique_keys


def test_unique_keys_pass_at_any_depth() -> None:
    check_unique_keys('{"a": {"a": 1, "b": [{"a": 2}, {"a": 3}]}, "b": "\\"a\\": 1"}')
    check_unique_keys(b'[{"x": 1}, {"x": 2}]')


@pytest.mark.parametrize(("text", "key"), [
    ('{"a": 1, "a": 1}', "a"),
    ('{"outer": [{"k": 1, "b": 2, "k": 3}]}', "k"),
    ('{"\\u00e9": 1, "\u00e9": 2}', "\u00e9"),
])
def test_a_key_twice_in_one_object_is_named(text: str, key: str) -> None:
    with pytest.raises(msgspec.ValidationError, match=f"duplicate key {key!r}"):
        check_unique_keys(text)


@pytest.mark.parametrize("data", [b"\xff{}", "{", "[" * 100_000 + "]" * 100_000, '{"n": ' + "9" * 5000 + "}"])
def test_what_the_standard_library_refuses_is_a_decode_error(data: str | bytes) -> None:
    with pytest.raises(msgspec.DecodeError):
        check_unique_keys(data)
