"""Rule page: drawing and bonus cards (DRAW_CARD, PLAY_BONUS, STORE_BONUS, DISCARD_BONUS; §7)."""

from __future__ import annotations

from typing import Final

from msgspec.structs import replace

from ..actions import Action, DiscardBonus, DrawCard, PlayBonus, StoreBonus
from ..cards.abilities import unit_abilities
from ..cards.deck import card_available, draw_top
from ..cards.defs import CardDef
from ..cards.effects import add_card_effects
from ..cards.game import card_of
from ..cards.hooks import can_play_card, storage_limit
from ..cards.instants import InstantPlay, apply_instants
from ..cards.live import effects_of
from ..cards.targeting import is_neutral, playable_options
from ..errors import IllegalAction
from ..flow.phases import enter
from ..roster import NO_MOVE, moved_since
from ..state import Effect, Event, GameState, PendingCard, PlayerState, Rules, Unit, player_of, with_player
from ..types import EventKind, Hook, Phase, Side, UnitType

_DRAW_CARD = DrawCard()
_DISCARD_BONUS = DiscardBonus()


def drawn_card(state: GameState, kind: str) -> CardDef | None:
    """The pending drawn card if it is of ``kind`` (``bonus``/``malus``)."""
    pending = state.pending_card
    if pending is None:
        return None
    card = card_of(state.rules, pending.card)
    return card if card.kind == kind else None


# DRAW_CARD ---------------------------------------------------------------------------


def _offer_draw(state: GameState) -> list[Action]:
    if state.phase is Phase.CARD_DRAW and not state.drawn_this_turn and card_available(state):
        return [_DRAW_CARD]
    return []


def _apply_draw(state: GameState, action: DrawCard) -> GameState:
    if state.drawn_this_turn:
        raise IllegalAction("you have already drawn this turn", "precondition")
    if not card_available(state):
        raise IllegalAction("no card is left to draw (draw and discard piles are empty)", "precondition")
    state, card = draw_top(state)
    is_bonus = card_of(state.rules, card).kind == "bonus"
    event = Event(
        kind=EventKind.CARD_DRAWN, side=state.active, card=card, private_to=state.active if is_bonus else None
    )
    state = replace(
        state,
        pending_card=PendingCard(card=card, drawer=state.active),
        drawn_this_turn=True,
        events=(*state.events, event),
    )
    return enter(state, Phase.CARD_RESOLUTION)


# PLAY_BONUS --------------------------------------------------------------------------


def _bonus_plays(state: GameState, stored_index: int | None, card: CardDef) -> list[PlayBonus]:
    side = state.active
    options = playable_options(state, side, card)  # none when the card is neutral
    if not options or not can_play_card(state, side, card):
        return []
    return [PlayBonus(stored_index=stored_index, targets=targets, params=params) for targets, params in options]


def _offer_play_bonus(state: GameState) -> list[Action]:
    plays: list[Action] = []
    drawn = drawn_card(state, "bonus")
    if drawn is not None and state.phase is Phase.CARD_RESOLUTION:
        plays.extend(_bonus_plays(state, None, drawn))
    if state.pending_card is None:
        plays.extend(_stored_plays(state))
    return plays


# The stored cards' plays last listed, with what they read: (side, the side's PlayerState (its stored cards and
# destroyed units), effects, rules, units, per stored card its plays and what they read beyond these, or None).
_PerCard = tuple[list[PlayBonus], int] | None
_Kept = tuple[Side, PlayerState, tuple[Effect, ...], Rules, tuple[Unit, ...], tuple[_PerCard, ...]]
_last_stored: _Kept | None = None

_ROSTER: Final = 0  # the kept key alone: own units by id, type, hit points, on the board or not
_EDGE_ROW: Final = 1  # also which cells of the side's home edge row are free (International Aid's entry cells)


