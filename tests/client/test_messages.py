"""The client's own wire types agree with what a real server sends and accepts.

The client never imports the server (tests/test_layers.py); this test may, and holds the two
together: every field the client declares is one the server's message has, every frame a
real server sends is read (or, for a type the client does not use, skipped), and every
message the client sends is one the server decodes.
"""

from __future__ import annotations

import msgspec
import pytest

from client import messages
from engine import GameConfig, MoveUnit, Side, legal_actions, new_game, player_view
from server import clocks, presence, protocol
from tests.server.conftest import QUICK_GAME, LiveServer, Peer, arun, create_match, tokens_of

PAIRS = [
    (messages.Welcome, protocol.Welcome),
    (messages.StateUpdate, protocol.StateUpdate),
    (messages.Ack, protocol.Ack),
    (messages.Reject, protocol.Reject),
    (messages.ClockUpdate, protocol.ClockUpdate),
    (messages.PresenceUpdate, protocol.PresenceUpdate),
    (messages.ClockView, clocks.ClockView),
    (messages.SeatTimes, clocks.SeatTimes),
    (messages.PresenceView, presence.PresenceView),
    (messages.EventText, protocol.EventText),
]


@pytest.mark.parametrize(("mine", "theirs"), PAIRS, ids=lambda c: c.__name__)
def test_every_field_the_client_reads_is_one_the_server_sends(mine: type, theirs: type) -> None:
    assert mine.__struct_config__.tag == theirs.__struct_config__.tag
    their_fields = {field.name: field.type for field in msgspec.inspect.type_info(theirs).fields}
    for field in msgspec.inspect.type_info(mine).fields:
        assert field.name in their_fields and compatible(field.type, their_fields[field.name]), field.name


def compatible(mine: msgspec.inspect.Type, theirs: msgspec.inspect.Type) -> bool:
    """Whatever the server encodes as ``theirs`` decodes as ``mine``: the same type, or a looser one
    (a str for a Literal of strings, a struct of the client's own with a subset of the fields)."""
    inspect = msgspec.inspect
    if isinstance(mine, inspect.StructType) and isinstance(theirs, inspect.StructType) and mine.cls is theirs.cls:
        return True  # the engine's own struct on both sides (comparing the infos of a recursive one never ends)
    if mine == theirs:
        return True
    if isinstance(mine, inspect.StrType) and isinstance(theirs, inspect.LiteralType):
        return all(isinstance(value, str) for value in theirs.values)
    if isinstance(theirs, inspect.UnionType):
        return all(compatible(mine, branch) for branch in theirs.types)
    if isinstance(mine, inspect.UnionType):  # e.g. the client's Decision | None for the server's Decision
        return any(compatible(branch, theirs) for branch in mine.types)
    if isinstance(mine, inspect.VarTupleType) and isinstance(theirs, inspect.VarTupleType):
        return compatible(mine.item_type, theirs.item_type)
    if isinstance(mine, inspect.StructType) and isinstance(theirs, inspect.StructType):
        fields = {field.name: field.type for field in theirs.fields}
        return all(field.name in fields and compatible(field.type, fields[field.name]) for field in mine.fields)
    return False


def test_what_the_client_sends_is_what_the_server_decodes() -> None:
    hello = protocol.decode_client(messages.encode_client(messages.Hello(token="abc")))
    assert hello == protocol.Hello(token="abc")
    act = messages.Act(version=3, seq=7, action=MoveUnit(unit_id="A7", to="K16"))
    assert protocol.decode_client(messages.encode_client(act)) == protocol.Act(
        version=3, seq=7, action=MoveUnit(unit_id="A7", to="K16"))
    assert protocol.decode_client(messages.encode_client(messages.Hello(token=None))) == protocol.Hello()


def test_every_frame_of_a_real_match_is_read_or_skipped(live: LiveServer) -> None:
    created = create_match(live, clock={"initial": 600, "increment": 5})
    tokens = tokens_of(created)

    async def frames() -> list[str]:
        attacker = await Peer.seated(live, created["match_id"], tokens["ATTACKER"])
        defender = await Peer.seated(live, created["match_id"], tokens["DEFENDER"])  # the clocks start
        await attacker.expect("clock")
        seq = await attacker.act({"type": "NEXT_PHASE"}, version=99)  # a reject
        await attacker.reply(seq)
        seq = await attacker.act(msgspec.to_builtins(attacker.state["legal_actions"][0]))  # type: ignore[index]
        await attacker.reply(seq)
        for question in ({"type": "explain", "id": 1, "action": {"type": "NEXT_PHASE"}},
                         {"type": "preview_move", "id": 2, "unit_id": "A7"}, {"type": "threats", "id": 3},
                         {"type": "hint", "id": 4}):
            await attacker.send(question)
        await attacker.quiet(1.0)
        await defender.close()
        await attacker.expect("presence")
        return attacker.frames

    received = arun(frames())
    kinds = [msgspec.json.decode(frame)["type"] for frame in received]
    assert {"welcome", "state", "clock", "ack", "reject", "presence", "explanation", "move_preview"} <= set(kinds)
    for frame, kind in zip(received, kinds, strict=True):
        message = messages.decode_server(frame)
        if kind in ("welcome", "state", "ack", "reject", "clock", "presence"):
            assert message is not None and message.__struct_config__.tag == kind
        else:
            assert message is None, kind  # answers to questions the client never asks
    states = [m for m in map(messages.decode_server, received) if isinstance(m, messages.StateUpdate)]
    assert states[-1].seat is Side.ATTACKER and states[-1].clock is not None and states[-1].presence is not None
    start = new_game(msgspec.convert({**QUICK_GAME, "seed": 1234}, GameConfig))
    assert list(states[0].legal_actions) == legal_actions(start) and states[0].view == player_view(start, Side.ATTACKER)


def test_a_frame_that_is_no_message_is_an_error_and_an_unknown_one_is_skipped() -> None:
    assert messages.decode_server(b'{"type": "fireworks", "colour": "red"}') is None
    with pytest.raises(msgspec.DecodeError):
        messages.decode_server(b"[1, 2]")
    with pytest.raises(msgspec.DecodeError):
        messages.decode_server(b'{"type": "ack", "seq": "one"}')
