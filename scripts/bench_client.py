"""Measure the browser client in Chromium: time to first board paint, and frame times while
panning and zooming a full 20x30 board.

    python scripts/bench_client.py                 # 1280x800 at devicePixelRatio 1
    python scripts/bench_client.py --dpr 2 --runs 3

It starts its own ``taktik serve`` (temporary data directory, free port), creates a match,
opens the attacker's seat in headless Chromium (/usr/bin/chromium, or --chromium PATH) and
prints, per run and as a summary:

* first paint: ms from navigation start until the first frame with the board was drawn;
* frame interval: time between requestAnimationFrame callbacks during a scripted drag-pan and
  wheel-zoom (collected in the page), median and p95 — 16.7 ms is a smooth 60 Hz;
* paint cost: ms the client spent drawing each of those frames, median and p95.

Numbers, not assertions: compare runs on the same machine.
"""

from __future__ import annotations

import argparse
import itertools
import json
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
    limits.write_text(json.dumps({"create_burst": 1000, "create_rate": 1000.0}))
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


def run_once(browser: Any, base: str, dpr: float, seed: int) -> dict[str, float]:
    body = json.dumps({"config": {"seed": seed}}).encode()
    request = urllib.request.Request(base + "/api/matches", data=body, headers={"content-type": "application/json"})
    with urllib.request.urlopen(request) as response:
        created = json.load(response)
    context = browser.new_context(viewport={"width": 1280, "height": 800}, device_scale_factor=dpr)
    page = context.new_page()
    page.goto(base + created["seats"][0]["path"])
    page.wait_for_function("window.taktik && window.taktik.firstPaint && window.taktik.firstPaint() > 0")
    first_paint = float(page.evaluate("window.taktik.firstPaint()"))
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
    context.close()
    intervals = [b - a for a, b in itertools.pairwise(frames)]
    return {
        "first_paint": first_paint,
        "frames": float(len(intervals)),
        "interval_median": statistics.median(intervals),
        "interval_p95": percentile(intervals, 0.95),
        "paint_median": statistics.median(paints) if paints else 0.0,
        "paint_p95": percentile(paints, 0.95) if paints else 0.0,
        "paints": float(len(paints)),
    }


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
        print(f"run {i}: first paint {r['first_paint']:.0f} ms; {r['frames']:.0f} frames, interval median "
              f"{r['interval_median']:.1f} ms p95 {r['interval_p95']:.1f} ms; {r['paints']:.0f} paints, "
              f"paint median {r['paint_median']:.2f} ms p95 {r['paint_p95']:.2f} ms")
    med = statistics.median
    print(f"summary (dpr {args.dpr:g}, 1280x800, 20x30 board, {args.runs} runs): "
          f"first paint median {med(r['first_paint'] for r in results):.0f} ms; "
          f"frame interval median {med(r['interval_median'] for r in results):.1f} ms, "
          f"p95 {med(r['interval_p95'] for r in results):.1f} ms; "
          f"paint median {med(r['paint_median'] for r in results):.2f} ms, "
          f"p95 {med(r['paint_p95'] for r in results):.2f} ms")
    return 0


if __name__ == "__main__":
    sys.exit(main())
