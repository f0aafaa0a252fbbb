"""`GameConfig`: everything a game is built from, and the game-level constants.

``GameConfig(seed=7)`` is a complete default game. Every other field overrides one part of
the setup (rules §1.5) and consumes no randomness when given. `RULES_VERSION` is derived
from the rules data, this module's default config among them, in `engine.rules_version`.
"""

from __future__ import annotations

from typing import Annotated, Any, Generic, Literal, TypeVar

import msgspec
from msgspec import Meta

from .canonical import keep_defaults
from .mapgen.params import TerrainParams
from .tables import TableOverrides
from .types import CellLabel, Phase, Side, UnitId, UnitType

__all__ = [
    "MAX_GAME_LENGTH",
    "MAX_PLAYERS",
    "MIN_PLAYERS",
    "CaptureAndHold",
    "Forces",
    "GameConfig",
    "Leaders",
    "PerSide",
    "RoundLimit",
    "RulesOverlay",
    "TacticHands",
    "TerritorialControl",
    "TimedResistance",
    "UnitSpec",
    "VictoryConfig",
    "VictoryPoints",
]

MIN_PLAYERS = 2
MAX_PLAYERS = 2
MAX_GAME_LENGTH = 10_000
"""Default action cap (`VictoryConfig.max_actions`): no game is longer than this."""

T = TypeVar("T")

Seed = Annotated[int, Meta(ge=0, le=0xFFFFFFFF, description="32-bit unsigned seed")]
Count = Annotated[int, Meta(ge=1, le=1_000_000)]
BoardSide = Annotated[int, Meta(ge=2, le=300)]


class _Config(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True, omit_defaults=True):
    """Base of config structs: immutable, keyword-only, strict about unknown fields.

    Encodings leave out fields at their default, and msgspec decides "at the default" by
    identity. A value equal to the default but built separately (``RoundLimit()``, an
    unpickled or deep-copied config, a number decoded from JSON) would be written out, so
    equal configs would encode differently and equal games would hash differently. Every
    config therefore swaps such values for the default object itself when it is built or
    decoded: equal configs encode, and their games hash, identically.
    """

    def __post_init__(self) -> None:
        keep_defaults(self)


class PerSide(_Config, Generic[T], frozen=True, kw_only=True):
    """A value for each side."""

    attacker: T
    defender: T

    def of(self, side: Side) -> T:
        """The value for ``side``."""
        return self.attacker if side is Side.ATTACKER else self.defender


class Forces(_Config, frozen=True, kw_only=True):
    """How many units of each type a side fields (rules §3.2)."""

    light: Annotated[int, Meta(ge=0, le=99)]
    mechanized: Annotated[int, Meta(ge=0, le=99)]
    special: Annotated[int, Meta(ge=0, le=99)]

    def count(self, unit_type: UnitType) -> int:
        """Units of ``unit_type`` in this force."""
        return {
            UnitType.LIGHT_INFANTRY: self.light,
            UnitType.MECHANIZED: self.mechanized,
            UnitType.SPECIAL: self.special,
        }[unit_type]


STANDARD_FORCES = PerSide(
    attacker=Forces(light=6, mechanized=3, special=1),
    defender=Forces(light=8, mechanized=5, special=2),
)


class UnitSpec(_Config, frozen=True, kw_only=True):
    """One unit placed by a scenario (rules §1.5); ``hp`` defaults to the type's maximum."""

    id: UnitId
    side: Side
    type: UnitType
    cell: CellLabel
    hp: Annotated[int, Meta(ge=1, le=99)] | None = None


class TacticHands(_Config, frozen=True, kw_only=True):
    """Explicit tactic hands; a side left as None gets the seeded default (rules §1.4)."""

    attacker: tuple[str, ...] | None = None
    defender: tuple[str, ...] | None = None

    def of(self, side: Side) -> tuple[str, ...] | None:
        """The explicit hand of ``side``, if any."""
        return self.attacker if side is Side.ATTACKER else self.defender


class Leaders(_Config, frozen=True, kw_only=True):
    """Target elimination: destroying the enemy's leader wins."""

    attacker: UnitId
    defender: UnitId

    def of(self, side: Side) -> str:
        """The leader unit id of ``side``."""
        return self.attacker if side is Side.ATTACKER else self.defender


class VictoryPoints(_Config, frozen=True, kw_only=True):
    """Victory points: first side to reach ``threshold`` wins (rules §10)."""

    threshold: Count = 5
    points: tuple[CellLabel, ...] = ()  # cells worth 1 VP per own END_TURN while controlled


class CaptureAndHold(_Config, frozen=True, kw_only=True):
    """``side`` wins after holding any objective at the end of ``hold_turns`` own turns in a row."""

    objectives: tuple[CellLabel, ...]
    hold_turns: Count = 3
    side: Side = Side.ATTACKER


