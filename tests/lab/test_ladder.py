"""The ladder (lab/ladder.py, lab/ladder_report.py): schedule, games, standings, records from elsewhere, reports."""

from __future__ import annotations

import dataclasses
import json

import pytest
from msgspec.structs import replace

from engine import GameConfig, Side, VictoryConfig, record_game
from lab.ladder import Entry, play_ladder_game, result_from_record, schedule_ladder, standings
from lab.ladder_report import format_standings, standings_html, standings_json
from lab.selfplay import GameResult

SMALL = GameConfig(terrain="\n".join(["." * 10] * 12), victory=VictoryConfig(max_actions=400))
ENTRIES = [Entry("random", "random"), Entry("greedy", "greedy"), Entry("quick", "greedy", {"move_limit": 4})]


def test_every_pair_meets_on_the_same_seeds_with_sides_alternating() -> None:
    games = schedule_ladder(ENTRIES, 4, 100, SMALL)
    assert len(games) == 3 * 4 and [g.index for g in games] == list(range(12))
    for pair in ({"random", "greedy"}, {"random", "quick"}, {"greedy", "quick"}):
        mine = [g for g in games if {g.attacker.label, g.defender.label} == pair]
        assert [g.config.seed for g in mine] == [100, 101, 102, 103]
        assert [g.attacker.label for g in mine][::2] == [mine[0].attacker.label] * 2
        assert mine[0].attacker.label != mine[1].attacker.label
    assert all(g.config.terrain == SMALL.terrain for g in games)


def test_bad_ladders_and_entries_are_refused() -> None:
    with pytest.raises(ValueError, match="labels must differ"):
        schedule_ladder([Entry("a", "greedy"), Entry("a", "random")], 2, 1)
    with pytest.raises(ValueError, match="at least two"):
        schedule_ladder([Entry("a", "greedy")], 2, 1)
    with pytest.raises(ValueError, match="either a bot or an outside command"):
        Entry("x")
    with pytest.raises(ValueError, match="either a bot or an outside command"):
        Entry("x", "greedy", command=("prog",))
    with pytest.raises(ValueError, match="outside program"):
        Entry("x", command=("prog",)).build()
    outside = schedule_ladder([Entry("greedy", "greedy"), Entry("mine", command=("prog",))], 1, 1, SMALL)
    assert outside[0].over_the_wire
    with pytest.raises(ValueError, match="over the wire"):
        play_ladder_game(outside[0])


@pytest.fixture(scope="module")
def played() -> list[GameResult]:
    return [play_ladder_game(g) for g in schedule_ladder(ENTRIES, 2, 7, SMALL)]


def test_games_are_played_and_rated(played: list[GameResult]) -> None:
    table = standings(ENTRIES, played, anchor="greedy")
    assert table.games == 6 and sum(table.endings.values()) == 6
    assert table.fit.rating("greedy") == 0
    assert table.fit.rating("random") < 0  # random loses to greedy on an open board
    for p in table.pairings:
        other = table.pairing(p.opponent, p.entry)
        assert other is not None and p.wins + other.wins == p.games == 2
        assert p.as_attacker[1] + p.as_defender[1] == p.games
    with pytest.raises(ValueError, match="not an entry"):
        standings(ENTRIES, played, anchor="nobody")


def test_a_game_played_elsewhere_is_rated_from_its_verified_record(played: list[GameResult]) -> None:
    game = schedule_ladder(ENTRIES, 2, 7, SMALL)[0]
    local = played[0]
    again = result_from_record(game, local.record)
    assert (again.winner, again.reason, again.turns, again.actions) == (local.winner, local.reason, local.turns,
                                                                        local.actions)
    with pytest.raises(ValueError, match="another game"):
        result_from_record(dataclasses.replace(game, config=replace(SMALL, seed=8)), local.record)
    unfinished = record_game(game.config, local.record.actions[:5])
    with pytest.raises(ValueError, match="not over"):
        result_from_record(game, unfinished)
    forged = replace(local.record, hashes=("0" * 64, *(local.record.hashes or ())[1:]))
    with pytest.raises(ValueError, match="step 0"):
        result_from_record(game, forged)


def test_the_reports_show_the_same_figures(played: list[GameResult]) -> None:
    table = standings(ENTRIES, played, anchor="greedy")
    text = format_standings(table, "test ladder")
    assert text.startswith("test ladder\nrank") and "(anchor)" in text and "wins of the row against the column" in text
    document = json.loads(standings_json(table, played, {"seed": 7}))
    assert document["anchor"] == "greedy" and document["run"] == {"seed": 7}
    assert {r["entry"] for r in document["ratings"]} == {"random", "greedy", "quick"}
    assert [g["record"] for g in document["games"]][:2] == ["games/game-0000.json", "games/game-0001.json"]
    assert sum(g["winning_side"] == Side.ATTACKER.value for g in document["games"]) == table.attacker_wins
    page = standings_html(table, "test <ladder>")
    assert page.startswith("<!doctype html>") and "test &lt;ladder&gt;" in page and "<svg" in page
    assert "http" not in page.replace("http://www.w3.org/2000/svg", "")  # nothing fetched when it opens
