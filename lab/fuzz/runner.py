"""Random legal playouts with every invariant checked at every step.

`fuzz_game` plays one random game (action type first, then an action of that type,
from the engine's LCG) and stops at the first broken invariant. `check_sequence` replays
a given action list with the same checks: it is what shrinking and the regression tests
written by ``taktik fuzz`` run. Everything is deterministic: the unlisted actions tried
at a step are drawn from a seed derived from that position's hash, so a replay tries
exactly the same ones.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from engine import (
    Action,
    GameConfig,
    GameRecord,
    GameState,
    IllegalAction,
    Phase,
    ReplayMismatch,
    encode_action,
    encode_state,
    legal_actions,
    mix_seed,
    new_game,
    reduce,
    replay,
    state_hash,
)

from ..bots.random_bot import pick_by_type
from .coverage import Coverage, Guide
from .invariants import Failure, card_multiset, check_state, check_step

__all__ = ["INVALID", "FuzzOptions", "GameOutcome", "check_record", "check_sequence", "fuzz_game"]


@dataclass(frozen=True)
class FuzzOptions:
    """How hard to check each step."""

    unlisted: int = 8  # unlisted (mutated) actions tried per step
    only: frozenset[str] | None = None  # run only these checks (None: all)


@dataclass(frozen=True)
class GameOutcome:
    """One fuzzed game: its config, the actions played and the first failure (if any)."""

    config: GameConfig
    actions: tuple[Action, ...]
    failure: Failure | None

    def record(self) -> GameRecord:
        """The game as a record (without hashes: a failing engine may not replay)."""
        return GameRecord(config=self.config, actions=self.actions)


INVALID = Failure("invalid_sequence", -1, "an action of the sequence is not legal where it is played")
"""What `check_sequence` returns when the sequence itself is not a legal game (not a bug)."""


def _step_seed(state: GameState, step: int) -> int:
    return mix_seed(int(state_hash(state)[:8], 16), step)


def _advance(state: GameState, action: Action, step: int) -> tuple[GameState | None, Failure | None]:
    before = encode_state(state)
    try:
        new = reduce(state, action)
    except IllegalAction as err:
        return None, Failure("accepts_listed", step, f"{encode_action(action)} rejected: {err.reason}")
    except Exception as err:
        return None, Failure("crash", step, f"{encode_action(action)} raised {type(err).__name__}: {err}")
    if encode_state(state) != before:
        return None, Failure("no_input_mutation", step, f"reduce changed its input for {encode_action(action)}")
    return new, None


def _walk(
    config: GameConfig,
    choose: Callable[[GameState, list[Action], int], Action | None],
    options: FuzzOptions,
    coverage: Coverage | None = None,
) -> tuple[list[Action], list[str], GameState | None, Failure | None]:
    """Play from ``config``, asking ``choose`` for each action, checking everything (``coverage``
    counts every position reached and every refusal)."""
    try:
        state = new_game(config)
    except Exception as err:
        return [], [], None, Failure("crash", -1, f"new_game raised {type(err).__name__}: {err}")
    deck = card_multiset(state)
    if coverage is not None:
        coverage.observe(state)
    played: list[Action] = []
    hashes: list[str] = []
    failure = check_state(state, -1, deck, options.only)
    cap = state.rules.victory.max_actions
    while failure is None:
        step = len(played)
        legal = legal_actions(state)
        if not legal:
            break
        if step > cap:
            return played, hashes, state, Failure("terminates", step, f"no end after {step} actions (cap {cap})")
        rejected = coverage.rejected if coverage is not None else None
        failure = check_step(state, legal, step, _step_seed(state, step), options.unlisted, options.only, rejected)
        if failure is not None:
            break
        action = choose(state, legal, step)
        if action is None:
            break
        if action not in legal:
            return played, hashes, state, INVALID
        new, failure = _advance(state, action, step)
        if new is None:
            break
        played.append(action)
        state = new
        hashes.append(state_hash(state))
        if coverage is not None:
            coverage.observe(state)
        failure = check_state(state, step, deck, options.only)
    return played, hashes, state, failure


def _check_replay(config: GameConfig, played: list[Action], hashes: list[str]) -> Failure | None:
    record = GameRecord(config=config, actions=tuple(played), hashes=tuple(hashes))
    try:
        for _ in replay(record):
            pass
    except ReplayMismatch as err:
        return Failure("replay", err.step, str(err))
    except Exception as err:
        return Failure("replay", len(played), f"replay raised {type(err).__name__}: {err}")
    return None


def fuzz_game(
    config: GameConfig,
    seed: int,
    options: FuzzOptions | None = None,
    coverage: Coverage | None = None,
    guide: Guide | None = None,
) -> GameOutcome:
    """Play one random legal game from ``config`` (choices from ``seed``), checking every step.

    ``coverage`` counts what the game exercised; ``guide`` narrows the choices (``--guided``).
    """
    options = options or FuzzOptions()
    rng = seed

    def choose(state: GameState, legal: Sequence[Action], step: int) -> Action:
        nonlocal rng
        if guide is not None:
            legal, rng = guide(state, legal, rng)
        action, rng = pick_by_type(legal, rng)
        return action

    played, hashes, final, failure = _walk(config, choose, options, coverage)
    if failure is None and final is not None:
        if final.phase is not Phase.VICTORY:
            failure = Failure("terminates", len(played), "the playout stopped before the game ended")
        else:
            failure = _check_replay(config, played, hashes)
    return GameOutcome(config=config, actions=tuple(played), failure=failure)


def check_sequence(config: GameConfig, actions: Sequence[Action], options: FuzzOptions | None = None) -> Failure | None:
    """Replay ``actions`` from ``config`` with every check; the first failure, `INVALID` or None.

    Checks run at every position reached, including the last; the game need not be over.
    """
    options = options or FuzzOptions()

    def choose(state: GameState, legal: list[Action], step: int) -> Action | None:
        return actions[step] if step < len(actions) else None

    played, hashes, _, failure = _walk(config, choose, options)
    if failure is None and len(played) == len(actions):
        failure = _check_replay(config, played, hashes)
    return failure


def check_record(record: GameRecord, options: FuzzOptions | None = None) -> Failure | None:
    """`check_sequence` of a record's config and actions (what written regression tests call)."""
    failure = check_sequence(record.config, record.actions, options)
    return None if failure is INVALID else failure