def _stored_plays(state: GameState) -> list[PlayBonus]:
    """The PLAY_BONUS of each card the active side stores (no card pending), each card's kept while what it reads stays.

    Every listing of a turn asks. A card's plays read the side's stored cards and destroyed
    units, the effects, the game's rules, which own units stand on the board with which type
    and hit points and, for a unit brought back, which cells of the home edge row are free
    (`_reads`); a card whose targets read more is found again each time, and nothing is kept
    while an effect may forbid a card (its rule may read anything). Kept by identity (the
    entry holds each object: their ids are not reused meanwhile); a move keeps the roster
    and changes two cells (`moved_since`).
    """
    global _last_stored
    side = state.active
    player = player_of(state, side)
    stored = player.stored
    if not stored:
        return []
    rules = state.rules
    kept = _last_stored  # one read: another thread may replace it meanwhile
    moved = None
    if kept is not None and kept[1] is player and kept[0] is side and kept[2] is state.effects and kept[3] is rules:
        moved = moved_since(kept[4], state.units)
    if moved is None:
        per_card = tuple([_card_plays(state, i, card_of(rules, c)) for i, c in enumerate(stored)])
    else:
        assert kept is not None
        per_card = kept[5]
        if moved is not NO_MOVE:
            row = _edge_row(state, side)
            if moved[0] in row or moved[1] in row:  # the free entry cells may have changed
                per_card = tuple(
                    [
                        _card_plays(state, i, card_of(rules, c)) if found and found[1] == _EDGE_ROW else found
                        for i, (c, found) in enumerate(zip(stored, per_card, strict=True))
                    ]
                )
    renewed = kept is None or per_card is not kept[5] or kept[4] is not state.units
    if renewed and not effects_of(state, Hook.CAN_PLAY_CARD):  # the units now: the next move starts from them
        _last_stored = (side, player, state.effects, rules, state.units, per_card)
    plays: list[PlayBonus] = []
    for i, found in enumerate(per_card):
        plays.extend(_bonus_plays(state, i, card_of(rules, stored[i])) if found is None else found[0])
    return plays


def _card_plays(state: GameState, index: int, card: CardDef) -> _PerCard:
    """A stored card's plays and what they read beyond the kept key (`_reads`), or None when they read more."""
    reads = _reads(state, card)
    return None if reads is None else (_bonus_plays(state, index, card), reads)


def _reads(state: GameState, card: CardDef) -> int | None:
    """What a card's plays read beyond the kept key: `_ROSTER`, `_EDGE_ROW`, or None (more: never kept).

    A required ``can_resupply`` or ``cannot_move`` reads the roster alone while no effect (or
    rule of the game) can forbid a resupply or a move: then every unit may.
    """
    targeting = card.targeting
    kind = targeting.kind
    if kind in ("none", "quadrant"):
        return _ROSTER
    if kind == "own_destroyed_unit":
        return _EDGE_ROW
    if kind != "own_unit":
        return None
    for need in targeting.require:
        if need == "can_resupply" and effects_of(state, Hook.CAN_RESUPPLY):
            return None
        if need == "cannot_move" and (
            effects_of(state, Hook.CAN_MOVE_UNIT)
            or any(unit_abilities(state.rules, Hook.CAN_MOVE_UNIT, kind) for kind in UnitType)
        ):
            return None
    return _ROSTER


def _edge_row(state: GameState, side: Side) -> range:
    """The cell indices of ``side``'s home edge row, where a destroyed unit comes back (`entry_cells`)."""
    width, height = state.board.width, state.board.height
    y = 0 if side is Side.ATTACKER else height - 1
    return range(y * width, (y + 1) * width)


