"""`GameState` and its parts: plain, frozen data (rules §1.2).

Nothing here changes a state; new states come from ``msgspec.structs.replace``. Derived
facts (reaction windows, legal actions) are computed by the rule pages, never stored,
with one exception kept for every reader's convenience: ``to_act``, which `reduce`
refreshes after each action.
"""

from __future__ import annotations

from typing import Literal

import msgspec
from msgspec import UNSET, UnsetType

from .board.terrain_map import Board
from .canonical import keep_defaults
from .cards.defs import AbilityDef, CardChanges
from .config import VictoryConfig
from .tables import TableOverrides
from .types import EventKind, Hook, Phase, Quadrant, Side, UnitType

__all__ = [
    "HIDDEN",
    "Attack",
    "Conditions",
    "Effect",
    "Event",
    "GameState",
    "Modifier",
    "PendingCard",
    "PlayerState",
    "PointControl",
    "ReactionMark",
    "Roll",
    "Rules",
    "Unit",
    "player_of",
    "unit_by_id",
    "with_player",
]

HIDDEN = "?"
"""Stands in for a card identity a player may not see (see `player_view`)."""


class _Data(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True, gc=False):
    """Base of state structs: immutable, keyword-only, strict on decode.

    Not tracked by the cyclic garbage collector (``gc=False``): immutable data never forms a
    reference cycle, and a server holds thousands of positions that every collection would
    otherwise scan.
    """


class Unit(_Data, frozen=True, kw_only=True):
    """A unit on the board (or, during manual deployment, waiting to be placed)."""

    id: str  # "A1".."A10", "D1".."D15" by default
    side: Side
    type: UnitType
    cell: str | None  # cell label; None while undeployed
    hp: int
    has_moved: bool = False  # moved this turn
    has_attacked: bool = False  # declared (or supported) an attack this turn


class PlayerState(_Data, frozen=True, kw_only=True):
    """What one side holds."""

    side: Side
    stored: tuple[str, ...] = ()  # face-down bonus card instances, in storage order
    tactics: tuple[str, ...] = ()  # tactic card ids still in hand (single use)
    played_tactics: tuple[str, ...] = ()  # tactics already played, in order (public)
    destroyed: tuple[Unit, ...] = ()  # own units destroyed, in order of destruction
    point_vp: int = 0  # victory points earned from controlled points


class PendingCard(_Data, frozen=True, kw_only=True):
    """The card drawn this turn, until it is played, stored, discarded, applied or cancelled."""

    card: str  # card instance id, e.g. "air_cover#2"
    drawer: Side
    accepted: bool = False  # a targeted malus accepted and awaiting its victims


class Attack(_Data, frozen=True, kw_only=True):
    """A declared attack."""

    attacker: str
    target: str


class Modifier(_Data, frozen=True, kw_only=True, omit_defaults=True):
    """One term of a roll, for explaining it: where it comes from and how much it adds."""

    source: str  # e.g. "artillery_support", "terrain URBAN defense", "combat rule: flank"
    value: int
    clause: str | None = None  # a card written in the condition language: its name and clause


class Roll(_Data, frozen=True, kw_only=True):
    """The die of the pending attack and its outcome (rules §6.3)."""

    natural: int  # the die, 1..6
    modified: int  # natural plus modifiers, clamped to 1..6
    required: int  # the threshold for the distance
    distance: int
    outcome: Literal["HIT", "MISS"]
    modifiers: tuple[Modifier, ...] = ()


class Conditions(_Data, frozen=True, kw_only=True, omit_defaults=True):
    """Extra conditions of an effect (rules §8.3); every given condition must match."""

    unit_types: tuple[UnitType, ...] = ()
    unit_tags: tuple[str, ...] = ()
    min_distance: int | None = None
    target_unit: str | None = None
    target_quadrant: Quadrant | None = None
    card_category: tuple[str, ...] = ()
    card_class: tuple[str, ...] = ()
    clause: int | None = None  # the index of the card's effect whose `when`/`aura` also applies (compiled)


class Effect(_Data, frozen=True, kw_only=True):
    """A live effect of a card play: pure data, evaluated through its hook (rules §8.1)."""

    effect_id: int  # increasing; effects are evaluated in this order
    play_id: int  # shared by every effect of one card play
    source_card: str  # card id
    source_kind: Literal["bonus", "malus", "tactic"]
    controller: Side  # who played it (the drawer, for a malus)
    hook: Hook
    op: str  # add | mul | halve | cap | allow | deny | apply
    value: int  # for modify_movement: half-points
    scope: str  # targets | own_units | enemy_units | all_units | own_attacks | all_attacks | ...
    conditions: Conditions = Conditions()
    targets: tuple[str, ...] = ()
    expires: Literal["turn_ends", "this_attack", "until_phase", "permanent"] = "turn_ends"
    remaining_turn_ends: int | None = None  # for "turn_ends": END_TURNs left
    attack_seq: int | None = None  # for "this_attack": the attack it belongs to
    until_phase: Phase | None = None  # for "until_phase"
    # for a limited effect or a damage cap per turn or round: "turn:unit:attack:damage" per use; left out
    # of the encoding until the first use (UNSET), so states without any hash as before
    uses: tuple[str, ...] | UnsetType = UNSET


