"""Creating matches: a fresh game, or a what-if fork that starts from a recorded position.

A new match gets a random id, one secret token per human seat (only its SHA-256 is
stored), a seed (``secrets.randbits(32)`` unless the creator gave one) and the published
commitment to that seed. A fork is a new match with the same config, seed included, whose
log is pre-filled with the first ``step`` actions of a finished match or of a posted
record; the engine replays that prefix (checking any hashes given) before anything is
stored.
"""

from __future__ import annotations

import asyncio
import secrets
import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

import msgspec
from msgspec.structs import replace

from engine import (
    MAX_GAME_LENGTH,
    RULES_VERSION,
    Action,
    GameConfig,
    GameState,
    IllegalAction,
    Side,
    encode_action,
    new_game,
    reduce,
    state_hash,
)

from . import seeds
from .analysts import Analysts
from .clocks import ClockSpec, MatchClock, encode_spec
from .match import Match, hash_token, progress_of
from .matches import MatchService
from .protocol import MatchStatus
from .senders import sender_of
from .store import ActionRow, MatchRow, RematchChange

__all__ = ["CreationError", "Creator", "NewMatch", "board_cells", "new_match_id"]

Mode = Literal["human", "hotseat", "bot", "outside_bot"]
"""``outside_bot``: a match between people whose seat links one of them gives a program (`taktik join`)."""

_PACK = msgspec.msgpack.Encoder()
_CONFIG = msgspec.msgpack.Decoder(GameConfig)
_ACTIONS = msgspec.msgpack.Decoder(tuple[Action, ...])
_STATE = msgspec.msgpack.Decoder(GameState)

DEFAULT_SIDES = (20, 30)  # the engine's board when a config names no size (engine/start.py)


def board_cells(config: GameConfig) -> int:
    """How many cells the board of ``config`` has, without building it (that is the costly part).

    A terrain map is measured as the engine reads it (blank lines and indentation ignored);
    rows of unequal length are the engine's to refuse.
    """
    if config.terrain is not None:
        lines = [line for line in (raw.strip() for raw in config.terrain.strip("\n").splitlines()) if line]
        return len(lines[0]) * len(lines) if lines else 0
    width, height = DEFAULT_SIDES
    return (config.width or width) * (config.height or height)


def new_match_id() -> str:
    """A fresh, unguessable match id."""
    return secrets.token_urlsafe(12)


class CreationError(ValueError):
    """The request cannot become a match; the message says why (an HTTP 400)."""


@dataclass(frozen=True)
class NewMatch:
    """What to create: a config (seed None: draw one), who plays, and an optional prefix."""

    config: GameConfig
    mode: Mode = "human"
    bot_side: Side | None = None
    bot_policy: str | None = None
    prefix: tuple[Action, ...] = ()
    prefix_hashes: tuple[str, ...] | None = None  # checked when given
    parent_id: str | None = None
    parent_step: int | None = None
    clock: ClockSpec | None = None  # None: no clock
    open_side: Side | None = None  # an open challenge: the creator's seat (the other waits for someone to join)
    token_hashes: dict[Side, bytes] | None = None  # a rematch: the seats' existing tokens (no new ones)
    match_id: str | None = None  # None: a fresh random id (a rematch names its new match in the old one first)
    rematch: RematchChange | None = None  # a rematch: its finished match's change, stored with it or not at all


@dataclass(frozen=True)
class Created:
    """A stored, loaded match and the seat tokens (shown once, to the creator only)."""

    match: Match
    tokens: dict[Side, str]


