"""Facts the engine keeps or finds a shorter way (issue 36) equal the facts recomputed from scratch.

Random games of the default deck and of the variant deck (every `field_manual` card in
its draw pile) are played with listings, as players and bots play them; at every step the
kept facts are compared with a plain recomputation, and each game's record is replayed
with every cache emptied, so that each MOVE_UNIT is priced by the one-cell search instead
of the listing's: every stored hash must come out the same.
"""

from __future__ import annotations

import pytest

import engine.movement.listing as move_lists
import engine.movement.search as search_module
import engine.pages.bonuses as bonuses
import engine.pages.maluses as maluses
from engine import (
    CancelMalus,
    GameConfig,
    GameRecord,
    GameState,
    MoveUnit,
    PlayBonus,
    VictoryConfig,
    draw_index,
    legal_actions,
    new_game,
    reduce,
    replay,
    state_hash,
)
from engine.board.info import board_info
from engine.board.zones import deployment_cells, home_side, preferred_cells
from engine.flow.phases import allowed_action_types
from engine.flow.victory import unit_vp
from engine.flow.windows import tactic_plays
from engine.movement import movement_allowance, occupancy, unit_reach
from engine.movement.search import search_cost
from engine.pages import OFFERS
from engine.roster import moved_since
from engine.state import player_of
from engine.tables import unit_stats
from engine.types import Phase, Side, TerrainType
from tests.support import fresh_listing

pytestmark = pytest.mark.timeout(120)

GAMES = [GameConfig(seed=seed) for seed in (1, 2, 3)] + [GameConfig(seed=seed, cards="field_manual") for seed in (4, 5)]


Game = tuple[GameConfig, list[tuple[GameState, object]]]


def _game(config: GameConfig, choice: int, cap: int = 700) -> Game:
    """One random game of at most ``cap`` actions: its config and every (position, action played), the
    last position with None; each position is listed, then reduced, as a game does."""
    config = GameConfig(seed=config.seed, cards=config.cards, victory=VictoryConfig(round_limit=None, max_actions=cap))
    state, played = new_game(config), []
    while legal := legal_actions(state):
        index, choice = draw_index(len(legal), choice)
        played.append((state, legal[index]))
        state = reduce(state, legal[index])
    played.append((state, None))
    return config, played


@pytest.fixture(scope="module")
def games() -> list[Game]:
    return [_game(config, i + 11) for i, config in enumerate(GAMES)]


def _recomputed_vp(state: GameState, side: Side) -> int:
    return sum(unit_stats(u.type, state.rules.tables).vp for u in player_of(state, side.other).destroyed)


def test_the_games_cover_what_the_kept_facts_serve(games: list[Game]) -> None:
    played = [action for _, game in games for _, action in game]
    kinds = {type(action).__name__ for action in played}
    assert {"MoveUnit", "EndTurn", "NextPhase", "DrawCard", "ResolveAttack"} <= kinds
    assert any(s.players[0].destroyed or s.players[1].destroyed for _, game in games for s, _ in game)
    assert any(s.rules.cards == "field_manual" and s.effects for _, game in games for s, _ in game)
    states = [s for _, game in games for s, _ in game]
    assert any(s.to_act is s.active.other and s.pending_card is None for s in states)  # a reacting side held priority


def test_kept_vp_totals_and_who_acts_equal_a_full_recomputation_at_every_step(
    games: list[Game],
) -> None:
    for _, game in games:
        for state, _ in game:
            for side in Side:
                assert unit_vp(state, side) == _recomputed_vp(state, side)
            assert state.to_act is _who_acts(state)


def _who_acts(state: GameState) -> Side | None:
    """Rules §4.4 with the reacting side's every PLAY_TACTIC built (`priority_holder` stops at the first)."""
    if state.phase is Phase.VICTORY:
        return None
    if state.phase is Phase.DEPLOYMENT:
        return state.deploying
    if state.pending_card is not None and state.pending_card.accepted:
        return state.pending_card.drawer.other
    reacting = state.active.other
    return reacting if tactic_plays(state, reacting) else state.active


