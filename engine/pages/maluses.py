"""Rule page: malus cards (ACCEPT_MALUS, CHOOSE_MALUS_TARGETS, CANCEL_MALUS; rules §7.4, §7.6)."""

from __future__ import annotations

from itertools import combinations
from typing import Final

from msgspec.structs import replace

from ..actions import AcceptMalus, Action, CancelMalus, ChooseMalusTargets
from ..cards.defs import CardDef
from ..cards.effects import add_card_effects, remove_play
from ..cards.game import card_of
from ..cards.hooks import can_play_card
from ..cards.instants import InstantPlay, apply_instants
from ..cards.live import effects_of
from ..errors import IllegalAction
from ..state import Effect, Event, GameState, PendingCard, Rules, Unit, player_of, with_player
from ..tables import UNITS
from ..types import EventKind, Hook, Phase, Side
from .bonuses import drawn_card

_ACCEPT_MALUS = AcceptMalus()


def _eligible_victims(state: GameState, card: CardDef, drawer: Side) -> list[Unit]:
    victims = card.victims
    return [
        u
        for u in state.units
        if u.side is drawer
        and u.cell is not None
        and (not victims.unit_types or u.type in victims.unit_types)
        and (not victims.unit_tags or any(t in victims.unit_tags for t in UNITS[u.type].tags))
    ]


def _apply_malus(state: GameState, card: CardDef, instance: str, drawer: Side, victims: tuple[str, ...]) -> GameState:
    state, play_id = add_card_effects(state, card, drawer, victims)
    state = apply_instants(state, card, InstantPlay(side=drawer, targets=victims))
    events = [Event(kind=EventKind.MALUS_APPLIED, side=drawer, card=instance, value=play_id)]
    events += [Event(kind=EventKind.MALUS_VICTIM, side=drawer, card=instance, unit=v) for v in victims]
    return replace(
        state, pending_card=None, discard_pile=(*state.discard_pile, instance), events=(*state.events, *events)
    )


# ACCEPT_MALUS ----------------------------------------------------------------------------


def _offer_accept(state: GameState) -> list[Action]:
    pending = state.pending_card
    return [_ACCEPT_MALUS] if drawn_card(state, "malus") and pending and not pending.accepted else []


def _apply_accept(state: GameState, action: AcceptMalus) -> GameState:
    card = drawn_card(state, "malus")
    pending = state.pending_card
    if card is None or pending is None or pending.accepted:
        raise IllegalAction("there is no drawn malus waiting to be accepted", "precondition")
    if card.victims.kind == "none":
        return _apply_malus(state, card, pending.card, pending.drawer, ())
    if not _eligible_victims(state, card, pending.drawer):
        event = Event(kind=EventKind.MALUS_FIZZLED, side=pending.drawer, card=pending.card)
        return replace(
            state, pending_card=None, discard_pile=(*state.discard_pile, pending.card), events=(*state.events, event)
        )
    event = Event(kind=EventKind.MALUS_ACCEPTED, side=pending.drawer, card=pending.card)
    return replace(state, pending_card=replace(pending, accepted=True), events=(*state.events, event))


# CHOOSE_MALUS_TARGETS ----------------------------------------------------------------------


def _victim_choices(state: GameState) -> list[ChooseMalusTargets]:
    pending = state.pending_card
    if pending is None or not pending.accepted:
        return []
    card = card_of(state.rules, pending.card)
    eligible = [u.id for u in _eligible_victims(state, card, pending.drawer)]
    count = min(card.victims.count, len(eligible))
    return [ChooseMalusTargets(unit_ids=combo) for combo in combinations(eligible, count)]


def _offer_choose(state: GameState) -> list[Action]:
    return list(_victim_choices(state))


def _apply_choose(state: GameState, action: ChooseMalusTargets) -> GameState:
    pending = state.pending_card
    if pending is None or not pending.accepted:
        raise IllegalAction("no accepted malus is waiting for victims", "precondition")
    if action not in _victim_choices(state):
        card = card_of(state.rules, pending.card)
        eligible = [u.id for u in _eligible_victims(state, card, pending.drawer)]
        count = min(card.victims.count, len(eligible))
        raise IllegalAction(
            f"{card.name} needs exactly {count} distinct victim(s) in unit order from {', '.join(eligible)}; "
            f"got {list(action.unit_ids)}",
            "bad_target",
        )
    return _apply_malus(state, card_of(state.rules, pending.card), pending.card, pending.drawer, action.unit_ids)


# CANCEL_MALUS ------------------------------------------------------------------------------


def _cancels(bonus: CardDef, malus: CardDef) -> bool:
    return bonus.cancel_power == "any" or (bonus.cancel_power == "generic" and malus.card_class == "generic")


_APPLIED: Final[dict[tuple[int, Side], tuple[tuple[Effect, ...], list[tuple[int, CardDef]]]]] = {}


