"""`RULES_VERSION`: which rules a record or a stored match was played under, derived from the rules.

A version reads ``"<epoch>.<fingerprint>"``. The fingerprint is the first 8 hex digits of
the SHA-256 of the rules *data*: every card definition (rules §7), the rule tables of
`engine.tables` (units, terrain, overlays, hit thresholds, limits; rules §2, §3, §6) and
the default `GameConfig` with every field spelled out, in one canonical msgspec encoding
(keys sorted). Changing any of it changes the version by itself. The epoch is the one
hand-kept part: bump `RULES_EPOCH` when reducer code changes what a game does while the
data stays the same. Two games under equal versions replay identically; a record of
another version may not.

The version is computed once, at import, from data only: it is the same on every machine
and in every process.
"""

from __future__ import annotations

import enum
import hashlib
from collections.abc import Mapping
from typing import Any

import msgspec

from . import tables
from .cards.catalogue import COMMON_CARDS, TACTICS
from .config import GameConfig

__all__ = [
    "LEGACY_VERSIONS",
    "RULES_EPOCH",
    "RULES_VERSION",
    "canonical_rules_version",
    "derive_rules_version",
    "rules_data",
]

RULES_EPOCH = 3
"""Bump when the reducer's behaviour changes without the rules data changing.

2: every turn ends (rules §4.6: withdrawals and re-placements counted, the action cap goes
against the side that reaches it) and a variant's cards travel in its state (issue 30).
3: the opening truce (rules §6.1): no attack in the first round of a game whose armies the
rules deploy (issue 33); `truce_rounds` is None by default and resolved by the reducer."""

_ENCODER = msgspec.json.Encoder(order="deterministic")


def rules_data() -> dict[str, Any]:
    """The rules data the version is derived from: cards, rule tables and the default config."""
    return {
        "cards": {"common": COMMON_CARDS, "tactics": TACTICS},
        "units": tables.UNITS,
        "terrain": tables.TERRAIN,
        "overlay_tags": tables.OVERLAY_TAGS,
        "connector_tags": tables.CONNECTOR_TAGS,
        "road_discount": tables.ROAD_DISCOUNT,
        "river_enter_cost": tables.RIVER_ENTER_COST,
        "river_follow_cost": tables.RIVER_FOLLOW_COST,
        "base_max_moves": tables.BASE_MAX_MOVES,
        "base_storage_limit": tables.BASE_STORAGE_LIMIT,
        "hit_thresholds": tables.HIT_THRESHOLDS,
        "max_attacks_per_turn": tables.MAX_ATTACKS_PER_TURN,
        "default_config": GameConfig(),
    }


def derive_rules_version(epoch: int, data: Mapping[str, Any]) -> str:
    """``"<epoch>.<first 8 hex of sha256>"`` of ``data`` (as `rules_data` returns it)."""
    digest = hashlib.sha256(_ENCODER.encode(_spelled_out(data))).hexdigest()
    return f"{epoch}.{digest[:8]}"


_ADDED_FIELDS = frozenset(
    {
        ("EffectDef", "when"),
        ("EffectDef", "aura"),
        ("EffectDef", "faces"),
        ("EffectDef", "says"),
        ("GameConfig", "cards"),
        ("GameConfig", "rules"),
        ("MovementRequires", "terrain_types"),
        ("CombatRequires", "defender_terrain_types"),
    }
)
"""Fields added to the rules data after the version was derived (issue 20, the card language).

Each is written only when it differs from its default, so that adding it did not move the
version of rules it does not change; a card or config that sets one does change it."""


def _spelled_out(value: Any) -> Any:
    """``value`` as plain JSON data with every struct field written out.

    Config structs leave fields at their default out of their encoding, so a changed
    default would not show in it; here every field is written, defaults included (but
    `_ADDED_FIELDS` at their default).
    """
    if isinstance(value, msgspec.Struct):
        name = type(value).__name__
        return {
            f.encode_name: _spelled_out(getattr(value, f.name))
            for f in msgspec.structs.fields(value)
            if (name, f.name) not in _ADDED_FIELDS or getattr(value, f.name) != f.default
        }
    if isinstance(value, enum.Enum):
        return _spelled_out(value.value)
    if isinstance(value, Mapping):
        return {str(_spelled_out(k)): _spelled_out(v) for k, v in value.items()}
    if isinstance(value, (tuple, list)):
        return [_spelled_out(v) for v in value]
    return value


RULES_VERSION: str = derive_rules_version(RULES_EPOCH, rules_data())
"""The rules this engine plays, e.g. ``"1.3f9c2a7b"``; stored in every game record and match."""

LEGACY_VERSIONS: Mapping[str, str] = {"1": "1.f133b462"}
"""Versions kept by hand before the version was derived, each with the derived version of the
same rules. Version 1 is every record and match made before the derivation; the change that
derived it changed no rule (the golden records replay to the same hashes), so its rules are
exactly those of ``1.f133b462``. A later rules change moves `RULES_VERSION` on, and version 1
games then read as other rules, as they should."""


def canonical_rules_version(version: str | int) -> str:
    """``version`` as a derived version string: a legacy hand-kept number names the same rules' version.

    >>> canonical_rules_version(1)
    '1.f133b462'
    >>> canonical_rules_version("2.0a1b2c3d")
    '2.0a1b2c3d'
    """
    text = str(version)
    return LEGACY_VERSIONS.get(text, text)
