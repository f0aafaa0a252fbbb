"""Measure the browser client in Chromium: time to first board paint (cold and warm cache),
requests and bytes, and frame times while panning and zooming a full 20x30 board and while
the opponent-turn recap plays.

    python scripts/bench_client.py                 # 1280x800 at devicePixelRatio 1
    python scripts/bench_client.py --dpr 2 --runs 3

It starts its own ``taktik serve`` (temporary data directory, free port), creates a match,
opens the attacker's seat in headless Chromium (/usr/bin/chromium, or --chromium PATH) and
prints, per run and as a summary:

* first paint: ms from navigation start until the first frame with the board was drawn, in a
  fresh browser context (cold: empty cache) and after a reload in the same one (warm);
* requests and bytes: what the cold load fetched before the first paint (Resource Timing:
  count and transferred bytes, the page itself included: compressed text, the half-size atlas);
* frame interval: time between requestAnimationFrame callbacks during a scripted drag-pan and
  wheel-zoom (collected in the page), median and p95 — 16.7 ms is a smooth 60 Hz;
* paint cost: ms the client spent drawing each of those frames, median and p95;
* recap: the same two figures while the opponent-turn recap replays the bot's first turn
  (the attacker ends turn 1 at once; ``taktik.replayRecap()`` plays that turn again in full).

Numbers, not assertions: compare runs on the same machine.
"""

from __future__ import annotations

import argparse
import itertools
import json
import os
import re
import statistics
import subprocess
import sys
import tempfile
import threading
import urllib.request
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parent.parent
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
        "--no-first-run", "--disable-sync", "--disable-quic"]

COLLECT = """() => {
  window.__frames = [];
  const tick = (t) => { window.__frames.push(t); if (!window.__stop) requestAnimationFrame(tick); };
  window.__stop = false;
  window.__paintsBefore = window.taktik.paintTimes().length;
  requestAnimationFrame(tick);
}"""


