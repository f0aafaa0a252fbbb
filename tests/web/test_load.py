"""A cold seat page loads in one breath: compressed text, the half-size atlas, at most 600 KB before
the first board paint; the whole atlas only when the player zooms in deep. (Times are the
benchmark's business: scripts/bench_client.py; here, what goes over the wire.)"""

from __future__ import annotations

import re
import urllib.request
from typing import Any

import pytest

from .conftest import REPO, WebServer
from .driver import Board

pytestmark = pytest.mark.browser

LOADED = """() => {
  const paint = window.taktik.firstPaint();
  const nav = performance.getEntriesByType("navigation")[0];
  const entries = performance.getEntriesByType("resource").filter((e) => e.startTime < paint);
  return {bytes: entries.reduce((s, e) => s + e.transferSize, nav.transferSize),
          files: entries.map((e) => [new URL(e.name).pathname, e.transferSize, e.decodedBodySize])};
}"""


SIZES = [{"width": 1280, "height": 800}, {"width": 360, "height": 740}]


@pytest.mark.parametrize("size", SIZES, ids=["desktop", "phone"])
def test_a_cold_seat_page_is_small_and_fetches_the_whole_atlas_only_for_deep_zoom(
        web: WebServer, new_page: Any, size: dict[str, int]) -> None:
    created = web.create()
    page = new_page(size["width"], size["height"])  # a fresh context: an empty cache
    board = Board(page).open(web.base + created["seats"][0]["path"])
    loaded = page.evaluate(LOADED)
    files = {path: (sent, raw) for path, sent, raw in loaded["files"]}
    assert loaded["bytes"] <= 600_000, loaded
    assert "/assets/tiles/atlas-half.webp" in files and "/assets/tiles/atlas.webp" not in files
    # Text went out compressed: each module costs well under its own size.
    modules = [(sent, raw) for path, (sent, raw) in files.items() if path.endswith(".js")]
    assert len(modules) >= 30 and sum(sent for sent, _ in modules) < 0.45 * sum(raw for _, raw in modules)
    # Deep zoom wants more pixels than the half-size atlas holds: the whole one comes, once.
    for _ in range(10):
        page.keyboard.press("+")
    page.wait_for_function("""() => performance.getEntriesByType('resource')
      .some((e) => e.name.endsWith('/assets/tiles/atlas.webp'))""")
    assert board.state()["version"] >= 0 and page.errors == []


@pytest.mark.parametrize(("path", "entries"), [("/play/x", ["game.js"]), ("/replay/x", ["replay.js"]),
                                               ("/", ["lobby.js", "render.js"])], ids=["seat", "replay", "lobby"])
def test_the_page_preloads_every_module_it_imports(web: WebServer, path: str, entries: list[str]) -> None:
    """A module found only when its importer has loaded costs one more round trip before the first paint."""
    static = REPO / "web" / "static"
    imports = re.compile(r'^import[^;]*?from "\./([a-z]+\.js)"', re.M)
    needed: set[str] = set()
    todo = ["main.js", *entries]  # main.js imports the page's module (the lobby's: and its scene's renderer)
    while todo:
        name = todo.pop()
        if name not in needed:
            needed.add(name)
            todo.extend(imports.findall((static / "js" / name).read_text(encoding="utf-8")))
    with urllib.request.urlopen(web.base + path, timeout=10) as answer:
        page = answer.read().decode()
    preloaded = re.findall(r'rel="modulepreload" href="/static/js/([a-z]+\.js)"', page)
    assert needed - set(preloaded) == set() and len(preloaded) == len(set(preloaded))
