"""Engine benchmark: prints medians for new_game, terrain generation (20x30 and 200x300),
legal_actions (by phase), reduce (per action and per action type), random playouts
(actions/s, listing every legal action, and drawing one with random_legal_action), the RL
environment's steps/s (`scripts/bench_rl.py`, when numpy is installed) and replay+verify of a
2,000-action record, then the card decks section.

    python scripts/bench_engine.py [--games 20] [--repeat 5] [--clock cpu]
    python scripts/bench_engine.py --compare REF [--rounds 5]

Both playout figures play the same games (the same seeded index source), so they differ
only in how the action is found.

``--compare REF`` measures this checkout against the engine and lab (the RL environment) of
another commit (a tag, a branch, a hash): each round runs the figures once for each, in a fresh process, in turns
(the order alternating), on the process's CPU clock (single calls of `legal_actions` and
`reduce` on the wall clock, as always); it prints each figure's median over the rounds for
both and their ratio. The card decks section is not compared.
"""

from __future__ import annotations

import sys

if __name__ == "__main__" and "--engine-root" in sys.argv:  # a --compare child: the engine of another checkout
    sys.path.insert(0, sys.argv[sys.argv.index("--engine-root") + 1])

import argparse
import json
import statistics
import subprocess
import tempfile
import time
from collections import defaultdict
from collections.abc import Callable
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING

import msgspec

from engine import (
    Action,
    GameConfig,
    GameRecord,
    GameState,
    Side,
    VictoryConfig,
    draw_index,
    legal_actions,
    new_game,
    random_legal_action,
    reduce,
    replay,
    state_hash,
)

if TYPE_CHECKING:
    from engine.data import CardDef

_clock = time.perf_counter


def timed(fn: Callable[[], object]) -> float:
    start = _clock()
    fn()
    return _clock() - start


def random_game(
    config: GameConfig, choice_seed: int
) -> tuple[list[object], dict[str, list[float]], list[tuple[str, float]]]:
    """Play one random game; returns (actions, legal_actions seconds by phase, (action tag, reduce seconds)).

    Each call is timed on the wall clock whatever ``--clock`` says: reading the CPU clock is a
    system call costing about as much as a short ``reduce``. The medians drop the calls that a
    busy machine delayed.
    """
    clock = time.perf_counter
    state = new_game(config)
    actions: list[object] = []
    by_phase: dict[str, list[float]] = defaultdict(list)
    reduce_times: list[tuple[str, float]] = []
    while True:
        t0 = clock()
        legal = legal_actions(state)
        t1 = clock()
        by_phase[state.phase.value].append(t1 - t0)
        if not legal:
            return actions, by_phase, reduce_times
        index, choice_seed = draw_index(len(legal), choice_seed)
        t2 = clock()
        state = reduce(state, legal[index])
        reduce_times.append((type(legal[index]).__struct_config__.tag, clock() - t2))  # type: ignore[attr-defined]
        actions.append(legal[index])


class SeedSource:
    """The engine's `draw_index` as an index source for `random_legal_action`."""

    def __init__(self, seed: int) -> None:
        self.seed = seed

    def randrange(self, stop: int, /) -> int:
        index, self.seed = draw_index(stop, self.seed)
        return index


def throughput(configs: list[GameConfig], *, draw: bool) -> float:
    """Actions per second of random playouts, new_game excluded.

    Listing: each action is picked from `legal_actions`. Drawing: `random_legal_action`
    builds only the chosen one. Same seeds, so the same games.
    """
    total_actions, total_time = 0, 0.0
    for i, config in enumerate(configs):
        state = new_game(config)
        source = SeedSource(i + 1)
        start = _clock()
        count = 0
        while True:
            if draw:
                action = random_legal_action(state, source)
                if action is None:
                    break
            else:
                legal = legal_actions(state)
                if not legal:
                    break
                action = legal[source.randrange(len(legal))]
            state = reduce(state, action)
            count += 1
        total_time += _clock() - start
        total_actions += count
    return total_actions / total_time


Figures = dict[str, float]


def playout_figures(configs: list[GameConfig], repeat: int) -> Figures:
    figures: Figures = {}
    for draw, how in ((False, "listing legal_actions"), (True, "drawing random_legal_action")):
        rates = [throughput(configs, draw=draw) for _ in range(repeat)]
        figures[f"random playouts, {how} (actions/s)"] = statistics.median(rates)
    return figures


