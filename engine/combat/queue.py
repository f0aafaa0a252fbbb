"""The declaration checks and the attack queue (rules §6.1, §6.4): asked at every listing in ATTACK.

They live apart from `attacks.py`, whose msgspec Structs keep it pure Python in the compiled
build (setup.py), so that the build compiles them; `attacks.py` re-exports every name.
"""

from __future__ import annotations

from msgspec.structs import replace

from ..cards.effects import expire_attack_effects
from ..cards.hooks import attack_denial, can_attack, unit_distance, unit_stat
from ..state import Attack, Event, GameState, Unit, unit_by_id
from ..types import EventKind

__all__ = ["advance_queue", "attack_problem", "attack_valid", "cancel_pending", "in_truce", "placed_unit"]


def in_truce(state: GameState, turn: int | None = None) -> bool:
    """True while ``turn`` (the current one by default) lies in the game's opening truce (rules §6.1).

    No attack may be declared in the first ``state.rules.truce_rounds`` rounds: turns 1 and 2
    of the default game, so each side has played a turn before the first shot.
    """
    return (state.turn if turn is None else turn) <= 2 * state.rules.truce_rounds


def placed_unit(state: GameState, unit_id: str) -> Unit | None:
    """The unit with ``unit_id`` if it stands on the board."""
    unit = unit_by_id(state, unit_id)
    return unit if unit is not None and unit.cell is not None else None


def attack_problem(state: GameState, attacker: Unit, target: Unit, reach: int | None = None) -> str | None:
    """Why ``attacker`` may not declare against ``target`` now (rules §6.1), or None.

    Checks everything but the phase and the declaration count, so Coordinated Maneuver
    can ask the same question about a supporter. ``reach``: the attacker's range, when the
    caller has it (a listing asks it once per attacker).
    """
    if attacker.side is not state.active:
        return f"{attacker.id} is not a unit of the active player ({state.active.value})"
    if attacker.cell is None:
        return f"{attacker.id} is not on the board"
    if attacker.has_attacked:
        return f"{attacker.id} has already attacked this turn"
    if target.side is attacker.side:
        return f"{target.id} is not an enemy of {attacker.id}"
    if target.cell is None:
        return f"{target.id} is not on the board"
    distance = unit_distance(attacker, target, state)
    if reach is None:
        reach = unit_stat(state, attacker, "range")
    if not 1 <= distance <= reach:
        return f"{target.id} at {target.cell} is out of range of {attacker.id} (distance {distance}, range {reach})"
    denial = attack_denial(state, attacker, target, distance)
    if denial is not None:
        return f"{attacker.id} may not attack {target.id} now ({denial})"
    return None


def attack_valid(state: GameState, attack: Attack) -> bool:
    """A declared attack stays valid while both units stand and ``can_attack`` holds (§6.4)."""
    attacker = placed_unit(state, attack.attacker)
    target = placed_unit(state, attack.target)
    return attacker is not None and target is not None and can_attack(state, attacker, target)


def advance_queue(state: GameState) -> GameState:
    """Make the first valid queued attack pending, skipping (and logging) invalid ones."""
    queue = list(state.attack_queue)
    events = list(state.events)
    while queue:
        attack = queue.pop(0)
        if attack_valid(state, attack):
            seq = state.attack_seq + 1
            events.append(
                Event(
                    kind=EventKind.ATTACK_PENDING,
                    side=state.active,
                    unit=attack.attacker,
                    target=attack.target,
                    value=seq,
                )
            )
            return replace(
                state,
                attack_queue=tuple(queue),
                pending_attack=attack,
                attack_seq=seq,
                last_roll=None,
                events=tuple(events),
            )
        events.append(
            Event(kind=EventKind.ATTACK_SKIPPED, side=state.active, unit=attack.attacker, target=attack.target)
        )
    return replace(state, attack_queue=(), pending_attack=None, last_roll=None, events=tuple(events))


def cancel_pending(state: GameState, why: str) -> GameState:
    """Cancel the pending attack: no roll, no damage, its ``this_attack`` effects expire.

    The attacker keeps ``has_attacked``. The caller decides whether the queue advances.
    """
    pending = state.pending_attack
    if pending is None:
        return state
    state = expire_attack_effects(state, state.attack_seq)
    event = Event(
        kind=EventKind.ATTACK_CANCELLED, side=state.active, unit=pending.attacker, target=pending.target, detail=why
    )
    return replace(state, pending_attack=None, last_roll=None, events=(*state.events, event))
