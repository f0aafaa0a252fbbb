"""Which reaction windows are open, who holds priority in them and which tactics fit (rules §9).

Asked at every action (`priority_holder` by `decide_to_act`, `tactic_plays` by the listing).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Final

import msgspec

from ..actions import PlayTactic
from ..cards.catalogue import CARDS
from ..cards.game import card_of
from ..cards.hooks import can_play_tactic
from ..cards.targeting import target_options
from ..state import GameState, Rules, player_of
from ..types import Phase, Side, Window

__all__ = ["OpenWindow", "has_marked", "priority_holder", "reaction_windows", "tactic_plays", "tactic_rank"]


class OpenWindow(msgspec.Struct, frozen=True):
    """A reaction window open now and the key of its instance (shared by post-roll windows)."""

    window: Window
    instance: str


def reaction_windows(state: GameState) -> tuple[OpenWindow, ...]:
    """The open reaction windows (rules §9.1): derived from the state, never stored."""
    open_now = _open_windows(state)
    if not open_now:
        return ()
    instance = _INSTANCE_KEYS[open_now[0]](state)
    return tuple(OpenWindow(window, instance) for window in open_now)


_BEFORE_MOVE: Final = (Window.BEFORE_MOVE,)
_AFTER_MOVE: Final = (Window.AFTER_MOVE,)
_BEFORE_ROLL: Final = (Window.BEFORE_ATTACK_ROLL,)
_POST_ROLL: Final = (Window.AFTER_ATTACK_ROLL, Window.BEFORE_DAMAGE)  # one instance: the post-roll windows share it


def _open_windows(state: GameState) -> tuple[Window, ...]:
    """Which windows are open, without their instance keys (no strings built: asked at every action)."""
    if state.phase is Phase.MOVEMENT:
        return _BEFORE_MOVE if state.moves_this_turn == 0 else _AFTER_MOVE
    if state.phase is Phase.DICE_RESOLUTION and state.pending_attack is not None:
        return _BEFORE_ROLL if state.last_roll is None else _POST_ROLL
    return ()


_INSTANCE_KEYS: Final[dict[Window, Callable[[GameState], str]]] = {
    Window.BEFORE_MOVE: lambda s: f"{s.turn}:beforeMove",
    Window.AFTER_MOVE: lambda s: f"{s.turn}:afterMove:{s.moves_this_turn}",
    Window.BEFORE_ATTACK_ROLL: lambda s: f"{s.turn}:beforeAttackRoll:{s.attack_seq}",
    Window.AFTER_ATTACK_ROLL: lambda s: f"{s.turn}:postRoll:{s.attack_seq}",
}
"""The key of the instance a window (the first open one) belongs to: stored in the reaction marks."""


def has_marked(state: GameState, side: Side, instance: str) -> bool:
    """True once ``side`` has played or passed in window instance ``instance``."""
    return any(m.instance == instance and m.side is side for m in state.reactions)


def tactic_plays(state: GameState, side: Side) -> list[PlayTactic]:
    """Every PLAY_TACTIC ``side`` could make in the open windows, ignoring whose decision it is."""
    plays: list[PlayTactic] = []
    open_now = _open_windows(state)
    for card_id in _playable(state, side, open_now) if open_now else ():
        card = card_of(state.rules, card_id)
        plays.extend(
            PlayTactic(card_id=card_id, targets=targets, params=params)
            for targets, params in target_options(state, side, card)
        )
    return plays


def _playable(state: GameState, side: Side, open_now: tuple[Window, ...]) -> tuple[str, ...]:
    """The tactics ``side`` may play in the open windows ``open_now`` (some) if each has a target, in rank order
    (hand, window, role, permission and reaction-mark checks done)."""
    hand = player_of(state, side).tactics
    if not hand:
        return ()
    fitting = _fitting(state.rules, hand, open_now, side is state.active)
    if not fitting or not can_play_tactic(state, side):
        return ()
    if state.reactions and has_marked(state, side, _INSTANCE_KEYS[open_now[0]](state)):  # no key built without marks
        return ()
    return fitting


_FITTING: Final[dict[tuple[int, tuple[Window, ...], bool], tuple[tuple[str, ...], tuple[str, ...]]]] = {}


def _fitting(rules: Rules, hand: tuple[str, ...], open_now: tuple[Window, ...], active: bool) -> tuple[str, ...]:
    """The tactics of ``hand`` made for the open windows and the side's role, in rank order.

    Kept per hand tuple: both sides ask at every action, holding their hands for most of a
    game (a hand tuple is carried from state to state until a tactic is played, and belongs
    to one game, whose cards the answer reads).
    """
    key = (id(hand), open_now, active)
    kept = _FITTING.get(key)
    if kept is not None and kept[0] is hand:  # the entry holds the tuple: its id is not reused meanwhile
        return kept[1]
    role = "active" if active else "reacting"
    cards = [card_of(rules, c) for c in hand]
    made_for = [c.id for c in cards if c.window in open_now and c.side in (role, "either")]
    fitting = tuple(sorted(made_for, key=tactic_rank))
    if len(_FITTING) >= 16:
        _FITTING.clear()  # one atomic step (threads)
    _FITTING[key] = (hand, fitting)
    return fitting


def priority_holder(state: GameState) -> Side | None:
    """The reacting player when they can react in the open window instance (§9.3), else None."""
    open_now = _open_windows(state)
    if not open_now:
        return None  # most positions: no window is open, so the reacting side's hand need not be looked at
    reacting = state.active.other
    # Whether one play exists, not every play: the first tactic with a target decides (asked at every action).
    for card_id in _playable(state, reacting, open_now):
        if target_options(state, reacting, card_of(state.rules, card_id)):
            return reacting
    return None


_TACTIC_ORDER: Final = {card_id: i for i, card_id in enumerate(c.id for c in CARDS.values() if c.kind == "tactic")}


def tactic_rank(card_id: str) -> tuple[int, str]:
    """Where a tactic sorts in a hand: table order; a variant's changed tactic (``id@hex``) where its
    standard card does, a variant's new tactic after all standard ones (by id)."""
    return _TACTIC_ORDER.get(card_id.partition("@")[0], len(_TACTIC_ORDER)), card_id
