"""`GameRecord` and `replay`: a match is its config plus its actions (architecture: the one idea)."""

from __future__ import annotations

from collections.abc import Iterable, Iterator

import msgspec
from msgspec.structs import force_setattr

from .actions import Action
from .codec import encode_action, state_hash
from .config import GameConfig
from .errors import IllegalAction, ReplayMismatch
from .reducer import reduce
from .rules_version import RULES_VERSION, canonical_rules_version
from .start import new_game
from .state import GameState

__all__ = ["GameRecord", "decode_record", "encode_record", "record_game", "replay"]


class GameRecord(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """A whole game: its config, its actions and, optionally, the state hash after each action.

    ``rules_version`` is always a derived version string once built or decoded: records
    written before the version was derived carry the integer ``1``, read as the version of
    the same rules (`canonical_rules_version`).
    """

    config: GameConfig
    actions: tuple[Action, ...] = ()
    hashes: tuple[str, ...] | None = None  # hashes[i]: state_hash after actions[i]
    rules_version: str | int = RULES_VERSION  # the `RULES_VERSION` the game was played under

    def __post_init__(self) -> None:
        canonical = canonical_rules_version(self.rules_version)
        if canonical != self.rules_version:
            force_setattr(self, "rules_version", canonical)


def replay(record: GameRecord, *, across_versions: bool = False) -> Iterator[GameState]:
    """Yield every state of ``record``: ``new_game(config)``, then one per action.

    Raises ValueError for a record of another rules version, unless ``across_versions``:
    then the record is replayed under this engine's rules anyway, and its stored hashes
    (if any) tell whether every step still comes out the same. Raises `ReplayMismatch` at
    the first stored hash that differs, and `IllegalAction` (naming the step) when an
    action is not legal where the record plays it.
    """
    if record.rules_version != RULES_VERSION and not across_versions:
        raise ValueError(f"record is for rules version {record.rules_version}; this engine plays {RULES_VERSION}")
    if record.hashes is not None and len(record.hashes) != len(record.actions):
        raise ValueError(f"record has {len(record.actions)} actions but {len(record.hashes)} hashes")
    state = new_game(record.config)
    yield state
    for step, action in enumerate(record.actions):
        try:
            state = reduce(state, action)
        except IllegalAction as err:
            raise IllegalAction(f"step {step} ({encode_action(action)}): {err.reason}", err.code) from None
        if record.hashes is not None:
            actual = state_hash(state)
            if actual != record.hashes[step]:
                raise ReplayMismatch(step, record.hashes[step], actual, encode_action(action))
        yield state


def record_game(config: GameConfig, actions: Iterable[Action]) -> GameRecord:
    """Play ``actions`` from ``config`` and return the record with every step's hash."""
    state = new_game(config)
    played: list[Action] = []
    hashes: list[str] = []
    for action in actions:
        state = reduce(state, action)
        played.append(action)
        hashes.append(state_hash(state))
    return GameRecord(config=config, actions=tuple(played), hashes=tuple(hashes))


_RECORD_DECODER = msgspec.json.Decoder(GameRecord)


def encode_record(record: GameRecord) -> bytes:
    """A record as JSON with one action per line, so records diff and review well."""
    actions = b",\n".join(msgspec.json.encode(a) for a in record.actions)
    return (
        b'{"rules_version":'
        + msgspec.json.encode(record.rules_version)
        + b',\n"config":'
        + msgspec.json.encode(record.config)
        + b',\n"actions":[\n'
        + actions
        + b'\n],\n"hashes":'
        + msgspec.json.encode(record.hashes)
        + b"}\n"
    )


def decode_record(data: str | bytes) -> GameRecord:
    """Parse a record from JSON, strictly; raises ValueError naming the bad field."""
    try:
        return _RECORD_DECODER.decode(data)
    except msgspec.DecodeError as err:
        raise ValueError(f"invalid game record: {err}") from None
