"""Planned deployment (lab/bots/deploy.py, the bots' ``deploy`` option): out of the first strike, close in."""

from __future__ import annotations

import pytest

from engine import (
    AutoDeploy,
    DeployUnit,
    GameConfig,
    GameState,
    Phase,
    Side,
    legal_actions,
    new_game,
    player_view,
    reduce,
)
from engine.data import board_info
from lab.bots import Bot, GreedyBot, MCTSBot
from lab.bots.deploy import deployment_action, first_strike_cells

OPEN_10x15 = "\n".join(["." * 10] * 15)  # ATTACKER zone rows 0-4, DEFENDER zone rows 5-14


def deploy(bot: Bot, seed: int = 3) -> tuple[GameState, int]:
    """A manual-deployment game on an open board, both seats deployed by ``bot``; also the actions taken."""
    state = new_game(GameConfig(seed=seed, terrain=OPEN_10x15, deployment="manual"))
    actions = 0
    while state.phase is Phase.DEPLOYMENT:
        assert state.to_act is not None
        action, _ = bot.choose(player_view(state, state.to_act), legal_actions(state), 1)
        state = reduce(state, action)
        actions += 1
        assert actions < 100, "deployment did not end"
    return state, actions


def rows(state: GameState, side: Side) -> list[int]:
    info = board_info(state.board)
    return sorted(info.index[u.cell] // info.width for u in state.units if u.side is side and u.cell is not None)


def test_the_defender_deploys_out_of_the_first_strike_and_as_close_as_that_allows() -> None:
    state, _ = deploy(MCTSBot(iterations=4, deploy=True))
    fresh = new_game(GameConfig(seed=3, terrain=OPEN_10x15, deployment="manual"))
    # Before the ATTACKER deploys, its whole zone counts: mechanized infantry walks 4 cells and fires 3 further,
    # so rows 5-11 are within reach of row 4; the 15 DEFENDER units fill the nearest safe rows, 12 and 13.
    unsafe = first_strike_cells(fresh, Side.DEFENDER)
    info = board_info(fresh.board)
    assert {i // info.width for i in unsafe if i // info.width >= 5} == set(range(5, 12))
    assert rows(state, Side.DEFENDER) == [12] * 10 + [13] * 5


def test_the_attacker_moves_first_so_it_deploys_on_its_front_rows() -> None:
    state, _ = deploy(MCTSBot(iterations=4, deploy=True))
    assert min(rows(state, Side.ATTACKER)) >= 3  # the zone's two front rows (of 0-4)


def test_deployment_takes_one_action_per_unit_and_a_confirmation_per_seat() -> None:
    state, actions = deploy(MCTSBot(iterations=4, deploy=True))
    assert state.phase is not Phase.DEPLOYMENT
    assert actions == len(state.units) + 2


def test_the_plan_is_a_function_of_the_view() -> None:
    state = new_game(GameConfig(seed=3, terrain=OPEN_10x15, deployment="manual"))
    view, legal = player_view(state, Side.DEFENDER), legal_actions(state)
    assert deployment_action(view, legal) == deployment_action(view, legal)
    assert MCTSBot(deploy=True).choose(view, legal, 5) == (MCTSBot(deploy=True).choose(view, legal, 9)[0], 5)


@pytest.mark.parametrize("bot", [GreedyBot, MCTSBot], ids=["greedy", "mcts"])
def test_the_option_is_on_by_default_and_a_switch(bot: type[GreedyBot] | type[MCTSBot]) -> None:
    state = new_game(GameConfig(seed=3, terrain=OPEN_10x15, deployment="manual"))
    view, legal = player_view(state, Side.DEFENDER), legal_actions(state)
    assert isinstance(bot().choose(view, legal, 1)[0], DeployUnit)
    assert isinstance(bot(deploy=False).choose(view, legal, 1)[0], AutoDeploy)
    with pytest.raises(ValueError, match="deploy must be true or false"):
        bot(deploy=1)  # type: ignore[arg-type]


def test_greedy_and_mcts_deploy_by_the_same_plan() -> None:
    by_greedy, _ = deploy(GreedyBot())
    by_mcts, _ = deploy(MCTSBot(iterations=4))
    assert by_greedy.units == by_mcts.units
