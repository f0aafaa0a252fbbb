"""The greedy bot: one-ply lookahead with the hand-written evaluation (`lab.bots.evaluate`).

For every legal action it plays the action on a determinized copy of the position (so it
never reads hidden cards) and scores the result; dice actions (ROLL_DICE, and tactics
whose card data throws a die, `engine.rolls_dice`) are scored as the average over the
six faces. It picks the best score; ties go to
the action that ends the phase (a move that gains nothing is not worth making), then to
the first in canonical order.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from msgspec.structs import replace

from engine import (
    Action,
    AutoDeploy,
    ConfirmDeployment,
    EndTurn,
    GameState,
    IllegalAction,
    MoveUnit,
    NextPhase,
    PassReaction,
    PlayTactic,
    RollDice,
    Side,
    WithdrawAttack,
    reduce,
    roll_d6,
)
from engine.analysis import rolls_dice
from engine.data import CARDS

from .deploy import unsearched_choice
from .determinize import sample_world
from .evaluate import BALANCED, Style, evaluate
from .policy import MoveScorer
from .position import DAMAGE_SHARE, Position

__all__ = ["DIE_SEEDS", "GreedyBot", "best_index", "greedy_action", "lookahead_scores", "rank", "sensible_actions"]


def _die_seeds() -> tuple[int, ...]:
    seeds: dict[int, int] = {}
    seed = 0
    while len(seeds) < 6:
        face, _ = roll_d6(seed)
        seeds.setdefault(face, seed)
        seed += 1
    return tuple(seeds[face] for face in range(1, 7))


DIE_SEEDS = _die_seeds()
"""Six rng seeds whose next d6 is 1, 2, ..., 6: an exact expectation over one die."""

_TIE_PRIORITY: dict[type, int] = {NextPhase: 2, PassReaction: 2, EndTurn: 1}


def _is_chance(action: Action) -> bool:
    """True for an action whose outcome is a die: ROLL_DICE, or a tactic whose card data throws one."""
    if isinstance(action, PlayTactic):
        card = CARDS.get(action.card_id)
        return card is not None and rolls_dice(card)
    return isinstance(action, RollDice)


def lookahead_scores(
    world: GameState,
    legal: Sequence[Action],
    side: Side,
    style: Style = BALANCED,
) -> list[float]:
    """Score of each action for ``side``: the evaluation one ply later (averaged over a die)."""
    scores: list[float] = []
    for action in legal:
        worlds = [world] if not _is_chance(action) else [replace(world, rng=seed) for seed in DIE_SEEDS]
        total = 0.0
        for start in worlds:
            try:
                total += evaluate(reduce(start, action), side, style=style)
            except IllegalAction:  # only if the caller's list does not match the world
                total += -1e9
        scores.append(total / len(worlds))
    return scores


def best_index(legal: Sequence[Action], scores: Sequence[float]) -> int:
    """Index of the best score; ties prefer ending the phase, then canonical order."""
    return max(
        range(len(legal)),
        key=lambda i: (round(scores[i], 9), _TIE_PRIORITY.get(type(legal[i]), 0), -i),
    )


@dataclass(frozen=True)
class GreedyBot:
    """Play the action whose one-ply result evaluates best for the deciding seat."""

    move_limit: int = 16  # moves played out per decision (the best by quick score)
    deploy: bool = True  # in manual deployment, place units by `deploy.deployment_plan`, not AUTO_DEPLOY
    damage_share: float = DAMAGE_SHARE  # a damaged unit counts this share of its VP as lost (`Style.damage_share`)
    name: str = "greedy"

    def __post_init__(self) -> None:
        if isinstance(self.move_limit, bool) or not isinstance(self.move_limit, int) or self.move_limit < 1:
            raise ValueError(f"move_limit must be a whole number of moves >= 1, not {self.move_limit!r}")
        if not isinstance(self.deploy, bool):
            raise ValueError(f"deploy must be true or false, not {self.deploy!r}")
        Style(damage_share=self.damage_share)  # checks it

    def choose(self, view: GameState, legal: Sequence[Action], rng: int) -> tuple[Action, int]:
        """Return the best-scoring legal action and the next seed (the seed drives determinization)."""
        unsearched = unsearched_choice(view, legal, rng, self.deploy)
        if unsearched is not None:
            return unsearched
        world, rng = sample_world(view, rng)
        style = BALANCED if self.damage_share == DAMAGE_SHARE else Style(damage_share=self.damage_share)
        return greedy_action(world, legal, self.move_limit, style), rng


def greedy_action(world: GameState, legal: Sequence[Action], move_limit: int, style: Style = BALANCED) -> Action:
    """The greedy choice of the seat to act in ``world``, a real position (sampled or not)."""
    if len(legal) == 1:
        return legal[0]
    assert world.to_act is not None
    candidates, scores = rank(world, legal, world.to_act, move_limit, style=style)
    return candidates[best_index(candidates, scores)]


def rank(
    world: GameState,
    legal: Sequence[Action],
    side: Side,
    move_limit: int,
    style: Style = BALANCED,
) -> tuple[list[Action], list[float]]:
    """The actions worth considering in ``world`` (see `_candidates`) and their lookahead scores."""
    candidates = _candidates(world, legal, move_limit, style)
    return candidates, lookahead_scores(world, candidates, side, style)


def sensible_actions(legal: Sequence[Action]) -> list[Action]:
    """The legal actions a bot considers: ``legal`` without the ones that never pay.

    END_TURN goes when NEXT_PHASE is legal: ending the turn early only throws attacks
    away (and the evaluation cannot compare positions across a turn boundary).
    WITHDRAW_ATTACK goes: a bot declares what it means, and declaring and withdrawing
    in turn would only burn the action cap. In manual deployment a bot that does not plan
    its deployment (``deploy=false``) places its units by the automatic rule (AUTO_DEPLOY)
    and confirms: re-placing units one by one could go on until the action cap.
    """
    settling: tuple[type, ...] = (AutoDeploy, ConfirmDeployment)
    for settled in settling:
        chosen: list[Action] = [a for a in legal if isinstance(a, settled)]
        if chosen:
            return chosen
    dropped: tuple[type, ...] = (WithdrawAttack,)
    if any(isinstance(a, NextPhase) for a in legal):
        dropped = (EndTurn, WithdrawAttack)
    kept: list[Action] = [a for a in legal if not isinstance(a, dropped)]
    return kept or list(legal)


def _candidates(world: GameState, legal: Sequence[Action], move_limit: int, style: Style) -> list[Action]:
    """The actions worth a full lookahead.

    `sensible_actions` first; then moves are many (hundreds): only the ``move_limit``
    best by their quick score (`MoveScorer`) are played out.
    """
    legal = sensible_actions(legal)
    moves = [a for a in legal if isinstance(a, MoveUnit)]
    if len(moves) <= move_limit:
        return list(legal)
    scorer = MoveScorer(Position(world, style.damage_share), style)
    ranked = sorted(range(len(moves)), key=lambda i: (-scorer.score(moves[i]), i))
    keep = {moves[i] for i in ranked[:move_limit]}
    return [a for a in legal if not isinstance(a, MoveUnit) or a in keep]