class TerritorialControl(_Config, frozen=True, kw_only=True):
    """At the END_TURN of turn ``2 × after_rounds`` the side controlling more points wins."""

    points: tuple[CellLabel, ...]
    after_rounds: Count = 10


class TimedResistance(_Config, frozen=True, kw_only=True):
    """The DEFENDER wins at the END_TURN of turn ``2 × rounds`` if it still has units."""

    rounds: Count = 12


class RoundLimit(_Config, frozen=True, kw_only=True):
    """At the END_TURN of turn ``2 × max_rounds`` the side with more unit VP wins (tie: DEFENDER)."""

    max_rounds: Count = 25


class VictoryConfig(_Config, frozen=True, kw_only=True):
    """Victory conditions (rules §10). Annihilation and the action cap are always on."""

    leaders: Leaders | None = None
    victory_points: VictoryPoints | None = VictoryPoints()
    capture_and_hold: CaptureAndHold | None = None
    territorial_control: TerritorialControl | None = None
    timed_resistance: TimedResistance | None = None
    round_limit: RoundLimit | None = RoundLimit()
    max_actions: Count = MAX_GAME_LENGTH


class RulesOverlay(_Config, frozen=True, kw_only=True):
    """Rules a game plays with instead of the standard ones: a variant's cards and tables.

    The game carries them in its config, so its record replays with them. ``cards`` are card
    objects in the card language (`engine.cards`): a card whose id is a standard card's
    replaces it, any other is added; ``removed`` takes cards out of the deck and the tactic
    pool. ``abilities`` are standing rules in the same language (`engine.cards.abilities`): one
    with a unit type's ``unit`` and the id of one of its abilities replaces that ability, any
    other is added (a terrain change is one, see `lab.variant`); ``removed_abilities`` takes
    abilities out by key (``SPECIAL.move_or_fire``).
    """

    name: Annotated[str, Meta(pattern=r"^[a-z][a-z0-9_]*$")]
    cards: tuple[dict[str, Any], ...] = ()
    removed: tuple[str, ...] = ()
    tables: TableOverrides = TableOverrides()
    abilities: tuple[dict[str, Any], ...] = ()
    removed_abilities: tuple[str, ...] = ()


StartPhase = Literal["CARD_DRAW", "CARD_RESOLUTION", "MOVEMENT", "ATTACK", "DICE_RESOLUTION"]


class GameConfig(_Config, frozen=True, kw_only=True):
    """Everything a game is built from. ``GameConfig(seed=7)`` is a full default game.

    Every field but ``seed`` overrides one part of the setup and then consumes no
    randomness (rules §1.5). `new_game` validates the whole config and raises ValueError
    naming the first problem.
    """

    seed: Seed | None = None  # None means the rules' default seed 1
    width: BoardSide | None = None  # None: the terrain map's width, else 20
    height: BoardSide | None = None  # None: the terrain map's height, else 30
    terrain: str | None = None  # ASCII map (see engine.board); None: generated from the seed
    terrain_params: TerrainParams = TerrainParams()
    forces: PerSide[Forces] = STANDARD_FORCES
    units: tuple[UnitSpec, ...] | None = None  # explicit placement instead of deployment
    deployment: Literal["auto", "manual"] = "auto"
    deck: Literal[60, 90] = 60
    cards: Annotated[str, Meta(pattern=r"^[a-z][a-z0-9_]*$")] = "standard"  # deck source: standard or a variant name
    draw_pile: tuple[str, ...] | None = None  # explicit draw pile, top first (card instance ids)
    stored: PerSide[tuple[str, ...]] | None = None  # stored bonuses at the start
    tactics: TacticHands = TacticHands()
    victory: VictoryConfig = VictoryConfig()
    start_phase: StartPhase | None = None  # a resting phase to start in (default CARD_DRAW)
    start_side: Side = Side.ATTACKER  # active player at the start
    truce_rounds: Annotated[int, Meta(ge=0, le=1000)] | None = None  # opening rounds without attacks (rules §6.1);
    # None: 1 when the rules deploy the armies (auto or manual deployment), 0 when the scenario places its units
    rules: RulesOverlay | None = None  # a variant's cards, tables and abilities (None: the standard rules)
    # Retired: the old rule lists are abilities now (rules.abilities). Still read, so that a config
    # written with them is refused by `new_game` with what to write instead, not as an unknown field.
    movement_rules: tuple[Any, ...] = ()
    combat_rules: tuple[Any, ...] = ()

    @property
    def start_phase_value(self) -> Phase:
        """The phase a non-deployment game starts in."""
        return Phase(self.start_phase) if self.start_phase else Phase.CARD_DRAW
