"""Determinization: turn a `player_view` into one real `GameState` consistent with it.

A view hides the opponent's stored bonuses and tactic hand, an opponent's drawn bonus,
the draw-pile order and the rng. Search needs a real position to run `reduce` on, so a
determinizer samples the hidden parts from what the seat can deduce:

* unseen common cards = the canonical deck minus the discard pile, the seat's own stored
  cards and a visible pending card; hidden stored cards and a hidden drawn card are
  bonuses drawn from them, the rest is the draw pile, in a random order;
* the opponent's tactic hand = a random subset, of the visible size, of the 11-card pool
  minus the tactics they already played; a hand that would change who must act now (a
  reaction the opponent could have taken but the view shows they cannot) is resampled;
* the rng = a fresh random 32-bit seed, so dice and shuffles are unknown too.

Nothing is ever read from the real state: the only inputs are the view and a seed.
"""

from __future__ import annotations

from msgspec.structs import replace

from engine import HIDDEN, GameState, PendingCard, PlayerState, Side, card_of, decide_to_act, mix_seed, shuffle
from engine.data import TACTICS, canonical_deck

__all__ = ["hidden_parts", "sample_world", "seat_of"]

_TACTIC_ORDER = {card.id: i for i, card in enumerate(TACTICS)}
_RESAMPLE_TRIES = 8


def hidden_parts(view: GameState) -> tuple[int, int, bool, int]:
    """``(hidden stored cards, hidden tactics, drawn card hidden, draw-pile size)`` of ``view``."""
    stored = sum(p.stored.count(HIDDEN) for p in view.players)
    tactics = sum(p.tactics.count(HIDDEN) for p in view.players)
    pending = view.pending_card is not None and view.pending_card.card == HIDDEN
    return stored, tactics, pending, len(view.draw_pile)


def _unseen_cards(view: GameState) -> list[str]:
    known = set(view.discard_pile)
    for player in view.players:
        known.update(c for c in player.stored if c != HIDDEN)
    if view.pending_card is not None and view.pending_card.card != HIDDEN:
        known.add(view.pending_card.card)
    return [c for c in canonical_deck(view.rules) if c not in known]


def _deal_cards(view: GameState, rng: int) -> tuple[GameState, int]:
    """Fill hidden stored cards, a hidden drawn card and the draw pile from the unseen cards."""
    order, rng = shuffle(_unseen_cards(view), rng)
    bonuses = [c for c in order if card_of(view.rules, c).kind == "bonus"]
    hidden_stored, _, pending_hidden, _ = hidden_parts(view)
    wanted = hidden_stored + (1 if pending_hidden else 0)
    # Degenerate scenarios (an explicit, partial draw pile) may leave too few unseen cards;
    # reuse known bonuses then rather than fail: the world stays playable.
    spare = [c for c in canonical_deck(view.rules) if card_of(view.rules, c).kind == "bonus"]
    while len(bonuses) < wanted:
        bonuses.append(spare[len(bonuses) % len(spare)])
    dealt = iter(bonuses[:wanted])
    players = tuple(
        replace(p, stored=tuple(next(dealt) if c == HIDDEN else c for c in p.stored)) if HIDDEN in p.stored else p
        for p in view.players
    )
    pending = view.pending_card
    if pending_hidden:
        assert pending is not None
        pending = PendingCard(card=next(dealt), drawer=pending.drawer, accepted=pending.accepted)
    used = set(bonuses[:wanted])
    rest = [c for c in order if c not in used]
    while len(rest) < len(view.draw_pile):
        rest.append(order[len(rest) % len(order)] if order else spare[0])
    return replace(
        view,
        players=(players[0], players[1]),
        pending_card=pending,
        draw_pile=tuple(rest[: len(view.draw_pile)]),
    ), rng


def _deal_tactics(player: PlayerState, rng: int) -> tuple[PlayerState, int]:
    if HIDDEN not in player.tactics:
        return player, rng
    pool = [c.id for c in TACTICS if c.id not in player.played_tactics]
    drawn, rng = shuffle(pool, rng)
    hand = sorted(drawn[: len(player.tactics)], key=_TACTIC_ORDER.__getitem__)
    return replace(player, tactics=tuple(hand)), rng


def sample_world(view: GameState, rng: int) -> tuple[GameState, int]:
    """One real position consistent with ``view``, and the next seed.

    ``player_view(world, seat)`` equals ``view`` (apart from the event log, which the
    world leaves empty) for the seat the view was made for, and ``world.to_act`` is
    ``view.to_act``. Deterministic in ``(view, rng)``.
    """
    world, rng = _deal_cards(view, rng)
    base_players = world.players
    for _ in range(_RESAMPLE_TRIES):
        first, rng = _deal_tactics(base_players[0], rng)
        second, rng = _deal_tactics(base_players[1], rng)
        world = replace(world, players=(first, second))
        if decide_to_act(world) is view.to_act:
            break
    world_rng = mix_seed(rng, 0xD1CE)
    rng = mix_seed(rng, 0x5EED)
    return replace(world, rng=world_rng, events=()), rng


def seat_of(view: GameState) -> Side:
    """The seat that must decide in ``view`` (bots are only asked when someone must)."""
    if view.to_act is None:
        raise ValueError("nobody acts in this position (the game is over)")
    return view.to_act
