"""Every turn ends (rules §4.6): adversarial players that never end a turn while anything else
is legal still reach its end within `turn_action_bound`, deployment within
`deployment_action_bound`, and a default game ends by its own rules, never by the action cap.

The players are the ones a staller would write: prefer withdrawing and re-declaring attacks,
re-placing deployed units, passing and playing in every window, playing every stored bonus;
end the phase or the turn only when nothing else is legal.
"""

from __future__ import annotations

import random
from collections.abc import Callable

import pytest
from msgspec.structs import replace

from engine import (
    MAX_GAME_LENGTH,
    Action,
    ConfirmDeployment,
    DeclareAttack,
    DeployUnit,
    EndTurn,
    GameConfig,
    GameState,
    Hook,
    NextPhase,
    Phase,
    Side,
    WithdrawAttack,
    legal_actions,
    new_game,
    reduce,
)
from engine.analysis import deployment_action_bound, turn_action_bound
from engine.data import game_cards, game_tables
from engine.state import with_player

Policy = Callable[[list[Action], random.Random], Action]

_ENDERS = (NextPhase, EndTurn, ConfirmDeployment)


def _stall_randomly(legal: list[Action], rng: random.Random) -> Action:
    """Anything but ending the phase, the turn or the deployment, while anything else is legal."""
    others = [a for a in legal if not isinstance(a, _ENDERS)]
    return rng.choice(others or legal)


def _loop_attacks(legal: list[Action], rng: random.Random) -> Action:
    """Withdraw whenever possible, else declare, else re-place a unit, else stall at random."""
    for kind in (WithdrawAttack, DeclareAttack, DeployUnit):
        found = [a for a in legal if isinstance(a, kind)]
        if found:
            return rng.choice(found)
    return _stall_randomly(legal, rng)


POLICIES = {"stall_randomly": _stall_randomly, "loop_attacks": _loop_attacks}


def _play(config: GameConfig, policy: Policy, seed: int) -> tuple[GameState, list[tuple[int, int]]]:
    """Play a whole game; return the final state and (actions taken, bound) of every turn and deployment."""
    rng = random.Random(seed)
    state = new_game(config)
    spans: list[tuple[int, int]] = []
    span_start, bound, key = state.actions_taken, _bound(state), _span_key(state)
    while state.phase is not Phase.VICTORY:
        state = reduce(state, policy(legal_actions(state), rng))
        if _span_key(state) != key:
            spans.append((state.actions_taken - span_start, bound))
            span_start, bound, key = state.actions_taken, _bound(state), _span_key(state)
    spans.append((state.actions_taken - span_start, bound))
    return state, spans


def _span_key(state: GameState) -> tuple[object, ...]:
    """What changes exactly when a turn (or one side's deployment) gives way to the next."""
    return (state.turn, state.deploying)


def _bound(state: GameState) -> int:
    if state.phase is Phase.DEPLOYMENT:
        assert state.deploying is not None
        return deployment_action_bound(state, state.deploying)
    return turn_action_bound(state)


BOARDS = {"default": {}, "close": {"width": 10, "height": 10}}
"""The default board, and one so small that every unit is in range of the enemy from the start."""


@pytest.mark.parametrize("policy", sorted(POLICIES))
@pytest.mark.parametrize("deployment", ["auto", "manual"])
@pytest.mark.parametrize("board", sorted(BOARDS))
@pytest.mark.parametrize("seed", [3, 20005])
def test_a_staller_cannot_keep_a_turn_going(policy: str, deployment: str, board: str, seed: int) -> None:
    config = GameConfig(seed=seed, deployment=deployment, **BOARDS[board])
    state, spans = _play(config, POLICIES[policy], seed)
    over = [(taken, bound) for taken, bound in spans if taken > bound]
    assert not over, f"turns over their bound (actions, bound): {over}"
    assert state.victory_reason != "action_cap"


def test_the_default_game_cannot_reach_the_action_cap() -> None:
    """Rules §4.6: with the round limit, every turn at its bound stays below `MAX_GAME_LENGTH`."""
    state = new_game(GameConfig(seed=1))
    adds = [e.value for c in game_cards(state.rules)[0] for e in c.effects if e.hook is Hook.MODIFY_STORAGE_LIMIT]
    most_stored = game_tables(state.rules.tables).storage_limit + int(max(adds, default=0))
    rounds = state.rules.victory.round_limit
    assert rounds is not None and most_stored == 7
    longest = 0
    for side in (Side.ATTACKER, Side.DEFENDER):
        at_start = replace(state, active=side)
        player = at_start.player(side)
        full = with_player(at_start, replace(player, stored=("air_cover#1",) * most_stored))
        longest += rounds.max_rounds * turn_action_bound(full)
    assert longest == 5_350 < MAX_GAME_LENGTH == state.rules.victory.max_actions
