"""How far could `strong`'s plan search go with perfect foresight? `strong` seeing the real state, against greedy.

    python scripts/foresight_ceiling.py [--sees all|cards] [--games 200] [--seed 75001] [--jobs 1] [--iterations N]

The seer is `strong` (the MCTS bot, default options) whose worlds are the real state
instead of samples of its view: it knows the opponent's hidden cards, the draw order and
the rng, so in its own turn the dice of every plan it tries come out exactly as they will
when it plays that plan. It still chooses among the same greedy drafts and simulates the
enemy with the same playout policy. Its score against greedy is a ceiling for what
choosing among those plans can reach: a bot that plays fair sees less. One true world
needs one simulation per plan, hence one iteration by default.

``--sees cards`` splits the two kinds of foresight: that seer knows every card (the
opponent's hand and stored bonuses, the draw order) but not the dice: its worlds are the
real state with the rng drawn afresh per world, as the fair bot's are, and it runs the
fair bot's iterations by default.

It is a measurement, never a bot to play: it reads what no seat may see, so it is not in
the registry, the ladder or the lobby. It plays ``--games`` games on the seeds from
``--seed`` on, the seer the ATTACKER in the even games, and prints its wins with the 95 %
Wilson interval and the Elo difference that score means.
"""

from __future__ import annotations

import argparse
import math
import time
from collections.abc import Sequence
from dataclasses import dataclass, field

from msgspec.structs import replace

from engine import GameConfig, GameState, Side, mix_seed, new_game
from lab.bots import Bot, GreedyBot
from lab.bots.strong import StrongBot
from lab.runner import Tick, run_games
from lab.selfplay import play_game, wilson_interval


@dataclass(frozen=True)
class Seer(StrongBot):
    """`strong` searching in the real state: ``truth`` holds the state the current view was made from.

    With ``dice`` false it knows the real cards only: each world gets an rng of its own seed."""

    truth: list[GameState] = field(default_factory=list, compare=False)
    dice: bool = True
    name: str = "seer"

    def world(self, view: GameState, seed: int) -> GameState:
        """The real state itself (with the dice: whatever the seed), or with an rng drawn from ``seed``."""
        real = self.truth[0]
        if real.actions_taken != view.actions_taken:
            raise RuntimeError("the seer was asked about a position it was not shown")
        return real if self.dice else replace(real, rng=mix_seed(seed, 0xD1CE))


def play(item: tuple[int, int, int, bool], tick: Tick) -> tuple[int, bool, bool]:
    """One game of ``item`` = (seed, index, iterations, dice): its index, whether the seer won, whether the ATTACKER
    did."""
    seed, index, iterations, dice = item
    config = GameConfig(seed=seed)
    seer = Seer(iterations=iterations, truth=[new_game(config)], dice=dice)
    seer_side = Side.ATTACKER if index % 2 == 0 else Side.DEFENDER
    bots: dict[Side, Bot] = {seer_side: seer, seer_side.other: GreedyBot()}

    def show(state: object) -> None:
        assert isinstance(state, GameState)
        seer.truth[0] = state
        tick(state)

    _, final = play_game(config, bots, show)
    return index, final.winner is seer_side, final.winner is Side.ATTACKER


SIGHTS = {"all": "strong seeing the real state", "cards": "strong seeing the real cards, not the dice"}
"""``--sees`` choices, as the result line names them."""


def elo(score: float) -> float:
    """The Elo difference whose expected score is ``score`` (clamped off 0 and 1)."""
    score = min(max(score, 1e-4), 1 - 1e-4)
    return 400 * math.log10(score / (1 - score))


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200, help="games (default 200)")
    parser.add_argument("--seed", type=int, default=75001, help="the first game's seed (default 75001)")
    parser.add_argument("--jobs", type=int, default=1, help="processes (default 1)")
    parser.add_argument(
        "--sees", choices=SIGHTS, default="all", help="all: cards and dice (default); cards: the cards, not the dice"
    )
    parser.add_argument(
        "--iterations", type=int, help="the seer's simulations per search (default 1 seeing all, 48 seeing cards)"
    )
    args = parser.parse_args(argv)
    iterations = args.iterations if args.iterations is not None else (1 if args.sees == "all" else StrongBot.iterations)
    if args.games < 1 or args.jobs < 1 or iterations < 1 or not 0 <= args.seed <= 0xFFFFFFFF:
        parser.error("--games, --jobs and --iterations must be at least 1, --seed a 32-bit seed")
    started = time.perf_counter()
    items = [(args.seed + i, i, iterations, args.sees == "all") for i in range(args.games)]
    results = list(run_games(items, play, jobs=args.jobs))
    wins = sum(won for _, won, _ in results)
    as_attacker = sum(won for index, won, _ in results if index % 2 == 0)
    attacker = sum(attacker_won for _, _, attacker_won in results)
    low, high = wilson_interval(wins, args.games)
    print(
        f"seer ({SIGHTS[args.sees]}) against greedy, seeds {args.seed}..{args.seed + args.games - 1}, "
        f"sides alternating: {wins}/{args.games} = {wins / args.games:.1%} (95 % CI {low:.1%}-{high:.1%}), "
        f"{elo(wins / args.games):+.0f} Elo [{elo(low):+.0f}, {elo(high):+.0f}]; as ATTACKER "
        f"{as_attacker}/{(args.games + 1) // 2}, ATTACKER won {attacker}; {time.perf_counter() - started:.0f} s",
        flush=True,
    )


if __name__ == "__main__":
    main()
