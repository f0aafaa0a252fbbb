"""Drive the board page like a player: click cells and units on the canvas, press buttons.

Cell positions come from the page's own projection (``window.taktik.cellToClient``), so the
tests never re-implement the isometric maths; everything else is plain Playwright.
"""

from __future__ import annotations

import re
from typing import Any

TIMEOUT = 10_000


class Board:
    """One browser page showing a match (a seat, a spectator, hot-seat or the replay viewer)."""

    def __init__(self, page: Any) -> None:
        self.page = page

    def open(self, url: str) -> Board:
        self.page.goto(url)
        self.wait_ready()
        self.page.evaluate("window.taktik.setAnimations(false)")
        return self

    def wait_ready(self) -> None:
        self.page.wait_for_function(
            "window.taktik && window.taktik.state && window.taktik.state().version >= 0"
            " && window.taktik.firstPaint() > 0", timeout=TIMEOUT)

    def state(self) -> dict[str, Any]:
        state: dict[str, Any] = self.page.evaluate("window.taktik.state()")
        return state

    def legal(self) -> list[dict[str, Any]]:
        legal: list[dict[str, Any]] = self.page.evaluate("window.taktik.legal()")
        return legal

    def units(self) -> dict[str, dict[str, Any]]:
        return {u["id"]: u for u in self.page.evaluate("window.taktik.units()")}

    def wait(self, condition: str, arg: Any = None, timeout: int = TIMEOUT) -> None:
        """Wait until a JS expression over ``s`` (the hook state) and ``arg`` is true."""
        self.page.wait_for_function(f"(arg) => {{ const s = window.taktik.state(); return {condition}; }}", arg=arg,
                                    timeout=timeout)

    def wait_version(self, version: int) -> None:
        self.wait("s.version >= arg && !s.busy", version)

    def wait_legal(self, kind: str) -> None:
        self.wait("s.legal.includes(arg) && !s.busy", kind)

    def point(self, cell: str) -> tuple[float, float]:
        """Client coordinates of a cell's face centre, making sure nothing covers it."""
        for _ in range(2):
            p = self.page.evaluate("(c) => window.taktik.cellToClient(c)", cell)
            assert p is not None, f"no cell {cell} on the board"
            clear = self.page.evaluate(
                "([x, y]) => document.elementFromPoint(x, y) === document.querySelector('canvas.board-canvas')",
                [p["x"], p["y"]])
            if clear:
                return float(p["x"]), float(p["y"])
            self.page.evaluate("(c) => window.taktik.reveal(c)", cell)
        raise AssertionError(f"cell {cell} stays covered by the HUD")

    def click_cell(self, cell: str) -> None:
        x, y = self.point(cell)
        self.page.mouse.click(x, y)

    def click_unit(self, unit: str) -> None:
        cell = self.units()[unit]["cell"]
        self.click_cell(cell)

    def select(self, unit: str) -> None:
        """Click ``unit`` and wait until the client has it selected."""
        self.click_unit(unit)
        self.wait(f"s.selected === '{unit}'")

    def move(self, unit: str, cell: str) -> None:
        """Select ``unit``, click ``cell`` and wait for the server to apply the move."""
        self.select(unit)
        version = self.state()["version"]
        self.click_cell(cell)
        self.wait_version(version + 1)

    def declare(self, attacker: str, target: str) -> None:
        """Select ``attacker``, click ``target`` and wait for the server to apply the declaration."""
        self.select(attacker)
        version = self.state()["version"]
        self.click_unit(target)
        self.wait_version(version + 1)

    def button(self, name: str) -> Any:
        """A button whose accessible name matches ``name`` (a regex), in the decision panel or on a card."""
        return self.page.get_by_role("button", name=re.compile(name)).first

    def press(self, name: str) -> None:
        version = self.state()["version"]
        self.button(name).click()
        self.wait(f"s.version > {version} || s.notice", None)

    def end_turn(self) -> None:
        """Press End turn, and confirm when the panel asks (declared attacks or unused moves would be lost)."""
        version = self.state()["version"]
        self.button("^End turn").click()
        self.wait(f"s.version > {version} || s.notice || !!document.querySelector('.decision .confirm')")
        if self.page.locator(".decision .confirm").count():
            self.press("End turn anyway")

    def decision_text(self) -> str:
        text: str = self.page.locator(".decision").inner_text()
        return text


def play_out(base: str, created: dict[str, Any], seed: int = 1, max_actions: int = 2000,
             resign_at: tuple[str, int] | None = None) -> int:
    """Play a match to its end over plain WebSockets with random legal actions; returns the final version.

    ``resign_at`` = (seat, version): that seat resigns once the match reaches that version.
    """
    import contextlib
    import json
    import random

    from websockets.sync.client import connect

    rng = random.Random(seed)
    url = base.replace("http://", "ws://") + f"/ws/matches/{created['match_id']}"
    states: dict[str, dict[str, Any]] = {}
    with contextlib.ExitStack() as stack:
        sockets = {}
        for seat in created["seats"]:
            ws = stack.enter_context(connect(url, max_size=2**23))
            ws.send(json.dumps({"type": "hello", "token": seat["token"]}))
            sockets[seat["seat"]] = ws
        for version in range(max_actions):
            for side, ws in sockets.items():
                while side not in states or states[side]["version"] < version:
                    message = json.loads(ws.recv(timeout=10))
                    if message["type"] == "state":
                        states[side] = message
            current = next(iter(states.values()))
            if current["status"] != "live" or current["to_act"] is None:
                return int(current["version"])
            side = current["to_act"]
            action = rng.choice(states[side]["legal_actions"])
            if resign_at is not None and version >= resign_at[1]:
                side = resign_at[0]
                action = next(a for a in states[side]["match_actions"] if a["type"] == "RESIGN")
            sockets[side].send(json.dumps({"type": "act", "version": version, "seq": version + 1, "action": action}))
    raise AssertionError("the match did not end")
