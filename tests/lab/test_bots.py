"""Bots: legal choices only, hidden information never used, deterministic per seed."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable

import pytest
from msgspec.structs import replace

from engine import (
    HIDDEN,
    DeclareAttack,
    GameConfig,
    GameState,
    MoveUnit,
    NextPhase,
    Phase,
    PlayTactic,
    RollDice,
    Side,
    UnitType,
    encode_state,
    legal_actions,
    new_game,
    player_view,
    reduce,
)
from engine.analysis import attack_preview
from engine.data import UNITS
from lab.bots import BOTS, Bot, GreedyBot, MCTSBot, RandomBot, bot_options, get_bot, sample_world, seat_seed
from lab.bots.evaluate import BALANCED, Style, evaluate
from lab.bots.position import Position, loss_value
from lab.selfplay import play_game
from tests.support import config, shipped_deck, terrain_with

FIGHT = (
    "A1 L C3",
    "A2 M E3",
    "A3 S G2",
    "D1 L C6",
    "D2 M F6",
    "D3 L H7",
    "D4 S E9",
)
"""Two small forces in contact on the open 10x10 board."""

SMALL_BOTS = {
    "random": RandomBot(),
    "greedy": GreedyBot(),
    "mcts": MCTSBot(iterations=24),
}


def fight(**overrides: object) -> GameState:
    """A position in the ATTACKER's MOVEMENT phase with real choices, cards in every hidden place."""
    settings: dict[str, object] = {
        "unit_specs": FIGHT,
        "phase": "MOVEMENT",
        "draw": ("ammunition_shortage#1", "artillery_support#1", "air_cover#1", "blackout#1"),
        "stored": (("troop_motivation#1",), ("artillery_support#2", "electronic_countermeasures#1")),
        "tactics": (("precision_shot", "commanders_luck"), ("dense_fog", "natural_cover", "tactical_block")),
    }
    settings.update(overrides)
    return new_game(config(**settings))  # type: ignore[arg-type]


def decisions(state: GameState, bots: dict[Side, object], limit: int) -> list[tuple[GameState, list[object]]]:
    """Play up to ``limit`` decisions; return each position and its legal list."""
    seen = []
    seeds = {side: seat_seed(7, side) for side in Side}
    for _ in range(limit):
        if state.to_act is None:
            break
        side = state.to_act
        legal = legal_actions(state)
        bot = bots[side]
        action, seeds[side] = bot.choose(player_view(state, side), legal, seeds[side])  # type: ignore[attr-defined]
        assert action in legal, f"{bot} chose {action} outside {legal}"
        seen.append((state, list(legal)))
        state = reduce(state, action)
    return seen


@pytest.mark.parametrize("name", sorted(SMALL_BOTS))
def test_bots_choose_only_legal_actions(name: str) -> None:
    bot = SMALL_BOTS[name]
    seen = decisions(fight(), {Side.ATTACKER: bot, Side.DEFENDER: bot}, limit=60)
    assert len(seen) == 60
    assert {type(legal[0]).__name__ for _, legal in seen} >= {"NextPhase"}


def test_a_whole_game_between_greedy_and_mcts_ends_with_a_winner() -> None:
    game = GameConfig(seed=3, terrain=config().terrain, victory=replace(GameConfig().victory, max_actions=300))
    record, final = play_game(game, {Side.ATTACKER: MCTSBot(iterations=8), Side.DEFENDER: GreedyBot()})
    assert final.phase is Phase.VICTORY and final.winner is not None
    assert len(record.actions) == final.actions_taken


@pytest.mark.parametrize("name", sorted(SMALL_BOTS))
def test_bots_are_deterministic_per_seed(name: str) -> None:
    bot = SMALL_BOTS[name]
    state = fight()
    view, legal = player_view(state, Side.ATTACKER), legal_actions(state)
    first = bot.choose(view, legal, 12345)
    assert bot.choose(view, legal, 12345) == first
    assert get_bot(name, **({"iterations": 24} if name == "mcts" else {})).choose(view, legal, 12345) == first


