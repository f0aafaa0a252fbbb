"""The engine's invariants as checks: each returns a `Failure` (or None) naming what broke.

Two families. *State* checks look at one position: who acts, legal actions, codecs,
views and the conservation of cards and tactics. *Step* checks look at one decision:
every listed action is accepted without touching the input, and well-formed unlisted
actions are rejected with `IllegalAction`, leaving the state byte-identical.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from engine import (
    HIDDEN,
    Action,
    GameState,
    IllegalAction,
    Phase,
    Side,
    decide_to_act,
    decode_action,
    decode_state,
    encode_action,
    encode_state,
    legal_actions,
    player_view,
    reduce,
)
from engine.data import COMMON_CARDS, TACTICS, TERRAIN, board_info, game_tables, unit_stats

from .mutate import mutations

__all__ = ["STATE_CHECKS", "STEP_CHECKS", "Failure", "card_multiset", "check_state", "check_step"]

STATE_CHECKS = (
    "to_act",
    "legal_iff_not_over",
    "legal_canonical",
    "state_codec",
    "views_hide_secrets",
    "units_sane",
    "cards_conserved",
    "tactics_conserved",
    "action_count",
)
STEP_CHECKS = ("accepts_listed", "no_input_mutation", "rejects_unlisted", "action_codec")
_BONUSES = frozenset(c.id for c in COMMON_CARDS if c.kind == "bonus")


@dataclass(frozen=True)
class Failure:
    """A broken invariant: which check, after which step (-1: the start), and what was seen."""

    check: str
    step: int
    detail: str

    def describe(self) -> str:
        """One line for people."""
        where = "at the start" if self.step < 0 else f"at step {self.step}"
        return f"{self.check} {where}: {self.detail}"


def card_multiset(state: GameState) -> Counter[str]:
    """Every common card instance, wherever it is (piles, storage, the drawn card)."""
    cards: Counter[str] = Counter(state.draw_pile)
    cards.update(state.discard_pile)
    for player in state.players:
        cards.update(player.stored)
    if state.pending_card is not None:
        cards[state.pending_card.card] += 1
    return cards


def _view_failure(state: GameState, viewer: Side | None) -> str | None:
    view = player_view(state, viewer)
    if view.rng != 0 or any(c != HIDDEN for c in view.draw_pile) or len(view.draw_pile) != len(state.draw_pile):
        return f"the view of {viewer} shows the rng or the draw pile"
    secrets: list[str] = list(state.draw_pile)
    for real, seen in zip(state.players, view.players, strict=True):
        if real.side is viewer:
            if seen != real:
                return f"the view of {viewer} changes its own hand"
            continue
        if seen.stored != (HIDDEN,) * len(real.stored) or seen.tactics != (HIDDEN,) * len(real.tactics):
            return f"the view of {viewer} shows {real.side} stored bonuses or tactics"
        secrets.extend(real.stored)
    pending = state.pending_card
    if pending is not None and pending.drawer is not viewer and pending.card.split("#")[0] in _BONUSES:
        if view.pending_card is None or view.pending_card.card != HIDDEN:
            return f"the view of {viewer} shows the opponent's drawn bonus"
        secrets.append(pending.card)
    text = encode_state(view).decode()
    for card in secrets:
        if f'"{card}"' in text:
            return f"the view of {viewer} contains the hidden card {card}"
    return None


def _units_failure(state: GameState) -> str | None:
    info = board_info(state.board)
    ids = [u.id for u in state.units]
    if len(set(ids)) != len(ids):
        return f"duplicate unit ids {ids}"
    cells = [u.cell for u in state.units if u.cell is not None]
    if len(set(cells)) != len(cells):
        return f"two units share a cell: {cells}"
    for unit in state.units:
        if unit.cell is not None:
            index = info.index.get(unit.cell)
            if index is None or TERRAIN[info.terrain[index]].blocks:
                return f"{unit.id} stands on {unit.cell}, off the board or on blocking terrain"
            if not 0 < unit.hp <= unit_stats(unit.type, state.rules.tables).hp:
                return f"{unit.id} is on the board with {unit.hp} HP"
    for player in state.players:
        for dead in player.destroyed:
            if dead.id in ids:
                return f"{dead.id} is both destroyed and present"
    if len(state.attack_queue) > game_tables(state.rules.tables).max_attacks_per_turn:
        return f"{len(state.attack_queue)} attacks queued"
    return None


def check_state(state: GameState, step: int, deck: Counter[str], only: frozenset[str] | None = None) -> Failure | None:
    """Run the state checks (all, or those named in ``only``); ``deck`` is the start's `card_multiset`."""

    def want(name: str) -> bool:
        return only is None or name in only

    over = state.phase is Phase.VICTORY
    legal = legal_actions(state)
    problems: list[tuple[str, str | None]] = []
    if want("to_act"):
        expected = None if over else decide_to_act(state)
        problems.append(
            ("to_act", None if state.to_act is expected else f"to_act {state.to_act}, rules say {expected}")
        )
    if want("legal_iff_not_over"):
        bad = bool(legal) == over
        problems.append(("legal_iff_not_over", f"{len(legal)} legal actions in phase {state.phase}" if bad else None))
    if want("legal_canonical"):
        fresh = legal_actions(decode_state(encode_state(state)))
        if fresh != legal:
            problems.append(("legal_canonical", "legal actions differ for an equal state"))
        elif len(set(legal)) != len(legal):
            problems.append(("legal_canonical", "an action is listed twice"))
    if want("state_codec"):
        data = encode_state(state)
        again = decode_state(data)
        problems.append(("state_codec", None if again == state and encode_state(again) == data else "round trip"))
    if want("views_hide_secrets"):
        for viewer in (Side.ATTACKER, Side.DEFENDER, None):
            problems.append(("views_hide_secrets", _view_failure(state, viewer)))
    if want("units_sane"):
        problems.append(("units_sane", _units_failure(state)))
    if want("cards_conserved"):
        now = card_multiset(state)
        problems.append(
            (
                "cards_conserved",
                None if now == deck else f"cards {dict(now - deck)} appeared, {dict(deck - now)} vanished",
            )
        )
    if want("tactics_conserved"):
        pool = {c.id for c in TACTICS}
        for player in state.players:
            held = list(player.tactics) + list(player.played_tactics)
            if len(set(held)) != len(held) or not set(held) <= pool:
                problems.append(
                    ("tactics_conserved", f"{player.side} holds {player.tactics}, played {player.played_tactics}")
                )
    if want("action_count"):
        bad = state.actions_taken != step + 1 or state.actions_taken > state.rules.victory.max_actions
        problems.append(("action_count", f"actions_taken {state.actions_taken} after step {step}" if bad else None))
    for check, detail in problems:
        if detail is not None:
            return Failure(check, step, detail)
    return None


