"""Manual deployment (§3.4): DEFENDER first, legal cells, re-deploying, auto-deploy and confirming."""

from __future__ import annotations

import pytest

from engine import (
    AutoDeploy,
    ConfirmDeployment,
    DeployUnit,
    GameConfig,
    IllegalAction,
    Phase,
    Side,
    legal_actions,
    new_game,
    reduce,
)
from engine.rng import next_seed
from tests.support import play, snapshot

MAP = "\n".join(["....~......."] * 15)


def manual(seed: int = 3) -> object:
    return new_game(GameConfig(seed=seed, terrain=MAP, deployment="manual"))


def test_manual_deployment_starts_with_the_defender() -> None:
    state = manual()
    assert (state.phase, state.turn, state.active, state.deploying, state.to_act) == (  # type: ignore[attr-defined]
        Phase.DEPLOYMENT,
        1,
        Side.ATTACKER,
        Side.DEFENDER,
        Side.DEFENDER,
    )
    assert all(u.cell is None for u in state.units)  # type: ignore[attr-defined]
    kinds = {type(a) for a in legal_actions(state)}  # type: ignore[arg-type]
    assert kinds == {DeployUnit, AutoDeploy}


def test_deploy_unit_offers_every_unit_on_every_legal_zone_cell() -> None:
    state = manual()
    deploys = [a for a in legal_actions(state) if isinstance(a, DeployUnit)]  # type: ignore[arg-type]
    cells = {a.cell for a in deploys}
    assert len(deploys) == 15 * len(cells)
    assert "E5" not in cells and "A4" not in cells  # river column; ATTACKER zone (rows 1-5)
    assert "A6" in cells and "L15" in cells


def test_redeploying_a_placed_unit_moves_it() -> None:
    state = play(manual(), DeployUnit(unit_id="D1", cell="A6"), DeployUnit(unit_id="D1", cell="B6"))  # type: ignore[arg-type]
    assert state.unit("D1").cell == "B6"
    assert DeployUnit(unit_id="D2", cell="B6") not in legal_actions(state)
    with pytest.raises(IllegalAction, match="B6 is not a legal deployment cell for DEFENDER") as caught:
        reduce(state, DeployUnit(unit_id="D2", cell="B6"))
    assert caught.value.code == "bad_cell"


def test_a_side_may_move_placed_units_again_as_often_as_it_has_units() -> None:
    state = play(manual(), AutoDeploy())  # type: ignore[arg-type]
    cells = [a.cell for a in legal_actions(state) if isinstance(a, DeployUnit) and a.unit_id == "D1"]  # type: ignore[arg-type]
    for i in range(15):
        state = play(state, DeployUnit(unit_id="D1", cell=cells[i % 2]))
    assert state.redeployments == 15  # type: ignore[attr-defined]
    assert {type(a) for a in legal_actions(state)} == {ConfirmDeployment}  # type: ignore[arg-type]
    before = snapshot(state)
    with pytest.raises(IllegalAction, match="DEFENDER has moved placed units as often as it has units") as caught:
        reduce(state, DeployUnit(unit_id="D1", cell=cells[1]))  # type: ignore[arg-type]
    assert caught.value.code == "redeploy_limit"
    assert snapshot(state) == before
    state = play(state, ConfirmDeployment())
    assert (state.deploying, state.redeployments) == (Side.ATTACKER, 0)  # type: ignore[attr-defined]


def test_placing_an_unplaced_unit_is_never_limited() -> None:
    state = play(manual(), DeployUnit(unit_id="D1", cell="A6"))  # type: ignore[arg-type]
    assert state.redeployments == 0  # type: ignore[attr-defined]
    state = play(state, DeployUnit(unit_id="D1", cell="B6"))
    assert state.redeployments == 1  # type: ignore[attr-defined]


def test_deploy_rejections_name_the_problem() -> None:
    state = manual()
    before = snapshot(state)  # type: ignore[arg-type]
    with pytest.raises(IllegalAction, match="A1 belongs to ATTACKER; DEFENDER is deploying"):
        reduce(state, DeployUnit(unit_id="A1", cell="A1"))  # type: ignore[arg-type]
    with pytest.raises(IllegalAction, match="there is no unit D16"):
        reduce(state, DeployUnit(unit_id="D16", cell="A6"))  # type: ignore[arg-type]
    with pytest.raises(IllegalAction, match="A1 is not a legal deployment cell"):
        reduce(state, DeployUnit(unit_id="D1", cell="A1"))  # type: ignore[arg-type]
    assert snapshot(state) == before  # type: ignore[arg-type]


def test_auto_deploy_places_every_unplaced_unit_with_one_step_each() -> None:
    state = play(manual(), DeployUnit(unit_id="D1", cell="A6"))  # type: ignore[arg-type]
    after = play(state, AutoDeploy())
    expected = state.rng
    for _ in range(14):
        expected = next_seed(expected)
    assert after.rng == expected
    assert all(u.cell is not None for u in after.units if u.side is Side.DEFENDER)
    assert after.unit("D1").cell == "A6"
    assert legal_actions(after) == [a for a in legal_actions(after) if isinstance(a, (DeployUnit, ConfirmDeployment))]


def test_confirming_hands_over_to_the_attacker_then_starts_turn_one() -> None:
    state = play(manual(), AutoDeploy())  # type: ignore[arg-type]
    state = play(state, ConfirmDeployment())
    assert (state.deploying, state.to_act, state.phase) == (Side.ATTACKER, Side.ATTACKER, Phase.DEPLOYMENT)
    assert all(a.unit_id.startswith("A") for a in legal_actions(state) if isinstance(a, DeployUnit))
    state = play(state, AutoDeploy(), ConfirmDeployment())
    assert (state.phase, state.turn, state.active, state.deploying) == (Phase.CARD_DRAW, 1, Side.ATTACKER, None)
    assert state.actions_taken == 4


def test_confirm_waits_for_every_unit() -> None:
    state = play(manual(), DeployUnit(unit_id="D1", cell="A6"))  # type: ignore[arg-type]
    assert ConfirmDeployment() not in legal_actions(state)
    with pytest.raises(IllegalAction, match=r"place every unit first \(D2, D3"):
        reduce(state, ConfirmDeployment())
