"""Effect records: created from card data when a card is played, expired by duration.

Effects are plain data in ``state.effects`` (rules §8.1); hooks (`engine.hooks`) read
them. This module only creates and removes them.
"""

from __future__ import annotations

from operator import attrgetter, is_
from typing import Final

from msgspec.structs import replace

from ..state import Conditions, Effect, Event, GameState
from ..types import EventKind, Hook, Phase, Quadrant, Side
from .defs import CardDef, ConditionsDef
from .explanations import effect_def
from .language import uses_language

__all__ = [
    "add_card_effects",
    "counts_uses",
    "expire_attack_effects",
    "expire_phase_effects",
    "expire_turn_end_effects",
    "note_uses",
    "remove_play",
]


def add_card_effects(
    state: GameState,
    card: CardDef,
    controller: Side,
    targets: tuple[str, ...] = (),
    quadrant: Quadrant | None = None,
    option: int | None = None,
) -> tuple[GameState, int]:
    """Record every lasting effect of one play of ``card`` (of the chosen ``option``); returns ``(state, play_id)``.

    Instant effects (hook ``instant``) create no record; the caller performs them. An effect of
    another option than the one chosen is not played.
    """
    play_id = state.next_play_id
    effect_id = state.next_effect_id
    new: list[Effect] = []
    for index, spec in enumerate(card.effects):
        if spec.is_instant or (spec.option is not None and spec.option != option):
            continue
        value = round(spec.value * 2) if spec.hook is Hook.MODIFY_MOVEMENT else int(spec.value)
        effect = Effect(
            effect_id=effect_id,
            play_id=play_id,
            source_card=card.id,
            source_kind=card.kind,
            controller=controller,
            hook=spec.hook,
            op=spec.op,
            value=value,
            scope=spec.scope,
            conditions=_bind(spec.conditions, targets, quadrant, index if uses_language(spec) else None),
            targets=targets,
        )
        new.append(_with_duration(effect, spec.duration, state.attack_seq))
        effect_id += 1
    return (
        replace(state, effects=state.effects + tuple(new), next_effect_id=effect_id, next_play_id=play_id + 1),
        play_id,
    )


def _bind(spec: ConditionsDef, targets: tuple[str, ...], quadrant: Quadrant | None, clause: int | None) -> Conditions:
    target_unit = targets[0] if spec.target_unit == "$target" and targets else None
    if spec.target_quadrant == "$quadrant":
        target_quadrant = quadrant
    elif spec.target_quadrant is not None:
        target_quadrant = Quadrant(spec.target_quadrant)
    else:
        target_quadrant = None
    return Conditions(
        unit_types=spec.unit_types,
        unit_tags=spec.unit_tags,
        min_distance=spec.min_distance,
        target_unit=target_unit,
        target_quadrant=target_quadrant,
        card_category=spec.card_category,
        card_class=spec.card_class,
        clause=clause,
    )


_EXPIRES: Final = attrgetter("expires")
_PLAY_ID: Final = attrgetter("play_id")
_UNTIL_PHASE: Final = attrgetter("until_phase")


def _with_duration(effect: Effect, duration: str, attack_seq: int) -> Effect:
    kind, _, arg = duration.partition(":")
    if kind == "end_of_turn":
        return replace(effect, expires="turn_ends", remaining_turn_ends=1)
    if kind == "turns":
        return replace(effect, expires="turn_ends", remaining_turn_ends=int(arg))
    if kind == "this_attack":
        return replace(effect, expires="this_attack", attack_seq=attack_seq)
    if kind == "until_phase":
        return replace(effect, expires="until_phase", until_phase=Phase(arg))
    return replace(effect, expires="permanent")


def _expired_events(gone: list[Effect]) -> tuple[Event, ...]:
    """One event per card play, in the order of its first expired effect (a play's effects share card and side)."""
    plays = dict(zip(map(_PLAY_ID, gone), gone, strict=True))  # insertion order: each play where it first came
    return tuple(Event(kind=EventKind.EFFECT_EXPIRED, side=e.controller, card=e.source_card) for e in plays.values())


