"""The bounded, coalescing outbound queue of one socket."""

from __future__ import annotations

import asyncio

from server.outbox import Outbox

from .conftest import arun


def drain(outbox: Outbox, expected: int) -> list[str]:
    sent: list[str] = []

    async def send(text: str) -> None:
        sent.append(text)
        if len(sent) == expected:
            outbox.close()

    async def run() -> None:
        await asyncio.wait_for(outbox.run(send), 5)

    arun(run())
    return sent


def test_messages_go_out_in_order_while_the_reader_keeps_up() -> None:
    outbox = Outbox(4, lambda: "snapshot")
    outbox.put_reply("welcome")
    outbox.put_state("state 0")
    outbox.put_reply("ack")
    assert drain(outbox, 3) == ["welcome", "state 0", "ack"]
    assert outbox.coalesced == 0


def test_falling_behind_drops_the_backlog_for_one_snapshot_built_when_sent() -> None:
    current = {"version": 3}
    outbox = Outbox(3, lambda: f"snapshot v{current['version']}")
    for version in range(1, 4):
        outbox.put_state(f"state v{version}")
    outbox.put_state("state v4")  # the fourth overflows: everything queued is superseded
    current["version"] = 5
    outbox.put_state("state v5")  # ignored: the snapshot due will be at least this fresh
    outbox.put_reply("ack 9")  # an answer is kept, after the snapshot
    assert drain(outbox, 2) == ["snapshot v5", "ack 9"]
    assert outbox.coalesced == 1


def test_a_closed_outbox_takes_nothing_more() -> None:
    outbox = Outbox(2, lambda: "snapshot")
    outbox.close()
    outbox.put_state("late")
    outbox.put_reply("late")
    assert drain(outbox, 99) == []