def _applied_maluses(state: GameState, side: Side) -> list[tuple[int, CardDef]]:
    """Applied maluses whose effects still affect ``side``: ``(play_id, card)`` by play id; do not change it.

    Kept per effects tuple and side (a game keeps its effects tuple from state to state,
    and this is asked at every listing while a bonus is stored).
    """
    effects = state.effects
    kept = _APPLIED.get((id(effects), side))
    if kept is not None and kept[0] is effects:  # the entry holds the tuple: its id is not reused meanwhile
        return kept[1]
    found = _find_applied(state.rules, effects, side)
    if len(_APPLIED) >= 16:
        _APPLIED.clear()  # one atomic step (threads)
    _APPLIED[(id(effects), side)] = (effects, found)
    return found


def _find_applied(rules: Rules, effects: tuple[Effect, ...], side: Side) -> list[tuple[int, CardDef]]:
    found: dict[int, CardDef] = {}
    for effect in effects:
        if effect.source_kind != "malus" or effect.play_id in found:
            continue
        card = card_of(rules, effect.source_card)
        if card.affects == "both" or effect.controller is side:
            found[effect.play_id] = card
    return sorted(found.items())


_CANCEL_PHASES: Final = (Phase.CARD_RESOLUTION, Phase.MOVEMENT, Phase.ATTACK)

# The last cancel options found, with what they read: (side, stored cards, effects, rules, pending card,
# whether the phase lets an applied malus be cancelled, the options).
_last_cancels: tuple[Side, tuple[str, ...], tuple[Effect, ...], Rules, object, bool, list[CancelMalus]] | None = None


def _cancel_options(state: GameState) -> list[CancelMalus]:
    """Every CANCEL_MALUS of the active side now; shared: do not change it.

    Kept while what it reads stays (every listing of a turn asks while a bonus is stored): the
    stored cards, the effects, the game's rules, the pending card and whether the phase is
    one where an applied malus may be cancelled; not kept while an effect may forbid a card
    (its rule may read anything). Kept by identity: the entry holds each object.
    """
    global _last_cancels
    side = state.active
    stored_ids = player_of(state, side).stored
    if not stored_ids:
        return []  # nothing to cancel with: the maluses need not be looked at
    pending = state.pending_card
    in_phase = state.phase in _CANCEL_PHASES
    kept = _last_cancels  # one read: another thread may replace it meanwhile
    if (
        kept is not None
        and kept[1] is stored_ids
        and kept[0] is side
        and kept[2] is state.effects
        and kept[3] is state.rules
        and kept[4] is pending
        and kept[5] is in_phase
    ):
        return kept[6]
    found = _find_cancels(state, side, stored_ids, pending, in_phase)
    if not effects_of(state, Hook.CAN_PLAY_CARD):
        _last_cancels = (side, stored_ids, state.effects, state.rules, pending, in_phase, found)
    return found


def _find_cancels(
    state: GameState, side: Side, stored_ids: tuple[str, ...], pending: PendingCard | None, in_phase: bool
) -> list[CancelMalus]:
    stored = [card_of(state.rules, c) for c in stored_ids]
    targets: list[tuple[int | None, CardDef]] = []
    drawn = drawn_card(state, "malus")
    if drawn is not None and pending is not None and not pending.accepted:
        targets.append((None, drawn))
    elif pending is None and in_phase:
        targets.extend(_applied_maluses(state, side))
    return [
        CancelMalus(stored_index=i, malus_play_id=play_id)
        for i, bonus in enumerate(stored)
        if can_play_card(state, side, bonus)
        for play_id, malus in targets
        if _cancels(bonus, malus)
    ]


def _offer_cancel(state: GameState) -> list[Action]:
    return list(_cancel_options(state))


def _apply_cancel(state: GameState, action: CancelMalus) -> GameState:
    side = state.active
    stored = player_of(state, side).stored
    if action.stored_index >= len(stored):
        raise IllegalAction(
            f"stored_index {action.stored_index} is out of range: you store {len(stored)} card(s)", "bad_index"
        )
    if action not in _cancel_options(state):
        bonus = card_of(state.rules, stored[action.stored_index])
        what = "the drawn malus" if action.malus_play_id is None else f"malus play {action.malus_play_id}"
        raise IllegalAction(
            f"{bonus.name} cannot cancel {what} now (cancel power {bonus.cancel_power}, "
            f"or the malus is not there, or an effect blocks the card)",
            "cannot_cancel",
        )
    spent = stored[action.stored_index]
    player = player_of(state, side)
    state = with_player(
        state, replace(player, stored=stored[: action.stored_index] + stored[action.stored_index + 1 :])
    )
    discard = (*state.discard_pile, spent)
    if action.malus_play_id is None:
        assert state.pending_card is not None
        malus = state.pending_card.card
        discard = (*discard, malus)
        state = replace(state, pending_card=None)
        event = Event(kind=EventKind.MALUS_CANCELLED, side=side, card=malus, detail=spent)
    else:
        source = next(e.source_card for e in state.effects if e.play_id == action.malus_play_id)
        state = remove_play(state, action.malus_play_id)
        event = Event(kind=EventKind.MALUS_CANCELLED, side=side, card=source, value=action.malus_play_id, detail=spent)
    return replace(state, discard_pile=discard, events=(*state.events, event))


OFFERS = {AcceptMalus: _offer_accept, ChooseMalusTargets: _offer_choose, CancelMalus: _offer_cancel}
APPLY = {AcceptMalus: _apply_accept, ChooseMalusTargets: _apply_choose, CancelMalus: _apply_cancel}
