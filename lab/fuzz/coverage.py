"""Rule coverage of a fuzz run: what the games exercised and what they never reached.

Seven categories, each with a universe taken from the engine's exported data (never a
hand-written list here), so a new card, window or refusal code shows up as unreached
until some game reaches it:

- ``cards``: every non-tactic card of `CARDS`, reached when a game plays, stores,
  discards, accepts, applies or cancels it (drawing alone does not count);
- ``tactics``: every tactic card, reached when played;
- ``effects``: every distinct ``hook.op`` of the card data, reached when a card with that
  effect is played or applied;
- ``phases``: every `Phase` some position was in or some action passed through;
- ``windows``: every reaction `Window` that was open (`reaction_windows`);
- ``victories``: every `VICTORY_REASONS` a game ended with;
- ``illegal codes``: every `ILLEGAL_ACTION_CODES` an unlisted action was refused with.

`Guide` is what ``taktik fuzz --guided`` plays with: it prefers actions that resolve a card
no earlier game reached. It only narrows the candidates and draws from the game's own
seed, so a guided run is as deterministic as an unguided one.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from engine import (
    ILLEGAL_ACTION_CODES,
    VICTORY_REASONS,
    AcceptMalus,
    Action,
    CancelMalus,
    DiscardBonus,
    EventKind,
    GameState,
    Phase,
    PlayBonus,
    PlayTactic,
    StoreBonus,
    Window,
    card_of,
    draw_index,
    reaction_windows,
)
from engine.data import CARDS

__all__ = ["CATEGORIES", "Coverage", "Guide", "format_coverage", "universe"]

CATEGORIES = ("cards", "tactics", "effects", "phases", "windows", "victories", "illegal codes")

_RESOLVED = frozenset(
    {
        EventKind.BONUS_PLAYED,
        EventKind.BONUS_STORED,
        EventKind.BONUS_DISCARDED,
        EventKind.MALUS_ACCEPTED,
        EventKind.MALUS_APPLIED,
        EventKind.MALUS_FIZZLED,
        EventKind.MALUS_CANCELLED,
        EventKind.TACTIC_PLAYED,
    }
)
"""Events that resolve a card one way or another (a card only drawn is not exercised)."""

_TOOK_EFFECT = frozenset({EventKind.BONUS_PLAYED, EventKind.MALUS_APPLIED, EventKind.TACTIC_PLAYED})


def universe() -> dict[str, tuple[str, ...]]:
    """Everything each category could reach, from the engine's data, in a stable order."""
    return {
        "cards": tuple(sorted(c.id for c in CARDS.values() if c.kind != "tactic")),
        "tactics": tuple(sorted(c.id for c in CARDS.values() if c.kind == "tactic")),
        "effects": tuple(sorted({_effect_name(e.hook.value, e.op) for c in CARDS.values() for e in c.effects})),
        "phases": tuple(p.value for p in Phase),
        "windows": tuple(w.value for w in Window),
        "victories": tuple(VICTORY_REASONS),
        "illegal codes": tuple(ILLEGAL_ACTION_CODES),
    }


def _effect_name(hook: str, op: str) -> str:
    return f"{hook}.{op}"


@dataclass
class Coverage:
    """How often each thing was reached (category → name → count); merges across games."""

    counts: dict[str, dict[str, int]] = field(default_factory=lambda: {c: {} for c in CATEGORIES})

    def add(self, category: str, name: str, times: int = 1) -> None:
        """Count ``name`` of ``category`` reached ``times`` more."""
        bucket = self.counts[category]
        bucket[name] = bucket.get(name, 0) + times

    def observe(self, state: GameState) -> None:
        """Count what reaching ``state`` exercised (its phase, open windows, events, ending)."""
        self.add("phases", state.phase.value)
        for open_window in reaction_windows(state):
            self.add("windows", open_window.window.value)
        for event in state.events:
            if event.kind is EventKind.PHASE_ENTERED and event.detail is not None:
                self.add("phases", event.detail)  # a phase passed through within one action
            if event.kind in _RESOLVED and event.card is not None:
                card = card_of(state.rules, event.card)
                self.add("tactics" if card.kind == "tactic" else "cards", card.id)
                if event.kind in _TOOK_EFFECT:
                    for effect in card.effects:
                        self.add("effects", _effect_name(effect.hook.value, effect.op))
        if state.victory_reason is not None and state.phase is Phase.VICTORY:
            self.add("victories", state.victory_reason)

    def rejected(self, code: str) -> None:
        """Count an unlisted action refused with ``code``."""
        self.add("illegal codes", code)

    def merge(self, other: Coverage) -> None:
        """Add ``other``'s counts to these."""
        for category, bucket in other.counts.items():
            for name, times in bucket.items():
                self.add(category, name, times)

    def reached(self, category: str) -> frozenset[str]:
        """The names of ``category`` reached at least once."""
        return frozenset(self.counts[category])

    def unreached(self, category: str) -> tuple[str, ...]:
        """The names of ``category``'s universe never reached, in universe order."""
        seen = self.counts[category]
        return tuple(name for name in universe()[category] if name not in seen)


def format_coverage(coverage: Coverage) -> str:
    """One line per category: reached / universe, and what was never reached."""
    lines = ["rule coverage (reached/all):"]
    for category, names in universe().items():
        seen = coverage.counts[category]
        hit = sum(1 for name in names if name in seen)
        missing = coverage.unreached(category)
        line = f"  {category:<14} {hit:>3}/{len(names):<3}"
        line += f" never: {', '.join(missing)}" if missing else " all reached"
        outside = sorted(set(seen) - set(names))
        if outside:  # the engine produced something its exported list does not name
            line += f"; not in the engine's list: {', '.join(outside)}"
        lines.append(line)
    return "\n".join(lines)


@dataclass(frozen=True)
class Guide:
    """Biases a fuzz game toward resolving the cards in ``targets`` (``--guided``).

    When some legal action resolves a target card, three times in four (one LCG draw) the
    choice is made among those actions only; otherwise among all of them.
    """

    targets: frozenset[str]

    @classmethod
    def toward(cls, coverage: Coverage) -> Guide:
        """A guide toward the cards and tactics ``coverage`` never reached."""
        return cls(frozenset(coverage.unreached("cards")) | frozenset(coverage.unreached("tactics")))

    def __call__(self, state: GameState, legal: Sequence[Action], rng: int) -> tuple[Sequence[Action], int]:
        """The candidates to choose from and the next seed."""
        if not self.targets:
            return legal, rng
        preferred = [a for a in legal if _resolves(state, a) & self.targets]
        if not preferred:
            return legal, rng
        coin, rng = draw_index(4, rng)
        return (preferred if coin else legal), rng


def _resolves(state: GameState, action: Action) -> frozenset[str]:
    """The card ids ``action`` would play, store, discard, accept or cancel."""
    pending = state.pending_card.card if state.pending_card is not None else None
    stored = state.player(state.to_act).stored if state.to_act is not None else ()
    cards: Iterable[str | None] = ()
    if isinstance(action, PlayTactic):
        cards = (action.card_id,)
    elif isinstance(action, PlayBonus):
        cards = (pending if action.stored_index is None else _at(stored, action.stored_index),)
    elif isinstance(action, StoreBonus | DiscardBonus | AcceptMalus):
        cards = (pending,)
    elif isinstance(action, CancelMalus):
        cards = (pending, _at(stored, action.stored_index))
    return frozenset(c.partition("#")[0] for c in cards if c is not None)


def _at(cards: Sequence[str], index: int) -> str | None:
    return cards[index] if 0 <= index < len(cards) else None
