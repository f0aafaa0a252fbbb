"""Engine benchmark: prints medians for new_game, legal_actions (by phase), reduce, random
playouts (actions/s, listing every legal action, and drawing one with random_legal_action)
and replay+verify of a 2,000-action record.

    python scripts/bench_engine.py [--games 20] [--repeat 5] [--clock cpu]

Targets (2-core machine): random playouts >= 30,000 actions/s including legal_actions;
replay+verify of 2,000 actions < 100 ms. Both playout figures play the same games (the
same seeded index source), so they differ only in how the action is found.
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections import defaultdict
from collections.abc import Callable
from functools import partial

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
from engine.analysis import add_card_effects
from engine.data import DECK_SOURCES, CardDef

_clock = time.perf_counter


def timed(fn: Callable[[], object]) -> float:
    start = _clock()
    fn()
    return _clock() - start


def random_game(config: GameConfig, choice_seed: int) -> tuple[list[object], dict[str, list[float]], list[float]]:
    """Play one random game; returns (actions, legal_actions seconds by phase, reduce seconds)."""
    state = new_game(config)
    actions: list[object] = []
    by_phase: dict[str, list[float]] = defaultdict(list)
    reduce_times: list[float] = []
    while True:
        t0 = _clock()
        legal = legal_actions(state)
        t1 = _clock()
        by_phase[state.phase.value].append(t1 - t0)
        if not legal:
            return actions, by_phase, reduce_times
        index, choice_seed = draw_index(len(legal), choice_seed)
        t2 = _clock()
        state = reduce(state, legal[index])
        reduce_times.append(_clock() - t2)
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


def bench_playouts(configs: list[GameConfig], repeat: int) -> None:
    for draw, how in ((False, "listing legal_actions"), (True, "drawing random_legal_action")):
        rates = [throughput(configs, draw=draw) for _ in range(repeat)]
        print(f"random playouts, {how}: median {statistics.median(rates):,.0f} actions/s "
              f"({len(configs)} games x {repeat} runs)")


def bench_new_game(configs: list[GameConfig]) -> None:
    new_game_ms = statistics.median(timed(partial(new_game, c)) for c in configs[:10] for _ in range(2)) * 1000
    print(f"new_game (default 20x30, generated terrain): median {new_game_ms:.2f} ms")


def bench_calls(configs: list[GameConfig]) -> None:
    phase_times: dict[str, list[float]] = defaultdict(list)
    reduce_times: list[float] = []
    for i, config in enumerate(configs[:5]):
        _, by_phase, reduces = random_game(config, i + 1)
        for phase, values in by_phase.items():
            phase_times[phase].extend(values)
        reduce_times.extend(reduces)
    print("legal_actions per call, by phase (median µs, calls):")
    for phase, values in sorted(phase_times.items()):
        print(f"  {phase:<16} {statistics.median(values) * 1e6:8.1f} µs  ({len(values)} calls)")
    print(f"reduce per action: median {statistics.median(reduce_times) * 1e6:.1f} µs "
          f"({len(reduce_times)} actions)")


def bench_replay(repeat: int) -> None:
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

    replay_ms = statistics.median(timed(verify) for _ in range(repeat)) * 1000
    print(f"replay+verify of a {len(actions)}-action record: median {replay_ms:.1f} ms")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=20, help="random games per throughput run")
    parser.add_argument("--repeat", type=int, default=5, help="repetitions for each median")
    parser.add_argument("--clock", choices=("wall", "cpu"), default="wall",
                        help="wall time (default), or this process's CPU time on a machine shared with other work")
    args = parser.parse_args()
    if args.clock == "cpu":
        global _clock
        _clock = time.process_time

    configs = [GameConfig(seed=seed) for seed in range(1, args.games + 1)]
    bench_new_game(configs)
    bench_calls(configs)
    bench_playouts(configs, args.repeat)
    bench_replay(args.repeat)


if __name__ == "__main__":
    main()


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
    standard = {c.id for c in DECK_SOURCES["standard"][0]}
    variant = tuple(c for c in DECK_SOURCES["field_manual"][0] if c.id not in standard)
    positions = _positions(games)
    n = len(positions)
    base_legal, base_reduce = _best(positions, repeat)
    print(f"card decks, the same {n} positions (least of {repeat} runs per call, each ratio measured in turns "
          "with the default):")
    print(f"  default deck            legal_actions {base_legal / n * 1e6:7.1f} µs  "
          f"reduce {base_reduce / n * 1e6:7.1f} µs")
    for card in variant:
        legal_x, reduce_x = _ratio(positions, _with_cards(positions, (card,)), repeat)
        print(f"  + {card.id:<21} x{legal_x:.2f} legal_actions  x{reduce_x:.2f} reduce")
    legal_x, reduce_x = _ratio(positions, _with_cards(positions, variant), repeat)
    print(f"  + all {len(variant)} at once        x{legal_x:.2f} legal_actions  x{reduce_x:.2f} reduce  (worst case)")


if __name__ == "__main__":
    deck_comparison()
