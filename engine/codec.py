"""Strict JSON for actions, states and hashes (one module-level encoder and decoder each)."""

from __future__ import annotations

import hashlib
from collections.abc import Mapping
from operator import attrgetter
from typing import Any, Final

import msgspec
from msgspec.structs import replace

from .actions import (
    Action,
    ChooseMalusTargets,
    DeclareAttack,
    DeployUnit,
    MoveUnit,
    PlayBonus,
    PlayTactic,
    WithdrawAttack,
)
from .board.info import board_info
from .cards.abilities import ability_problems
from .cards.checks import check_card
from .cards.game import game_card
from .errors import CardDataError, InvalidAction, InvalidState
from .state import HIDDEN, GameState

__all__ = ["check_references", "decode_action", "decode_state", "encode_action", "encode_state", "state_hash"]

_ENCODER = msgspec.json.Encoder(order="deterministic")
_ACTION_DECODER = msgspec.json.Decoder(Action)
_STATE_DECODER = msgspec.json.Decoder(GameState)


def encode_action(action: Action) -> str:
    """Canonical JSON of an action: ``{"type": "MOVE_UNIT", "unit_id": "A7", "to": "K16"}`` (compact)."""
    return _ENCODER.encode(action).decode()


def decode_action(data: str | bytes | Mapping[str, Any], state: GameState | None = None) -> Action:
    """Parse an action from JSON text (or an already-parsed JSON object), strictly.

    Raises `InvalidAction` naming the field by its JSON path and the problem: unknown
    type or field, wrong type (``true`` is not an int), out-of-range or negative numbers,
    malformed ids and labels. Given ``state``, unit ids must exist in that game, cells
    must lie on its board and a tactic card must be one of its tactics.

    >>> decode_action('{"type": "MOVE_UNIT", "unit_id": "A7", "to": "K16"}')
    MoveUnit(unit_id='A7', to='K16')
    >>> decode_action('{"type": "MOVE_UNIT", "unit_id": "A7", "to": 5}')
    Traceback (most recent call last):
    ...
    engine.errors.InvalidAction: invalid action: Expected `str`, got `int` - at `$.to`
    """
    action: Action
    try:
        if isinstance(data, (str, bytes)):
            action = _ACTION_DECODER.decode(data)
        elif isinstance(data, Mapping):
            action = msgspec.convert(data, Action, strict=True)
        else:
            raise InvalidAction(f"invalid action: expected a JSON object, got {type(data).__name__}")
    except msgspec.DecodeError as err:  # ValidationError is a DecodeError
        raise InvalidAction(f"invalid action: {err}") from None
    check_references(action, state)
    return action


def check_references(action: Action, state: GameState | None = None) -> None:
    """Check what an already-decoded action refers to in the game of ``state``, as `decode_action` does.

    Raises `InvalidAction` naming the field for a unit id that is not in that game, a cell
    off its board or a tactic card the game does not have. Without ``state`` there is
    nothing to check against: a game's cards, units and board are its own.
    """
    if state is None:
        return
    if isinstance(action, PlayTactic):
        card = game_card(state.rules, action.card_id)
        if card is None or card.kind != "tactic":
            raise InvalidAction(f"invalid action: unknown tactic card {action.card_id!r} - at `$.card_id`")
    units = {u.id for u in state.units} | {u.id for p in state.players for u in p.destroyed}
    cells = board_info(state.board).index
    unit_fields: list[tuple[str, str]] = []
    cell_fields: list[tuple[str, str]] = []
    match action:
        case MoveUnit(unit_id=unit_id, to=to):
            unit_fields.append(("unit_id", unit_id))
            cell_fields.append(("to", to))
        case DeployUnit(unit_id=unit_id, cell=cell):
            unit_fields.append(("unit_id", unit_id))
            cell_fields.append(("cell", cell))
        case DeclareAttack(attacker_id=attacker, target_id=target):
            unit_fields += [("attacker_id", attacker), ("target_id", target)]
        case WithdrawAttack(attacker_id=attacker):
            unit_fields.append(("attacker_id", attacker))
        case ChooseMalusTargets(unit_ids=ids):
            unit_fields += [(f"unit_ids[{i}]", u) for i, u in enumerate(ids)]
        case PlayBonus(targets=targets, params=params) | PlayTactic(targets=targets, params=params):
            unit_fields += [(f"targets[{i}]", u) for i, u in enumerate(targets)]
            if params.cell is not None:
                cell_fields.append(("params.cell", params.cell))
        case _:
            pass
    for path, unit_id in unit_fields:
        if unit_id not in units:
            raise InvalidAction(f"invalid action: unknown unit {unit_id!r} - at `$.{path}`")
    for path, cell in cell_fields:
        if cell not in cells:
            raise InvalidAction(
                f"invalid action: cell {cell} is off the {state.board.width}x{state.board.height} board - at `$.{path}`"
            )


