"""server/match.py: the event texts of a state update, remembered per event."""

from __future__ import annotations

import random

import pytest

from engine import Event, EventKind, GameConfig, Side, legal_actions, new_game, reduce
from engine.analysis import describe_event
from server import match as match_module
from server.match import event_text

RULES = new_game(GameConfig(seed=11)).rules


def played_events(actions: int = 120) -> list[Event]:
    """The events of a game of random legal actions (under `RULES`)."""
    state = new_game(GameConfig(seed=11))
    rng = random.Random(5)
    events: list[Event] = []
    for _ in range(actions):
        choices = legal_actions(state)
        if not choices:
            break
        state = reduce(state, rng.choice(choices))
        events.extend(state.events)
    return events


def test_an_event_text_is_the_engines_sentence_for_that_event() -> None:
    events = played_events()
    assert len({e.kind for e in events}) > 3
    for event in events:
        shown = event_text(event, RULES)
        assert shown.event == event
        assert shown.text == describe_event(event, RULES)


def test_equal_events_share_one_text_and_different_ones_do_not() -> None:
    moved = Event(kind=EventKind.UNIT_MOVED, side=Side.ATTACKER, unit="A1", from_cell="B2", cell="B3")
    again = Event(kind=EventKind.UNIT_MOVED, side=Side.ATTACKER, unit="A1", from_cell="B2", cell="B3")
    elsewhere = Event(kind=EventKind.UNIT_MOVED, side=Side.ATTACKER, unit="A1", from_cell="B2", cell="B4")
    assert event_text(moved, RULES) is event_text(again, RULES)
    assert event_text(elsewhere, RULES).text.endswith("to B4")
    assert event_text(moved, RULES).text.endswith("to B3")


def test_the_remembered_texts_stay_bounded(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(match_module, "EVENT_TEXTS_LIMIT", 10)
    monkeypatch.setattr(match_module, "_event_texts", {})
    for value in range(25):
        text = event_text(Event(kind=EventKind.TURN_STARTED, side=Side.DEFENDER, value=value), RULES)
        assert text.text == f"turn {value}: DEFENDER to play"
        assert len(match_module._event_texts) <= 10
