"""The page shell names every module its page runs, in the order the page needs them (server/seatpage.py)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from server.seatpage import MARKER, PAGE_MODULES, SeatPages, preload_order

from .conftest import REPO

MODULES = {
    "main.js": 'import { a } from "./api.js";\nimport "./boot.js";\n',
    "api.js": '/** @typedef {import("./types.js").Model} Model */\nexport const a = 1;\n',
    "boot.js": "export {};\n",
    "game.js": 'import {\n  screen,\n  paint as draw,\n} from "./screen.js";\nexport { a } from "./api.js";\n'
               'export function later() { return import("./help.js"); }\n',
    "screen.js": 'import { game } from "./game.js";\nimport { draw } from "./render.js";\nexport const screen = 1;\n',
    "render.js": 'export const draw = "./not-an-import.js";\n',
    "help.js": "export {};\n",
}


def test_modules_come_after_what_they_import_and_each_root_after_the_ones_before() -> None:
    order = preload_order(MODULES, ["main.js", "game.js"])
    # main.js's own imports first; a cycle (game <-> screen) is followed once; type imports in
    # JSDoc, dynamic imports and strings that look like paths are not loads.
    assert order == ["api.js", "boot.js", "main.js", "render.js", "screen.js", "game.js"]


def test_an_import_of_a_missing_module_names_both() -> None:
    with pytest.raises(ValueError, match=r"web/static/js/main\.js imports \./gone\.js, which does not exist"):
        preload_order({"main.js": 'import { x } from "./gone.js";\n'}, ["main.js"])


def test_a_shell_without_its_marker_line_is_refused(tmp_path: Path) -> None:
    (tmp_path / "js").mkdir()
    (tmp_path / "index.html").write_text("<html><head></head></html>", encoding="utf-8")
    with pytest.raises(ValueError, match="modulepreload"):
        SeatPages.load(tmp_path)
    assert SeatPages.load(tmp_path / "elsewhere") is None  # no client at all: the server says so itself


def test_the_real_pages_preload_main_first_then_their_own_modules() -> None:
    pages = SeatPages.load(REPO / "web" / "static")
    assert pages is not None
    for route, own in PAGE_MODULES.items():
        html = pages.shell(route).body.decode()
        assert MARKER not in html
        links = re.findall(r'<link rel="modulepreload" href="/static/js/([\w-]+\.js)"( fetchpriority="low")?>', html)
        names = [name for name, _ in links]
        assert len(names) == len(set(names)) and set(own) <= set(names)
        first = names[: names.index("main.js") + 1]
        assert {"api.js", "assets.js", "net.js"} <= set(first) and not any(low for _, low in links[: len(first)])
        assert all(low for _, low in links[len(first):])  # the rest waits behind the page's data and art
