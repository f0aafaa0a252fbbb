"""The MCTS bot: Monte Carlo search over whole-turn plans, each tried against the enemy's reply.

A turn is a handful of moves and attack declarations that only pay off together, and
the enemy answers before anything else happens. So the search does not branch on
single actions; its root branches on **turn plans** (macro-actions), and each
simulation plays a plan on through the enemy's reply and the seat's next turn:

1. **draft** plans: in one world sampled from the view (`sample_world`), the greedy
   lookahead plays the seat's turn up to its dice once per evaluation `Style` (balanced,
   reckless, careful, patient, pushing, ...); identical plans are merged;
2. **simulate**: each iteration samples a fresh world (the opponent's hidden cards, the
   deck order and the dice are all unknown and resampled) and plays one plan in it (a
   position the plan did not foresee is answered by the balanced greedy lookahead); then
   the seat's dice roll, the enemy answers with the greedy policy (its card, moves,
   attacks and dice) and the seat's next turn is played the same way up to its attack
   declarations (``turns=2``); the position is scored with `evaluate` (the declared
   attacks at their expected value);
3. **select**: every plan is tried in the same sampled worlds (so plans are compared on
   the same dice and hidden cards: common random numbers), ``iterations // plans`` worlds
   (at least one); the plan with the best total is played.

The bot plays the first action of the best plan and remembers the plan for the rest of
its turn: at a later decision whose position the plan foresaw, it plays the plan's next
action without searching again. Any other position (an enemy reaction changed things)
gets a fresh search.

With the ``deploy`` option (on by default), a seat that deploys by hand (manual deployment only; the default
game deploys inside `new_game`) places its units by `deploy.deployment_plan` instead of
AUTO_DEPLOY: out of the enemy's first strike, as close to the fight as that allows.

Only the seat's own MOVEMENT and ATTACK decisions are searched; card resolution,
dice-phase tactics, reactions and victim choices use the greedy lookahead, which averages
dice exactly. The budget is a number of simulations (``iterations``), so the same
``(view, legal, seed)`` given to a fresh bot always gives the same choice; an optional
time budget needs an injected ``clock`` (the engine itself never reads the time).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace

from engine import Action, GameState, Phase, Side, legal_actions, mix_seed, reduce
from engine.analysis import points_leader

from .deploy import unsearched_choice
from .determinize import sample_world, seat_of
from .evaluate import BALANCED, Style, evaluate
from .greedy import greedy_action
from .leaf import race_value
from .plan import Plan, PlanMemory, PlanningBot, signature
from .position import DAMAGE_SHARE
from .rollout import MOVE_SAMPLE, quick_action

__all__ = ["STYLES", "MCTSBot", "SearchStats"]

STYLES: tuple[Style, ...] = (
    BALANCED,
    Style(threat=0.0),  # reckless: ignore the enemy's next turn
    Style(threat=0.8),  # careful: fear it more
    Style(approach=0.0),  # patient: no pull towards the enemy
    Style(approach=3.0),  # pushing: close in hard
    Style(threat=0.8, approach=3.0),  # careful but pushing
)
"""The evaluation styles the MCTS bot drafts its turn plans in."""

MARCH_STYLES: tuple[Style, ...] = (
    Style(rival_approach=False),  # march: only the seat's own pull, so walking towards many enemies pays
    Style(approach=3.0, rival_approach=False),  # forced march
)
"""Extra drafts with the ``march`` option: the approach judged as the seat's own pull only."""

WIDE_STYLES: tuple[Style, ...] = (
    Style(threat=0.0, approach=3.0),  # charge: ignore the enemy's reply and close in hard
    Style(threat=1.5, approach=0.0),  # hold: fear the reply most and feel no pull
)
"""Extra drafts with the ``wide`` option: the corners the default styles leave out."""

_SEARCHED = (Phase.MOVEMENT, Phase.ATTACK)
_MAX_STEPS = 400  # a safety bound on one draft or simulation (a turn is a few dozen actions)


@dataclass
class SearchStats:
    """What one search did (for benchmarks and tests)."""

    iterations: int = 0  # simulations run
    plans: int = 0  # distinct plans drafted
    scores: list[float] = field(default_factory=list)  # mean simulated score per plan, in draft order


