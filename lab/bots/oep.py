"""The evolutionary planner ("oep"): whole turns evolved against the evaluation.

A turn here is up to five moves and five attack declarations that only pay off together.
Online Evolutionary Planning (Justesen et al., "Playing Multi-Action Adversarial Games",
IEEE TCIAIG 2017) searches such turns as a whole: a population of complete turns is
improved by crossover and mutation, each scored by a static evaluation of where the turn
ends. Here:

* a **genome** is the seat's moves, ``(unit, cell)`` in order (`lab.bots.turnplan`); it
  decodes to a complete, legal turn (illegal moves skipped, attacks declared by expected VP)
  scored by `evaluate` where the dice are about to roll;
* each unit's **candidate cells** are its reachable cells ranked by the quick move score
  (`MoveScorer`): the best ``cells`` of them, and staying put;
* the **first population** holds the turn the greedy lookahead would play (a draft), the turn
  without moves, and random turns; then each generation keeps the ``elite`` and breeds the
  rest: tournament parents, a uniform crossover by unit, and mutations (another cell for a
  unit, one more or one fewer move, another unit, another order);
* the budget is a number of decoded turns, ``evaluations`` (so a search is deterministic), or
  a time with an injected ``clock``.

The bot plays the best turn found and remembers it (`PlanMemory`): the next decisions of
the turn follow it without searching. A stored bonus or a malus cancel is played where the
greedy lookahead would play it (then the turn is planned afresh); card resolution, dice,
reactions and malus victims are the greedy lookahead's, which averages dice exactly.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from engine import (
    Action,
    CancelMalus,
    GameState,
    MoveUnit,
    Phase,
    PlayBonus,
    Side,
    draw_index,
    legal_actions,
    mix_seed,
    reduce,
)
from engine.analysis import max_moves

from .deploy import unsearched_choice
from .determinize import sample_world, seat_of
from .evaluate import THREAT_WEIGHT, Style
from .greedy import greedy_action
from .mcts import MCTSBot, SearchStats
from .plan import PlanMemory, PlanningBot
from .policy import MoveScorer
from .position import Position
from .turnplan import Decoded, Genome, decode, moves_of

__all__ = ["EvolutionBot", "EvolutionStats"]

_SEARCHED = (Phase.MOVEMENT, Phase.ATTACK)
_MAX_STEPS = 200  # a safety bound on one greedy draft (a turn is a few dozen actions)
_CARDS = (PlayBonus, CancelMalus)


@dataclass
class EvolutionStats:
    """What one search did (for benchmarks and tests)."""

    evaluations: int = 0  # turns decoded and scored
    generations: int = 0
    best: float = 0.0  # the best static score found
    draft: float | None = None  # score of the greedy draft's turn (None: no draft)
    judged: list[float] = field(default_factory=list)  # the finalists' simulated means, best static score first


@dataclass(frozen=True)
class EvolutionBot(PlanningBot):
    """Evolve whole turns (the seat's moves; attacks by expected VP) against the evaluation; play the best."""

    evaluations: int = 160  # turns decoded and scored per search
    population: int = 16
    elite: int = 4  # the best turns kept unchanged into the next generation
    cells: int = 8  # candidate cells per unit (the best by the quick move score)
    threat: float = THREAT_WEIGHT  # the fitness's weight of the enemy's next turn (`Style.threat`)
    approach: float = 1.0  # the fitness's pull towards the enemy, a multiple of `APPROACH_WEIGHT`
    draft: bool = True  # the first population holds the greedy lookahead's own turn
    finalists: int = 0  # the best distinct turns then judged through the enemy's reply (0: the best score plays)
    worlds: int = 6  # sampled worlds each finalist is simulated in
    turns: int = 2  # turns a finalist is simulated after its own (the enemy's reply, then the seat's next)
    move_limit: int = 16  # moves the greedy lookahead plays out (drafts, cards, dice)
    time_budget: float | None = None  # seconds; needs ``clock``; stops early, never exceeds evaluations
    clock: Callable[[], float] | None = None
    deploy: bool = True  # in manual deployment, place units by `deploy.deployment_plan`, not AUTO_DEPLOY
    name: str = "oep"
    _memo: PlanMemory = field(default_factory=PlanMemory, init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        for count, low in (("evaluations", 1), ("population", 2), ("elite", 1), ("cells", 1), ("move_limit", 1)):
            value = getattr(self, count)
            if isinstance(value, bool) or not isinstance(value, int) or value < low:
                raise ValueError(f"{count} must be a whole number >= {low}, not {value!r}")
        if self.elite >= self.population:
            raise ValueError("elite must be smaller than population")
        for weight in ("threat", "approach"):
            value = getattr(self, weight)
            if isinstance(value, bool) or not isinstance(value, (int, float)) or not 0 <= value <= 10:
                raise ValueError(f"{weight} must be a number from 0 to 10, not {value!r}")
        for switch in ("draft", "deploy"):
            if not isinstance(getattr(self, switch), bool):
                raise ValueError(f"{switch} must be true or false, not {getattr(self, switch)!r}")
        if self.time_budget is not None and self.clock is None:
            raise ValueError("a time budget needs a clock (pass clock=time.monotonic)")

    @property
    def style(self) -> Style:
        """The evaluation the turns are scored by."""
        return Style(threat=float(self.threat), approach=float(self.approach))

    def choose(self, view: GameState, legal: Sequence[Action], rng: int) -> tuple[Action, int]:
        """Return the chosen action and the next seed."""
        unsearched = unsearched_choice(view, legal, rng, self.deploy)
        if unsearched is not None:
            return unsearched
        side = seat_of(view)
        world, _ = sample_world(view, mix_seed(rng, 2))
        if not (view.active is side and view.phase in _SEARCHED):
            return greedy_action(world, legal, self.move_limit), mix_seed(rng, 1)
        if any(isinstance(a, _CARDS) for a in legal):
            greedy = greedy_action(world, legal, self.move_limit)
            if isinstance(greedy, _CARDS):  # a card is worth playing now: play it, then plan the rest afresh
                return greedy, mix_seed(rng, 1)
        planned = self._memo.planned(view, side)
        if planned is None or planned not in legal:
            planned, _ = self.search(view, legal, rng)
        return planned, mix_seed(rng, 1)

    def search(self, view: GameState, legal: Sequence[Action], rng: int) -> tuple[Action, EvolutionStats]:
        """Plan the seat's turn afresh (ignoring a remembered one); also return what the search did."""
        if not legal:
            raise ValueError("no legal action to choose from (the game is over)")
        side = seat_of(view)
        world, _ = sample_world(view, mix_seed(rng, 2))
        if not (view.active is side and view.phase in _SEARCHED):
            return greedy_action(world, legal, self.move_limit), EvolutionStats()
        stats = EvolutionStats()
        evolution = _Evolution(self, world, side, legal, mix_seed(rng, 4), stats)
        best = evolution.run()
        stats.best = best.score
        plan = best.plan
        finalists = evolution.finalists(self.finalists) if self.finalists else []
        if len(finalists) > 1:
            judge = MCTSBot(iterations=self.worlds * len(finalists), turns=self.turns, move_limit=self.move_limit,
                            time_budget=None if self.time_budget is None else self.time_budget / 2, clock=self.clock)
            judged = SearchStats()
            plan = judge.select(view, side, [d.plan for d in finalists], mix_seed(rng, 3), judged)
            stats.judged = judged.scores
        self._memo.remember(plan)
        action = plan[0][1] if plan else None
        if action is None or action not in legal:
            return greedy_action(world, legal, self.move_limit), stats
        return action, stats


class _Evolution:
    """One search: the population, the decoded turns seen so far, and the seed the variation draws from."""

    def __init__(
        self, bot: EvolutionBot, world: GameState, side: Side, legal: Sequence[Action], rng: int, stats: EvolutionStats
    ) -> None:
        self.bot, self.world, self.side, self.rng, self.stats = bot, world, side, rng, stats
        self.style = bot.style
        self.seen: dict[Genome, Decoded] = {}
        self.deadline = bot.deadline()
        self.options = _candidate_cells(world, legal, self.style, bot.cells)
        self.units = sorted(self.options)
        self.room = max(0, max_moves(world, side) - world.moves_this_turn) if world.phase is Phase.MOVEMENT else 0

    def run(self) -> Decoded:
        if not self.units or not self.room:
            return self.score(())
        population = self.first_population()
        while not self.spent():
            before = self.stats.evaluations
            self.stats.generations += 1
            ranked = sorted(population, key=lambda d: -d.score)
            population = ranked[: self.bot.elite]
            tries = 0
            while len(population) < self.bot.population and not self.spent() and tries < 4 * self.bot.population:
                tries += 1
                child = self.vary(self.tournament(ranked), self.tournament(ranked))
                decoded = self.score(child)
                if all(decoded.moves != other.moves for other in population):
                    population.append(decoded)
            if self.stats.evaluations == before:
                break  # a whole generation bred only turns already seen: few units and cells, all tried
        return max(self.seen.values(), key=lambda d: (d.score, -len(d.moves)))

    def finalists(self, count: int) -> list[Decoded]:
        """The ``count`` best distinct turns seen (by the units they move and where), best first."""
        chosen: list[Decoded] = []
        for decoded in sorted(self.seen.values(), key=lambda d: (-d.score, len(d.moves))):
            if all(sorted(decoded.moves) != sorted(other.moves) for other in chosen):
                chosen.append(decoded)
                if len(chosen) == count:
                    break
        return chosen

    def spent(self) -> bool:
        return self.stats.evaluations >= self.bot.evaluations or self.bot.past(self.deadline)

    def score(self, genome: Genome) -> Decoded:
        found = self.seen.get(genome)
        if found is None:
            found = decode(self.world, self.side, genome, self.style)
            self.stats.evaluations += 1
            self.seen[genome] = found
            self.seen.setdefault(found.moves, found)
        return found

    def first_population(self) -> list[Decoded]:
        population = [self.score(())]
        if self.bot.draft:
            draft = self.score(self.greedy_draft())
            self.stats.draft = draft.score
            population.append(draft)
        tries = 0
        while len(population) < self.bot.population and not self.spent() and tries < 4 * self.bot.population:
            tries += 1  # bounded: with few units and cells there may be fewer distinct turns than places
            count = 1 + self.draw(self.room)
            genome: list[tuple[str, str]] = []
            for unit in self.sample_units(count):
                genome.append((unit, self.cell_for(unit)))
            decoded = self.score(tuple(genome))
            if all(decoded.moves != other.moves for other in population):
                population.append(decoded)
        return population

    def greedy_draft(self) -> Genome:
        """The moves the greedy lookahead would make this turn, in the search's world."""
        state, made = self.world, []
        for _ in range(_MAX_STEPS):
            if state.phase is not Phase.MOVEMENT or state.active is not self.side:
                break
            action = greedy_action(state, legal_actions(state), self.bot.move_limit)
            made.append(action)
            state = reduce(state, action)
        return moves_of(made)

    # -- variation --------------------------------------------------------------------------

    def draw(self, n: int) -> int:
        index, self.rng = draw_index(n, self.rng)
        return index

    def tournament(self, ranked: list[Decoded]) -> Genome:
        a, b = self.draw(len(ranked)), self.draw(len(ranked))
        return ranked[min(a, b)].moves  # ranked best first: the smaller index is the fitter

    def cell_for(self, unit: str) -> str:
        """A candidate cell of ``unit``, the better ones more often (rank-biased)."""
        cells = self.options[unit]
        return cells[min(self.draw(len(cells)), self.draw(len(cells)))]

    def sample_units(self, count: int) -> list[str]:
        pool = list(self.units)
        chosen = []
        for _ in range(min(count, len(pool))):
            chosen.append(pool.pop(self.draw(len(pool))))
        return chosen

    def vary(self, a: Genome, b: Genome) -> Genome:
        child = list(self.crossover(a, b) if self.draw(2) else a)
        for _ in range(1 + self.draw(2)):
            child = self.mutate(child)
        return tuple(child)

    def crossover(self, a: Genome, b: Genome) -> list[tuple[str, str]]:
        """Each unit moved by either parent takes its move from one of them, or stays; a's order first."""
        from_a, from_b = dict(a), dict(b)
        child: list[tuple[str, str]] = []
        for unit in [u for u, _ in a] + [u for u, _ in b if u not in from_a]:
            pick = self.draw(3)
            parent = from_a if pick == 0 else from_b if pick == 1 else (from_a if unit in from_a else from_b)
            if unit in parent and len(child) < self.room:
                child.append((unit, parent[unit]))
        return child

    def mutate(self, genome: list[tuple[str, str]]) -> list[tuple[str, str]]:
        moved = {u for u, _ in genome}
        idle = [u for u in self.units if u not in moved]
        kind = self.draw(5)
        # a unit of the greedy draft may have no candidate cells (no legal move before another unit made way)
        chosen = [i for i, (unit, _) in enumerate(genome) if unit in self.options]
        if kind == 0 and chosen:  # another cell for one moved unit
            i = chosen[self.draw(len(chosen))]
            genome[i] = (genome[i][0], self.cell_for(genome[i][0]))
        elif kind == 1 and idle and len(genome) < self.room:  # one more move
            unit = idle[self.draw(len(idle))]
            genome.insert(self.draw(len(genome) + 1), (unit, self.cell_for(unit)))
        elif kind == 2 and genome:  # one fewer
            genome.pop(self.draw(len(genome)))
        elif kind == 3 and genome and idle:  # another unit moves instead
            i, unit = self.draw(len(genome)), idle[self.draw(len(idle))]
            genome[i] = (unit, self.cell_for(unit))
        elif len(genome) > 1:  # another order (a unit may stand in another's way)
            genome.insert(0, genome.pop(self.draw(len(genome))))
        elif idle and len(genome) < self.room:
            unit = idle[self.draw(len(idle))]
            genome.append((unit, self.cell_for(unit)))
        return genome


def _candidate_cells(world: GameState, legal: Sequence[Action], style: Style, cells: int) -> dict[str, list[str]]:
    """Each movable unit's best ``cells`` destinations by the quick move score, best first."""
    moves = [a for a in legal if isinstance(a, MoveUnit)]
    if not moves:
        return {}
    scorer = MoveScorer(Position(world), style)
    by_unit: dict[str, list[tuple[float, int, str]]] = {}
    for n, move in enumerate(moves):
        by_unit.setdefault(move.unit_id, []).append((-scorer.score(move), n, move.to))
    return {unit: [cell for _, _, cell in sorted(options)[:cells]] for unit, options in by_unit.items()}