def test_random_bot_depends_on_its_seed() -> None:
    state = fight()
    view, legal = player_view(state, Side.ATTACKER), legal_actions(state)
    picks = {RandomBot().choose(view, legal, seed)[0] for seed in range(40)}
    assert len(picks) > 5


def twins() -> tuple[GameState, GameState]:
    """Two real positions that differ only in what the ATTACKER may not see."""
    first = fight(seed=11)
    second = fight(
        seed=999,
        draw=("blackout#1", "air_cover#1", "artillery_support#1", "ammunition_shortage#1"),
        stored=(("troop_motivation#1",), ("special_supplies#1", "international_aid#1")),
        tactics=(("precision_shot", "commanders_luck"), ("clear_line_of_fire", "expert_aim", "favorable_weather")),
    )
    return first, second


def test_twin_positions_differ_only_in_hidden_parts() -> None:
    first, second = twins()
    assert encode_state(first) != encode_state(second)
    assert first.rng != second.rng and first.draw_pile != second.draw_pile
    assert first.player(Side.DEFENDER).tactics != second.player(Side.DEFENDER).tactics
    assert player_view(first, Side.ATTACKER) == player_view(second, Side.ATTACKER)
    assert legal_actions(first) == legal_actions(second)


@pytest.mark.parametrize("make", [lambda: MCTSBot(iterations=40), GreedyBot], ids=["mcts", "greedy"])
def test_choices_do_not_depend_on_hidden_parts_of_the_real_state(make: Callable[[], Bot]) -> None:
    first, second = twins()
    for seed in (1, 2, 3):
        # A fresh bot for each call: the MCTS bot's remembered plan must not hide a difference.
        a = make().choose(player_view(first, Side.ATTACKER), legal_actions(first), seed)
        b = make().choose(player_view(second, Side.ATTACKER), legal_actions(second), seed)
        assert a == b


def test_mcts_drafts_several_plans_and_tries_them_in_sampled_worlds() -> None:
    state = fight()
    view, legal = player_view(state, Side.ATTACKER), legal_actions(state)
    action, stats = MCTSBot(iterations=30).search(view, legal, 5)
    assert action in legal
    assert stats.plans >= 2 and len(stats.scores) == stats.plans
    assert stats.plans <= stats.iterations <= 30
    assert action == MCTSBot(iterations=30).search(view, legal, 5)[0]


def test_mcts_follows_its_plan_through_the_turn_without_searching_again() -> None:
    calls = 0

    def clock() -> float:
        nonlocal calls
        calls += 1
        return 0.0

    bot = MCTSBot(iterations=12, time_budget=60.0, clock=clock)
    state = fight()
    seed = 3
    action, seed = bot.choose(player_view(state, Side.ATTACKER), legal_actions(state), seed)
    searched = calls
    assert searched > 0
    played = 1
    while state.phase in (Phase.MOVEMENT, Phase.ATTACK) and state.to_act is Side.ATTACKER:
        state = reduce(state, action)
        if state.to_act is not Side.ATTACKER or state.phase not in (Phase.MOVEMENT, Phase.ATTACK):
            break
        action, seed = bot.choose(player_view(state, Side.ATTACKER), legal_actions(state), seed)
        played += 1
    assert played >= 3 and calls == searched  # every later decision came from the plan
    assert state.phase is Phase.DICE_RESOLUTION


def test_sampled_world_is_a_real_position_consistent_with_the_view() -> None:
    state = fight()
    view = player_view(state, Side.ATTACKER)
    seeds = set()
    for seed in range(8):
        world, seeds_next = sample_world(view, seed)
        seeds.add(world.rng)
        assert replace(player_view(world, Side.ATTACKER), events=()) == replace(view, events=())
        assert world.to_act is view.to_act
        assert HIDDEN not in encode_state(world).decode()
        cards = Counter(world.draw_pile) + Counter(world.discard_pile)
        for player in world.players:
            cards.update(player.stored)
        assert set(cards) <= set(shipped_deck(60)) and max(cards.values()) == 1
        assert legal_actions(world) == legal_actions(state)
        assert seeds_next != seed
    assert len(seeds) == 8


