"""Self-play results: per-card play counts in the summary, counted from what the engine reports."""

from __future__ import annotations

from engine import GameConfig, GameRecord, PlayBonus, PlayTactic, Side, VictoryConfig, new_game, reduce
from lab.selfplay import GameResult, format_summary, play_spec, schedule, summarize

SMALL = GameConfig(terrain="\n".join(["." * 10] * 12), victory=VictoryConfig(max_actions=300))


def test_a_game_counts_every_card_played_for_effect() -> None:
    spec = schedule(("greedy", "random"), games=1, seed=4, config=SMALL)[0]
    result = play_spec(spec)
    state = new_game(result.record.config)
    expected: dict[str, int] = {}
    for action in result.record.actions:
        card = None
        if isinstance(action, PlayTactic):
            card = action.card_id
        elif isinstance(action, PlayBonus):
            stored = state.player(state.active).stored
            pending = state.pending_card.card if state.pending_card is not None else None
            card = pending if action.stored_index is None else stored[action.stored_index]
        if card is not None:
            card_id = card.partition("#")[0]
            expected[card_id] = expected.get(card_id, 0) + 1
        state = reduce(state, action)
    assert dict(result.cards) == expected and expected
    assert list(result.cards) == sorted(result.cards)


def result(index: int, cards: tuple[tuple[str, int], ...]) -> GameResult:
    return GameResult(
        index=index,
        seed=index,
        attacker="a",
        defender="b",
        winner=Side.ATTACKER,
        reason="annihilation",
        actions=10,
        turns=2,
        vp=(1, 0),
        record=GameRecord(config=SMALL, actions=()),
        cards=cards,
    )


def test_the_summary_counts_games_and_plays_per_card_and_prints_them() -> None:
    results = [
        result(0, (("artillery_support", 2), ("precision_shot", 1))),
        result(1, (("precision_shot", 3),)),
        result(2, ()),
        result(3, (("clear_line_of_fire", 1),)),
    ]
    summary = summarize(results)
    assert summary.cards == {
        "artillery_support": (1, 2),
        "clear_line_of_fire": (1, 1),
        "precision_shot": (2, 4),
    }
    text = format_summary(summary)
    assert "tactics played, share of games (plays): clear_line_of_fire 25.0% (1), precision_shot 50.0% (4)" in text
    assert "bonuses played, share of games (plays): artillery_support 25.0% (2)" in text
