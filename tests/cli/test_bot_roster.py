"""`taktik serve` seats the lab's bots: greedy by default, strong on request, random as fallback."""

from __future__ import annotations

from cli.cmd_serve import SEATED_BOTS, bot_roster
from engine import GameConfig, RoundLimit, VictoryConfig, legal_actions, mix_seed, new_game, player_view, reduce


def test_every_seated_bot_is_a_deterministic_policy_fed_only_a_view() -> None:
    roster = bot_roster()
    assert list(roster.policies) == list(SEATED_BOTS) == ["greedy", "strong", "random"]
    assert roster.fallback == "random" and all(roster.describe(name) != name for name in SEATED_BOTS)
    state = new_game(GameConfig(seed=3))
    view = player_view(state, state.to_act)
    for name, policy in roster.policies.items():
        action, seed = policy(view, legal_actions(state), 11)
        assert action in legal_actions(state), name
        assert policy(view, legal_actions(state), 11) == (action, seed), name


def test_the_fallback_plays_a_whole_game_legally_and_reproducibly() -> None:
    fallback = bot_roster().policies["random"]

    def play(seed: int) -> list[str]:
        state = new_game(GameConfig(seed=3, victory=VictoryConfig(round_limit=RoundLimit(max_rounds=1))))
        chosen = []
        while legal := legal_actions(state):
            assert state.to_act is not None
            action, seed = fallback(player_view(state, state.to_act), legal, seed)
            assert action in legal
            chosen.append(repr(action))
            state = reduce(state, action)
        return chosen

    assert play(7) == play(7)
    assert play(7) != play(8)
    assert mix_seed(5, 0) != mix_seed(5, 1)
    assert all(0 <= mix_seed(2**32 - 1, v) < 2**32 for v in range(100))


def test_a_searching_seat_thinks_within_the_servers_time_and_a_quick_one_never_asks_the_clock() -> None:
    from engine import Phase
    from lab.bots import GreedyBot, get_bot

    state = new_game(GameConfig(seed=3))
    seed = 1
    while not (state.phase is Phase.MOVEMENT and state.to_act is state.active):
        assert state.to_act is not None
        action, seed = GreedyBot().choose(player_view(state, state.to_act), legal_actions(state), seed)
        state = reduce(state, action)
    view, legal = player_view(state, state.to_act), legal_actions(state)
    readings: list[float] = []

    def late() -> float:  # every reading after the first is past any deadline
        readings.append(0.0 if not readings else 1e9)
        return readings[-1]

    rushed = bot_roster(think=0.5, clock=late).policies
    action, _ = rushed["strong"](view, legal, 11)
    assert action in legal and len(readings) == 2  # the deadline set, then found passed after the first draft
    for quick in ("greedy", "random"):
        rushed[quick](view, legal, 11)
    assert len(readings) == 2  # greedy and random never read the clock
    # A budget never reached plays exactly what the lab's strong plays.
    calm = bot_roster(think=10.0, clock=lambda: 0.0).policies["strong"]
    assert calm(view, legal, 11) == get_bot("strong").choose(view, legal, 11)
