"""Duplicate keys in client JSON: refused, because msgspec would silently keep the last one.

``{"type": "act", "version": 3, "version": 9, ...}`` decodes as version 9 in msgspec (and
in most JSON parsers), while a proxy, a log reader or a test may well read version 3: two
readers of one message must never disagree. msgspec has no option to detect it, so a
message that msgspec accepted is scanned once more by the standard library's C scanner,
whose ``object_pairs_hook`` sees every key of every object, escapes already decoded
(``"vers\\u0069on"`` is ``"version"``). For a typical ``act`` this adds about 2.4 µs to the
1.1 µs msgspec takes, against ~800 µs of server CPU per action (docs/server.md).
"""

from __future__ import annotations

import json
from typing import Any

import msgspec

__all__ = ["check_unique_keys"]


def _unique(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    found = dict(pairs)
    if len(found) != len(pairs):
        seen: set[str] = set()
        for key, _ in pairs:
            if key in seen:
                raise msgspec.ValidationError(f"duplicate key {key!r}: a key may appear only once in an object")
            seen.add(key)
    return found


_SCANNER = json.JSONDecoder(object_pairs_hook=_unique)


def check_unique_keys(data: str | bytes) -> None:
    """Raise ``msgspec.ValidationError`` naming the first key that appears twice in one object.

    Call it only on text msgspec has already decoded: it is then well-formed JSON whose
    nesting the decoded type bounds. Should the two parsers still disagree on some input,
    the standard library's refusal is a ``msgspec.DecodeError`` too.
    """
    try:
        _SCANNER.decode(data if isinstance(data, str) else data.decode("utf-8"))
    except msgspec.ValidationError:
        raise
    except (ValueError, RecursionError) as err:  # JSONDecodeError and UnicodeDecodeError are ValueErrors
        raise msgspec.DecodeError(f"malformed JSON: {err}") from None