class Creator:
    """Builds matches for a `MatchService`, a few at a time (each may replay a long prefix)."""

    def __init__(self, service: MatchService, concurrency: int = 2, analysts: Analysts | None = None) -> None:
        self._service = service
        self._slots = asyncio.Semaphore(concurrency)
        self._analysts = analysts  # where a fork's prefix is replayed (None: a worker thread)

    async def create(self, new: NewMatch) -> Created:
        """Validate, store and load a new match; raises `CreationError` for a bad request (and
        `StoreConflict`, creating nothing, when a rematch's change of its finished match is refused)."""
        config = new.config if new.config.seed is not None else replace(new.config, seed=seeds.new_seed())
        if config.victory.max_actions > MAX_GAME_LENGTH:
            raise CreationError(f"victory.max_actions may be at most {MAX_GAME_LENGTH} on this server")
        cells, budget = board_cells(config), self._service.limits.max_board_cells
        if cells > budget:
            raise CreationError(f"the board has {cells} cells; this server allows at most {budget} (max_board_cells)")
        async with self._slots:
            if new.prefix and self._analysts is not None:  # costly work, charged to the asker (server/costs.py)
                packed, rows = await self._analysts.run(replay_prefix, _PACK.encode(config), _PACK.encode(new.prefix),
                                                        new.prefix_hashes)
                state = _STATE.decode(packed)
            else:
                state, rows = await asyncio.to_thread(_play_prefix, config, new.prefix, new.prefix_hashes)
        status: MatchStatus = "over" if state.to_act is None else "live"
        now = time.time()
        salt = seeds.new_salt()
        assert config.seed is not None
        row = MatchRow(
            id=new.match_id or new_match_id(),
            created_at=now,
            updated_at=now,
            rules_version=RULES_VERSION,
            config=msgspec.json.encode(config).decode(),
            salt=salt,
            seed_commitment=seeds.commitment(config.seed, salt),
            mode=new.mode,
            bot_side=new.bot_side.value if new.bot_side else None,
            bot_policy=new.bot_policy if new.bot_side else None,
            bot_seed=secrets.randbits(32) if new.bot_side else None,
            parent_id=new.parent_id,
            parent_step=new.parent_step,
            progress=progress_of(state, len(rows), status),
            clock=encode_spec(new.clock),
            open_seat=new.open_side.other.value if new.open_side is not None else None,
        )
        humans = [side for side in (Side.ATTACKER, Side.DEFENDER) if side is not new.bot_side]
        if new.open_side is not None:
            humans = [new.open_side]
        tokens: dict[Side, str] = {}
        if new.token_hashes is not None:
            hashes = {side: digest for side, digest in new.token_hashes.items() if side in humans}
        else:
            tokens = {side: secrets.token_urlsafe(32) for side in humans}
            hashes = {side: hash_token(token) for side, token in tokens.items()}
        await self._service.db.create_match(row, {s.value: h for s, h in hashes.items()}, rows, new.rematch)
        match = Match(row=row, config=config, token_hashes=hashes, state=state, actions=list(new.prefix),
                      hashes=[r.state_hash for r in rows], status=status,
                      clock=MatchClock(new.clock) if new.clock is not None else None)
        self._service.adopt(match)
        return Created(match=match, tokens=tokens)


def replay_prefix(config: bytes, prefix: bytes, hashes: Sequence[str] | None) -> tuple[bytes, list[ActionRow]]:
    """`_play_prefix` with engine values as msgpack, as an analyst process runs it (a pickled engine value
    may encode differently: msgspec leaves out a default only when it is the default object itself)."""
    state, rows = _play_prefix(_CONFIG.decode(config), _ACTIONS.decode(prefix), hashes)
    return _PACK.encode(state), rows


def _play_prefix(
    config: GameConfig, prefix: Sequence[Action], hashes: Sequence[str] | None
) -> tuple[GameState, list[ActionRow]]:
    if hashes is not None and len(hashes) < len(prefix):
        raise CreationError(f"the record has {len(prefix)} actions but only {len(hashes)} hashes")
    try:
        state = new_game(config)
    except ValueError as err:
        raise CreationError(f"invalid config: {err}") from None
    rows: list[ActionRow] = []
    for ply, action in enumerate(prefix):
        actor = sender_of(state, action)
        if actor is None:
            raise CreationError(f"the game is already over before step {ply}")
        try:
            state = reduce(state, action)
        except IllegalAction as err:
            raise CreationError(f"step {ply} ({encode_action(action)}) is illegal: {err.reason}") from None
        digest = state_hash(state)
        if hashes is not None and hashes[ply] != digest:
            raise CreationError(f"step {ply} ({encode_action(action)}) does not replay to the recorded hash")
        rows.append(ActionRow(ply=ply, seat=actor.value, client_seq=None, action=encode_action(action),
                              state_hash=digest))
    return state, rows