@dataclass(frozen=True)
class MCTSBot(PlanningBot):
    """Draft a turn plan per style, simulate each through the next turns, play the best."""

    iterations: int = 48  # simulations per search (one plan in one sampled world each)
    styles: tuple[Style, ...] = STYLES
    move_limit: int = 16  # the seat's moves looked ahead per decision while drafting
    reply_move_limit: int = 8  # the same for the greedy model of every other decision
    turns: int = 2  # turns simulated after the plan's own: the enemy's reply, then the seat's next turn
    time_budget: float | None = None  # seconds; needs ``clock``; stops early, never exceeds iterations
    clock: Callable[[], float] | None = None  # e.g. time.monotonic, injected by the caller
    quick: bool = True  # simulations play the fast playout policy (`rollout.quick_action`), not the lookahead
    move_sample: int = MOVE_SAMPLE  # moves the playout policy scores per decision
    greedy_reply: bool = False  # the enemy's reply turn is played by the greedy lookahead even when ``quick``
    race: float = 0.0  # > 0: score a simulation as a chance to win the race with this spread (`leaf.race_value`)
    travel: bool = False  # the seat's approach pull counts MP of travel, not a straight line (`Style.travel`)
    own_pull: bool = False  # the seat judges only its own approach pull, not the enemy's (`Style.rival_approach`)
    travel_threat: bool = False  # the seat fears an enemy only where it can walk into range (`Style.travel_threat`)
    march: int = 0  # draft `MARCH_STYLES` too when the styles drafted at most this many plans (0: never)
    wide: bool = False  # draft `WIDE_STYLES` too (charge and hold), for a wider choice of plans
    standoff: bool = False  # the seat drops the enemy's approach pull in a standoff (`Style.standoff`)
    pressed: bool = False  # ``march`` and ``standoff`` only while the seat would lose the round limit as things stand
    damage_share: float = DAMAGE_SHARE  # the seat's share of a damaged unit's VP counted as lost (`Style.damage_share`)
    deploy: bool = True  # in manual deployment, place units by `deploy.deployment_plan`, not AUTO_DEPLOY
    name: str = "mcts"
    _memo: PlanMemory = field(default_factory=PlanMemory, init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        if self.iterations < 1:
            raise ValueError("iterations must be at least 1")
        if self.turns < 1:
            raise ValueError("turns must be at least 1 (the enemy's reply)")
        if not self.styles or not all(isinstance(style, Style) for style in self.styles):
            raise ValueError("styles must be one or more lab.bots.evaluate.Style values")
        if self.race < 0:
            raise ValueError("race must be 0 (plain VP leaves) or a positive spread in VP")
        switches: tuple[str, ...] = ("quick", "greedy_reply", "travel", "own_pull", "travel_threat", "wide")
        switches += ("standoff", "pressed", "deploy")
        for switch in switches:
            if not isinstance(getattr(self, switch), bool):
                raise ValueError(f"{switch} must be true or false, not {getattr(self, switch)!r}")
        if isinstance(self.march, bool) or not isinstance(self.march, int) or self.march < 0:
            raise ValueError("march must be a whole number of plans >= 0 (0: never draft the march styles)")
        if self.time_budget is not None and self.clock is None:
            raise ValueError("a time budget needs a clock (pass clock=time.monotonic)")
        Style(damage_share=self.damage_share)  # checks it

    def choose(self, view: GameState, legal: Sequence[Action], rng: int) -> tuple[Action, int]:
        """Return the chosen action and the next seed."""
        unsearched = unsearched_choice(view, legal, rng, self.deploy)
        if unsearched is not None:
            return unsearched
        side = seat_of(view)
        planned = self._memo.planned(view, side) if _is_searched(view, side) else None
        if planned is None or planned not in legal:
            planned, _ = self.search(view, legal, rng)
        return planned, mix_seed(rng, 1)

    def search(self, view: GameState, legal: Sequence[Action], rng: int) -> tuple[Action, SearchStats]:
        """Search afresh (ignoring a remembered plan); also return what the search did."""
        if not legal:
            raise ValueError("no legal action to choose from (the game is over)")
        side = seat_of(view)
        world = self.world(view, mix_seed(rng, 2))
        if len(legal) == 1 or not _is_searched(view, side):
            return greedy_action(world, legal, self.move_limit, self._judging()), SearchStats()
        deadline = self.deadline()  # one for the whole search: its drafts and its simulations
        plans: list[Plan] = []
        pressed = not self.pressed or _losing_the_limit(view, side)  # only a seat the tie rule goes against marches
        march, standoff = (self.march, self.standoff) if pressed else (0, False)
        for style in self.styles + (WIDE_STYLES if self.wide else ()):
            if plans and self.past(deadline):
                break  # out of time: choose among the plans drafted so far
            plan = self._draft(world, side, self._own(style, standoff))
            if plan and plan not in plans:
                plans.append(plan)
        if len(plans) <= march and not self.past(deadline):  # the styles agree (often all "end the phase")
            for style in MARCH_STYLES:
                plan = self._draft(
                    world, side, replace(style, travel=self.travel, standoff=standoff, damage_share=self.damage_share)
                )
                if plan and plan not in plans:
                    plans.append(plan)
        stats = SearchStats(plans=len(plans))
        best = plans[0]
        if len(plans) > 1:
            best = self.select(view, side, plans, mix_seed(rng, 3), stats, standoff, deadline)
        self._memo.remember(best)
        action = best[0][1]
        return (action if action in legal else greedy_action(world, legal, self.move_limit, self._judging())), stats

    def world(self, view: GameState, seed: int) -> GameState:
        """One real position consistent with ``view`` (`sample_world`): the worlds plans are drafted and tried in.

        scripts/foresight_ceiling.py replaces it with the real state, to measure what
        perfect foresight of the hidden cards and the dice would give this search."""
        return sample_world(view, seed)[0]

    def _own(self, style: Style, standoff: bool = False) -> Style:
        """``style`` as the seat plays it: with its travel, own-pull, travel-threat and standoff options."""
        return replace(
            style,
            travel=self.travel,
            rival_approach=not self.own_pull,
            travel_threat=self.travel_threat,
            standoff=standoff,
            damage_share=self.damage_share,
        )

    def _judging(self) -> Style:
        """The balanced style with the seat's damage share: for the decisions it does not search."""
        return BALANCED if self.damage_share == DAMAGE_SHARE else replace(BALANCED, damage_share=self.damage_share)

    def _draft(self, world: GameState, side: Side, style: Style) -> Plan:
        """The seat's turn up to its dice, played by the greedy lookahead in ``style``."""
        plan: list[tuple[bytes, Action]] = []
        state = world
        for _ in range(_MAX_STEPS):
            if state.turn != world.turn or state.phase not in _SEARCHED:
                break
            legal = legal_actions(state)
            if state.to_act is side:
                action = greedy_action(state, legal, self.move_limit, style)
                plan.append((signature(state, side), action))
            else:
                action = greedy_action(state, legal, self.reply_move_limit)
            state = reduce(state, action)
        return tuple(plan)

    def select(
        self,
        view: GameState,
        side: Side,
        plans: list[Plan],
        rng: int,
        stats: SearchStats,
        standoff: bool = False,
        deadline: float | None = None,
    ) -> Plan:
        """The plan with the best total over the same sampled worlds (at least one world), each simulated
        through the next ``turns`` turns (`_simulate`); ``stats`` gets the simulations and each plan's mean.

        With a time budget, no world is begun after ``deadline`` (a reading of ``clock``; None: the
        budget from now) but the first."""
        totals = [0.0] * len(plans)
        worlds = max(1, self.iterations // len(plans))
        if deadline is None:
            deadline = self.deadline()
        done = 0
        while done < worlds:
            if done and self.past(deadline):
                break
            world = self.world(view, mix_seed(rng, done))
            done += 1
            for i, plan in enumerate(plans):
                totals[i] += self._simulate(world, side, plan, standoff)
        stats.iterations = done * len(plans)
        stats.scores = [total / done for total in totals]
        return plans[max(range(len(plans)), key=lambda i: (round(totals[i], 9), -i))]

    def _simulate(self, world: GameState, side: Side, plan: Plan, standoff: bool = False) -> float:
        """Play ``plan`` in ``world`` and the following ``turns`` by greedy; score the result for ``side``."""
        planned = dict(plan)
        own = self._own(BALANCED, standoff)
        last = world.turn + self.turns
        state = world
        for _ in range(_MAX_STEPS * self.turns):
            if state.phase is Phase.VICTORY or state.turn > last:
                break
            if state.turn == last and state.phase is Phase.DICE_RESOLUTION:
                break  # the last turn's attacks are declared: evaluate counts them at their expected value
            legal = legal_actions(state)
            action = planned.get(signature(state, side)) if state.to_act is side else None
            if action is None or action not in legal:
                # The seat plays its own turns as it would (its travel pull); the enemy as the greedy bot.
                style = own if state.active is side else BALANCED
                if self.quick and not (self.greedy_reply and state.active is not side):
                    action = quick_action(state, legal, self.reply_move_limit, style, self.move_sample)
                else:
                    action = greedy_action(state, legal, self.reply_move_limit, style)
            state = reduce(state, action)
        return race_value(state, side, self.race, own) if self.race > 0 else evaluate(state, side, style=own)


def _losing_the_limit(view: GameState, side: Side) -> bool:
    """True when ``side`` would not win if the round limit came now: behind on VP, or level as the ATTACKER."""
    return points_leader(view) is not side


def _is_searched(view: GameState, side: Side) -> bool:
    return view.active is side and view.phase in _SEARCHED
