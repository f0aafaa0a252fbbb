"""A match's answers (server/answers.py): one per version and question, shared, forgotten when they fail."""

from __future__ import annotations

import asyncio

import msgspec
import pytest

from server.answers import LIMIT, Answers, with_id
from server.protocol import ThreatAnswer, encode


def test_with_id_gives_an_answer_encoded_with_id_0_the_askers_id() -> None:
    text = encode(ThreatAnswer(id=0, version=7, threats=None, problem='say "id":0, twice'))
    assert msgspec.json.decode(with_id(text, 12345)) == msgspec.json.decode(
        encode(ThreatAnswer(id=12345, version=7, threats=None, problem='say "id":0, twice')))
    with pytest.raises(ValueError, match="not an answer"):
        with_id('{"id":3}', 1)


def test_answers_are_shared_within_a_version_and_forgotten_with_it_or_when_they_fail() -> None:
    async def run() -> None:
        answers = Answers()
        loop = asyncio.get_running_loop()
        first: asyncio.Future[str] = loop.create_future()
        answers.keep(3, "threats", first)
        assert answers.get(3, "threats") is first and answers.get(3, "moves") is None
        assert answers.get(4, "threats") is None  # another version: nothing kept is its answer
        failing: asyncio.Future[str] = loop.create_future()
        answers.keep(3, "hint", failing)
        failing.set_exception(RuntimeError("the analysis process failed"))
        await asyncio.sleep(0)
        assert answers.get(3, "hint") is None and answers.get(3, "threats") is first
        answers.keep(4, "threats", loop.create_future())
        assert len(answers) == 1 and answers.get(3, "threats") is None
        for n in range(LIMIT + 10):
            answers.keep(4, n, loop.create_future())
        assert len(answers) == LIMIT  # more are answered, not kept

    asyncio.run(run())