def test_sampled_worlds_vary_the_hidden_parts() -> None:
    view = player_view(fight(), Side.ATTACKER)
    hands = {sample_world(view, seed)[0].player(Side.DEFENDER).tactics for seed in range(30)}
    piles = {sample_world(view, seed)[0].draw_pile for seed in range(30)}
    assert len(hands) > 5 and len(piles) > 5


def test_a_drawn_bonus_of_the_opponent_is_sampled_from_unseen_bonuses() -> None:
    state = fight(side=Side.DEFENDER, phase="CARD_DRAW", draw=("artillery_support#3", "blackout#1"))
    state = reduce(state, legal_actions(state)[-1])  # DRAW_CARD: DEFENDER holds a hidden bonus
    view = player_view(state, Side.ATTACKER)
    assert view.pending_card is not None and view.pending_card.card == HIDDEN
    world, _ = sample_world(replace(view, to_act=Side.DEFENDER), 3)
    assert world.pending_card is not None
    assert world.pending_card.card.split("#")[0] in {c.split("#")[0] for c in shipped_deck(60)}


def test_greedy_prefers_a_sure_attack_to_leaving_the_phase() -> None:
    state = new_game(config(unit_specs=("A1 M C3", "D1 L C4"), phase="ATTACK"))
    action, _ = GreedyBot().choose(player_view(state, Side.ATTACKER), legal_actions(state), 1)
    assert type(action).__name__ == "DeclareAttack"


def test_greedy_moves_into_range_when_it_can_strike_first() -> None:
    state = new_game(config(unit_specs=("A1 M C2", "D1 L C8"), phase="MOVEMENT"))
    action, _ = GreedyBot().choose(player_view(state, Side.ATTACKER), legal_actions(state), 1)
    assert isinstance(action, MoveUnit) and action.unit_id == "A1"


def test_evaluation_is_zero_sum_and_rewards_destroying_units() -> None:
    state = fight()
    assert evaluate(state, Side.ATTACKER) == pytest.approx(-evaluate(state, Side.DEFENDER))
    fewer = replace(state, units=tuple(u for u in state.units if u.id != "D2"))
    dead = next(u for u in state.units if u.id == "D2")
    defender = replace(state.player(Side.DEFENDER), destroyed=(replace(dead, cell=None, hp=0),))
    fewer = replace(fewer, players=(state.players[0], defender))
    assert evaluate(fewer, Side.ATTACKER) > evaluate(state, Side.ATTACKER) + 1.0


def test_registry_builds_bots_by_name_and_rejects_unknown_names_and_options() -> None:
    assert set(BOTS) == {"random", "greedy", "mcts", "oep", "strong"}
    assert isinstance(get_bot("strong"), MCTSBot) and get_bot("strong").name == "strong"  # the top-rated bot
    assert get_bot("mcts", iterations=7).iterations == 7  # type: ignore[attr-defined]
    assert "iterations" in bot_options("mcts") and "name" not in bot_options("mcts")
    with pytest.raises(ValueError, match="unknown bot"):
        get_bot("alphazero")
    with pytest.raises(ValueError, match="no option depth"):
        get_bot("greedy", depth=3)
    with pytest.raises(ValueError, match="styles must be"):
        get_bot("mcts", styles=[[0.3, 1.0]])
    with pytest.raises(ValueError, match="turns must be at least 1"):
        get_bot("mcts", turns=0)
    for bad in (0, 2.5, True):
        with pytest.raises(ValueError, match="move_limit must be a whole number"):
            get_bot("greedy", move_limit=bad)


def test_the_damage_share_is_a_number_from_0_to_1_for_every_bot_that_takes_it() -> None:
    assert get_bot("greedy", damage_share=0.6).damage_share == 0.6  # type: ignore[attr-defined]
    assert "damage_share" in bot_options("greedy") and "damage_share" in bot_options("mcts")
    for name in ("greedy", "mcts"):
        for bad in (-0.1, 1.5, True, "0.6", float("nan")):
            with pytest.raises(ValueError, match="damage_share must be a number from 0 to 1"):
                get_bot(name, damage_share=bad)
    with pytest.raises(ValueError, match="damage_share must be a number from 0 to 1"):
        Style(damage_share=2)


