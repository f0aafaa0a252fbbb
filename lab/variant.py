"""Rules files for the lab: read a variant or a card file from disk (the checks are the engine's).

`engine.data.decode_variant` and `decode_rules_file` check a file's JSON (the server checks an
uploaded one the same way); this module adds the reading, with the file's name in every error.
"""

from __future__ import annotations

from pathlib import Path

from engine.data import Variant, VariantError, apply_variant, decode_rules_file, decode_variant

__all__ = ["Variant", "VariantError", "apply_variant", "decode_variant", "load_rules_file", "load_variant"]


def _read(path: Path) -> bytes:
    try:
        return path.read_bytes()
    except OSError as err:
        raise VariantError(f"{path}: cannot read ({err.strerror or err})") from None


def load_variant(path: Path) -> Variant:
    """Read and check the variant file at ``path`` (errors start with the file's name)."""
    raw = _read(path)
    try:
        return decode_variant(raw)
    except VariantError as err:
        raise VariantError(f"{path}: {err}", tuple(f"{path}: {p}" for p in err.problems)) from None


def load_rules_file(path: Path) -> Variant:
    """Read and check a variant file or a card file at ``path`` (a card file's rules are named after it)."""
    raw = _read(path)
    try:
        return decode_rules_file(raw, path.stem)
    except VariantError as err:
        raise VariantError(f"{path}: {err}", tuple(f"{path}: {p}" for p in err.problems)) from None
