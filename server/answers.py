"""A match's answers to questions about its current position, each worked out once.

A question about a position (a threat map, a preview, an explanation, a hint) has one
answer per match version, viewer seat and question, however many sockets ask it: the
first asker's request works it out, every other asker of the same version shares that
answer (and its cost: nothing). Answers are kept as encoded text with ``"id":0`` and
given to each asker with its own id (`with_id`). They are forgotten when the version
changes; at most `LIMIT` questions are kept per version (more are answered, not kept).
"""

from __future__ import annotations

import asyncio
from collections.abc import Hashable

__all__ = ["LIMIT", "Answers", "with_id"]

LIMIT = 256  # answers kept per version: every unit's preview and threat map fit many times over

_ID = '"id":0,'


def with_id(text: str, answer_id: int) -> str:
    """An answer encoded with id 0 (msgspec writes the tag, then ``id``: the first field) given ``answer_id``."""
    head, found, tail = text.partition(_ID)
    if not found or not head.startswith('{"type":'):
        raise ValueError(f"not an answer encoded with id 0: {text[:60]!r}")
    return f'{head}"id":{answer_id},{tail}'


class Answers:
    """Encoded answers (futures of them while being worked out) of one version, by question."""

    def __init__(self) -> None:
        self.version = -1
        self._found: dict[Hashable, asyncio.Future[str]] = {}

    def __len__(self) -> int:
        return len(self._found)

    def get(self, version: int, key: Hashable) -> asyncio.Future[str] | None:
        """The answer (or the answer being worked out) to ``key`` at ``version``, if any."""
        if version != self.version:
            return None
        return self._found.get(key)

    def keep(self, version: int, key: Hashable, answer: asyncio.Future[str]) -> None:
        """Share ``answer`` with later askers of ``key`` at ``version``; forgotten if it fails."""
        if version != self.version:
            self.version = version
            self._found = {}
        if len(self._found) >= LIMIT:
            return
        self._found[key] = answer

        def forget_failure(done: asyncio.Future[str]) -> None:
            if (done.cancelled() or done.exception() is not None) and self._found.get(key) is done:
                del self._found[key]

        answer.add_done_callback(forget_failure)
