"""Well-formed actions that are probably *not* legal: mutations of listed ones, and strays.

Every candidate is a valid `Action` (ids and labels have the right shape, the tactic
exists, indices are small), so `reduce` must answer with `IllegalAction` and leave the
state untouched whenever the candidate is not in `legal_actions`.
"""

from __future__ import annotations

from collections.abc import Sequence

from engine import (
    AcceptMalus,
    Action,
    AutoDeploy,
    CancelMalus,
    ChooseMalusTargets,
    ConfirmDeployment,
    DeclareAttack,
    DeployUnit,
    DiscardBonus,
    DrawCard,
    EndTurn,
    GameState,
    MoveUnit,
    NextPhase,
    Params,
    PassReaction,
    PlayBonus,
    PlayTactic,
    Quadrant,
    ResolveAttack,
    RollDice,
    StoreBonus,
    WithdrawAttack,
    draw_index,
)
from engine.data import TACTICS, label

__all__ = ["SINGLETONS", "mutations"]

SINGLETONS: tuple[Action, ...] = (
    NextPhase(),
    EndTurn(),
    DrawCard(),
    DiscardBonus(),
    AcceptMalus(),
    RollDice(),
    ResolveAttack(),
    PassReaction(),
    AutoDeploy(),
    ConfirmDeployment(),
    StoreBonus(),
)
"""Actions without fields (and plain STORE_BONUS): each is rejected unless listed."""

_QUADRANTS = tuple(Quadrant)
_TACTIC_IDS = tuple(c.id for c in TACTICS)


class _Picker:
    """The fuzzer's LCG, threaded through one batch of mutations."""

    def __init__(self, seed: int) -> None:
        self.seed = seed

    def index(self, n: int) -> int:
        i, self.seed = draw_index(n, self.seed)
        return i

    def of(self, items: Sequence[str]) -> str:
        return items[self.index(len(items))]


def _ids(state: GameState) -> list[str]:
    ids = [u.id for u in state.units] + [u.id for p in state.players for u in p.destroyed]
    return [*ids, "A1", "D1", "A99", "D99"]


def _cell(state: GameState, p: _Picker) -> str:
    return label(p.index(state.board.width), p.index(state.board.height))


def _mutate(action: Action, state: GameState, p: _Picker) -> Action:
    ids = _ids(state)
    match action:
        case MoveUnit(unit_id=unit, to=to):
            return MoveUnit(unit_id=p.of(ids), to=to) if p.index(2) else MoveUnit(unit_id=unit, to=_cell(state, p))
        case DeployUnit(unit_id=unit, cell=cell):
            return (
                DeployUnit(unit_id=p.of(ids), cell=cell)
                if p.index(2)
                else DeployUnit(unit_id=unit, cell=_cell(state, p))
            )
        case DeclareAttack(attacker_id=a, target_id=t):
            choice = p.index(3)
            if choice == 0:
                return DeclareAttack(attacker_id=t, target_id=a)
            return (
                DeclareAttack(attacker_id=p.of(ids), target_id=t)
                if choice == 1
                else DeclareAttack(attacker_id=a, target_id=p.of(ids))
            )
        case WithdrawAttack():
            return WithdrawAttack(attacker_id=p.of(ids))
        case PlayBonus(stored_index=index, targets=targets, params=params):
            choice = p.index(4)
            if choice == 0:
                return PlayBonus(stored_index=None if index is not None else p.index(8), targets=targets, params=params)
            if choice == 1:
                return PlayBonus(stored_index=index, targets=(*targets, p.of(ids)), params=params)
            if choice == 2:
                return PlayBonus(stored_index=index, targets=targets[1:], params=params)
            return PlayBonus(stored_index=index, targets=targets, params=Params(cell=_cell(state, p)))
        case StoreBonus(replace_index=index):
            return StoreBonus(replace_index=None if index is not None else p.index(8))
        case ChooseMalusTargets(unit_ids=ids_):
            choice = p.index(3)
            if choice == 0:
                return ChooseMalusTargets(unit_ids=tuple(reversed(ids_)) if len(ids_) > 1 else (*ids_, *ids_))
            if choice == 1:
                return ChooseMalusTargets(unit_ids=(*ids_, p.of(ids)))
            return ChooseMalusTargets(unit_ids=ids_[1:])
        case CancelMalus(stored_index=index, malus_play_id=play):
            if p.index(2):
                return CancelMalus(stored_index=(index + 1 + p.index(3)) % 8, malus_play_id=play)
            return CancelMalus(stored_index=index, malus_play_id=None if play is not None else 1 + p.index(50))
        case PlayTactic(card_id=card, targets=targets, params=params):
            choice = p.index(3)
            if choice == 0:
                return PlayTactic(card_id=p.of(_TACTIC_IDS), targets=targets, params=params)
            if choice == 1:
                return PlayTactic(card_id=card, targets=(*targets, p.of(ids)), params=params)
            return PlayTactic(card_id=card, targets=targets, params=Params(quadrant=_QUADRANTS[p.index(4)]))
        case _:
            return SINGLETONS[p.index(len(SINGLETONS))]


def mutations(state: GameState, legal: Sequence[Action], count: int, seed: int) -> list[Action]:
    """Up to ``count`` distinct well-formed actions that are not in ``legal``.

    Half are mutations of listed actions (one field changed), the rest strays of every
    kind; every field-less action that is not listed is always included.
    """
    p = _Picker(seed)
    listed = set(legal)
    found: dict[Action, None] = {a: None for a in SINGLETONS if a not in listed}
    strays: tuple[Action, ...] = (
        MoveUnit(unit_id=p.of(_ids(state)), to=_cell(state, p)),
        DeclareAttack(attacker_id=p.of(_ids(state)), target_id=p.of(_ids(state))),
        PlayTactic(card_id=p.of(_TACTIC_IDS)),
        PlayBonus(stored_index=p.index(8)),
        CancelMalus(stored_index=p.index(8)),
        WithdrawAttack(attacker_id=p.of(_ids(state))),
        DeployUnit(unit_id=p.of(_ids(state)), cell=_cell(state, p)),
        ChooseMalusTargets(unit_ids=(p.of(_ids(state)),)),
    )
    budget = count + len(found)
    for n in range(4 * count):
        if len(found) >= budget:
            break
        if legal and n % 2 == 0:
            candidate = _mutate(legal[p.index(len(legal))], state, p)
        else:
            candidate = _mutate(strays[p.index(len(strays))], state, p)
        if candidate not in listed:
            found.setdefault(candidate, None)
    return list(found)