def new_game_figures(configs: list[GameConfig]) -> Figures:
    ms = statistics.median(timed(partial(new_game, c)) for c in configs[:10] for _ in range(2)) * 1000
    return {"new_game, default 20x30 with terrain (ms)": ms}


def terrain_figures(repeat: int) -> Figures:
    """Median ms of `generate_terrain` at 20x30 and 200x300 (100 times the cells: linear growth is x100)."""
    from engine.data import generate_terrain

    figures: Figures = {}
    for width, height, runs in ((20, 30, 4 * repeat), (200, 300, repeat)):
        ms = statistics.median(timed(partial(generate_terrain, seed, width, height)) for seed in range(1, runs + 1))
        figures[f"terrain {width}x{height} (ms)"] = ms * 1000
    return figures


def rl_figures(repeat: int) -> Figures:
    """`scripts/bench_rl.py`'s default env figure (steps/s against the random bot), when numpy is installed."""
    try:
        import bench_rl  # scripts/bench_rl.py, beside this file
    except ImportError:  # numpy (the rl extra) missing: no RL figure
        return {}
    bench_rl._clock = _clock
    rates = [bench_rl.steps_per_second(4) for _ in range(repeat)]
    return {"RL env vs random, default (steps/s)": statistics.median(rates)}


def call_figures(configs: list[GameConfig]) -> tuple[Figures, dict[str, int]]:
    """Median µs of legal_actions by phase and of reduce, and how many calls each median is of."""
    phase_times: dict[str, list[float]] = defaultdict(list)
    reduce_times: list[tuple[str, float]] = []
    for i, config in enumerate(configs[:10]):
        _, by_phase, reduces = random_game(config, i + 1)
        for phase, values in by_phase.items():
            phase_times[phase].extend(values)
        reduce_times.extend(reduces)
    figures = {f"legal_actions in {phase} (µs)": statistics.median(v) * 1e6 for phase, v in sorted(phase_times.items())}
    counts = {f"legal_actions in {phase} (µs)": len(v) for phase, v in phase_times.items()}
    figures["reduce per action (µs)"] = statistics.median(t for _, t in reduce_times) * 1e6
    counts["reduce per action (µs)"] = len(reduce_times)
    by_type: dict[str, list[float]] = defaultdict(list)
    for tag, seconds in reduce_times:
        by_type[tag].append(seconds)
    for tag, values in sorted(by_type.items()):
        figures[f"reduce {tag} (µs)"] = statistics.median(values) * 1e6
        counts[f"reduce {tag} (µs)"] = len(values)
    return figures, counts


def replay_figures(repeat: int) -> Figures:
    long_config = GameConfig(seed=2024, victory=VictoryConfig(round_limit=None, max_actions=2000))
    actions, _, _ = random_game(long_config, 99)
    state = new_game(long_config)
    hashes = []
    for action in actions:
        state = reduce(state, action)  # type: ignore[arg-type]
        hashes.append(state_hash(state))
    record = GameRecord(config=long_config, actions=tuple(actions), hashes=tuple(hashes))  # type: ignore[arg-type]

    def verify() -> None:
        for _ in replay(record):
            pass

    return {
        f"replay+verify of a {len(actions)}-action record (ms)": statistics.median(timed(verify) for _ in range(repeat))
        * 1000
    }


def all_figures(games: int, repeat: int) -> tuple[Figures, dict[str, int]]:
    configs = [GameConfig(seed=seed) for seed in range(1, games + 1)]
    figures = new_game_figures(configs)
    figures |= terrain_figures(repeat)
    calls, counts = call_figures(configs)
    figures |= calls
    figures |= playout_figures(configs, repeat)
    figures |= rl_figures(repeat)
    figures |= replay_figures(repeat)
    return figures, counts


def report(figures: Figures, counts: dict[str, int], games: int, repeat: int) -> None:
    for name, value in figures.items():
        how = (
            f" ({counts[name]} calls)"
            if name in counts
            else f" ({games} games x {repeat} runs)"
            if "playouts" in name
            else ""
        )
        print(f"{name}: median {value:,.1f}{how}")


