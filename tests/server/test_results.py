"""Stored matches' costly reads (server/results.py): kept per version, worked out once however many ask."""

from __future__ import annotations

import asyncio
import threading
import time
from typing import Any

from engine import RULES_VERSION
from server.analysts import Analysts
from server.results import Results, stored_answer
from server.store import MatchRow, Progress

from .conftest import arun


def test_answers_are_kept_up_to_the_byte_limit_least_recently_used_out() -> None:
    results = Results(max_bytes=100)
    results.keep("a", b"x" * 20)
    results.keep("b", b"x" * 20)
    assert results.get("a") is not None  # now the most recently used
    for key in "cde":
        results.keep(key, b"x" * 20)
    results.keep("f", b"x" * 20)
    assert results.get("b") is None and results.get("a") is not None and results.size == 100
    results.keep("huge", b"x" * 26)  # over a quarter of the limit: answered, never kept
    assert results.get("huge") is None


class Store:
    """The two reads `stored_answer` makes, with a match whose version the test moves."""

    def __init__(self) -> None:
        self.version = 3
        self.loads = 0

    def row(self) -> MatchRow:
        progress = Progress(status="live", version=self.version, turn=1, phase="MOVEMENT", to_act="ATTACKER",
                            winner=None, victory_reason=None)
        return MatchRow(id="m", created_at=0.0, updated_at=0.0, rules_version=RULES_VERSION, config="{}", salt="",
                        seed_commitment="", mode="human", bot_side=None, bot_policy=None, bot_seed=None,
                        parent_id=None, parent_step=None, progress=progress)

    async def match_row(self, match_id: str) -> MatchRow | None:
        return self.row() if match_id == "m" else None

    async def load(self, match_id: str) -> tuple[MatchRow, dict[str, bytes], list[Any]] | None:
        self.loads += 1
        return self.row(), {}, [object()] * self.version


def test_a_read_is_worked_out_once_per_version_however_many_ask_at_once() -> None:
    store, results, analysts = Store(), Results(), Analysts(0, queue=8, per_address=8)
    worked = []
    lock = threading.Lock()

    def work(row: MatchRow, rows: list[Any], detail: str) -> bytes:
        with lock:
            worked.append(len(rows))
        time.sleep(0.2)
        return f"{detail} at {len(rows)}".encode()

    async def ask(detail: str = "x") -> bytes | None:
        return await stored_answer(store, results, analysts, None, "what", "m", work, detail)  # type: ignore[arg-type]

    async def run() -> None:
        assert await asyncio.gather(*(ask() for _ in range(10))) == [b"x at 3"] * 10
        assert worked == [3] and store.loads == 1
        assert await ask("y") == b"y at 3" and worked == [3, 3]  # other details, another answer
        store.version = 4
        assert await ask() == b"x at 4" and worked == [3, 3, 4]  # the match moved on
        assert await stored_answer(store, results, analysts, None, "what", "nope", work) is None  # type: ignore[arg-type]

    try:
        arun(run(), timeout=30)
    finally:
        analysts.close()
