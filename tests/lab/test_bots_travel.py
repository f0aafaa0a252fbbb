"""Travel distance (lab/bots/travel.py): the approach pull walks round water to the crossing."""

from __future__ import annotations

from engine import GameState, MoveUnit, Side, legal_actions, new_game, player_view
from engine.data import board_info
from lab.bots import MCTSBot
from lab.bots.evaluate import APPROACH_CAP, BALANCED, TRAVEL_CAP, Style, evaluate, far_cells, far_travel
from lab.bots.policy import MoveScorer
from lab.bots.position import Position
from lab.bots.travel import UNREACHED, field_table
from tests.support import config

GAP_MAP = "\n".join(
    [
        "..........",
        "..........",
        "..........",
        "..........",
        "wwwwwwwww.",  # water across row 5, one crossing at J5
        "..........",
        "..........",
        "..........",
        "..........",
        "..........",
    ]
)
"""A 10x10 board cut in two by water, but for one plain cell at its east end."""

TRAVEL = Style(travel=True)
FEARLESS = Style(travel_threat=True)  # fears only the enemies that can walk into range


def gap_state(*units: str) -> GameState:
    return new_game(config(terrain=GAP_MAP, unit_specs=units, phase="MOVEMENT"))


def test_a_unit_across_the_water_is_far_by_travel_but_near_in_a_straight_line() -> None:
    """A2 to A8 is 6 cells; to fire at A8 (range 2) the infantry walks 9 steps to J5 and 7 back west to C6."""
    pos = Position(gap_state("A1 L A2", "D1 L A8"))
    assert pos.nearest_enemy()["A1"] == 6
    assert pos.travel()["A1"] == 2 * 16  # half-points: 16 steps of plain ground
    assert pos.travel()["D1"] == 2 * 16  # the same way back: to J5 and on to C4, two rows from A2


def test_a_unit_already_in_range_has_no_travel_and_fields_are_computed_once() -> None:
    state = gap_state("A1 L J4", "D1 L J6")
    pos = Position(state)
    assert pos.travel() == {"A1": 0, "D1": 0}
    info = board_info(state.board)
    steps = info.steps(state.units[0].type, (), None)
    table = field_table(steps, info.width, 2)
    assert table is field_table(steps, info.width, 2) is pos.fields(state.units[0].type)
    assert table.fields[info.index["J6"]] is not None  # asked for by `travel` above, computed once
    assert table.field(info.index["J6"]) is table.field(info.index["J6"])


def test_a_unit_walled_in_by_water_counts_the_straight_line() -> None:
    island = "\n".join(["..........", ".www......", ".w.w......", ".www......"] + [".........."] * 6)
    pos = Position(new_game(config(terrain=island, unit_specs=("A1 L C3", "D1 L C9"), phase="MOVEMENT")))
    assert pos.travel()["A1"] == UNREACHED
    assert far_travel(UNREACHED, 2, 6) == far_cells(2, 6) == 4
    assert far_travel(2 * 50, 2, 6) == TRAVEL_CAP > APPROACH_CAP


def test_the_travel_evaluation_rewards_walking_towards_the_crossing() -> None:
    """Moving east along the water closes the travel, moving south closes only the straight line."""
    east = gap_state("A1 L C2", "D1 L A8")
    south = gap_state("A1 L A3", "D1 L A8")
    start = gap_state("A1 L A2", "D1 L A8")
    for moved in (east, south):  # the straight line prefers the bank
        assert evaluate(south, Side.ATTACKER) >= evaluate(moved, Side.ATTACKER)
    assert evaluate(east, Side.ATTACKER, style=TRAVEL) > evaluate(start, Side.ATTACKER, style=TRAVEL)
    assert evaluate(south, Side.ATTACKER, style=TRAVEL) == evaluate(start, Side.ATTACKER, style=TRAVEL)


def test_the_move_score_in_travel_style_heads_for_the_crossing() -> None:
    state = gap_state("A1 L A2", "D1 L A8")
    moves = [a for a in legal_actions(state) if isinstance(a, MoveUnit)]

    def scores(style: Style) -> dict[str, float]:
        scorer = MoveScorer(Position(state), style)
        return {m.to: scorer.score(m) for m in moves}

    line, travel = scores(BALANCED), scores(TRAVEL)
    assert line["A3"] > 0 and line["C2"] <= 0  # south gains in a straight line, east gains nothing
    assert travel["C2"] > 0 and travel["C2"] > travel["A3"]  # east gains two MP of travel, south none
    assert max(travel, key=lambda cell: (travel[cell], cell)) in {"C2", "C3"}