def serve(data: Path) -> tuple[subprocess.Popen[str], str]:
    limits = data / "limits.json"
    limits.write_text(json.dumps({"create_burst": 1000, "create_rate": 1000.0, "bot_delay": 0.05}))
    proc = subprocess.Popen([sys.executable, "-m", "cli", "serve", "--port", "0", "--data", str(data / "db"),
                             "--limits", str(limits), "--log-level", "warning"],
                            cwd=REPO, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    found: list[str] = []
    ready = threading.Event()

    def read() -> None:
        assert proc.stdout is not None
        for line in proc.stdout:
            match = re.search(r"open (http://[^/\s]+)/", line)
            if match:
                found.append(match.group(1))
                ready.set()
        ready.set()

    threading.Thread(target=read, daemon=True).start()
    if not ready.wait(30) or not found:
        proc.kill()
        raise SystemExit("bench_client.py: taktik serve did not start")
    return proc, found[0]


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


LOADED = """() => {
  const entries = performance.getEntriesByType("resource").filter((e) => e.startTime < window.taktik.firstPaint());
  const nav = performance.getEntriesByType("navigation")[0];
  return {requests: entries.length + 1, bytes: entries.reduce((s, e) => s + e.transferSize, nav.transferSize)};
}"""


def frame_figures(frames: list[float], paints: list[float], prefix: str) -> dict[str, float]:
    intervals = [b - a for a, b in itertools.pairwise(frames)] or [0.0]
    return {
        f"{prefix}frames": float(len(intervals)),
        f"{prefix}interval_median": statistics.median(intervals),
        f"{prefix}interval_p95": percentile(intervals, 0.95),
        f"{prefix}paint_median": statistics.median(paints) if paints else 0.0,
        f"{prefix}paint_p95": percentile(paints, 0.95) if paints else 0.0,
    }


def recap_figures(page: Any) -> dict[str, float]:
    """End turn 1 at once, let the bot play turn 2, then replay the recap of it and time its frames."""
    page.evaluate("window.taktik.setAnimations(true)")
    page.wait_for_function("window.taktik.state().legal.includes('END_TURN')", timeout=60_000)
    page.keyboard.press("e")
    for _ in range(200):  # answer what the bot's turn asks of this seat: pass reactions, pick malus victims
        state = page.evaluate("window.taktik.state()")
        if state["turn"] >= 3 and state["legal"]:
            break
        if "PASS_REACTION" in state["legal"]:
            page.keyboard.press("p")
        elif state["legal"]:
            first = page.evaluate("window.taktik.legal()[0] ?? null")
            if first is None:
                continue
            unit = next((v[0] if isinstance(v, list) else v for k, v in first.items() if k != "type"), None)
            if not isinstance(unit, str):  # a button choice: take the first one offered
                buttons = page.locator(".decision button[data-run]")
                if buttons.count():
                    buttons.first.click(timeout=2000)
                else:
                    page.keyboard.press("Enter")
                page.wait_for_timeout(200)
                continue
            page.evaluate("(u) => window.taktik.reveal(window.taktik.units().find((x) => x.id === u).cell)", unit)
            point = page.evaluate("(u) => window.taktik.unitToClient(u)", unit)
            page.mouse.click(point["x"], point["y"])
        page.wait_for_timeout(200)
    page.wait_for_function("!window.taktik.recap().running", timeout=60_000)
    page.evaluate(COLLECT)
    steps = page.evaluate("window.taktik.replayRecap()")
    page.wait_for_function("!window.taktik.recap().running", timeout=120_000)
    page.evaluate("window.__stop = true")
    figures = frame_figures(page.evaluate("window.__frames"),
                            page.evaluate("window.taktik.paintTimes().slice(window.__paintsBefore)"), "recap_")
    figures["recap_steps"] = float(steps)
    return figures


def run_once(browser: Any, base: str, dpr: float, seed: int) -> dict[str, float]:
    # The match starts at the attacker's movement phase, so its first turn can end at once.
    config = {"seed": seed, "start_phase": "MOVEMENT"}
    body = json.dumps({"config": config, "opponent": "bot", "bot_side": "DEFENDER", "bot": "greedy"}).encode()
    request = urllib.request.Request(base + "/api/matches", data=body, headers={"content-type": "application/json"})
    with urllib.request.urlopen(request) as response:
        created = json.load(response)
    context = browser.new_context(viewport={"width": 1280, "height": 800}, device_scale_factor=dpr)
    page = context.new_page()
    page.goto(base + created["seats"][0]["path"])
    page.wait_for_function("window.taktik && window.taktik.firstPaint && window.taktik.firstPaint() > 0")
    first_paint = float(page.evaluate("window.taktik.firstPaint()"))
    loaded = page.evaluate(LOADED)
    page.reload()
    page.wait_for_function("window.taktik && window.taktik.firstPaint && window.taktik.firstPaint() > 0")
    warm_paint = float(page.evaluate("window.taktik.firstPaint()"))
    page.wait_for_timeout(300)
    page.evaluate(COLLECT)
    x, y = 460, 380
    for _ in range(3):  # pan: drag across the board and back
        page.mouse.move(x, y)
        page.mouse.down()
        for i in range(30):
            page.mouse.move(x - 8 * i, y - 4 * i)
        for i in range(30):
            page.mouse.move(x - 240 + 8 * i, y - 120 + 4 * i)
        page.mouse.up()
    for direction in (-1, 1, -1, 1):  # zoom in and out at the pointer, a few notches at a time
        for _ in range(8):
            page.mouse.wheel(0, direction * 120)
            page.wait_for_timeout(16)
    page.evaluate("window.__stop = true")
    frames = page.evaluate("window.__frames")
    paints = page.evaluate("window.taktik.paintTimes().slice(window.__paintsBefore)")
    figures = frame_figures(frames, paints, "")
    figures.update(first_paint=first_paint, warm_paint=warm_paint, requests=float(loaded["requests"]),
                   bytes=float(loaded["bytes"]), paints=float(len(paints)))
    figures.update(recap_figures(page))
    context.close()
    return figures


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--dpr", type=float, default=1.0, help="devicePixelRatio of the page (default 1)")
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--chromium", default="/usr/bin/chromium")
    args = parser.parse_args()
    if not Path(args.chromium).exists():
        print(f"bench_client.py: no Chromium at {args.chromium}")
        return 2
    from playwright.sync_api import sync_playwright

    with tempfile.TemporaryDirectory() as tmp:
        proc, base = serve(Path(tmp))
        try:
            with sync_playwright() as playwright:
                browser = playwright.chromium.launch(executable_path=args.chromium, args=ARGS)
                results = [run_once(browser, base, args.dpr, args.seed + i) for i in range(args.runs)]
                browser.close()
        finally:
            proc.terminate()
            proc.wait(15)
            if proc.stdout is not None:
                proc.stdout.close()
    for i, r in enumerate(results, 1):
        print(f"run {i}: first paint cold {r['first_paint']:.0f} ms, warm {r['warm_paint']:.0f} ms; "
              f"{r['requests']:.0f} requests, {r['bytes'] / 1e6:.2f} MB; pan: {r['frames']:.0f} frames, "
              f"interval median {r['interval_median']:.1f} ms p95 {r['interval_p95']:.1f} ms; "
              f"{r['paints']:.0f} paints, "
              f"paint median {r['paint_median']:.2f} ms p95 {r['paint_p95']:.2f} ms; "
              f"recap ({r['recap_steps']:.0f} steps): "
              f"interval median {r['recap_interval_median']:.1f} ms p95 {r['recap_interval_p95']:.1f} ms, "
              f"paint median {r['recap_paint_median']:.2f} ms p95 {r['recap_paint_p95']:.2f} ms")
    med = statistics.median
    load = os.getloadavg()[0]  # the machine's own business shows in every wall-clock figure above
    print(f"summary (dpr {args.dpr:g}, 1280x800, 20x30 board, {args.runs} runs, load average {load:.1f} "
          f"on {os.cpu_count()} CPUs): "
          f"first paint cold median {med(r['first_paint'] for r in results):.0f} ms, "
          f"warm {med(r['warm_paint'] for r in results):.0f} ms; "
          f"{med(r['requests'] for r in results):.0f} requests, {med(r['bytes'] for r in results) / 1e6:.2f} MB; "
          f"pan frame interval median {med(r['interval_median'] for r in results):.1f} ms, "
          f"p95 {med(r['interval_p95'] for r in results):.1f} ms; "
          f"paint median {med(r['paint_median'] for r in results):.2f} ms, "
          f"p95 {med(r['paint_p95'] for r in results):.2f} ms; "
          f"recap frame interval median {med(r['recap_interval_median'] for r in results):.1f} ms, "
          f"p95 {med(r['recap_interval_p95'] for r in results):.1f} ms")
    return 0


if __name__ == "__main__":
    sys.exit(main())