def check_step(
    state: GameState,
    legal: Sequence[Action],
    step: int,
    seed: int,
    unlisted: int,
    only: frozenset[str] | None = None,
    rejected: Callable[[str], None] | None = None,
) -> Failure | None:
    """Step checks before the decision at ``step``: listed accepted, ``unlisted`` mutations rejected.

    ``rejected`` hears the `IllegalAction.code` of every refusal (rule coverage).
    """

    def want(name: str) -> bool:
        return only is None or name in only

    before = encode_state(state)
    if want("action_codec"):
        for action in legal:
            if decode_action(encode_action(action), state) != action:
                return Failure("action_codec", step, f"{encode_action(action)} does not round-trip")
    if want("accepts_listed") or want("no_input_mutation"):
        for action in legal:
            try:
                reduce(state, action)
            except IllegalAction as err:
                return Failure("accepts_listed", step, f"listed {encode_action(action)} rejected: {err.reason}")
            except Exception as err:  # any other exception is a crash of the engine
                return Failure("crash", step, f"{encode_action(action)} raised {type(err).__name__}: {err}")
            if encode_state(state) != before:
                return Failure("no_input_mutation", step, f"reduce changed its input for {encode_action(action)}")
    if want("rejects_unlisted"):
        for action in mutations(state, legal, unlisted, seed):
            try:
                reduce(state, action)
            except IllegalAction as err:
                if rejected is not None:
                    rejected(err.code)
                if encode_state(state) != before:
                    return Failure("rejects_unlisted", step, f"rejecting {encode_action(action)} changed the state")
                continue
            except Exception as err:
                return Failure("crash", step, f"unlisted {encode_action(action)} raised {type(err).__name__}: {err}")
            return Failure("rejects_unlisted", step, f"unlisted {encode_action(action)} was accepted")
    return None
