"""Strict JSON for actions, states and hashes (one module-level encoder and decoder each)."""

from __future__ import annotations

import hashlib
from collections.abc import Mapping
from typing import Any

import msgspec

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
from .boardinfo import board_info
from .cards import CARDS
from .errors import InvalidAction
from .state import GameState

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
    malformed ids and labels, unknown tactic cards. Given ``state``, unit ids must exist in
    that game and cells must lie on its board.

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
    """Check what an already-decoded action refers to, as `decode_action` does.

    Raises `InvalidAction` naming the field for an unknown tactic card and, given ``state``,
    a unit id that is not in that game or a cell off its board.
    """
    if isinstance(action, PlayTactic) and (action.card_id not in CARDS or CARDS[action.card_id].kind != "tactic"):
        raise InvalidAction(f"invalid action: unknown tactic card {action.card_id!r} - at `$.card_id`")
    if state is None:
        return
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
    """Parse a state from JSON, strictly (the inverse of `encode_state`)."""
    return _STATE_DECODER.decode(data)


def state_hash(state: GameState) -> str:
    """SHA-256 hex digest of the canonical encoding: equal on every machine for equal states."""
    return hashlib.sha256(_ENCODER.encode(state)).hexdigest()
