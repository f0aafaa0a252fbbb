"""The rule-table lookups asked at every action (rules §3.1, §6.2).

`tables.py` holds msgspec Structs, so it stays pure Python in the compiled build (setup.py);
these functions live here so that the build compiles them, and `tables.py` re-exports them
(import them from there: this module reads the tables' data, so `tables.py` imports it last).
"""

from __future__ import annotations

from typing import Final

from .tables import HIT_THRESHOLDS, STANDARD_TABLES, UNITS, TableOverrides, UnitStats
from .types import UnitType

__all__ = ["game_tables", "required_roll", "unit_stats"]

# The same objects, as C statics in the compiled build (an imported name is a dict lookup there).
_STANDARD_TABLES: Final = STANDARD_TABLES
_UNITS: Final = UNITS
_HIT_THRESHOLDS: Final = HIT_THRESHOLDS


def game_tables(tables: TableOverrides | None) -> TableOverrides:
    """The tables a game plays with, given its ``rules.tables`` (None: `STANDARD_TABLES`)."""
    return _STANDARD_TABLES if tables is None else tables


def unit_stats(unit_type: UnitType, tables: TableOverrides | None = None) -> UnitStats:
    """The stats of ``unit_type`` (rules §3.1), as ``tables`` change them."""
    if tables is not None:
        row = tables.units.get(unit_type)
        if row is not None:
            return row
    return _UNITS[unit_type]


def required_roll(distance: int, tables: TableOverrides | None = None) -> int:
    """Minimum modified roll that hits at ``distance`` (rules §6.2), as ``tables`` change it."""
    thresholds = _HIT_THRESHOLDS if tables is None or tables.hit_thresholds is None else tables.hit_thresholds
    return thresholds[min(max(distance, 1), len(thresholds)) - 1]

