"""What a policy may answer, and how a lab bot becomes a policy."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

import msgspec
import pytest

from client import BotPolicy, PolicyError, Turn, checked_action
from client.policy import seat_seed_of
from engine import Action, GameConfig, GameState, MoveUnit, Resign, Side, legal_actions, new_game, player_view
from lab.bots import get_bot, seat_seed

START = new_game(GameConfig(seed=3))


def turn(budget: float | None = None, match_id: str = "m1") -> Turn:
    return Turn(match_id=match_id, seat=Side.ATTACKER, version=0, view=player_view(START, Side.ATTACKER),
                legal=tuple(legal_actions(START)), match_actions=(Resign(side=Side.ATTACKER),), decision=None,
                clock=None, budget=budget)


def test_a_legal_action_or_a_match_action_passes_in_any_spelling() -> None:
    t = turn()
    first = t.legal[0]
    assert checked_action(t, first) is first
    assert checked_action(t, msgspec.to_builtins(first)) == first  # the protocol's JSON spelling
    assert checked_action(t, '{"type": "RESIGN", "side": "ATTACKER"}') == Resign(side=Side.ATTACKER)
    assert checked_action(t, b'{"type": "RESIGN", "side": "ATTACKER"}') == Resign(side=Side.ATTACKER)


@pytest.mark.parametrize(("chosen", "words"), [
    (MoveUnit(unit_id="A1", to="A1"), "is not one of the seat's"),
    (Resign(side=Side.DEFENDER), "is not one of the seat's"),
    ({"type": "MOVE_UNIT", "unit_id": "A1"}, "not an action"),
    ("draw a card", "not an action"),
    (None, "not an action"),
    (42, "not an action"),
])
def test_anything_else_is_the_policys_error_in_one_line(chosen: object, words: str) -> None:
    with pytest.raises(PolicyError) as caught:
        checked_action(turn(), chosen)
    assert words in str(caught.value) and "\n" not in str(caught.value)


def test_a_bot_policy_threads_the_bots_seed_as_selfplay_does() -> None:
    seed = seat_seed(3, Side.ATTACKER)
    policy = BotPolicy(get_bot("random"), seed)
    expected, next_seed = get_bot("random").choose(player_view(START, Side.ATTACKER), legal_actions(START), seed)
    assert policy(turn()) == expected and policy.seed == next_seed
    unseeded = BotPolicy(get_bot("random"))
    assert unseeded(turn(match_id="m1")) == get_bot("random").choose(
        player_view(START, Side.ATTACKER), legal_actions(START), seat_seed_of("m1", Side.ATTACKER))[0]
    assert seat_seed_of("m1", Side.ATTACKER) != seat_seed_of("m1", Side.DEFENDER) != seat_seed_of("m2", Side.DEFENDER)


@dataclass
class TimedBot:
    """A bot that records the budgets it was given through ``within``."""

    budgets: list[float] = field(default_factory=list)
    name: str = "timed"

    def within(self, seconds: float, clock: Callable[[], float]) -> TimedBot:
        self.budgets.append(seconds)
        return self

    def choose(self, view: GameState, legal: Sequence[Action], rng: int) -> tuple[Action, int]:
        return legal[-1], rng + 1


def test_a_bot_that_can_think_within_a_time_gets_the_turns_budget() -> None:
    bot = TimedBot()
    policy = BotPolicy(bot, 7)
    assert policy(turn(budget=None)) == turn().legal[-1]
    assert policy(turn(budget=2.5)) == turn().legal[-1]
    assert bot.budgets == [2.5] and policy.seed == 9