class ReactionMark(_Data, frozen=True, kw_only=True):
    """A player has played or passed in a reaction window instance (rules §9.2)."""

    instance: str  # instance key, e.g. "3:beforeAttackRoll:2"
    side: Side
    played: bool  # True: played a tactic; False: passed


class PointControl(_Data, frozen=True, kw_only=True):
    """Which side controls a victory or territory point."""

    cell: str
    side: Side


class Event(_Data, frozen=True, kw_only=True, omit_defaults=True):
    """Something that happened during the last action, for logs and animations.

    ``private_to`` marks an event whose ``card`` only that side may see; `player_view`
    blanks the card for everyone else.
    """

    kind: EventKind
    side: Side | None = None
    unit: str | None = None
    target: str | None = None
    card: str | None = None
    cell: str | None = None
    from_cell: str | None = None
    value: int | None = None
    detail: str | None = None
    private_to: Side | None = None


class Rules(_Data, frozen=True, kw_only=True, omit_defaults=True):
    """The parts of the config that matter during play: everything a game needs to go on, in any process.

    Fields at their default are left out of the encoding, so a standard game encodes (and
    hashes) the same however many optional fields later versions add; an equal value from a
    decoded or unpickled state counts as the default (`engine.canonical`).
    """

    victory: VictoryConfig
    deck: int  # 60 or 90
    cards: str = "standard"  # the shipped deck source (`GameConfig.cards`)
    card_changes: CardChanges | None = None  # a variant's own cards (`GameConfig.rules`); None: the source's
    tables: TableOverrides | None = None  # a variant's tables (`GameConfig.rules`); None: the standard ones
    truce_rounds: int = 0  # opening rounds in which no attack may be declared (rules §6.1, `GameConfig.truce_rounds`)
    abilities: tuple[AbilityDef, ...] | None = None  # every standing ability of a variant; None: the standard ones

    def __post_init__(self) -> None:
        keep_defaults(self)  # "standard" from a decoded or unpickled state is the default object (engine.canonical)


class GameState(_Data, frozen=True, kw_only=True):
    """A complete game position. Plain data: it round-trips through JSON unchanged."""

    board: Board
    rules: Rules
    phase: Phase
    turn: int  # 1-based; ATTACKER plays odd turns
    active: Side  # whose turn it is
    to_act: Side | None  # who must decide now (derived, refreshed by reduce); None in VICTORY
    units: tuple[Unit, ...]  # on the board (or undeployed), in unit order
    players: tuple[PlayerState, PlayerState]  # ATTACKER, DEFENDER
    draw_pile: tuple[str, ...]  # top first
    discard_pile: tuple[str, ...]  # oldest first; the top is the last
    rng: int  # the LCG state
    deploying: Side | None = None  # manual deployment: the side placing units
    redeployments: int = 0  # DEPLOY_UNITs of an already placed unit by `deploying`: at most its units (§3.4)
    pending_card: PendingCard | None = None
    drawn_this_turn: bool = False
    moves_this_turn: int = 0
    attack_queue: tuple[Attack, ...] = ()  # declared, not yet pending
    withdrawals: int = 0  # WITHDRAW_ATTACKs this turn: at most `max_attacks_per_turn` (rules §6.1)
    pending_attack: Attack | None = None
    attack_seq: int = 0  # number of the pending attack this turn
    last_roll: Roll | None = None
    effects: tuple[Effect, ...] = ()
    next_effect_id: int = 1
    next_play_id: int = 1
    reactions: tuple[ReactionMark, ...] = ()  # window records, cleared at TURN_START
    control: tuple[PointControl, ...] = ()  # victory/territory points, by cell
    hold_count: int = 0  # capture and hold: consecutive holding END_TURNs
    actions_taken: int = 0  # accepted actions since new_game
    winner: Side | None = None
    victory_reason: str | None = None
    events: tuple[Event, ...] = ()  # what the last action caused

    @property
    def round(self) -> int:
        """Round number: turns 1-2 are round 1."""
        return (self.turn + 1) // 2

    def player(self, side: Side) -> PlayerState:
        """The `PlayerState` of ``side`` (`player_of`)."""
        return player_of(self, side)

    def unit(self, unit_id: str) -> Unit | None:
        """The unit with ``unit_id`` on the board (or undeployed), else None (`unit_by_id`)."""
        return unit_by_id(self, unit_id)


def with_player(state: GameState, player: PlayerState) -> GameState:
    """``state`` with ``player`` replacing the record of its side."""
    players = (player, state.players[1]) if player.side is Side.ATTACKER else (state.players[0], player)
    return msgspec.structs.replace(state, players=players)


def player_of(state: GameState, side: Side) -> PlayerState:
    """The `PlayerState` of ``side``."""
    return state.players[0 if side is Side.ATTACKER else 1]


def unit_by_id(state: GameState, unit_id: str) -> Unit | None:
    """The unit with ``unit_id`` on the board (or undeployed), else None."""
    for unit in state.units:
        if unit.id == unit_id:
            return unit
    return None