def encode_state(state: GameState) -> bytes:
    """Canonical JSON of a state (keys in a fixed order), as hashed by `state_hash`."""
    return _ENCODER.encode(state)


def decode_state(data: str | bytes) -> GameState:
    """Parse a state from JSON, strictly (the inverse of `encode_state`), in any process.

    Raises `InvalidState` naming the JSON path and the problem: a wrong shape, a variant card
    the engine would not act on (its checks at load), or a card the state names that its game
    does not carry. A `player_view` decodes too (its hidden cards read ``"?"``).
    """
    try:
        state = _STATE_DECODER.decode(data)
    except msgspec.DecodeError as err:  # ValidationError is a DecodeError
        raise InvalidState(f"invalid state: {err}") from None
    _check_cards(state)
    return state


def _check_cards(state: GameState) -> None:
    """Every variant card and ability passes the load checks, and every card the state names is one of its game's."""
    rules = state.rules
    if rules.card_changes is not None:
        for index, card in enumerate(rules.card_changes.cards):
            try:
                check_card(card)
            except CardDataError as err:
                raise InvalidState(f"invalid state: {err} - at `$.rules.card_changes.cards[{index}]`") from None
    for index, ability in enumerate(rules.abilities or ()):
        for field, problem in ability_problems(ability, f"$.rules.abilities[{index}]"):
            raise InvalidState(f"invalid state: {problem} - at `{field}`")
    named: list[tuple[str, str]] = [("pending_card.card", state.pending_card.card)] if state.pending_card else []
    for i, player in enumerate(state.players):
        for field in ("stored", "tactics", "played_tactics"):
            named += [(f"players[{i}].{field}[{j}]", c) for j, c in enumerate(getattr(player, field))]
    named += [(f"draw_pile[{j}]", c) for j, c in enumerate(state.draw_pile)]
    named += [(f"discard_pile[{j}]", c) for j, c in enumerate(state.discard_pile)]
    named += [(f"effects[{j}].source_card", e.source_card) for j, e in enumerate(state.effects)]
    named += [(f"events[{j}].card", e.card) for j, e in enumerate(state.events) if e.card is not None]
    for path, instance in named:
        if instance != HIDDEN and game_card(rules, instance.partition("#")[0]) is None:
            raise InvalidState(f"invalid state: card {instance!r} is not a card of this game - at `$.{path}`")


def state_hash(state: GameState) -> str:
    """SHA-256 hex digest of the canonical encoding (`encode_state`): equal on every machine for equal states."""
    return hashlib.sha256(_encoding_of_parts(state)).hexdigest()


_KEPT_PARTS: Final = ("board", "rules", "units", "players", "draw_pile", "discard_pile", "effects")
_parts_of: Final = attrgetter(*_KEPT_PARTS)
# Per part: the last value encoded and its encoding (one slot each, replaced in one step: threads).
_last_parts: Final[list[tuple[object, msgspec.Raw] | None]] = [None] * len(_KEPT_PARTS)


def _encoding_of_parts(state: GameState) -> bytes:
    """`encode_state` of ``state``, byte for byte, its large parts' encodings kept from the last state hashed.

    A game carries its board and rules for good, and its units, players, piles and effects
    from state to state until one changes: a replay or a server hashes every state, and
    most actions change one part or none. A struct's JSON is its fields' JSON in order, so
    each part's kept encoding goes in as it is (`msgspec.Raw`); a part is kept by identity
    (the slot holds the value: its id is not reused meanwhile).
    """
    raw: dict[str, msgspec.Raw] = {}
    last = _last_parts
    for i, value in enumerate(_parts_of(state)):
        found = last[i]  # one read: another thread may replace it meanwhile
        if found is None or found[0] is not value:
            found = last[i] = (value, msgspec.Raw(_ENCODER.encode(value)))
        raw[_KEPT_PARTS[i]] = found[1]
    return _ENCODER.encode(replace(state, **raw))
