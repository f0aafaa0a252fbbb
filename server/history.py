"""What happened in a match so far, from its log: every die rolled and a summary of each turn.

``GET /api/matches/{id}/history`` replays the stored log and answers with what any spectator
may know: the rolls (dice are public once rolled) and, per turn, where it starts in the
replay, how many units moved, the attacks with their results, the units destroyed, the
cards played as a spectator sees them, and the victory points at the turn's end. The
client's dice panel reads it after a reload, for a late spectator and in a forked match
(whose log starts with the actions it was forked from); the end screen reads the turns.

``GET /api/matches/{id}/turns/{n}`` answers with the events of every step of turn ``n`` (from
the step that started it), as a spectator sees them: after a reload the client recaps the
opponent's last turn and fills its log from it, in one request and one replay.
"""

from __future__ import annotations

from collections.abc import Sequence

import msgspec
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

from engine import Event, EventKind, GameConfig, GameState, Rules, Side, decode_action, new_game, player_view, reduce
from engine.analysis import describe_event, unit_vp

from .costs import OverBudget, billed
from .errors import ApiError, json_response, whole_number
from .protocol import EventText
from .results import stored_answer
from .services import address_of, services_of
from .store import ActionRow, MatchRow, StoreUnavailable
from .ws import MATCH_ID

__all__ = [
    "ROUTES",
    "DiceRoll",
    "MatchHistory",
    "RollTerm",
    "StepEvents",
    "TurnEvents",
    "TurnSummary",
    "history_answer",
    "history_of",
    "turn_answer",
    "turn_of",
]

MAX_TURN = 100_000  # far past any game the action cap allows
_ENCODER = msgspec.json.Encoder()


class RollTerm(msgspec.Struct, frozen=True, kw_only=True):
    """One modifier of a roll: its source (a card id or a rule) and how much it adds."""

    source: str
    value: int


class DiceRoll(msgspec.Struct, frozen=True, kw_only=True):
    """One roll as it finally stood (after any tactic played on it), first seen at ``step``."""

    step: int
    turn: int
    seq: int  # the attack's number in its turn (`attack_seq`)
    side: Side  # who attacked
    attacker: str
    target: str
    natural: int
    modified: int
    required: int
    distance: int
    outcome: str  # HIT | MISS
    modifiers: tuple[RollTerm, ...]


class TurnSummary(msgspec.Struct, frozen=True, kw_only=True):
    """One turn in a few numbers and the sentences worth remembering."""

    turn: int
    side: Side  # whose turn
    step: int  # the replay step at which the turn starts
    moves: int
    hits: int
    misses: int
    destroyed: tuple[str, ...]  # unit ids destroyed during the turn (either side)
    highlights: tuple[str, ...]  # cards played, attacks, losses, in words
    events: tuple[Event, ...] = ()  # the same as events, for a client that words them itself
    vp: dict[str, int]  # victory points of each side at the turn's end


class MatchHistory(msgspec.Struct, frozen=True, kw_only=True):
    """``GET /api/matches/{id}/history``: the rolls and the turns of the log so far."""

    match_id: str
    steps: int  # actions replayed
    rolls: tuple[DiceRoll, ...]
    turns: tuple[TurnSummary, ...]
    winner: Side | None
    victory_reason: str | None


class StepEvents(msgspec.Struct, frozen=True, kw_only=True):
    """What the action that made ``step`` caused, in events with their sentences."""

    step: int
    events: tuple[EventText, ...]


class TurnEvents(msgspec.Struct, frozen=True, kw_only=True):
    """``GET /api/matches/{id}/turns/{n}``: every step of turn ``turn`` so far, from the one that started it."""

    match_id: str
    turn: int
    side: Side  # whose turn it is
    steps: tuple[StepEvents, ...]


_HIGHLIGHTS = {
    EventKind.BONUS_PLAYED, EventKind.MALUS_APPLIED, EventKind.MALUS_CANCELLED, EventKind.TACTIC_PLAYED,
    EventKind.ATTACK_HIT, EventKind.ATTACK_MISSED, EventKind.ATTACK_CANCELLED, EventKind.UNIT_DESTROYED,
    EventKind.POINT_CAPTURED,
}


class _Turn:
    """A turn being summed up while the log replays."""

    def __init__(self, state: GameState, step: int) -> None:
        self.turn, self.side, self.step = state.turn, state.active, step
        self.moves = self.hits = self.misses = 0
        self.destroyed: list[str] = []
        self.highlights: list[str] = []
        self.events: list[Event] = []

    def take(self, events: tuple[Event, ...], rules: Rules) -> None:
        for event in events:
            kind = event.kind
            self.moves += kind is EventKind.UNIT_MOVED
            self.hits += kind is EventKind.ATTACK_HIT
            self.misses += kind is EventKind.ATTACK_MISSED
            if kind is EventKind.UNIT_DESTROYED and event.unit:
                self.destroyed.append(event.unit)
            if kind in _HIGHLIGHTS:
                self.highlights.append(describe_event(event, rules))
                self.events.append(event)

    def summary(self, state: GameState) -> TurnSummary:
        vp = {side.value: unit_vp(state, side) + state.player(side).point_vp for side in Side}
        return TurnSummary(turn=self.turn, side=self.side, step=self.step, moves=self.moves, hits=self.hits,
                           misses=self.misses, destroyed=tuple(self.destroyed), highlights=tuple(self.highlights),
                           events=tuple(self.events),
                           vp=vp)


