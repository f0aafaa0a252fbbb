"""Every action a player can take, as one msgspec tagged union (rules §4.3).

Game moves carry no player: the actor is always ``state.to_act``. The three match actions
(`Resign`, `Timeout`, `ClaimVictory`; `engine.match_actions`) name their ``side``, since
they end a match from outside the turn order and may come from the seat not to act. Each class has an explicit,
stable tag, so renaming a class never breaks a saved game:

>>> import msgspec
>>> msgspec.json.encode(MoveUnit(unit_id="A7", to="K16"))
b'{"type":"MOVE_UNIT","unit_id":"A7","to":"K16"}'
"""

from __future__ import annotations

from typing import Annotated, Literal, TypeAlias

import msgspec
from msgspec import Meta

from .types import CardId, CellLabel, Quadrant, Side, UnitId

__all__ = [
    "ACTION_ORDER",
    "MATCH_ACTION_ORDER",
    "AcceptMalus",
    "Action",
    "ActionBase",
    "AutoDeploy",
    "CancelMalus",
    "ChooseMalusTargets",
    "ClaimVictory",
    "ConfirmDeployment",
    "DeclareAttack",
    "DeployUnit",
    "DiscardBonus",
    "DrawCard",
    "EndTurn",
    "MoveUnit",
    "NextPhase",
    "Params",
    "PassReaction",
    "PlayBonus",
    "PlayTactic",
    "Resign",
    "ResolveAttack",
    "RollDice",
    "StoreBonus",
    "Timeout",
    "WithdrawAttack",
]

Index = Annotated[int, Meta(ge=0, le=99, description="0-based index into the stored bonuses")]
PlayId = Annotated[int, Meta(ge=1, le=1_000_000_000, description="play id of an applied malus")]
UnitList = Annotated[tuple[UnitId, ...], Meta(max_length=30)]


class Params(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True, omit_defaults=True):
    """Card parameters: ``quadrant`` (Enemy Recon Detection) or ``cell`` (International Aid), and the
    ``option`` chosen of a card that offers options (its index in the card's ``options``)."""

    quadrant: Quadrant | None = None
    cell: CellLabel | None = None
    option: Annotated[int, Meta(ge=0, le=9)] | None = None


NO_PARAMS = Params()


class ActionBase(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True, tag_field="type", gc=False):
    """Base of every action: immutable, keyword-only, strict, tagged by ``type``; untracked by the GC, as states are."""


class NextPhase(ActionBase, frozen=True, kw_only=True, tag="NEXT_PHASE"):
    """Leave the current resting phase."""


class EndTurn(ActionBase, frozen=True, kw_only=True, tag="END_TURN"):
    """Skip to END_TURN from MOVEMENT, ATTACK or DICE_RESOLUTION."""


class DrawCard(ActionBase, frozen=True, kw_only=True, tag="DRAW_CARD"):
    """Draw the turn's card."""


class PlayBonus(ActionBase, frozen=True, kw_only=True, tag="PLAY_BONUS"):
    """Play a bonus for its effect: the drawn card (``stored_index`` null) or a stored one."""

    stored_index: Index | None = None
    targets: UnitList = ()
    params: Params = NO_PARAMS


class StoreBonus(ActionBase, frozen=True, kw_only=True, tag="STORE_BONUS"):
    """Keep the drawn bonus face-down; ``replace_index`` only when storage is full."""

    replace_index: Index | None = None


class DiscardBonus(ActionBase, frozen=True, kw_only=True, tag="DISCARD_BONUS"):
    """Discard the drawn bonus."""


class AcceptMalus(ActionBase, frozen=True, kw_only=True, tag="ACCEPT_MALUS"):
    """Let the drawn malus take effect."""


class ChooseMalusTargets(ActionBase, frozen=True, kw_only=True, tag="CHOOSE_MALUS_TARGETS"):
    """The drawer's opponent picks the victims of an accepted targeted malus."""

    unit_ids: UnitList


class CancelMalus(ActionBase, frozen=True, kw_only=True, tag="CANCEL_MALUS"):
    """Spend a stored bonus to cancel the drawn malus (``malus_play_id`` null) or an applied one."""

    stored_index: Index
    malus_play_id: PlayId | None = None