def compare(ref: str, rounds: int, games: int, repeat: int) -> None:
    """Print every figure of this checkout against REF's engine, measured in turns in fresh processes."""
    here = Path(__file__).resolve().parents[1]
    commit = subprocess.run(["git", "rev-parse", "--short", ref], cwd=here, capture_output=True, text=True)
    if commit.returncode != 0:
        sys.exit(f"bench_engine: {ref!r} is not a commit of this repository ({commit.stderr.strip()})")
    with tempfile.TemporaryDirectory(prefix="taktik-ref-") as tmp:
        archive = subprocess.run(
            # The lab too: the RL environment is lab code, and today's lab may ask an older engine for more.
            ["git", "archive", commit.stdout.strip(), "engine", "lab"], cwd=here, capture_output=True, check=True
        )
        subprocess.run(["tar", "-x", "-C", tmp], input=archive.stdout, check=True)
        runs: dict[str, list[Figures]] = {"this": [], "ref": []}
        for round_ in range(rounds):
            order = ("this", "ref") if round_ % 2 == 0 else ("ref", "this")
            for which in order:
                root = str(here) if which == "this" else tmp
                child = subprocess.run(
                    [
                        sys.executable,
                        __file__,
                        "--engine-root",
                        root,
                        "--figures-json",
                        "--clock",
                        "cpu",
                        "--games",
                        str(games),
                        "--repeat",
                        str(repeat),
                    ],
                    capture_output=True,
                    text=True,
                    check=False,
                )
                if child.returncode != 0:
                    sys.exit(f"bench_engine: the {which} engine's run failed:\n{child.stderr.strip()}")
                runs[which].append(json.loads(child.stdout))
    print(
        f"this checkout against {ref} ({commit.stdout.strip()}): medians of {rounds} rounds, each a fresh process "
        "per engine in turns, CPU time (single calls: wall-clock medians); ratio = this / ref "
        "(below 1: this is faster, except for actions/s and steps/s)"
    )
    for name in runs["this"][0]:
        if name not in runs["ref"][0]:
            continue
        this = statistics.median(r[name] for r in runs["this"])
        that = statistics.median(r[name] for r in runs["ref"])
        print(f"  {name:<58} {this:12,.1f} {that:12,.1f}   x{this / that:.2f}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=20, help="random games per throughput run")
    parser.add_argument("--repeat", type=int, default=5, help="repetitions for each median")
    parser.add_argument(
        "--clock",
        choices=("wall", "cpu"),
        default="wall",
        help="wall time (default), or this process's CPU time on a machine shared with other work",
    )
    parser.add_argument("--compare", metavar="REF", help="measure against the engine of another commit, in turns")
    parser.add_argument("--rounds", type=int, default=5, help="--compare: rounds of one run per engine")
    parser.add_argument("--engine-root", help=argparse.SUPPRESS)
    parser.add_argument("--figures-json", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.clock == "cpu":
        global _clock
        _clock = time.process_time
    if args.compare:
        compare(args.compare, args.rounds, args.games, max(1, args.repeat // 2))
        return
    figures, counts = all_figures(args.games, args.repeat)
    if args.figures_json:
        print(json.dumps(figures))
        return
    report(figures, counts, args.games, args.repeat)
    deck_comparison()


# --- Card decks: the default deck against the variant deck (issue 20) -------------------------
# Kept apart from the rest of the file: `python scripts/bench_engine.py` prints it last.
# Random games of the two decks take different courses, so their times per action would
# compare games, not decks. This section replays the same positions (those of default-deck
# games) three ways: as they are; with one variant card in play (each card in turn, played
# by alternating sides, aimed at a unit of its player), the usual case; and with all of them
# in play at once, the worst case. Each position is listed and then played, as a game does;
# each call's time is its least over a few runs (calls a busy machine delayed drop out).
# Target: the variant at most 20 % more per action. A card's own rule may change the work itself (Road March's
# extra MP widens every movement search): that is the game, not the card language.


Positions = list[tuple[GameState, Action]]


def _variant_effects(state: GameState, cards: tuple[CardDef, ...]) -> GameState:
    from engine.analysis import add_card_effects

    for i, card in enumerate(cards):
        side = Side.ATTACKER if i % 2 == 0 else Side.DEFENDER
        own = [u.id for u in state.units if u.side is side and u.cell is not None]
        aimed = card.targeting.kind != "none" and bool(own)
        state, _ = add_card_effects(state, card, side, tuple(own[:1]) if aimed else ())
    return state


def _with_cards(positions: Positions, cards: tuple[CardDef, ...]) -> Positions:
    """``positions`` with ``cards`` in play, carrying one effects tuple from position to position as a game does.

    A game keeps its effects tuple from state to state until an effect comes or goes, and
    the default positions share theirs (about 180 runs in 1,184 positions), which the
    engine's per-effects-tuple caches rely on. Adding the cards anew at each position
    would give every variant position an effects tuple never seen before, which no game
    does, and bill the variant for that alone. So a position whose default effects tuple
    is the previous one's, and whose effects with the cards equal the previous ones, gets
    the previous position's effects tuple itself.
    """
    out: Positions = []
    last_base: object = None
    last: tuple[object, ...] = ()
    for state, action in positions:
        with_cards = _variant_effects(state, cards)
        if state.effects is last_base and with_cards.effects == last:
            with_cards = msgspec.structs.replace(with_cards, effects=last)
        last_base, last = state.effects, with_cards.effects
        out.append((with_cards, action))
    return out


def _positions(games: int) -> list[tuple[GameState, Action]]:
    positions: list[tuple[GameState, Action]] = []
    for seed in range(1, games + 1):
        state, choice = new_game(GameConfig(seed=seed)), seed
        while legal := legal_actions(state):
            index, choice = draw_index(len(legal), choice)
            positions.append((state, legal[index]))
            state = reduce(state, legal[index])
    return positions


def _run(positions: Positions) -> tuple[list[float], list[float]]:
    """Seconds of legal_actions and of reduce at each position, the reduce right after its own listing as
    a game does (the caches an allowance or a search keeps are then those of the position played).
    Fresh objects each run: some caches are by identity. Always the wall clock: the process's CPU
    clock costs a system call per reading, as much as a short call, and each call here is timed."""
    clock = time.perf_counter
    legal_times: list[float] = []
    reduce_times: list[float] = []
    for state, action in [(msgspec.structs.replace(s, rng=s.rng), a) for s, a in positions]:
        t0 = clock()
        listed = legal_actions(state)
        t1 = clock()
        legal_times.append(t1 - t0)
        if action in listed:
            t2 = clock()
            reduce(state, action)
            reduce_times.append(clock() - t2)
        else:
            reduce_times.append(0.0)
    return legal_times, reduce_times


def _least(runs: list[tuple[list[float], list[float]]]) -> tuple[float, float]:
    """Per position the least time over the runs (a busy machine delays some calls of each run), summed."""
    return (
        sum(min(times) for times in zip(*(r[0] for r in runs), strict=True)),
        sum(min(times) for times in zip(*(r[1] for r in runs), strict=True)),
    )


def _best(positions: Positions, repeat: int) -> tuple[float, float]:
    """Seconds of legal_actions and of reduce over ``positions`` (`_least` of ``repeat`` runs)."""
    return _least([_run(positions) for _ in range(repeat)])


def _ratio(base: Positions, other: Positions, repeat: int) -> tuple[float, float]:
    """Time of ``other`` over ``base`` for legal_actions and reduce, the runs taken in turns (a busy machine drifts)."""
    base_runs: list[tuple[list[float], list[float]]] = []
    other_runs: list[tuple[list[float], list[float]]] = []
    for _ in range(repeat):
        base_runs.append(_run(base))
        other_runs.append(_run(other))
    (base_legal, base_reduce), (other_legal, other_reduce) = _least(base_runs), _least(other_runs)
    return other_legal / base_legal, other_reduce / base_reduce


def deck_comparison(games: int = 4, repeat: int = 5) -> None:
    """Print legal_actions and reduce per action on the same positions, default deck and variant cards in play."""
    from engine.data import DECK_SOURCES

    standard = {c.id for c in DECK_SOURCES["standard"][0]}
    variant = tuple(c for c in DECK_SOURCES["field_manual"][0] if c.id not in standard)
    positions = _positions(games)
    n = len(positions)
    base_legal, base_reduce = _best(positions, repeat)
    print(
        f"card decks, the same {n} positions (least of {repeat} runs per call, each ratio measured in turns "
        "with the default):"
    )
    print(
        f"  default deck            legal_actions {base_legal / n * 1e6:7.1f} µs  "
        f"reduce {base_reduce / n * 1e6:7.1f} µs"
    )
    for card in variant:
        legal_x, reduce_x = _ratio(positions, _with_cards(positions, (card,)), repeat)
        print(f"  + {card.id:<21} x{legal_x:.2f} legal_actions  x{reduce_x:.2f} reduce")
    legal_x, reduce_x = _ratio(positions, _with_cards(positions, variant), repeat)
    print(f"  + all {len(variant)} at once        x{legal_x:.2f} legal_actions  x{reduce_x:.2f} reduce  (worst case)")


if __name__ == "__main__":
    main()
