"""Replaying posted records for the browser client.

``POST /api/replays`` replays a posted `GameRecord` (or a saved ``/record`` answer) and
returns a page of steps (the view at each step, the action that led there, its events in
words) plus the verification of the whole record against its stored hashes.

Everything here is read-only and built from the engine's public API. A replay and an
evaluation are costly work: an analyst process decodes the body, replays and encodes the
answer (server/analysts.py), charged to the asking address (server/costs.py).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Annotated, Literal

import msgspec
from msgspec import Meta
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

from engine import RULES_VERSION, Action, GameRecord, GameState, Side, new_game, player_view, reduce, state_hash
from engine.analysis import Decision, decision, describe_event
from engine.data import TERRAIN_LEGEND, TerrainChar

from . import history
from .costs import billed
from .errors import ApiError, json_response, read_body
from .jobs import decode_body
from .protocol import EventText
from .score import Score, score_of
from .services import address_of, services_of

__all__ = [
    "ROUTES",
    "Evaluation",
    "EvaluationRequest",
    "ReplayPage",
    "ReplayRequest",
    "Verification",
    "evaluation",
    "evaluation_answer",
    "replay_answer",
    "replay_page",
]

MAX_PAGE = 1000
Perspective = Literal["spectator", "ATTACKER", "DEFENDER", "full"]


class ReplayRequest(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """``POST /api/replays``: the record, whose eyes to show it through, and which steps."""

    record: GameRecord
    view: Perspective = "spectator"
    start: Annotated[int, Meta(ge=0, le=10_000_000)] = 0  # first step (0: the starting position)
    count: Annotated[int, Meta(ge=1, le=MAX_PAGE)] = 300


class Verification(msgspec.Struct, frozen=True, kw_only=True):
    """Whether the record replays: ``verified`` (every hash matched), ``unverified`` (no hashes), ``failed``."""

    status: Literal["verified", "unverified", "failed"]
    steps: int  # actions replayed successfully
    actions: int  # actions in the record
    error: str | None = None
    failed_step: int | None = None  # the first position that could not be built (its action failed)


class ReplayStep(msgspec.Struct, frozen=True, kw_only=True):
    """The position after ``step`` actions, as the chosen perspective sees it."""

    step: int
    action: Action | None  # the action that led here (None at step 0)
    to_act: Side | None
    state: GameState
    events: tuple[EventText, ...]
    decision: Decision  # who decides and why, as the perspective may see it
    score: Score  # victory points, what wins at once, the round (server/score.py)


class ReplayPage(msgspec.Struct, frozen=True, kw_only=True):
    """The answer: ``steps`` holds positions ``start`` .. ``start + len(steps) - 1`` of ``total``."""

    total: int  # positions that replay (actions replayed + 1)
    start: int
    view: str
    verification: Verification
    steps: tuple[ReplayStep, ...]
    legend: tuple[TerrainChar, ...] = TERRAIN_LEGEND  # what each map character of a step's board is


_REQUEST = msgspec.json.Decoder(ReplayRequest)
_ENCODER = msgspec.json.Encoder()


def _shown(state: GameState, view: Perspective) -> GameState:
    if view == "full":
        return state
    return player_view(state, None if view == "spectator" else Side(view))


def replay_page(request: ReplayRequest) -> ReplayPage:
    """Replay ``request.record`` to its end (or first failure) and keep the requested page of steps."""
    record = request.record
    if record.rules_version != RULES_VERSION:
        raise ValueError(f"the record is for rules version {record.rules_version}; this server plays {RULES_VERSION}")
    hashes = record.hashes
    if hashes is not None and len(hashes) != len(record.actions):
        raise ValueError(f"the record has {len(record.actions)} actions but {len(hashes)} hashes")
    stop = request.start + request.count
    state = new_game(record.config)
    kept: list[ReplayStep] = []

    def keep(step: int, action: Action | None) -> None:
        if request.start <= step < stop:
            shown = _shown(state, request.view)
            events = tuple(EventText(event=e, text=describe_event(e, shown.rules)) for e in shown.events)
            kept.append(ReplayStep(step=step, action=action, to_act=state.to_act, state=shown, events=events,
                                   decision=decision(state, shown), score=score_of(state)))

    keep(0, None)
    error: str | None = None
    failed: int | None = None
    done = 0
    for index, action in enumerate(record.actions):
        try:
            state = reduce(state, action)
        except Exception as err:  # IllegalAction, or anything a hand-edited file provokes
            error, failed = f"step {index + 1}: {err}", index + 1
            break
        if hashes is not None and state_hash(state) != hashes[index]:
            error, failed = f"step {index + 1}: the state hash differs from the one in the record", index + 1
            break
        done = index + 1
        keep(done, action)
    if failed is not None:
        status: Literal["verified", "unverified", "failed"] = "failed"
    else:
        status = "verified" if hashes is not None else "unverified"
    verification = Verification(status=status, steps=done, actions=len(record.actions), error=error,
                                failed_step=failed)
    return ReplayPage(total=done + 1, start=request.start, view=request.view, verification=verification,
                      steps=tuple(kept))


def replay_answer(body: bytes) -> bytes:
    """``POST /api/replays`` as an analyst works it out: the body decoded, the record replayed, the page encoded.

    ValueError names what is wrong: the JSON, the rules version, the hash count, a config `new_game` refuses.
    """
    return _ENCODER.encode(replay_page(decode_body(body, _REQUEST)))


async def replays(request: Request) -> Response:
    services = services_of(request)
    with billed(services.budget, address_of(request)):
        body = await read_body(request, services.settings.limits.max_body_bytes)
        try:
            page = await services.analysts.run(replay_answer, body)
        except ValueError as err:
            raise ApiError(400, "bad_request", str(err)) from None
    return json_response(msgspec.Raw(page))


# -- the evaluation graph ----------------------------------------------------------------

TURNING_SWING = 0.15  # a change of the ATTACKER's estimate this large between two turns is a turning point
MAX_TURNING = 5  # at most this many, the largest swings


class EvaluationRequest(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """``POST /api/replays/evaluation``: the record to judge, turn by turn."""

    record: GameRecord


class EvalPoint(msgspec.Struct, frozen=True, kw_only=True):
    """The estimate at the first position of a turn (and at the end of the game)."""

    step: int  # the position's step in the replay (jump there to see it)
    turn: int
    attacker: float  # the ATTACKER's chance to win as the server's bot sees it, 0..1
    swing: float = 0.0  # the change since the previous point


class Evaluation(msgspec.Struct, frozen=True, kw_only=True):
    """The answer: one point per turn and the steps of the turning points (largest swings first)."""

    points: tuple[EvalPoint, ...]
    turning: tuple[int, ...]


_EVAL_REQUEST = msgspec.json.Decoder(EvaluationRequest)


def evaluation(record: GameRecord, estimate: Callable[[GameState], float]) -> Evaluation:
    """Replay ``record`` and ask ``estimate`` about the spectator's view at the start of each turn.

    The spectator's view keeps the hands hidden, so the graph judges what anyone watching
    could judge. Stops at the first action that does not replay.
    """
    if record.rules_version != RULES_VERSION:
        raise ValueError(f"the record is for rules version {record.rules_version}; this server plays {RULES_VERSION}")
    state = new_game(record.config)
    wanted: list[tuple[int, GameState]] = [(0, state)]
    for index, action in enumerate(record.actions):
        try:
            after = reduce(state, action)
        except Exception:  # a hand-edited record: judge what replays
            break
        if after.turn != state.turn or after.to_act is None:
            wanted.append((index + 1, after))
        state = after
    points: list[EvalPoint] = []
    last: float | None = None
    for step, position in wanted:
        p = min(1.0, max(0.0, float(estimate(player_view(position, None)))))
        points.append(EvalPoint(step=step, turn=position.turn, attacker=round(p, 4),
                                swing=0.0 if last is None else round(p - last, 4)))
        last = p
    swings = sorted((pt for pt in points if abs(pt.swing) >= TURNING_SWING), key=lambda pt: (-abs(pt.swing), pt.step))
    return Evaluation(points=tuple(points), turning=tuple(sorted(pt.step for pt in swings[:MAX_TURNING])))


def evaluation_answer(body: bytes, estimate: Callable[[GameState], float]) -> bytes:
    """``POST /api/replays/evaluation`` as an analyst works it out (ValueError names what is wrong)."""
    return _ENCODER.encode(evaluation(decode_body(body, _EVAL_REQUEST).record, estimate))


async def evaluate_record(request: Request) -> Response:
    services = services_of(request)
    estimate = services.settings.bots.estimate
    if estimate is None:
        raise ApiError(404, "not_found", "this server has no bot to judge a game")
    with billed(services.budget, address_of(request)):
        body = await read_body(request, services.settings.limits.max_body_bytes)
        try:
            answer = await services.analysts.run(evaluation_answer, body, estimate)
        except ValueError as err:
            raise ApiError(400, "bad_request", str(err)) from None
    return json_response(msgspec.Raw(answer))


ROUTES: list[Route] = [
    Route("/api/replays", replays, methods=["POST"]),
    *history.ROUTES,  # the rolls and turns of a stored match so far (dice panel, end screen)
    Route("/api/replays/evaluation", evaluate_record, methods=["POST"]),
]