def history_of(match_id: str, config: GameConfig, actions: Sequence[str]) -> MatchHistory:
    """Replay ``actions`` (the log's JSON texts) from ``config``: the rolls and turns a spectator may know.

    Raises ValueError (`InvalidAction`, `IllegalAction`) if the log does not replay.
    """
    state = new_game(config)
    rolls: dict[tuple[int, int], DiceRoll] = {}  # (turn, attack_seq) -> the roll as it stands
    turns: list[TurnSummary] = []
    current = _Turn(state, 0)
    for index, text in enumerate(actions, start=1):
        action = decode_action(text, state)
        after = reduce(state, action)
        if after.turn != current.turn:
            turns.append(current.summary(state))
            current = _Turn(after, index)
        current.take(player_view(after, None).events, after.rules)
        roll, attack = after.last_roll, after.pending_attack
        if roll is not None and attack is not None:
            key = (after.turn, after.attack_seq)
            first = rolls[key].step if key in rolls else index
            rolls[key] = DiceRoll(step=first, turn=after.turn, seq=after.attack_seq, side=after.active,
                                  attacker=attack.attacker,
                                  target=attack.target, natural=roll.natural, modified=roll.modified,
                                  required=roll.required, distance=roll.distance, outcome=roll.outcome,
                                  modifiers=tuple(RollTerm(source=m.source, value=m.value) for m in roll.modifiers))
        state = after
    turns.append(current.summary(state))
    return MatchHistory(match_id=match_id, steps=len(actions), rolls=tuple(rolls.values()),
                        turns=tuple(t for t in turns if t.turn > 0), winner=state.winner,
                        victory_reason=state.victory_reason)


def turn_of(match_id: str, config: GameConfig, actions: Sequence[str], turn: int) -> TurnEvents | None:
    """The steps of turn ``turn`` of the log ``actions`` (None: the game has not reached it).

    A step belongs to the turn its action leaves the game in, as in `history_of`: the step that
    ended the turn before (with its ``turn_started`` event) opens it. Raises ValueError if the
    log does not replay.
    """
    state = new_game(config)
    steps: list[StepEvents] = []
    side = state.active if state.turn == turn else None
    for index, text in enumerate(actions, start=1):
        state = reduce(state, decode_action(text, state))
        if state.turn > turn:
            break
        if state.turn == turn:
            side = state.active
            shown = player_view(state, None)
            events = tuple(EventText(event=e, text=describe_event(e, shown.rules)) for e in shown.events)
            steps.append(StepEvents(step=index, events=events))
    if side is None:
        return None
    return TurnEvents(match_id=match_id, turn=turn, side=side, steps=tuple(steps))


def _config_of(row: MatchRow) -> GameConfig:
    try:
        return msgspec.json.decode(row.config, type=GameConfig)
    except msgspec.DecodeError as err:
        raise ValueError(f"its config no longer loads: {err}") from None


def turn_answer(row: MatchRow, rows: list[ActionRow], turn: int) -> bytes:
    """The `TurnEvents` of turn ``turn`` of a stored match, encoded; ``null`` when the game has not reached it
    (an analyst's work)."""
    return _ENCODER.encode(turn_of(row.id, _config_of(row), [r.action for r in rows], turn))


def history_answer(row: MatchRow, rows: list[ActionRow]) -> bytes:
    """The `MatchHistory` of a stored match, encoded (an analyst's work)."""
    return _ENCODER.encode(history_of(row.id, _config_of(row), [r.action for r in rows]))


async def match_history(request: Request) -> Response:
    services = services_of(request)
    match_id = str(request.path_params["match_id"])
    if not MATCH_ID.fullmatch(match_id):
        raise ApiError(404, "not_found", "no such match")
    with billed(services.budget, address_of(request)):
        try:
            found = await stored_answer(services.db, services.results, services.analysts,
                                        services.matches.loaded(match_id), "history", match_id, history_answer)
        except (OverBudget, StoreUnavailable):
            raise
        except Exception as err:  # a log these rules no longer replay (other rules, an edited store)
            raise ApiError(409, "unavailable", f"the match cannot be read: {err}") from None
    if found is None:
        raise ApiError(404, "not_found", "no such match")
    return json_response(msgspec.Raw(found))


async def match_turn(request: Request) -> Response:
    services = services_of(request)
    match_id = str(request.path_params["match_id"])
    if not MATCH_ID.fullmatch(match_id):
        raise ApiError(404, "not_found", "no such match")
    turn = whole_number(str(request.path_params["turn"]), "turn", 1, MAX_TURN)
    with billed(services.budget, address_of(request)):
        try:
            found = await stored_answer(services.db, services.results, services.analysts,
                                        services.matches.loaded(match_id), "turn", match_id, turn_answer, turn)
        except (OverBudget, StoreUnavailable):
            raise
        except Exception as err:  # a log these rules no longer replay (other rules, an edited store)
            raise ApiError(409, "unavailable", f"the match cannot be read: {err}") from None
    if found is None or found == b"null":
        raise ApiError(404, "not_found", "no such match, or it has not reached that turn")
    return json_response(msgspec.Raw(found))


ROUTES: list[Route] = [
    Route("/api/matches/{match_id}/history", match_history, methods=["GET"]),
    Route("/api/matches/{match_id}/turns/{turn}", match_turn, methods=["GET"]),
]
