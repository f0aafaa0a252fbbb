"""Wire types: strict decoding of client messages, and codes that match the server contract."""

from __future__ import annotations

import json

import msgspec
import pytest

from engine import DrawCard, MoveUnit
from server.protocol import ERROR_CODES, Ack, Act, Hello, Reject, Sync, decode_client, encode

CONTRACT_CODES = ("bad_message", "unauthenticated", "forbidden", "not_your_turn", "stale_version",
                  "illegal_action", "game_over", "rate_limited", "internal_error", "unavailable")


def test_client_messages_decode_into_their_types() -> None:
    assert decode_client('{"type": "hello", "token": "abc"}') == Hello(token="abc")
    assert decode_client('{"type": "hello"}') == Hello(token=None)
    assert decode_client(b'{"type": "sync"}') == Sync()
    act = decode_client('{"type": "act", "version": 3, "seq": 1, "action": {"type": "MOVE_UNIT", "unit_id": "A1", '
                        '"to": "C4"}}')
    assert act == Act(version=3, seq=1, action=MoveUnit(unit_id="A1", to="C4"))


@pytest.mark.parametrize(("text", "path"), [
    ('{"type": "act", "version": true, "seq": 1, "action": {"type": "DRAW_CARD"}}', "$.version"),
    ('{"type": "act", "version": -1, "seq": 1, "action": {"type": "DRAW_CARD"}}', "$.version"),
    ('{"type": "act", "version": 0, "seq": 0, "action": {"type": "DRAW_CARD"}}', "$.seq"),
    ('{"type": "act", "version": 0, "seq": 99999999999999999999999, "action": {"type": "DRAW_CARD"}}', "$.seq"),
    ('{"type": "act", "version": 0, "seq": 1.5, "action": {"type": "DRAW_CARD"}}', "$.seq"),
    ('{"type": "act", "version": 0, "seq": 1, "action": {"type": "FIRE_NUKES"}}', "$.action.type"),
    ('{"type": "act", "version": 0, "seq": 1, "action": {"type": "DRAW_CARD"}, "seat": "DEFENDER"}', "seat"),
    ('{"type": "hello", "token": ""}', "$.token"),
    ('{"type": "hello", "token": 5}', "$.token"),
    ('{"type": "unknown"}', "type"),
])
def test_bad_shapes_fail_naming_the_path(text: str, path: str) -> None:
    with pytest.raises(msgspec.ValidationError, match=path.replace("$", r"\$").replace(".", r"\.")):
        decode_client(text)


@pytest.mark.parametrize("text", ["", "nope", "[]", '{"type": "act", "version": NaN}', '{"type": "sync"} x'])
def test_malformed_json_fails(text: str) -> None:
    with pytest.raises(msgspec.DecodeError):
        decode_client(text)


def test_error_codes_are_exactly_the_contract_codes() -> None:
    assert ERROR_CODES == CONTRACT_CODES


def test_server_messages_encode_as_tagged_json() -> None:
    assert json.loads(encode(Ack(seq=4, version=9))) == {"type": "ack", "seq": 4, "version": 9}
    assert json.loads(encode(Reject(code="game_over", reason="the game is over"))) == {
        "type": "reject", "code": "game_over", "reason": "the game is over", "seq": None}
    assert decode_client(json.dumps({"type": "act", "version": 0, "seq": 1, "action": {"type": "DRAW_CARD"}})).action \
        == DrawCard()


@pytest.mark.parametrize(("text", "key"), [
    ('{"type": "act", "version": 1, "version": 0, "seq": 1, "action": {"type": "DRAW_CARD"}}', "version"),
    ('{"type": "act", "version": 0, "vers\\u0069on": 0, "seq": 1, "action": {"type": "DRAW_CARD"}}', "version"),
    ('{"type": "act", "version": 0, "seq": 1, "action": {"type": "MOVE_UNIT", "unit_id": "A1", "to": "C4", '
     '"to": "C5"}}', "to"),
    ('{"type": "hello", "token": "a", "token": "b"}', "token"),
])
def test_a_key_twice_in_one_object_is_refused_naming_it(text: str, key: str) -> None:
    for data in (text, text.encode()):
        with pytest.raises(msgspec.ValidationError, match=f"duplicate key {key!r}"):
            decode_client(data)


def test_the_same_key_in_different_objects_is_fine() -> None:
    act = decode_client('{"type": "act", "version": 0, "seq": 1, "action": {"type": "DRAW_CARD"}}')
    assert act == Act(version=0, seq=1, action=DrawCard())