def _partition(state: GameState, gone_if: list[bool]) -> GameState:
    if not any(gone_if):
        return state
    keep = tuple(e for e, gone in zip(state.effects, gone_if, strict=True) if not gone)
    gone = [e for e, g in zip(state.effects, gone_if, strict=True) if g]
    return replace(state, effects=keep, events=state.events + _expired_events(gone))


def expire_turn_end_effects(state: GameState) -> GameState:
    """END_TURN step 3: count down ``turns``/``end_of_turn`` effects and drop those at 0."""
    effects = state.effects
    if "turn_ends" not in map(_EXPIRES, effects):  # found without a Python loop
        return state
    # Comprehensions, not appends in a loop: every end of turn passes here.
    gone = [
        e
        for e in effects
        if e.expires == "turn_ends" and e.remaining_turn_ends is not None and e.remaining_turn_ends <= 1
    ]
    kept = [
        e
        if e.expires != "turn_ends" or e.remaining_turn_ends is None
        else replace(e, remaining_turn_ends=e.remaining_turn_ends - 1)
        for e in effects
        if e.expires != "turn_ends" or e.remaining_turn_ends is None or e.remaining_turn_ends > 1
    ]
    if not gone and all(map(is_, kept, effects)):
        return state
    return replace(state, effects=tuple(kept), events=state.events + _expired_events(gone))


def expire_attack_effects(state: GameState, attack_seq: int) -> GameState:
    """Drop the ``this_attack`` effects of attack number ``attack_seq`` (resolved or cancelled)."""
    if "this_attack" not in map(_EXPIRES, state.effects):  # the usual case, found without a Python loop
        return state
    return _partition(state, [e.expires == "this_attack" and e.attack_seq == attack_seq for e in state.effects])


def expire_phase_effects(state: GameState, phase: Phase) -> GameState:
    """Drop ``until_phase`` effects waiting for ``phase`` (the first step of entering it)."""
    effects = state.effects
    if not effects or phase not in _waited_phases(effects):  # entering a phase is frequent, such effects rare
        return state
    return _partition(state, [e.expires == "until_phase" and e.until_phase is phase for e in state.effects])


_last_waited: tuple[tuple[Effect, ...], frozenset[Phase]] | None = None


def _waited_phases(effects: tuple[Effect, ...]) -> frozenset[Phase]:
    """The phases some effect of ``effects`` waits for, the last tuple's remembered: a turn
    enters up to seven phases, and a game keeps its effects tuple from state to state."""
    global _last_waited
    last = _last_waited  # one read: another thread may replace it meanwhile
    if last is not None and last[0] is effects:
        return last[1]
    waited = frozenset(p for p in map(_UNTIL_PHASE, effects) if p is not None)
    _last_waited = (effects, waited)  # holds the tuple: its id is not reused meanwhile
    return waited


def remove_play(state: GameState, play_id: int) -> GameState:
    """Remove every effect of one card play (a cancelled malus)."""
    return replace(state, effects=tuple(e for e in state.effects if e.play_id != play_id))


def counts_uses(state: GameState) -> bool:
    """Whether a live effect may count its uses (a limit, or a damage cap per turn or round): most have none."""
    return any(e.conditions.clause is not None or e.op in ("cap_turn", "cap_round") for e in state.effects)


def note_uses(state: GameState, effects: list[Effect], unit: str, amount: int = 0) -> GameState:
    """Record that ``effects`` acted on ``unit`` in the pending attack (``amount``: the damage dealt), for those
    that count their uses: a ``limit``, or a damage cap per turn or round. Others are left as they are."""
    if not effects:
        return state
    counting = {
        e.effect_id
        for e in effects
        if e.op in ("cap_turn", "cap_round")
        or (e.conditions.clause is not None and effect_def(e, state.rules).limit is not None)
    }
    if not counting:
        return state
    use = f"{state.turn}:{unit}:{state.attack_seq}:{amount}"
    renewed = tuple(replace(e, uses=(*(e.uses or ()), use)) if e.effect_id in counting else e for e in state.effects)
    return replace(state, effects=renewed)
