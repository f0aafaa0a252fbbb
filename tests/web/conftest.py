"""Browser tests: a real `taktik serve` subprocess and headless Chromium driven by Playwright.

Chromium is the Debian build at /usr/bin/chromium (no download). Without it the browser tests
skip, unless ``TAKTIK_REQUIRE_BROWSER=1`` asks for them to fail instead. Screenshots of key
screens go to ``test-artifacts/`` (gitignored) for people to look at.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import threading
import urllib.error
import urllib.request
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

import pytest

REPO = Path(__file__).resolve().parents[2]
ARTIFACTS = REPO / "test-artifacts"
CHROMIUM = Path(os.environ.get("TAKTIK_CHROMIUM", "/usr/bin/chromium"))
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
                 "--no-first-run", "--disable-sync", "--disable-quic"]
LIMITS = {"message_burst": 1_000_000, "message_rate": 1_000_000.0, "action_burst": 1_000_000,
          "action_rate": 1_000_000.0, "create_burst": 1_000_000, "create_rate": 1_000_000.0, "bot_delay": 0.05}

# A small map with every kind of cell, three units a side, fixed tactic hands and draw pile:
# the first turn opens a beforeMove window (Suppressive Fire) and a beforeAttackRoll window
# (Dense Fog, Tactical Block) for the defender, so reaction tests are deterministic.
TERRAIN = """
..........
...ff.....
.h.ff..=..
.......=..
~~~~~~~#~~
.......=..
..uu...=..
..uu...=..
.......=..
.....ff=..
.........h
..........
"""
SCENARIO: dict[str, Any] = {
    "seed": 4242,
    "terrain": TERRAIN,
    "units": [
        {"id": "A1", "side": "ATTACKER", "type": "LIGHT_INFANTRY", "cell": "C2"},
        {"id": "A7", "side": "ATTACKER", "type": "MECHANIZED", "cell": "G2"},
        {"id": "A10", "side": "ATTACKER", "type": "SPECIAL", "cell": "E1"},
        {"id": "D1", "side": "DEFENDER", "type": "LIGHT_INFANTRY", "cell": "C7"},
        {"id": "D9", "side": "DEFENDER", "type": "MECHANIZED", "cell": "H7"},
        {"id": "D14", "side": "DEFENDER", "type": "SPECIAL", "cell": "E9"},
    ],
    "tactics": {
        "attacker": ["precision_shot", "favorable_weather", "expert_aim", "commanders_luck", "clear_line_of_fire",
                     "coordinated_maneuver"],
        "defender": ["dense_fog", "suppressive_fire", "natural_cover", "tactical_block", "commanders_luck",
                     "favorable_weather"],
    },
    "draw_pile": ["artillery_support#1", "supply_interruption#1", "troop_motivation#1", "rapid_supply_convoy#1",
                  "advanced_recon#1", "air_cover#1"],
}


def scenario(**changes: Any) -> dict[str, Any]:
    """The test scenario config with some keys replaced."""
    return {**SCENARIO, **changes}


class WebServer:
    """``taktik serve`` on a free loopback port with its own data directory."""

    def __init__(self, data_dir: Path, extra_args: Sequence[str] = ()) -> None:
        limits = data_dir.parent / "limits.json"
        limits.write_text(json.dumps(LIMITS))
        command = [sys.executable, "-m", "cli", "serve", "--port", "0", "--data", str(data_dir),
                   "--limits", str(limits), "--log-level", "warning", *extra_args]
        self.proc = subprocess.Popen(command, cwd=REPO, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                                     env={**os.environ, "PYTHONUNBUFFERED": "1"})
        self.output: list[str] = []
        ready = threading.Event()
        found: list[str] = []

        def read() -> None:
            assert self.proc.stdout is not None
            for line in self.proc.stdout:
                self.output.append(line)
                match = re.search(r"open (http://[^/\s]+)/", line)
                if match:
                    found.append(match.group(1))
                    ready.set()
            ready.set()

        self.reader = threading.Thread(target=read, daemon=True)
        self.reader.start()
        if not ready.wait(30) or not found:
            self.stop()
            raise RuntimeError("taktik serve did not start:\n" + "".join(self.output))
        self.base = found[0]

    def post(self, path: str, body: Any) -> Any:
        request = urllib.request.Request(self.base + path, data=json.dumps(body).encode(),
                                         headers={"content-type": "application/json"})
        with urllib.request.urlopen(request, timeout=30) as response:
            return json.load(response)

    def get(self, path: str) -> Any:
        with urllib.request.urlopen(self.base + path, timeout=30) as response:
            return json.load(response)

    def create(self, config: dict[str, Any] | None = None, **body: Any) -> dict[str, Any]:
        """Create a match; returns the server's answer (seat links with tokens, spectator link)."""
        answer: dict[str, Any] = self.post("/api/matches", {"config": config or SCENARIO, **body})
        return answer

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(15)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(15)
        self.reader.join(10)
        if self.proc.stdout is not None:
            self.proc.stdout.close()


def _require_browser() -> None:
    if not CHROMIUM.exists():
        reason = f"Chromium not found at {CHROMIUM} (set TAKTIK_CHROMIUM or install chromium)"
        if os.environ.get("TAKTIK_REQUIRE_BROWSER") == "1":
            pytest.fail(reason)
        pytest.skip(reason)


@pytest.fixture(scope="session")
def web(tmp_path_factory: pytest.TempPathFactory) -> Iterator[WebServer]:
    _require_browser()
    server = WebServer(tmp_path_factory.mktemp("web") / "data")
    yield server
    server.stop()


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    _require_browser()
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        yield chromium
        chromium.close()


@pytest.fixture()
def new_page(browser: Any) -> Iterator[Any]:
    """A factory of pages, each in its own browser context (its own storage), closed after the test."""
    contexts: list[Any] = []

    def make(width: int = 1280, height: int = 800, **options: Any) -> Any:
        context = browser.new_context(viewport={"width": width, "height": height}, **options)
        contexts.append(context)
        page = context.new_page()
        page.errors = []
        page.on("pageerror", lambda err: page.errors.append(str(err)))
        return page

    yield make
    for context in contexts:
        context.close()


def shot(page: Any, name: str) -> None:
    """Save a screenshot of a page (or a driver's page) to test-artifacts/<name>.png."""
    ARTIFACTS.mkdir(exist_ok=True)
    page = getattr(page, "page", page)
    page.wait_for_timeout(120)  # let the coalesced frame paint
    page.screenshot(path=str(ARTIFACTS / f"{name}.png"))


def urlopen_status(url: str) -> int:
    try:
        with urllib.request.urlopen(url, timeout=10) as response:
            return int(response.status)
    except urllib.error.HTTPError as err:
        return int(err.code)
