"""Event kinds are one enumeration, each described in words; their wire strings stay put."""

from __future__ import annotations

import msgspec
import pytest

from engine import Event, EventKind, InvalidState, Side, decode_state, encode_state
from engine.analysis import describe_event
from tests.support import start


@pytest.mark.parametrize("kind", list(EventKind))
def test_every_event_kind_has_words(kind: EventKind) -> None:
    event = Event(kind=kind, side=Side.ATTACKER, unit="A1", target="D1", cell="B2", value=1)
    text = describe_event(event, start().rules)
    assert text and kind.value not in text


def test_event_kinds_are_encoded_as_their_lowercase_names() -> None:
    # The strings are the wire values clients and stored records hold: a rename changes no value.
    assert all(kind.value == kind.name.lower() for kind in EventKind)
    assert msgspec.json.encode(Event(kind=EventKind.UNIT_MOVED)) == b'{"kind":"unit_moved"}'


def test_a_misspelt_event_kind_is_rejected_when_a_state_is_decoded() -> None:
    state = msgspec.structs.replace(start(), events=(Event(kind=EventKind.TURN_STARTED, value=1),))
    raw = encode_state(state)
    assert decode_state(raw) == state
    with pytest.raises(InvalidState, match="events"):
        decode_state(raw.replace(b'"turn_started"', b'"turn_startd"'))