def test_the_damage_share_prices_a_damaged_unit_and_a_hit_on_it() -> None:
    """A MECHANIZED unit (2 HP, 2 VP): one hit takes the share of its 2 VP in proportion, a kill all of them."""
    mechanized = UNITS[UnitType.MECHANIZED]
    assert loss_value(mechanized, 1, 0.6) == pytest.approx(0.6) and loss_value(mechanized, 1) == pytest.approx(0.4)
    assert loss_value(mechanized, 0, 0.6) == loss_value(mechanized, 0) == 2.0
    state = new_game(config(unit_specs=("A1 L C3", "D1 M C5"), phase="ATTACK"))
    assert Position(state, 0.6).hit_value["D1"] == pytest.approx(0.6)
    assert Position(state).hit_value["D1"] == pytest.approx(0.4)
    hurt = replace(state, units=tuple(replace(u, hp=1) if u.id == "D1" else u for u in state.units))
    for position in (state, hurt):  # the evaluation reads the style's share
        assert evaluate(position, Side.ATTACKER, style=Style(damage_share=0.6)) != evaluate(position, Side.ATTACKER)


def test_mcts_judges_its_own_turns_with_its_damage_share_and_the_enemy_as_greedy_does() -> None:
    bot = MCTSBot(damage_share=0.7)
    assert bot._own(Style(threat=0.8)).damage_share == 0.7
    assert bot._judging() == Style(damage_share=0.7)
    assert MCTSBot()._judging() is BALANCED
    state = fight()
    view, legal = player_view(state, Side.ATTACKER), legal_actions(state)
    assert bot.search(view, legal, 1)[0] in legal


def test_mcts_time_budget_covers_the_whole_search_on_the_injected_clock() -> None:
    state = fight()
    view, legal = player_view(state, Side.ATTACKER), legal_actions(state)
    untimed = MCTSBot(iterations=500).search(view, legal, 1)
    assert untimed[1].plans >= 2
    # A clock that never moves: the budget is never reached and the search is the untimed one.
    assert MCTSBot(iterations=500, time_budget=1.0, clock=lambda: 0.0).search(view, legal, 1) == untimed
    # One tick per reading: read 0 sets the deadline at 8, the drafts of styles 2..6 read 1..5, and the
    # worlds 2..4 read 6..8, so the third world is the last. A budget for the simulations alone (8 from
    # their start) would have run eight worlds.
    ticks = iter(range(1000))
    _, stats = MCTSBot(iterations=500, time_budget=8.0, clock=lambda: float(next(ticks))).search(view, legal, 1)
    assert (stats.plans, stats.iterations) == (untimed[1].plans, 3 * untimed[1].plans)
    # Out of time after the first draft: its plan is played, with no other drafted and nothing simulated.
    readings = iter([0.0] + [100.0] * 50)
    action, stats = MCTSBot(time_budget=1.0, clock=lambda: next(readings)).search(view, legal, 1)
    assert (stats.plans, stats.iterations) == (1, 0) and action in legal
    with pytest.raises(ValueError, match="clock"):
        MCTSBot(time_budget=1.0)


def test_mcts_within_a_time_stops_its_search_there_and_keeps_the_plan_it_remembers() -> None:
    ticks = iter(range(1000))
    bot = MCTSBot(iterations=500)
    timed = bot.within(8.0, lambda: float(next(ticks)))
    assert (timed.time_budget, bot.time_budget, bot.clock) == (8.0, None, None)  # the bot itself is unchanged
    state = fight()
    view, legal = player_view(state, Side.ATTACKER), legal_actions(state)
    _, stats = timed.search(view, legal, 1)
    assert stats.plans >= 2 and stats.iterations == 3 * stats.plans  # as in the test above
    assert timed._memo is bot._memo and bot._memo  # the plan the timed copy chose is the bot's to follow
    assert bot.within(-1.0, lambda: 0.0).time_budget == 0.0


