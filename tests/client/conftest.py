"""Fixtures for the client tests: real `taktik serve` processes, and `taktik join` run as a user runs it."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.server.conftest import FAST_LIMITS, QUICK_GAME, REPO, LiveServer, http_json

JOIN_TIMEOUT = 300  # seconds for one `taktik join` to finish a quick game (a busy machine included)


@pytest.fixture(scope="session")
def live(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    """A shared server (SQLite) with lifted rates, for whole games at full speed."""
    server = LiveServer(tmp_path_factory.mktemp("client-fast") / "data", FAST_LIMITS).start()
    yield server
    assert server.stop() == 0, server.log_text()
    assert "Traceback" not in server.log_text(), server.log_text()


def new_match(server: LiveServer, seed: int | None = 1234, **body: Any) -> tuple[str, dict[str, str]]:
    """A quick game (unless ``config`` is given): its id and each seat's link."""
    body.setdefault("config", {**QUICK_GAME, "seed": seed} if seed is not None else QUICK_GAME)
    status, created = http_json(server, "POST", "/api/matches", body)
    assert status == 201, created
    return str(created["match_id"]), {seat["seat"]: seat["url"] for seat in created["seats"]}


def join(link: str, *args: str, cwd: Path = REPO, **popen: Any) -> subprocess.Popen[str]:
    """Start ``taktik join LINK ARGS`` as a user would (a separate process)."""
    return subprocess.Popen([sys.executable, "-m", "cli", "join", link, *args], cwd=cwd, text=True,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            env={**os.environ, "PYTHONPATH": str(REPO), "PYTHONUNBUFFERED": "1"}, **popen)


def finish(process: subprocess.Popen[str], timeout: float = JOIN_TIMEOUT) -> tuple[int, str, str]:
    """Wait for a `join`; its exit code, stdout and stderr."""
    try:
        out, err = process.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        process.kill()
        out, err = process.communicate()
        raise AssertionError(f"taktik join did not finish in {timeout} s:\n{out}\n{err}") from None
    return process.returncode, out, err
