"""What an analyst process needs beside the modules whose work it does (server/analysts.py).

Work sent to an analyst is a module-level function of the module that owns it
(`replays.replay_answer`, `history.history_answer`, ...), taking encoded inputs and
returning its answer already encoded as JSON, so the event loop neither decodes a large
body nor encodes a large answer. Here: the threat map of a socket question, the body
decoding those functions share (bad input raises ValueError naming the problem, which
crosses the process boundary unchanged, for a 400), and the boards a worker keeps.
"""

from __future__ import annotations

from collections import OrderedDict
from typing import TypeVar

import msgspec

from engine import Board, GameState, Side
from engine.analysis import threat_map

from .jsonkeys import check_unique_keys
from .protocol import ThreatAnswer

__all__ = ["decode_body", "threat_answer"]

T = TypeVar("T")

_ENCODER = msgspec.json.Encoder()
_VIEW = msgspec.msgpack.Decoder(GameState)
_BOARDS: OrderedDict[tuple[int, int, tuple[str, ...]], Board] = OrderedDict()
_BOARDS_KEPT = 64  # boards whose derived data (terrain costs, neighbours) a worker keeps


def _known_board(view: GameState) -> GameState:
    """``view`` on a board object this worker has seen: the engine keeps a board's derived data (about
    1 ms to build on 20x30, 8 ms on 60x100) as long as that object lives, and a decoded view brings a new one."""
    board = view.board
    key = (board.width, board.height, board.rows)
    known = _BOARDS.get(key)
    if known is None:
        _BOARDS[key] = board
        if len(_BOARDS) > _BOARDS_KEPT:
            _BOARDS.popitem(last=False)
        return view
    _BOARDS.move_to_end(key)
    return msgspec.structs.replace(view, board=known)


def threat_answer(view: bytes, side: str, version: int) -> str:
    """The encoded `ThreatAnswer` (id 0) for ``side`` on ``view`` (a player view, msgpack-encoded)."""
    position = _known_board(_VIEW.decode(view))
    found = threat_map(position, Side(side))
    return _ENCODER.encode(ThreatAnswer(id=0, version=version, threats=found)).decode()


def decode_body(data: bytes, decoder: msgspec.json.Decoder[T]) -> T:
    """A request body decoded by ``decoder``; ValueError naming the JSON path or a key given twice."""
    try:
        body = decoder.decode(data)
        check_unique_keys(data)
    except msgspec.DecodeError as err:
        raise ValueError(str(err)) from None
    return body
