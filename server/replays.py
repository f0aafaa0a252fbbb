"""Replaying posted records for the browser client.

``POST /api/replays`` replays a posted `GameRecord` (or a saved ``/record`` answer) and
returns a page of steps (the view at each step, the action that led there, its events in
words) plus the verification of the whole record against its stored hashes.

Everything here is read-only and built from the engine's public API; a replay runs on a
worker thread under the server's replay slots.
"""

from __future__ import annotations

import asyncio
from typing import Annotated, Literal

import msgspec
from msgspec import Meta
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

from engine import (
    RULES_VERSION,
    TERRAIN_LEGEND,
    Action,
    Decision,
    GameRecord,
    GameState,
    Side,
    TerrainChar,
    decision,
    describe_event,
    new_game,
    player_view,
    reduce,
    state_hash,
)

from . import history
from .errors import ApiError, json_response, read_json
from .protocol import EventText
from .services import services_of

__all__ = ["ROUTES", "ReplayPage", "ReplayRequest", "Verification", "replay_page"]

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


class ReplayPage(msgspec.Struct, frozen=True, kw_only=True):
    """The answer: ``steps`` holds positions ``start`` .. ``start + len(steps) - 1`` of ``total``."""

    total: int  # positions that replay (actions replayed + 1)
    start: int
    view: str
    verification: Verification
    steps: tuple[ReplayStep, ...]
    legend: tuple[TerrainChar, ...] = TERRAIN_LEGEND  # what each map character of a step's board is


_REQUEST = msgspec.json.Decoder(ReplayRequest)


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
            events = tuple(EventText(event=e, text=describe_event(e)) for e in shown.events)
            kept.append(ReplayStep(step=step, action=action, to_act=state.to_act, state=shown, events=events,
                                   decision=decision(state, shown)))

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


async def replays(request: Request) -> Response:
    services = services_of(request)
    wanted = await read_json(request, _REQUEST, services.settings.limits.max_body_bytes)
    async with services.replay_slots:
        try:
            page = await asyncio.to_thread(replay_page, wanted)
        except ValueError as err:  # rules version, hash count, or a config new_game refuses
            raise ApiError(400, "bad_request", str(err)) from None
    return json_response(page)


ROUTES: list[Route] = [
    Route("/api/replays", replays, methods=["POST"]),
    *history.ROUTES,  # the rolls and turns of a stored match so far (dice panel, end screen)
]
