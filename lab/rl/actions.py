"""A fixed, numbered action space for one board size and unit roster (no numpy needed).

Every action of a game gets a stable integer index, so a policy network can output a
fixed-size vector and a mask can switch off what is illegal. The space is a sequence of
*blocks*, one per action type, in the rules' §4.3 order; inside a block the fields are
enumerated in the order shown (row-major: the last field varies fastest).

U = units in the roster (every unit id of the game, in unit order: ``A1..``, ``D1..``),
C = W × H cells (index ``y * W + x``), S = 8 storage slots, M = 8 applied-malus slots,
T = the 11 tactics (card data order), Q = the 4 quadrants (NW, NE, SW, SE).

============================  ==============================  =====================
block                         fields                          size
============================  ==============================  =====================
NEXT_PHASE                    —                               1
END_TURN                      —                               1
DRAW_CARD                     —                               1
PLAY_BONUS                    source (drawn, stored 0..S−1)   (S + 1) × (1 + U + U·W)
                              × aim (none | own unit u |
                              destroyed unit u + entry column x)
STORE_BONUS                   replace_index (null, 0..S−1)    S + 1
DISCARD_BONUS                 —                               1
ACCEPT_MALUS                  —                               1
CHOOSE_MALUS_TARGETS          one unit, or two units i < j    U + U(U−1)/2
CANCEL_MALUS                  stored_index × (drawn malus |   S × (1 + M)
                              k-th applied malus play)
MOVE_UNIT                     unit × destination cell         U × C
DECLARE_ATTACK                attacker × target               U × U
WITHDRAW_ATTACK               attacker                        U
ROLL_DICE, RESOLVE_ATTACK     —                               1 each
PLAY_TACTIC                   card × aim (none | unit | Q)    T × (1 + U + 4)
PASS_REACTION                 —                               1
DEPLOY_UNIT                   unit × cell                     U × C
AUTO_DEPLOY,                  —                               1 each
CONFIRM_DEPLOYMENT
============================  ==============================  =====================

The k-th applied malus is the k-th smallest ``play_id`` among the malus plays with live
effects in the state, so decoding CANCEL_MALUS needs the state. International Aid's entry
cell lies on its side's home edge row (rules §7.3), so only its column is encoded.

Actions that do not fit — in the default rules none do — map to ``None``: a victims list
of three or more units, a storage index of S or more, an 8th or later applied malus. The
environment plays such an action itself when it is the only legal one (see `TaktikEnv`).

>>> space = ActionSpace(4, 3, ("A1", "D1"))
>>> space.size, space.index_of(NextPhase()), space.index_of(MoveUnit(unit_id="D1", to="B2"))
(324, 0, 205)
>>> space.describe(205)
'MOVE_UNIT unit=D1 cell=B2'
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import combinations
from typing import cast

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
    unit_order,
)
from engine.data import TACTICS, label, parse_label

from .memo import memo_table

__all__ = ["MALUS_SLOTS", "STORAGE_SLOTS", "ActionSpace", "roster_of"]

STORAGE_SLOTS = 8
MALUS_SLOTS = 8
_TACTIC_IDS = tuple(card.id for card in TACTICS)
_QUADRANTS = tuple(Quadrant)
_SINGLE: dict[type, str] = {
    NextPhase: "NEXT_PHASE",
    EndTurn: "END_TURN",
    DrawCard: "DRAW_CARD",
    DiscardBonus: "DISCARD_BONUS",
    AcceptMalus: "ACCEPT_MALUS",
    RollDice: "ROLL_DICE",
    ResolveAttack: "RESOLVE_ATTACK",
    PassReaction: "PASS_REACTION",
    AutoDeploy: "AUTO_DEPLOY",
    ConfirmDeployment: "CONFIRM_DEPLOYMENT",
}


_BY_NAME: dict[str, Action] = {name: cls() for cls, name in _SINGLE.items()}
_INDICES: dict[tuple[int, int, tuple[str, ...]], dict[Action, int]] = memo_table()  # geometry -> its `fit` memo


def roster_of(state: GameState) -> tuple[str, ...]:
    """Every unit id of the game (on the board, undeployed or destroyed), in unit order."""
    ids = {u.id for u in state.units} | {u.id for p in state.players for u in p.destroyed}
    return tuple(sorted(ids, key=unit_order))


def malus_plays(state: GameState) -> list[int]:
    """Play ids of maluses with live effects, ascending (the CANCEL_MALUS slots)."""
    return sorted({e.play_id for e in state.effects if e.source_kind == "malus"})


class ActionSpace:
    """The numbered actions of games on a ``width`` × ``height`` board with ``roster`` units."""

    def __init__(self, width: int, height: int, roster: Sequence[str]) -> None:
        self.width, self.height = width, height
        self.roster = tuple(roster)
        self.cells = width * height
        u = len(self.roster)
        self.unit_index = {unit: i for i, unit in enumerate(self.roster)}
        # Label → cell index of every cell: the env indexes hundreds of moves per decision.
        self._cells = {label(i % width, i // width): i for i in range(self.cells)}
        # Fitting action -> index (see `fit`), shared by every space of this geometry: the
        # envs of a vectorised set, or one after another, index the same actions.
        self._memo: dict[Action, int] = _INDICES.setdefault((width, height, self.roster), {})
        self.pairs = list(combinations(range(u), 2))
        self.pair_index = {pair: i for i, pair in enumerate(self.pairs)}
        self.bonus_aims = 1 + u + u * width
        self.tactic_aims = 1 + u + len(_QUADRANTS)
        sizes = [
            ("NEXT_PHASE", 1),
            ("END_TURN", 1),
            ("DRAW_CARD", 1),
            ("PLAY_BONUS", (STORAGE_SLOTS + 1) * self.bonus_aims),
            ("STORE_BONUS", STORAGE_SLOTS + 1),
            ("DISCARD_BONUS", 1),
            ("ACCEPT_MALUS", 1),
            ("CHOOSE_MALUS_TARGETS", u + len(self.pairs)),
            ("CANCEL_MALUS", STORAGE_SLOTS * (1 + MALUS_SLOTS)),
            ("MOVE_UNIT", u * self.cells),
            ("DECLARE_ATTACK", u * u),
            ("WITHDRAW_ATTACK", u),
            ("ROLL_DICE", 1),
            ("RESOLVE_ATTACK", 1),
            ("PLAY_TACTIC", len(_TACTIC_IDS) * self.tactic_aims),
            ("PASS_REACTION", 1),
            ("DEPLOY_UNIT", u * self.cells),
            ("AUTO_DEPLOY", 1),
            ("CONFIRM_DEPLOYMENT", 1),
        ]
        self.blocks: dict[str, tuple[int, int]] = {}
        start = 0
        for name, size in sizes:
            self.blocks[name] = (start, size)
            start += size
        self.size = start

    @classmethod
    def for_state(cls, state: GameState) -> ActionSpace:
        """The space of the game ``state`` belongs to (its board and roster)."""
        return cls(state.board.width, state.board.height, roster_of(state))

    def _cell(self, cell: str) -> int | None:
        index = self._cells.get(cell)
        if index is not None:
            return index
        x, y = parse_label(cell)  # not a label of this board: off it, or written unusually
        return y * self.width + x if 0 <= x < self.width and 0 <= y < self.height else None

    def _start(self, block: str) -> int:
        return self.blocks[block][0]

    def indices(self, legal: Sequence[Action], state: GameState) -> dict[int, Action]:
        """``{index: action}`` for every action of ``legal`` that fits the space (what a mask marks)."""
        found, fitting = self.fit(legal, state)
        return dict(zip(found, fitting, strict=True))

    def fit(self, legal: Sequence[Action], state: GameState) -> tuple[list[int], list[Action]]:
        """The indices of the actions of ``legal`` that fit the space, and those actions, in ``legal``'s order.

        Remembers the index of every fitting action whose index does not depend on the
        state (all but CANCEL_MALUS of an applied malus): an environment indexes the same
        few hundred actions at decision after decision, so a listing is usually one
        lookup per action, all inside ``map``.
        """
        memo = self._memo
        try:
            return list(map(memo.__getitem__, legal)), list(legal)
        except KeyError:  # some action not seen yet, one whose index needs the state, or one that does not fit
            pass
        found: list[int | None] = list(map(memo.get, legal))
        unfit = False
        k = -1
        while True:  # visit only the actions missing from the memo (found by a scan in C)
            try:
                k = found.index(None, k + 1)
            except ValueError:
                break
            action = legal[k]
            index = self.index_of(action, state)
            if index is None:
                unfit = True
                found[k] = -1
                continue
            found[k] = index
            if not isinstance(action, CancelMalus):
                if len(memo) >= 100_000:
                    memo.clear()
                memo[action] = index
        fitting = list(legal)
        if unfit:
            kept = [k for k, index in enumerate(found) if index != -1]
            found, fitting = [found[k] for k in kept], [legal[k] for k in kept]
        return cast("list[int]", found), fitting  # every None was replaced

    def index_of(self, action: Action, state: GameState | None = None) -> int | None:
        """The index of ``action``, or None when it does not fit (``state`` is needed for CANCEL_MALUS)."""
        single = _SINGLE.get(type(action))
        if single is not None:
            return self._start(single)
        ui = self.unit_index
        match action:
            case MoveUnit(unit_id=unit, to=to) | DeployUnit(unit_id=unit, cell=to):
                cell = self._cell(to)
                if unit not in ui or cell is None:
                    return None
                block = "MOVE_UNIT" if isinstance(action, MoveUnit) else "DEPLOY_UNIT"
                return self._start(block) + ui[unit] * self.cells + cell
            case DeclareAttack(attacker_id=a, target_id=t):
                if a not in ui or t not in ui:
                    return None
                return self._start("DECLARE_ATTACK") + ui[a] * len(self.roster) + ui[t]
            case WithdrawAttack(attacker_id=a):
                return self._start("WITHDRAW_ATTACK") + ui[a] if a in ui else None
            case StoreBonus(replace_index=index):
                if index is not None and index >= STORAGE_SLOTS:
                    return None
                return self._start("STORE_BONUS") + (0 if index is None else 1 + index)
            case PlayBonus(stored_index=index, targets=targets, params=params):
                return self._bonus_index(index, targets, params)
            case ChooseMalusTargets(unit_ids=ids):
                return self._victims_index(ids)
            case CancelMalus(stored_index=index, malus_play_id=play):
                if index >= STORAGE_SLOTS:
                    return None
                if play is None:
                    slot = 0
                else:
                    plays = malus_plays(state) if state is not None else []
                    if play not in plays or plays.index(play) >= MALUS_SLOTS:
                        return None
                    slot = 1 + plays.index(play)
                return self._start("CANCEL_MALUS") + index * (1 + MALUS_SLOTS) + slot
            case PlayTactic(card_id=card, targets=targets, params=params):
                return self._tactic_index(card, targets, params)
        return None

    def _bonus_index(self, index: int | None, targets: tuple[str, ...], params: Params) -> int | None:
        if (index is not None and index >= STORAGE_SLOTS) or params.quadrant is not None or len(targets) > 1:
            return None
        source = 0 if index is None else 1 + index
        ui = self.unit_index
        if not targets:
            aim = 0 if params.cell is None else -1
        elif targets[0] not in ui:
            aim = -1
        elif params.cell is None:
            aim = 1 + ui[targets[0]]
        else:
            x, y = parse_label(params.cell)
            home = 0 if targets[0].startswith("A") else self.height - 1
            aim = 1 + len(self.roster) + ui[targets[0]] * self.width + x if y == home and x < self.width else -1
        return None if aim < 0 else self._start("PLAY_BONUS") + source * self.bonus_aims + aim

    def _victims_index(self, ids: tuple[str, ...]) -> int | None:
        if not ids or len(ids) > 2 or any(i not in self.unit_index for i in ids):
            return None
        if len(ids) == 1:
            return self._start("CHOOSE_MALUS_TARGETS") + self.unit_index[ids[0]]
        pair = (self.unit_index[ids[0]], self.unit_index[ids[1]])
        slot = self.pair_index.get(pair)
        return None if slot is None else self._start("CHOOSE_MALUS_TARGETS") + len(self.roster) + slot

    def _tactic_index(self, card: str, targets: tuple[str, ...], params: Params) -> int | None:
        if card not in _TACTIC_IDS or len(targets) > 1 or params.cell is not None:
            return None
        if targets and params.quadrant is not None:
            return None
        if targets:
            if targets[0] not in self.unit_index:
                return None
            aim = 1 + self.unit_index[targets[0]]
        elif params.quadrant is not None:
            aim = 1 + len(self.roster) + _QUADRANTS.index(params.quadrant)
        else:
            aim = 0
        return self._start("PLAY_TACTIC") + _TACTIC_IDS.index(card) * self.tactic_aims + aim

    def action_at(self, index: int, state: GameState | None = None) -> Action:
        """The action numbered ``index`` (``state`` resolves CANCEL_MALUS slots); ValueError if out of range."""
        if not 0 <= index < self.size:
            raise ValueError(f"action index {index} is outside 0..{self.size - 1}")
        for block, (start, size) in self.blocks.items():
            if start <= index < start + size:
                return self._decode(block, index - start, state)
        raise AssertionError("unreachable")

    def _decode(self, block: str, offset: int, state: GameState | None) -> Action:
        u = len(self.roster)
        single = _BY_NAME.get(block)
        if single is not None:
            return single
        if block in ("MOVE_UNIT", "DEPLOY_UNIT"):
            unit_id = self.roster[offset // self.cells]
            cell = label(offset % self.cells % self.width, offset % self.cells // self.width)
            if block == "MOVE_UNIT":
                return MoveUnit(unit_id=unit_id, to=cell)
            return DeployUnit(unit_id=unit_id, cell=cell)
        if block == "DECLARE_ATTACK":
            return DeclareAttack(attacker_id=self.roster[offset // u], target_id=self.roster[offset % u])
        if block == "WITHDRAW_ATTACK":
            return WithdrawAttack(attacker_id=self.roster[offset])
        if block == "STORE_BONUS":
            return StoreBonus(replace_index=None if offset == 0 else offset - 1)
        if block == "CHOOSE_MALUS_TARGETS":
            if offset < u:
                return ChooseMalusTargets(unit_ids=(self.roster[offset],))
            i, j = self.pairs[offset - u]
            return ChooseMalusTargets(unit_ids=(self.roster[i], self.roster[j]))
        if block == "CANCEL_MALUS":
            index, slot = divmod(offset, 1 + MALUS_SLOTS)
            if slot == 0:
                return CancelMalus(stored_index=index)
            plays = malus_plays(state) if state is not None else []
            play = plays[slot - 1] if slot - 1 < len(plays) else 1_000_000_000
            return CancelMalus(stored_index=index, malus_play_id=play)
        if block == "PLAY_BONUS":
            source, aim = divmod(offset, self.bonus_aims)
            stored = None if source == 0 else source - 1
            if aim == 0:
                return PlayBonus(stored_index=stored)
            if aim <= u:
                return PlayBonus(stored_index=stored, targets=(self.roster[aim - 1],))
            slot, x = divmod(aim - 1 - u, self.width)
            row = 0 if self.roster[slot].startswith("A") else self.height - 1
            return PlayBonus(stored_index=stored, targets=(self.roster[slot],), params=Params(cell=label(x, row)))
        card, aim = divmod(offset, self.tactic_aims)
        if aim == 0:
            return PlayTactic(card_id=_TACTIC_IDS[card])
        if aim <= u:
            return PlayTactic(card_id=_TACTIC_IDS[card], targets=(self.roster[aim - 1],))
        return PlayTactic(card_id=_TACTIC_IDS[card], params=Params(quadrant=_QUADRANTS[aim - 1 - u]))

    def describe(self, index: int) -> str:
        """A short name for index ``index`` (block and fields), for logs and debugging."""
        action = self.action_at(index)
        fields = []
        for name in action.__struct_fields__:
            value = getattr(action, name)
            if value in (None, ()) or (isinstance(value, Params) and value == Params()):
                continue
            short = {"unit_id": "unit", "to": "cell", "cell": "cell", "attacker_id": "attacker", "target_id": "target"}
            fields.append(f"{short.get(name, name)}={value}")
        tag = action.__struct_config__.tag
        return " ".join([str(tag), *fields])
