"""Advice for people: the bot's choice with its reason in words, and its win estimate.

`hint` answers "what would the bot do here, and why?" for the seat that must decide. It
sees only that seat's `player_view` (it samples the hidden parts like every bot does), plays
the greedy lookahead, and explains the choice with the engine's own figures
(`engine.attack_preview`: hit chance, damage, the tactics in hand that would change them).

`win_chance` turns the evaluation into the ATTACKER's chance to win, for the replay
viewer's evaluation graph: a logistic model (`WinModel`) of the evaluation (in units of
`WIN_SCALE` VP) and of how far the game has gone, fitted to the outcomes of games on the
tuning seeds (`lab.calibration`, scripts/calibrate_win_chance.py). The evaluation alone is
biased: its approach term, which pulls the ATTACKER forward harder, reads as a DEFENDER lead
at the start; the model's constant and its time terms correct that.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from msgspec.structs import replace

from engine import (
    Action,
    DeclareAttack,
    GameState,
    IllegalAction,
    MoveUnit,
    NextPhase,
    PassReaction,
    Phase,
    PlayBonus,
    PlayTactic,
    RollDice,
    Side,
    StoreBonus,
    reduce,
)
from engine.analysis import attack_odds, attack_preview
from engine.data import CARDS, unit_stats

from .determinize import sample_world
from .evaluate import WIN_SCORE, Style, evaluate
from .greedy import greedy_action

__all__ = ["WIN_MODEL", "WIN_SCALE", "WinModel", "hint", "reason", "win_chance", "win_features"]

WIN_SCALE = 3.0
"""VP of evaluation per unit of the model's score feature."""
_HINT_MOVES = 16


@dataclass(frozen=True)
class WinModel:
    """``P(ATTACKER wins) = 1 / (1 + exp(-Σ w_i x_i))`` over `win_features`.

    No constant: a position the judge reads as level when no time has gone is an even game,
    as the rules are the same for both sides (a constant would carry the base rate of the
    games it was fitted on)."""

    weights: tuple[float, ...]

    def chance(self, features: tuple[float, ...]) -> float:
        """The ATTACKER's chance for a position with ``features``."""
        z = sum(w * x for w, x in zip(self.weights, features, strict=True))
        return 1.0 / (1.0 + math.exp(-max(-40.0, min(40.0, z))))


_JUDGE = Style(approach=0.0)
"""The evaluation as a judge: without the approach term, which steers the bots (it pulls the
ATTACKER forward harder, and so reads as a DEFENDER lead at the start)."""

WIN_MODEL = WinModel((1.1968, 1.8539, 2.489, -0.5606))
"""The fitted model: `python scripts/calibrate_win_chance.py DIR --fit` over 630 greedy-vs-greedy games
of the tuning seeds (9001..9030 and 9101..9700; docs/bots.md, "Calibrated evaluation", says how the
features were chosen and gives its held-out report). A lead counts more as the round limit nears,
the approach term counts more as the game goes on, and a level game at the limit leans to the
DEFENDER, who wins a tie."""


def win_features(state: GameState) -> tuple[float, float, float, float]:
    """What the model reads, from the ATTACKER's side, in `WIN_SCALE` units capped at the win score: the
    judge's evaluation, the approach term times the square root of the share of the round limit gone,
    the judge's evaluation times that share, and the share (0.5 without a round limit)."""
    judged = _capped(evaluate(state, Side.ATTACKER, style=_JUDGE))
    approach = _capped(evaluate(state, Side.ATTACKER)) - judged
    limit = state.rules.victory.round_limit
    gone = min(1.0, state.turn / (2 * limit.max_rounds)) if limit is not None else 0.5
    return (judged, approach * math.sqrt(gone), judged * gone, gone)


def _capped(score: float) -> float:
    """An evaluation capped at the win score, in `WIN_SCALE` units."""
    return max(-WIN_SCORE, min(WIN_SCORE, score)) / WIN_SCALE


def win_chance(state: GameState, model: WinModel = WIN_MODEL) -> float:
    """The ATTACKER's chance to win ``state`` (1 or 0 once the game is over)."""
    if state.phase is Phase.VICTORY:
        return 1.0 if state.winner is Side.ATTACKER else 0.0
    return model.chance(win_features(state))


def hint(view: GameState, legal: Sequence[Action], seed: int) -> tuple[Action, str]:
    """The bot's choice for the seat to decide in ``view``, and why, in words.

    Deterministic in ``(view, legal, seed)``; reads nothing the seat may not see.
    """
    if not legal:
        raise ValueError("no legal action to choose from (the game is over)")
    world, _ = sample_world(view, seed)
    action = legal[0] if len(legal) == 1 else greedy_action(world, legal, _HINT_MOVES)
    side = view.to_act
    assert side is not None
    words = reason(world, action)
    if len(legal) == 1:
        words = f"the only legal action. {words}"
    try:
        after = reduce(world, action)
    except IllegalAction:  # the sampled world disagrees with the list (cannot happen for a view)
        return action, words
    chance = win_chance(after)
    mine = chance if side is Side.ATTACKER else 1.0 - chance
    return action, f"{words} The bot's estimate: {round(100 * mine)} % to win."