def _apply_play_bonus(state: GameState, action: PlayBonus) -> GameState:
    side = state.active
    stored = player_of(state, side).stored
    if action.stored_index is None:
        if drawn_card(state, "bonus") is None or state.phase is not Phase.CARD_RESOLUTION:
            raise IllegalAction("there is no drawn bonus to play (use stored_index for a stored card)", "precondition")
        assert state.pending_card is not None
        instance = state.pending_card.card
    else:
        if state.pending_card is not None:
            raise IllegalAction(f"deal with the drawn card {state.pending_card.card} first", "precondition")
        if action.stored_index >= len(stored):
            raise IllegalAction(
                f"stored_index {action.stored_index} is out of range: you store {len(stored)} card(s)", "bad_index"
            )
        instance = stored[action.stored_index]
    card = card_of(state.rules, instance)
    if not card.effects:
        raise IllegalAction(f"{card.name} has no effect of its own; it can only cancel a malus", "not_playable")
    if not can_play_card(state, side, card):
        raise IllegalAction(f"an effect forbids you to play {card.name} now", "card_blocked")
    if action not in _bonus_plays(state, action.stored_index, card):
        if is_neutral(state, side, card):
            raise IllegalAction(f"{card.name} has no legal target now (it is neutral)", "not_playable")
        raise IllegalAction(
            f"{card.name} cannot be aimed at targets={list(action.targets)} params={action.params}", "bad_target"
        )
    state, _ = add_card_effects(state, card, side, action.targets, action.params.quadrant, action.params.option)
    state = apply_instants(
        state, card, InstantPlay(side=side, targets=action.targets, params=action.params), action.params.option
    )
    if action.stored_index is None:
        state = replace(state, pending_card=None)
    else:
        player = player_of(state, side)
        kept = player.stored[: action.stored_index] + player.stored[action.stored_index + 1 :]
        state = with_player(state, replace(player, stored=kept))
    event = Event(
        kind=EventKind.BONUS_PLAYED,
        side=side,
        card=instance,
        unit=action.targets[0] if action.targets else None,
        cell=action.params.cell,
    )
    return replace(state, discard_pile=(*state.discard_pile, instance), events=(*state.events, event))


# STORE_BONUS / DISCARD_BONUS -----------------------------------------------------------


def _offer_store(state: GameState) -> list[Action]:
    if drawn_card(state, "bonus") is None:
        return []
    count = len(player_of(state, state.active).stored)
    if count < storage_limit(state, state.active):
        return [StoreBonus()]
    return [StoreBonus(replace_index=i) for i in range(count)]


def _apply_store(state: GameState, action: StoreBonus) -> GameState:
    if drawn_card(state, "bonus") is None:
        raise IllegalAction("there is no drawn bonus to store", "precondition")
    assert state.pending_card is not None
    side = state.active
    player = player_of(state, side)
    limit = storage_limit(state, side)
    card = state.pending_card.card
    events = [Event(kind=EventKind.BONUS_STORED, side=side, card=card, private_to=side)]
    discard = state.discard_pile
    if len(player.stored) < limit:
        if action.replace_index is not None:
            raise IllegalAction(
                f"storage has room ({len(player.stored)} of {limit}): store without replace_index", "bad_index"
            )
        stored = (*player.stored, card)
    else:
        if action.replace_index is None or action.replace_index >= len(player.stored):
            raise IllegalAction(
                f"storage is full ({limit}): give replace_index 0..{len(player.stored) - 1}", "bad_index"
            )
        replaced = player.stored[action.replace_index]
        stored = (*player.stored[: action.replace_index], card, *player.stored[action.replace_index + 1 :])
        discard = (*discard, replaced)
        events.append(Event(kind=EventKind.BONUS_DISCARDED, side=side, card=replaced))
    state = with_player(state, replace(player, stored=stored))
    return replace(state, pending_card=None, discard_pile=discard, events=(*state.events, *events))


def _offer_discard(state: GameState) -> list[Action]:
    return [_DISCARD_BONUS] if drawn_card(state, "bonus") is not None else []


def _apply_discard(state: GameState, action: DiscardBonus) -> GameState:
    if drawn_card(state, "bonus") is None:
        raise IllegalAction("there is no drawn bonus to discard", "precondition")
    assert state.pending_card is not None
    card = state.pending_card.card
    event = Event(kind=EventKind.BONUS_DISCARDED, side=state.active, card=card)
    return replace(state, pending_card=None, discard_pile=(*state.discard_pile, card), events=(*state.events, event))


OFFERS = {
    DrawCard: _offer_draw,
    PlayBonus: _offer_play_bonus,
    StoreBonus: _offer_store,
    DiscardBonus: _offer_discard,
}
APPLY = {
    DrawCard: _apply_draw,
    PlayBonus: _apply_play_bonus,
    StoreBonus: _apply_store,
    DiscardBonus: _apply_discard,
}
