"""Fuzz rule coverage: universes from the engine's data, counts from real games, guidance."""

from __future__ import annotations

import re
from pathlib import Path

from engine import (
    ILLEGAL_ACTION_CODES,
    VICTORY_REASONS,
    Action,
    Phase,
    PlayTactic,
    Window,
    legal_actions,
    new_game,
    reduce,
)
from engine.data import CARDS
from lab.fuzz import FuzzOptions, fuzz_game, game_seed, random_config
from lab.fuzz.batch import FuzzJob, play_fuzz
from lab.fuzz.coverage import CATEGORIES, Coverage, Guide, format_coverage, universe

ENGINE = Path(__file__).resolve().parents[2] / "engine"
REFUSAL = re.compile(r'IllegalAction\((?:[^()]|\((?:[^()]|\([^()]*\))*\))*?,\s*(?:code=)?"([a-z_]+)"\s*,?\s*\)')
"""An ``IllegalAction(message, "code")`` in the engine's source (messages may hold calls)."""


def engine_source() -> str:
    return "\n".join(p.read_text() for p in sorted(ENGINE.rglob("*.py")))


def test_every_universe_comes_from_the_engine() -> None:
    everything = universe()
    assert tuple(everything) == CATEGORIES
    assert len(everything["cards"]) + len(everything["tactics"]) == len(CARDS)
    assert set(everything["tactics"]) == {c.id for c in CARDS.values() if c.kind == "tactic"}
    assert everything["windows"] == tuple(w.value for w in Window)
    assert everything["phases"] == tuple(p.value for p in Phase)
    assert "modify_damage.mul" in everything["effects"]  # precision shot's doubling
    assert everything["victories"] == VICTORY_REASONS
    assert everything["illegal codes"] == ILLEGAL_ACTION_CODES


def test_the_engine_lists_every_refusal_code_and_victory_reason_it_uses() -> None:
    source = engine_source()
    codes = set(REFUSAL.findall(source))
    assert len(codes) >= 20 and codes <= set(ILLEGAL_ACTION_CODES), codes - set(ILLEGAL_ACTION_CODES)
    reasons = set(re.findall(r'declare_winner\([^()]*(?:\([^()]*\))?[^()]*,\s*"([a-z_]+)"\)', source))
    reasons |= set(re.findall(r'_points_winner\(state,\s*"([a-z_]+)"\)', source))
    assert "annihilation" in reasons and reasons <= set(VICTORY_REASONS), reasons - set(VICTORY_REASONS)


def test_a_game_counts_what_it_reached_and_the_report_names_the_rest() -> None:
    seed = game_seed(40, 0)
    coverage = Coverage()
    outcome = fuzz_game(random_config(seed), seed, FuzzOptions(unlisted=4), coverage)
    assert outcome.failure is None
    assert coverage.counts["phases"]["MOVEMENT"] > 0 and "TURN_START" in coverage.counts["phases"]
    assert len(coverage.reached("victories")) == 1  # one game, one ending
    assert coverage.counts["illegal codes"]  # unlisted actions were refused with codes
    assert coverage.reached("cards") <= set(universe()["cards"])
    report = format_coverage(coverage)
    assert "victories        1/11" in report and "never: " in report
    assert "resignation" in coverage.unreached("victories")  # fuzzing never resigns


def test_coverage_merges_and_a_job_returns_its_own_coverage() -> None:
    seeds = [game_seed(8, i) for i in range(2)]
    results = [play_fuzz(FuzzJob(i, s, random_config(s), FuzzOptions(unlisted=2))) for i, s in enumerate(seeds)]
    total = Coverage()
    for result in results:
        total.merge(result.coverage)
    phases = sum(r.coverage.counts["phases"]["MOVEMENT"] for r in results)
    assert total.counts["phases"]["MOVEMENT"] == phases
    again = play_fuzz(FuzzJob(0, seeds[0], random_config(seeds[0]), FuzzOptions(unlisted=2)))
    assert again.coverage == results[0].coverage and again.outcome == results[0].outcome


def first_tactic_position(seed: int) -> tuple[object, list[Action]]:
    """Play a game by always taking the first legal action until a tactic can be played."""
    state = new_game(random_config(seed))
    while state.to_act is not None:
        legal = legal_actions(state)
        if any(isinstance(a, PlayTactic) for a in legal):
            return state, legal
        state = reduce(state, legal[-1])
    raise AssertionError("no tactic was ever playable")


def test_the_guide_narrows_to_actions_resolving_an_unreached_card() -> None:
    for i in range(20):
        try:
            state, legal = first_tactic_position(game_seed(3, i))
        except AssertionError:
            continue
        break
    tactic = next(a for a in legal if isinstance(a, PlayTactic))
    guide = Guide(frozenset({tactic.card_id}))
    narrowed = 0
    for rng in range(1, 9):
        chosen, next_rng = guide(state, legal, rng)  # type: ignore[arg-type]
        assert next_rng != rng  # the coin is drawn from the game's own seed
        if list(chosen) != legal:
            narrowed += 1
            assert all(isinstance(a, PlayTactic) and a.card_id == tactic.card_id for a in chosen)
    assert narrowed >= 4  # three times in four, about
    assert Guide(frozenset())(state, legal, 5) == (legal, 5)  # nothing to aim at: untouched  # type: ignore[arg-type]


def test_guided_games_are_deterministic_and_differ_from_unguided_ones() -> None:
    seed = game_seed(11, 0)
    guide = Guide.toward(Coverage())  # every card unreached
    first = fuzz_game(random_config(seed), seed, FuzzOptions(unlisted=0), guide=guide)
    second = fuzz_game(random_config(seed), seed, FuzzOptions(unlisted=0), guide=guide)
    plain = fuzz_game(random_config(seed), seed, FuzzOptions(unlisted=0))
    assert first.failure is None and first.actions == second.actions
    assert first.actions != plain.actions