def reason(world: GameState, action: Action) -> str:
    """Why ``action`` is worth playing in ``world``, in the engine's figures."""
    match action:
        case DeclareAttack():
            return _attack_words(world, action.attacker_id, action.target_id)
        case PlayTactic():
            return _tactic_words(world, action)
        case RollDice():
            pending = world.pending_attack
            if pending is None:
                return "Roll the dice."
            odds = attack_preview(world, pending).odds
            return f"Roll: {_pct(odds.hit_chance)} to hit for {odds.damage} damage."
        case MoveUnit():
            return _move_words(world, action)
        case PlayBonus():
            card = _drawn_or_stored(world, action)
            return f"Play {card}: it is worth more now than kept." if card else "Play the bonus now."
        case StoreBonus():
            card = _drawn_or_stored(world, PlayBonus())
            return f"Keep {card or 'the bonus'} for later: played now it gains less than it is worth in hand."
        case PassReaction():
            return "No tactic in hand changes this enough to be worth spending: pass."
        case NextPhase():
            return "Nothing more here gains anything: go on to the next phase."
        case _:
            return "It scores best of the choices in the bot's one-step lookahead."


def _pct(p: float) -> str:
    return f"{round(100 * p)} %"


def _attack_words(world: GameState, attacker_id: str, target_id: str) -> str:
    try:
        preview = attack_preview(world, DeclareAttack(attacker_id=attacker_id, target_id=target_id))
    except ValueError:
        return f"Fire {attacker_id} at {target_id}."
    odds = preview.odds
    words = (f"Fire {attacker_id} at {target_id} from {odds.distance} cells: {_pct(odds.hit_chance)} to hit "
             f"for {odds.damage} damage")
    if odds.destroy_chance > 0:
        words += f", {_pct(odds.destroy_chance)} to destroy it"
    words += "."
    better = max(preview.tactics, key=lambda t: t.odds.expected_damage, default=None)
    if better is not None and better.odds.expected_damage > odds.expected_damage:
        name = CARDS[better.play.card_id].name
        words += f" With {name}: {_pct(better.odds.hit_chance)} for {better.odds.damage}."
    return words


def _tactic_words(world: GameState, action: PlayTactic) -> str:
    card = CARDS.get(action.card_id)
    name = card.name if card is not None else action.card_id
    pending = world.pending_attack
    if pending is None:
        return f"Play {name}."
    preview = attack_preview(world, pending)
    for option in preview.tactics:
        if option.play == action:
            before, after = preview.odds, option.odds
            return (f"Play {name}: the attack on {pending.target} goes from {_pct(before.hit_chance)} for "
                    f"{before.damage} damage to {_pct(after.hit_chance)} for {after.damage}.")
    mine = pending.attacker if card is not None and card.side == "active" else pending.target
    return f"Play {name} on the attack {pending.attacker} → {pending.target} ({mine} is yours to help)."


def _move_words(world: GameState, action: MoveUnit) -> str:
    unit = world.unit(action.unit_id)
    if unit is None:
        return f"Move {action.unit_id} to {action.to}."
    moved = replace(unit, cell=action.to)
    weapon = unit_stats(unit.type, world.rules.tables).range
    best: tuple[float, str, int] | None = None
    before, after = 99, 99
    for enemy in world.units:
        if enemy.side is unit.side or enemy.cell is None:
            continue
        odds = attack_odds(world, moved, enemy)
        after = min(after, odds.distance)
        if unit.cell is not None:
            before = min(before, attack_odds(world, unit, enemy).distance)
        if 1 <= odds.distance <= weapon and odds.allowed and (best is None or odds.expected_damage > best[0]):
            best = (odds.expected_damage, enemy.id, round(100 * odds.hit_chance))
    if best is not None:
        return f"Move {unit.id} to {action.to}: from there it can fire at {best[1]} ({best[2]} % to hit)."
    if after < before:
        return f"Move {unit.id} to {action.to}: it closes in, {after} cells from the nearest enemy."
    return f"Move {unit.id} to {action.to}: a safer spot, {after} cells from the nearest enemy."


def _drawn_or_stored(world: GameState, action: PlayBonus) -> str | None:
    side = world.to_act
    if side is None:
        return None
    if action.stored_index is None:
        card_id = world.pending_card.card if world.pending_card is not None else None
    else:
        stored = world.player(side).stored
        card_id = stored[action.stored_index] if action.stored_index < len(stored) else None
    card = CARDS.get(card_id) if card_id is not None else None
    return card.name if card is not None else None
