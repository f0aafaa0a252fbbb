"""The standoff rule and the march drafts (lab/bots/evaluate.py, lab/bots/mcts.py): a stalled ATTACKER walks."""

from __future__ import annotations

import pytest

from engine import GameState, Side, legal_actions, new_game, player_view
from lab.bots import MCTSBot
from lab.bots.evaluate import BALANCED, Style, evaluate, standoff
from lab.bots.position import Position
from tests.support import config

STANDOFF = Style(standoff=True)
OWN = Style(rival_approach=False)
OPEN_10x15 = "\n".join(["." * 10] * 15)
FIVE_DEFENDERS = ("D1 L A14", "D2 L B15", "D3 L C14", "D4 L D15", "D5 L E14")


def field(*units: str) -> GameState:
    """An open 10x15 board in the ATTACKER's movement phase."""
    return new_game(config(terrain=OPEN_10x15, unit_specs=units, phase="MOVEMENT"))


def test_a_standoff_is_no_unit_within_movement_and_range_of_an_enemy() -> None:
    # Light infantry: 2 MP and range 2, so an enemy 4 cells away can be shot next turn, 5 cells away not.
    assert standoff(Position(field("A1 L A1", "D1 L A6")))
    assert not standoff(Position(field("A1 L A1", "D1 L A5")))
    assert not standoff(Position(field("A1 L A1", "A2 L J15", "D1 L A6", "D2 L J11")))  # one pair is close


def test_in_a_standoff_only_the_judged_side_pull_counts() -> None:
    """One ATTACKER walking towards five DEFENDERs shortens their approach term more than its own: zero-sum,
    staying put scores better; with the standoff rule (still a standoff after the walk) the walk pays."""
    start, walked = field("A1 L A1", *FIVE_DEFENDERS), field("A1 L A3", *FIVE_DEFENDERS)
    assert standoff(Position(start)) and standoff(Position(walked))
    assert evaluate(walked, Side.ATTACKER) < evaluate(start, Side.ATTACKER)
    assert evaluate(walked, Side.ATTACKER, style=STANDOFF) > evaluate(start, Side.ATTACKER, style=STANDOFF)
    for state in (start, walked):
        for side in Side:
            assert evaluate(state, side, style=STANDOFF) == evaluate(state, side, style=OWN)


def test_out_of_a_standoff_the_rule_changes_nothing() -> None:
    state = field("A1 L A1", "D1 L A5", "D2 L J15")
    assert not standoff(Position(state))
    for side in Side:
        assert evaluate(state, side, style=STANDOFF) == evaluate(state, side, style=BALANCED)
    assert evaluate(state, Side.DEFENDER, style=STANDOFF) == -evaluate(state, Side.ATTACKER, style=STANDOFF)


def test_march_drafts_widen_the_plans_where_every_style_stays_put() -> None:
    """Far from five enemies, every default style ends the phase (the zero-sum pull); the march drafts walk."""
    state = field("A1 L A1", *FIVE_DEFENDERS)
    view, legal = player_view(state, Side.ATTACKER), legal_actions(state)
    _, plain = MCTSBot(iterations=8).search(view, legal, 3)
    action, marching = MCTSBot(iterations=8, march=1).search(view, legal, 3)
    assert plain.plans == 1
    assert marching.plans == 2 and marching.iterations >= 2
    assert action in legal
    assert action == MCTSBot(iterations=8, march=1).search(view, legal, 3)[0]


@pytest.mark.parametrize("bad", [-1, True, 1.5, "1"])
def test_march_refuses_anything_but_a_whole_number_of_plans(bad: object) -> None:
    with pytest.raises(ValueError, match="march must be a whole number"):
        MCTSBot(march=bad)  # type: ignore[arg-type]


@pytest.mark.parametrize("switch", ["wide", "standoff", "travel"])
def test_switches_refuse_anything_but_true_or_false(switch: str) -> None:
    with pytest.raises(ValueError, match=f"{switch} must be true or false, not 'yes'"):
        MCTSBot(**{switch: "yes"})  # type: ignore[arg-type]


def test_pressed_marches_only_the_seat_that_would_lose_the_round_limit() -> None:
    """Level on VP the tie goes to the DEFENDER: a pressed ATTACKER drafts the march, a pressed DEFENDER does not."""
    five_attackers = tuple(spec.replace("D", "A", 1) for spec in FIVE_DEFENDERS)
    attacker = field("A1 L A1", *FIVE_DEFENDERS)
    defender = new_game(config(terrain=OPEN_10x15, unit_specs=("D1 L A1", *five_attackers), phase="MOVEMENT",
                               side=Side.DEFENDER))
    for state, side, plans in ((attacker, Side.ATTACKER, 2), (defender, Side.DEFENDER, 1)):
        view, legal = player_view(state, side), legal_actions(state)
        assert MCTSBot(iterations=8, march=1, pressed=True).search(view, legal, 3)[1].plans == plans
    defender_view = player_view(defender, Side.DEFENDER)
    assert MCTSBot(iterations=8, march=1).search(defender_view, legal_actions(defender), 3)[1].plans == 2
