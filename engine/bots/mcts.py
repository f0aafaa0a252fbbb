"""The MCTS bot: information-set Monte Carlo tree search on sampled worlds.

Each iteration samples one world consistent with the seat's view (`sample_world`: the
opponent's hidden cards, the deck order and the dice are all unknown and resampled) and
walks one shared tree in it (single-observer ISMCTS):

1. **select**: at each decision the candidates are the legal actions of this world,
   narrowed to the ``width`` best by a cheap prior (`quick_scores`; at the root, the
   greedy one-ply lookahead), at most ``per_unit`` moves per unit so that candidates
   differ; children are picked by UCB1 with *availability* counts (a child is only
   compared with siblings that were legal in the same worlds); forced actions (a single
   legal action) and dice are played without a tree node;
2. **expand** the best-prior untried candidate;
3. **evaluate**: optionally roll out with the fast policy (`rollout_action`) for at most
   ``rollout_limit`` actions, then score the position with `evaluate` (a won or lost
   game scores ``±win_value``);
4. **back up** the score, from the point of view of the player who chose each action.

The search stops at a **horizon**: with ``horizon=0`` it plans the seat's own turn up to
its dice (a position about to roll is scored by the expected outcome of its attacks, so
the search never pays for the variance of sampled dice), or to the end of the turn when
the seat is already rolling; with ``horizon=n`` it looks ``n`` turns further, to the
start of a turn. Scores are in VP-like units (`evaluate`), as is ``exploration``.

Leaves and the root ranking are scored with exact enemy reach (`ReachMaps`, built once
per decision). Only the seat's own ``search_phases`` (MOVEMENT and ATTACK) are searched:
card resolution, dice-phase tactics, reactions and victim choices use the greedy
lookahead, which averages dice exactly (searching with dice between decisions made the
bot weaker: see docs/bots.md).

The root child with the best value is played (ties: more visits). The default budget is a
number of iterations, so the same ``(view, legal, seed)`` always gives the same choice;
an optional time budget needs an injected ``clock`` (the engine itself never reads the time).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import msgspec

from ..actions import Action, MoveUnit, NextPhase, PassReaction
from ..codec import encode_action
from ..reducer import legal_actions, reduce
from ..state import GameState
from ..types import Phase, Side
from .determinize import sample_world, seat_of
from .evaluate import evaluate
from .greedy import best_index, rank, sensible_actions
from .policy import MoveScorer, quick_scores, rollout_action
from .position import Position
from .reach import ReachMaps

__all__ = ["MCTSBot", "SearchStats"]

_ALWAYS = (NextPhase, PassReaction)  # leaving a phase or passing stays a candidate whatever its prior
_MAX_DEPTH = 64  # a safety bound on one descent
_SIGNATURE = msgspec.json.Encoder()


def _signature(state: GameState, side: Side) -> bytes:
    """What identifies a position for the seat, whatever the sampled hidden parts."""
    me = state.player(side)
    return _SIGNATURE.encode(
        (
            state.turn,
            state.phase,
            state.to_act,
            state.units,
            state.attack_queue,
            state.pending_attack,
            state.last_roll,
            state.moves_this_turn,
            state.effects,
            state.reactions,
            me.stored,
            me.tactics,
            state.pending_card if state.pending_card is not None and state.pending_card.drawer is side else None,
        )
    )


class _Node:
    """One action sequence, shared by every sampled world in which it was legal.

    ``total``/``samples`` average the scores sampled *at* this node (its leaf estimate);
    ``value`` is what the node is worth to the root seat: that estimate while the node
    has no children, else the best child for the player choosing there (for the seat,
    the better of the best child and the estimate; for the opponent, the worst child),
    so a line is judged by its best continuation, not by the average of all it tried.
    """

    __slots__ = ("avail", "children", "chooser", "prior", "samples", "total", "value", "visits")

    def __init__(self) -> None:
        self.chooser: Side | None = None  # who chooses among the children (set on expansion)
        self.children: dict[Action, _Node] = {}
        self.prior: dict[Action, float] = {}  # quick score of every action seen here
        self.visits = 0  # iterations through this node
        self.samples = 0  # iterations that scored a position at this node
        self.total = 0.0  # summed sampled score (root seat's point of view)
        self.value = 0.0
        self.avail = 0  # iterations in which this node's action was a candidate

    def candidates(self, state: GameState, legal: Sequence[Action], width: int, per_unit: int) -> list[Action]:
        """The ``width`` best legal actions by prior (scoring newly seen ones), plus leave/pass."""
        fresh = [a for a in legal if a not in self.prior]
        if fresh:
            pos = Position(state)
            for action, score in zip(fresh, quick_scores(pos, fresh, MoveScorer(pos)), strict=True):
                self.prior[action] = score
        return top_candidates(legal, [self.prior[a] for a in legal], width, per_unit)

    def refresh(self, side: Side) -> None:
        """Recompute ``value`` from the sampled estimate or the children."""
        own = self.total / self.samples if self.samples else 0.0
        visited = [c.value for c in self.children.values() if c.visits]
        if not visited:
            self.value = own
        elif self.chooser is side:
            self.value = max(own, *visited)  # the seat may stop improving: leaving the phase is always a candidate
        else:
            self.value = min(visited)


def top_candidates(legal: Sequence[Action], scores: Sequence[float], width: int, per_unit: int) -> list[Action]:
    """The ``width`` best actions by score, at most ``per_unit`` moves of one unit, plus leave/pass.

    ``width=0`` keeps every action (best first).
    """
    order = sorted(range(len(legal)), key=lambda i: (-scores[i], i))
    if width <= 0:
        return [legal[i] for i in order]
    keep: list[int] = []
    moves: dict[str, int] = {}
    for i in order:
        action = legal[i]
        if isinstance(action, MoveUnit):
            if moves.get(action.unit_id, 0) >= per_unit:
                continue
            moves[action.unit_id] = moves.get(action.unit_id, 0) + 1
        if len(keep) < width or isinstance(action, _ALWAYS):
            keep.append(i)
    return [legal[i] for i in keep]


@dataclass
class SearchStats:
    """What one search did (for benchmarks and tests)."""

    iterations: int = 0
    root: dict[str, tuple[int, float]] | None = None  # action → (visits, mean score)


@dataclass(frozen=True)
class MCTSBot:
    """Search ``iterations`` sampled worlds and play the best candidate found."""

    iterations: int = 100  # the default budget: deterministic
    exploration: float = 0.3  # UCB1 constant, in score (VP) units
    width: int = 6  # candidates per tree node (best by prior); 0 = all legal actions
    root_width: int = 8  # candidates at the root (best by greedy lookahead)
    per_unit: int = 2  # at most this many candidate moves of one unit per node
    horizon: int = 0  # 0: plan this turn up to its dice; n: n more turns
    rollout_limit: int = 0  # fast-policy actions before scoring a new leaf (0: score it as it is)
    noise: int = 10  # rollouts play a random action one time in ``noise``
    win_value: float = 10.0  # score of a won game in the search
    search_phases: tuple[str, ...] = ("MOVEMENT", "ATTACK")  # the seat's own phases that are searched
    move_limit: int = 16  # moves scored by lookahead at the root (the best by quick score)
    exact_threat: bool = True  # score leaves with exact enemy reach (`ReachMaps`, built once per search)
    transpositions: bool = True  # lines reaching the same position share a node
    time_budget: float | None = None  # seconds; needs ``clock``; stops early, never exceeds iterations
    clock: Callable[[], float] | None = None  # e.g. time.monotonic, injected by the caller
    name: str = "mcts"

    def __post_init__(self) -> None:
        if self.iterations < 1:
            raise ValueError("iterations must be at least 1")
        if self.time_budget is not None and self.clock is None:
            raise ValueError("a time budget needs a clock (pass clock=time.monotonic)")

    def choose(self, view: GameState, legal: Sequence[Action], rng: int) -> tuple[Action, int]:
        """Return the best root action found and the next seed."""
        action, rng, _ = self.search(view, legal, rng)
        return action, rng

    def search(self, view: GameState, legal: Sequence[Action], rng: int) -> tuple[Action, int, SearchStats]:
        """Run the search; also return what it did."""
        if not legal:
            raise ValueError("no legal action to choose from (the game is over)")
        if len(legal) == 1:
            return legal[0], rng, SearchStats()
        side = seat_of(view)
        world, rng = sample_world(view, rng)
        searched = view.phase.value in self.search_phases and view.to_act is view.active
        reach = ReachMaps(world, side) if self.exact_threat and searched else None
        options, scores = rank(world, legal, side, self.move_limit, reach)
        if not searched:
            return options[best_index(options, scores)], rng, SearchStats()
        root_candidates = top_candidates(options, scores, self.root_width, self.per_unit)
        if len(root_candidates) == 1:
            return root_candidates[0], rng, SearchStats()
        horizon = _Horizon(view, self.horizon)
        root = _Node()
        table: dict[bytes, _Node] = {}
        deadline = None if self.time_budget is None or self.clock is None else self.clock() + self.time_budget
        done = 0
        while done < self.iterations:
            if deadline is not None and self.clock is not None and done and self.clock() >= deadline:
                break
            rng = self._iterate(root, world, side, root_candidates, horizon, reach, table, rng)
            done += 1
            world, rng = sample_world(view, rng)
        order = {a: i for i, a in enumerate(legal)}
        best = max(
            root.children.items(),
            key=lambda item: (round(item[1].value, 9), item[1].visits, -order[item[0]]),
        )[0]
        stats = SearchStats(
            iterations=done,
            root={encode_action(a): (n.visits, n.value) for a, n in root.children.items()},
        )
        return next(a for a in legal if a == best), rng, stats

    def _iterate(
        self,
        root: _Node,
        world: GameState,
        side: Side,
        root_candidates: list[Action],
        horizon: _Horizon,
        reach: ReachMaps | None,
        table: dict[bytes, _Node],
        rng: int,
    ) -> int:
        node = root
        state = world
        path: list[_Node] = [root]
        expanded = False
        while not horizon.reached(state):
            legal = legal_actions(state)
            if len(legal) == 1:
                state = reduce(state, legal[0])
                continue
            if expanded or len(path) > _MAX_DEPTH:
                break
            if node is root:
                candidates = [a for a in root_candidates if a in legal]
            else:
                candidates = node.candidates(state, sensible_actions(legal), self.width, self.per_unit)
            node.chooser = state.to_act
            for action in candidates:
                child = node.children.get(action)
                if child is not None:
                    child.avail += 1
            untried = [a for a in candidates if a not in node.children]
            if untried:
                action = untried[0]
                state = reduce(state, action)
                # Transpositions: moving A then B reaches the same position as B then A;
                # both lines share one node, so what one learns serves the other.
                key = _signature(state, side) if self.transpositions else b"%d" % len(table)
                child = table.get(key)
                if child is None:
                    child = table[key] = _Node()
                    expanded = True
                child.avail += 1
                node.children[action] = child
                node = child
                path.append(node)
                continue
            action = self._select(node, candidates, node.chooser is side)
            node = node.children[action]
            path.append(node)
            state = reduce(state, action)
        score, rng = self._score(state, side, horizon, reach, rng)
        node.samples += 1
        node.total += score
        for visited in reversed(path):
            visited.visits += 1
            visited.refresh(side)
        return rng

    def _select(self, node: _Node, candidates: list[Action], mine: bool) -> Action:
        best_action = candidates[0]
        best = -math.inf
        sign = 1.0 if mine else -1.0
        for action in candidates:
            child = node.children[action]
            value = sign * child.value + self.exploration * math.sqrt(math.log(child.avail) / child.visits)
            if value > best:
                best, best_action = value, action
        return best_action

    def _score(
        self, state: GameState, side: Side, horizon: _Horizon, reach: ReachMaps | None, rng: int
    ) -> tuple[float, int]:
        steps = 0
        while steps < self.rollout_limit and not horizon.reached(state):
            action, rng = rollout_action(state, legal_actions(state), rng, self.noise)
            state = reduce(state, action)
            steps += 1
        if state.phase is Phase.VICTORY:
            return (self.win_value if state.winner is side else -self.win_value), rng
        return evaluate(state, side, reach=reach), rng


class _Horizon:
    """Where the search stops looking further (see the module docstring)."""

    def __init__(self, root: GameState, turns: int) -> None:
        self.turn = root.turn
        self.turns = turns
        self.to_dice = turns == 0 and root.phase is not Phase.DICE_RESOLUTION

    def reached(self, state: GameState) -> bool:
        if state.phase is Phase.VICTORY:
            return True
        if self.to_dice:
            return state.turn != self.turn or state.phase is Phase.DICE_RESOLUTION
        return state.turn > self.turn + self.turns