def test_kept_card_offers_equal_the_offers_found_again_at_every_step() -> None:
    """The stored bonuses' PLAY_BONUS and the CANCEL_MALUS offers, kept across listings and carried over moves,
    equal the offers found with nothing kept, at every position of random games (each listed as a game does)."""
    carried = edge_row = offered = 0
    for i, config in enumerate(GAMES):
        config = GameConfig(
            seed=config.seed, cards=config.cards, victory=VictoryConfig(round_limit=None, max_actions=1500)
        )
        state, choice = new_game(config), 31 + i
        while True:
            kept = bonuses._last_stored  # before the listing renews it
            moved = None if kept is None or kept[4] is state.units else moved_since(kept[4], state.units)
            legal = legal_actions(state)
            if not legal:
                break
            if moved is not None:
                carried += 1
                width, height = state.board.width, state.board.height
                y = 0 if state.active is Side.ATTACKER else height - 1
                edge_row += any(y * width <= cell < (y + 1) * width for cell in moved)
            saved = (bonuses._last_stored, maluses._last_cancels)
            bonuses._last_stored = maluses._last_cancels = None  # nothing kept: found again
            for action_type in (PlayBonus, CancelMalus):
                listed = [a for a in legal if type(a) is action_type]
                offered += bool(listed)
                assert listed == (OFFERS[action_type](state) if action_type in allowed_action_types(state) else [])
            bonuses._last_stored, maluses._last_cancels = saved
            index, choice = draw_index(len(legal), choice)
            state = reduce(state, legal[index])
    assert carried > 500  # kept stored plays were carried over moves
    assert edge_row > 20  # and some moves left or entered a home edge row (International Aid's entry cells)
    assert offered > 500


def test_the_one_cell_search_prices_every_cell_as_the_full_search(
    games: list[Game],
) -> None:
    checked = 0
    for _, game in games:
        for state, action in game[::9]:
            if state.phase is not Phase.MOVEMENT or not isinstance(action, MoveUnit):
                continue
            flags = occupancy(state).flags
            for unit in (u for u in state.units if u.side is state.active and u.cell is not None):
                reach = unit_reach(state, unit)
                if not reach.costs:
                    continue
                allowance = movement_allowance(state, unit)
                for cell in range(len(reach.steps)):
                    assert search_cost(reach.steps, reach.start, cell, allowance, flags) == reach.costs.get(cell)
                checked += 1
    assert checked > 50
    # The pooled cost lists it borrowed came back all "not reached", as `search_reachable` needs them.
    assert all(set(best) == {search_module._UNREACHED} for best in search_module._SCRATCH)


def test_records_replayed_without_listings_give_every_stored_hash(
    games: list[Game], monkeypatch: pytest.MonkeyPatch
) -> None:
    one_cell = 0
    search = move_lists.search_cost

    def counted(*args: object) -> int | None:
        nonlocal one_cell
        one_cell += 1
        return search(*args)  # type: ignore[arg-type]

    monkeypatch.setattr(move_lists, "search_cost", counted)
    for config, game in games:
        actions = tuple(action for _, action in game[:-1])
        hashes = tuple(state_hash(state) for state, _ in game[1:])
        record = GameRecord(config=config, actions=actions, hashes=hashes)  # type: ignore[arg-type]
        fresh_listing(game[0][0])  # every movement cache emptied (the listing of the first position keeps nothing
        # of the units' later objects)
        assert sum(1 for _ in replay(record)) == len(actions) + 1
    assert one_cell > 100  # the moves were priced by the one-cell search, not a kept listing


@pytest.mark.parametrize(("width", "height"), [(20, 30), (12, 8), (9, 10), (15, 16)])
def test_deployment_zones_taken_as_rows_equal_the_rule_cell_by_cell(width: int, height: int) -> None:
    state = new_game(GameConfig(seed=width, width=width, height=height))
    info = board_info(state.board)
    occupied = {info.index[u.cell] for u in state.units if u.cell is not None}
    for side in Side:
        zone = [i for i in range(info.size) if home_side(i // info.width, info.height) is side]
        assert deployment_cells(info, side, occupied) == [
            i
            for i in zone
            if i not in occupied
            and info.terrain[i] is not TerrainType.WATER
            and not (info.river[i] and not info.bridge[i])
        ]
        assert preferred_cells(info, side, occupied) == [
            i
            for i in zone
            if i not in occupied and info.terrain[i] is TerrainType.PLAIN and not info.road[i] and not info.river[i]
        ]