def test_a_single_legal_action_is_returned_without_thinking() -> None:
    state = fight(phase="CARD_DRAW", draw=())
    legal = legal_actions(state)
    assert legal == [NextPhase()]
    for bot in SMALL_BOTS.values():
        assert bot.choose(player_view(state, Side.ATTACKER), legal, 9) == (NextPhase(), 9)


@pytest.mark.parametrize("bot", [GreedyBot(deploy=False), MCTSBot(iterations=4, deploy=False)], ids=["greedy", "mcts"])
def test_bots_deploy_by_the_automatic_rule_and_confirm(bot: object) -> None:
    state = new_game(GameConfig(seed=2, terrain=config().terrain, deployment="manual"))
    seeds = 1
    for _ in range(4):
        assert state.phase is Phase.DEPLOYMENT
        side = state.to_act
        assert side is not None
        action, seeds = bot.choose(player_view(state, side), legal_actions(state), seeds)  # type: ignore[attr-defined]
        assert type(action).__name__ in ("AutoDeploy", "ConfirmDeployment")
        state = reduce(state, action)
    assert state.phase is Phase.CARD_DRAW and state.actions_taken == 4


def pending_attack(units: tuple[str, ...], tactic: str, attacker: str, target: str, **kwargs: object) -> GameState:
    """The ATTACKER's pending attack ``attacker`` → ``target``, unrolled, with ``tactic`` in hand."""
    state = new_game(config(unit_specs=units, phase="ATTACK", draw=(), tactics=((tactic,), ()), **kwargs))  # type: ignore[arg-type]
    for action in (DeclareAttack(attacker_id=attacker, target_id=target), NextPhase()):
        state = reduce(state, action)
    return state


TACTIC_POSITIONS = {
    # A mechanized target survives one hit but not a doubled one.
    "precision_shot": (("A7 M B3", "D9 M B4", "D1 L J9"), "A7", "D9", {}),
    # A light unit in a city: 2/6 to hit, 4/6 once the terrain is ignored.
    "clear_line_of_fire": (("A1 L B3", "D1 L B4", "D2 L J9"), "A1", "D1", {"terrain": terrain_with(B4="u")}),
    # A second mechanized unit in range: +1 to the roll and +1 damage kill the mechanized target.
    "coordinated_maneuver": (("A7 M B3", "A8 M C3", "D9 M B4", "D1 L J9"), "A7", "D9", {}),
}


@pytest.mark.parametrize("make", [GreedyBot, lambda: MCTSBot(iterations=12)], ids=["greedy", "mcts"])
@pytest.mark.parametrize("tactic", sorted(TACTIC_POSITIONS))
def test_bots_play_a_tactic_where_the_engine_says_it_helps(tactic: str, make: Callable[[], Bot]) -> None:
    units, attacker, target, extra = TACTIC_POSITIONS[tactic]
    state = pending_attack(units, tactic, attacker, target, **extra)
    preview = attack_preview(state, DeclareAttack(attacker_id=attacker, target_id=target))
    gain = next(t.odds for t in preview.tactics if t.play.card_id == tactic)
    assert gain.destroy_chance > preview.odds.destroy_chance  # the position is one where it helps
    action, _ = make().choose(player_view(state, Side.ATTACKER), legal_actions(state), 1)
    assert isinstance(action, PlayTactic) and action.card_id == tactic


@pytest.mark.parametrize("make", [GreedyBot, lambda: MCTSBot(iterations=12)], ids=["greedy", "mcts"])
def test_bots_keep_precision_shot_when_one_hit_already_destroys(make: Callable[[], Bot]) -> None:
    state = pending_attack(("A7 M B3", "D1 L B4", "D2 L J9"), "precision_shot", "A7", "D1")
    action, _ = make().choose(player_view(state, Side.ATTACKER), legal_actions(state), 1)
    assert isinstance(action, RollDice)


def test_no_module_of_the_lab_names_a_card_id() -> None:
    from pathlib import Path

    from engine.data import CARDS

    root = Path(__file__).resolve().parents[2] / "lab"
    for path in sorted(root.rglob("*.py")):
        text = path.read_text()
        named = [card for card in CARDS if f'"{card}"' in text or f"'{card}'" in text]
        assert not named, f"{path.relative_to(root.parent)} names {named}"