class MoveUnit(ActionBase, frozen=True, kw_only=True, tag="MOVE_UNIT"):
    """Move one unit to a reachable cell."""

    unit_id: UnitId
    to: CellLabel


class DeclareAttack(ActionBase, frozen=True, kw_only=True, tag="DECLARE_ATTACK"):
    """Queue an attack."""

    attacker_id: UnitId
    target_id: UnitId


class WithdrawAttack(ActionBase, frozen=True, kw_only=True, tag="WITHDRAW_ATTACK"):
    """Remove a queued attack."""

    attacker_id: UnitId


class RollDice(ActionBase, frozen=True, kw_only=True, tag="ROLL_DICE"):
    """Roll for the pending attack."""


class ResolveAttack(ActionBase, frozen=True, kw_only=True, tag="RESOLVE_ATTACK"):
    """Apply the pending attack's roll."""


class PlayTactic(ActionBase, frozen=True, kw_only=True, tag="PLAY_TACTIC"):
    """Play a tactic from hand in an open reaction window."""

    card_id: CardId
    targets: UnitList = ()
    params: Params = NO_PARAMS


class PassReaction(ActionBase, frozen=True, kw_only=True, tag="PASS_REACTION"):
    """Give up priority in the current reaction window."""


class DeployUnit(ActionBase, frozen=True, kw_only=True, tag="DEPLOY_UNIT"):
    """Manual deployment: place (or re-place) one unit."""

    unit_id: UnitId
    cell: CellLabel


class AutoDeploy(ActionBase, frozen=True, kw_only=True, tag="AUTO_DEPLOY"):
    """Manual deployment: place every unplaced unit by the automatic rule."""


class ConfirmDeployment(ActionBase, frozen=True, kw_only=True, tag="CONFIRM_DEPLOYMENT"):
    """Manual deployment: finish placing units."""


class Resign(ActionBase, frozen=True, kw_only=True, tag="RESIGN"):
    """Match action: ``side`` gives up the game, its turn or not; the other side wins by resignation."""

    side: Side


class Timeout(ActionBase, frozen=True, kw_only=True, tag="TIMEOUT"):
    """Match action, appended by a server: the clock of ``side`` (the side to act) ran out.

    ``clock`` ``"game"`` (a chess clock): ``side`` loses on time. ``"turn"`` (a per-turn
    clock): ``side``'s pending decision is forced and its turn ends (`engine.match_actions`).
    """

    side: Side
    clock: Literal["game", "turn"]


class ClaimVictory(ActionBase, frozen=True, kw_only=True, tag="CLAIM_VICTORY"):
    """Match action: ``side`` claims the win because the other side, to act, abandoned its seat."""

    side: Side
    reason: Literal["abandonment"] = "abandonment"


Action: TypeAlias = (
    NextPhase
    | EndTurn
    | DrawCard
    | PlayBonus
    | StoreBonus
    | DiscardBonus
    | AcceptMalus
    | ChooseMalusTargets
    | CancelMalus
    | MoveUnit
    | DeclareAttack
    | WithdrawAttack
    | RollDice
    | ResolveAttack
    | PlayTactic
    | PassReaction
    | DeployUnit
    | AutoDeploy
    | ConfirmDeployment
    | Resign
    | Timeout
    | ClaimVictory
)
"""The union of all actions; decode JSON straight into it with `decode_action`."""

ACTION_ORDER: tuple[type[ActionBase], ...] = (
    NextPhase,
    EndTurn,
    DrawCard,
    PlayBonus,
    StoreBonus,
    DiscardBonus,
    AcceptMalus,
    ChooseMalusTargets,
    CancelMalus,
    MoveUnit,
    DeclareAttack,
    WithdrawAttack,
    RollDice,
    ResolveAttack,
    PlayTactic,
    PassReaction,
    DeployUnit,
    AutoDeploy,
    ConfirmDeployment,
)
"""Action types in the order `legal_actions` lists them (the rules §4.3 table order)."""

MATCH_ACTION_ORDER: tuple[type[ActionBase], ...] = (Resign, Timeout, ClaimVictory)
"""Match action types in the order `match_actions` lists them; never in `legal_actions`."""