def test_mcts_walks_towards_the_crossing() -> None:
    state = gap_state("A1 L A2", "A2 L B1", "D1 L A8")
    view = player_view(state, Side.ATTACKER)
    action, _ = MCTSBot(iterations=8, travel=True).choose(view, legal_actions(state), 7)
    assert isinstance(action, MoveUnit)
    info = board_info(state.board)
    pos = Position(state)
    unit = pos.by_id[action.unit_id]
    assert pos.nearest_field(unit.type, unit.side)[info.index[action.to]] < pos.travel()[unit.id]


def test_an_enemy_that_cannot_walk_into_range_is_no_threat_with_travel_threat() -> None:
    """A mechanized DEFENDER (4 MP, range 3) five rows south of A2 closes in a straight line, but the water
    stands between: to have A2 in range it must go round by J5, far beyond its 4 MP."""
    state = gap_state("A1 L A2", "D1 M A7")

    def threat(style: Style) -> float:
        calm = Style(threat=0.0, approach=style.approach, travel=style.travel, travel_threat=style.travel_threat)
        return evaluate(state, Side.ATTACKER, style=calm) - evaluate(state, Side.ATTACKER, style=style)

    assert threat(BALANCED) > 0
    assert threat(TRAVEL) > 0  # only the approach in travel: the threat is still the straight line's
    assert threat(FEARLESS) == 0
    near = gap_state("A1 L A3", "D1 M A7")  # now one step to A6 puts A3 in range, across the water
    calm = Style(threat=0.0, travel_threat=True)
    assert evaluate(near, Side.ATTACKER, style=calm) > evaluate(near, Side.ATTACKER, style=FEARLESS)


def test_the_move_score_with_travel_threat_sees_no_danger_across_the_water() -> None:
    state = gap_state("A1 L A1", "D1 M A7")
    moves = {a.to: a for a in legal_actions(state) if isinstance(a, MoveUnit) and a.unit_id == "A1"}
    line, travel = MoveScorer(Position(state), BALANCED), MoveScorer(Position(state), FEARLESS)
    calm_line = MoveScorer(Position(state), Style(threat=0.0))
    calm_travel = MoveScorer(Position(state), Style(threat=0.0, travel_threat=True))
    assert line.score(moves["A2"]) < calm_line.score(moves["A2"])  # A2 is within the straight-line reach
    assert travel.score(moves["A2"]) == calm_travel.score(moves["A2"])


def test_without_the_rival_pull_coming_closer_pays_even_when_it_brings_many_enemies_closer() -> None:
    """One ATTACKER walking towards five DEFENDERs shortens its own travel, and each of theirs: zero-sum, the
    enemies' gain outweighs its own (so it would stay put); judged by its own pull only, the walk pays."""
    enemies = ("D1 L A9", "D2 L B10", "D3 L C9", "D4 L D10", "D5 L E9")
    start, moved = gap_state("A1 L A1", *enemies), gap_state("A1 L C2", *enemies)
    own = Style(travel=True, rival_approach=False)
    assert evaluate(moved, Side.ATTACKER, style=TRAVEL) < evaluate(start, Side.ATTACKER, style=TRAVEL)
    assert evaluate(moved, Side.ATTACKER, style=own) > evaluate(start, Side.ATTACKER, style=own)
    assert evaluate(start, Side.DEFENDER, style=own) != -evaluate(start, Side.ATTACKER, style=own)


def test_the_nearest_field_is_the_least_of_the_enemies_fields_and_is_shared() -> None:
    state = gap_state("A1 L A2", "D1 L A8", "D2 L J8")
    pos, info = Position(state), board_info(state.board)
    table = pos.fields(state.units[0].type)
    one, two = table.field(info.index["A8"]), table.field(info.index["J8"])
    combined = pos.nearest_field(state.units[0].type, Side.ATTACKER)
    assert list(combined) == [min(a, b) for a, b in zip(one, two, strict=True)]
    assert Position(state).nearest_field(state.units[0].type, Side.ATTACKER) is combined
    assert pos.travel()["A1"] == combined[info.index["A2"]] < one[info.index["A2"]]  # J8 is the nearer by travel
