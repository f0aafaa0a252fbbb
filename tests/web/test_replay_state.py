"""The replay viewer's view model (web/static/js/replaystate.js), run in the browser on a real record."""

from __future__ import annotations

from typing import Any

import pytest

from .conftest import SCENARIO, WebServer
from .driver import play_out

pytestmark = pytest.mark.browser

QUICK = {**SCENARIO, "victory": {"round_limit": {"max_rounds": 2}}}

EXERCISE = """async (revealed) => {
  const rs = await import('/static/js/replaystate.js');
  const record = revealed.record;
  const fetchPage = async (r, start) => (await fetch('/api/replays', {method: 'POST',
    headers: {'content-type': 'application/json'},
    body: JSON.stringify({record, view: r.perspective, start, count: r.pageSize})})).json();
  const out = {};
  let r = rs.withRecord(rs.initialReplay('m', 5), null, record);
  out.initial = {index: r.index, total: r.total, playing: r.playing, delay: rs.stepDelay(r),
                 toLoad: rs.pagesToLoad(r, 0), canFork: rs.canFork(rs.initialReplay('m'))};
  r = rs.withPage(r, await fetchPage(r, 0));
  out.total = r.total;
  out.verification = r.verification.status;
  out.toLoad12 = rs.pagesToLoad(r, 12);
  for (const start of out.toLoad12) r = rs.withPage(r, await fetchPage(r, start));
  out.toLoad12After = rs.pagesToLoad(r, 12);
  out.clamped = [rs.clampStep(r, -3), rs.clampStep(r, 1e6)];
  const at4 = rs.atStep(r, 4);
  out.targets = ['first', 'prev', 'next', 'last', 9, -2].map((to) => rs.targetStep(at4, to));

  // Stepping forward one step at a time folds the same board model as folding from the start.
  let model = rs.modelAt(r, -1);
  out.emptyVersion = model.version;
  out.mismatches = [];
  for (let i = 0; i <= 14; i++) {
    model = rs.modelFor(r, model, i);
    r = rs.atStep(r, i);
    if (JSON.stringify(model) !== JSON.stringify(rs.modelAt(r, i))) out.mismatches.push(i);
  }
  out.incrementalLog = model.log.length;
  out.jumpBack = JSON.stringify(rs.modelFor(r, model, 3)) === JSON.stringify(rs.modelAt(r, 3));

  const words = await import('/static/js/words.js');
  const cards = new Map();
  out.start = rs.stepSummary(rs.atStep(r, 0), cards);
  out.step1 = rs.stepSummary(rs.atStep(r, 1), cards);
  out.step1Events = r.steps[1].events.map((e) => [e.event.kind, words.eventText(e, cards)]);
  out.canForkStart = rs.canFork(rs.atStep(r, 0));

  for (const start of rs.pagesToLoad(r, r.total - 1)) r = rs.withPage(r, await fetchPage(r, start));
  const end = rs.atStep(r, r.total - 1);
  out.end = {atEnd: rs.atEnd(end), midAtEnd: rs.atEnd(rs.atStep(r, 3)), canFork: rs.canFork(end),
             status: rs.stateMessage(end, end.index).status, midStatus: rs.stateMessage(end, 3).status,
             phase: rs.modelAt(end, end.index).view.phase};

  const other = rs.withPerspective(r, 'full');
  out.perspective = {view: other.perspective, steps: other.steps.length, index: other.index,
                     toLoad: rs.pagesToLoad(other, 0), total: other.total};
  // Back to step 0 through other eyes: the shown model is not the step before, so fold afresh.
  const reloaded = rs.withPage(other, await fetchPage(other, 0));
  const shown = rs.modelAt(r, 5);
  out.perspectiveModel = JSON.stringify(rs.modelFor(reloaded, shown, 0)) === JSON.stringify(rs.modelAt(reloaded, 0));
  out.playing = [rs.withPlaying(r, true).playing, rs.stepDelay(rs.withSpeed(r, 3)), rs.stepDelay(rs.withSpeed(r, 9))];

  const fromView = rs.readRecordFile(revealed);
  const bare = rs.readRecordFile(record);
  out.files = {viewRevealed: fromView.revealed === revealed, viewRecord: fromView.record === record,
               bareRevealed: bare.revealed, bareRecord: bare.record === record,
               dice: rs.canVerifyDice(rs.withRecord(r, fromView.revealed, record)),
               noDice: rs.canVerifyDice(rs.withRecord(r, bare.revealed, record))};
  return out;
}"""


@pytest.fixture(scope="module")
def revealed(web: WebServer) -> dict[str, Any]:
    created = web.create(QUICK)
    play_out(web.base, created, seed=7)
    record: dict[str, Any] = web.get(f"/api/matches/{created['match_id']}/record")
    return record


def test_the_replay_view_model_pages_steps_and_folds_models(web: WebServer, new_page: Any,
                                                            revealed: dict[str, Any]) -> None:
    page = new_page()
    page.goto(web.base + "/static/index.html")
    out = page.evaluate(EXERCISE, revealed)
    total = len(revealed["record"]["actions"]) + 1
    assert out["initial"] == {"index": 0, "total": 0, "playing": False, "delay": 700, "toLoad": [0], "canFork": False}
    assert out["total"] == total and out["verification"] == "verified"
    assert out["toLoad12"] == [5, 10] and out["toLoad12After"] == []
    assert out["clamped"] == [0, total - 1]
    assert out["targets"] == [0, 3, 5, total - 1, 9, 0]
    assert out["emptyVersion"] == -1
    assert out["mismatches"] == [] and out["jumpBack"] and out["incrementalLog"] > 0
    assert out["start"] == {"step": 0, "last": total - 1, "what": "Starting position", "texts": []}
    step1 = out["step1"]
    assert step1["step"] == 1 and step1["what"].split(": ")[0] in {"Attacker", "Defender"}
    assert step1["texts"] == [text for kind, text in out["step1Events"] if kind != "phase_entered"][:3]
    assert out["canForkStart"]
    assert out["end"] == {"atEnd": True, "midAtEnd": False, "canFork": False, "status": "over", "midStatus": "live",
                          "phase": "VICTORY"}
    assert out["perspective"] == {"view": "full", "steps": 0, "index": -1, "toLoad": [0], "total": total}
    assert out["perspectiveModel"]
    assert out["playing"] == [True, 120, 700]
    assert out["files"] == {"viewRevealed": True, "viewRecord": True, "bareRevealed": None, "bareRecord": True,
                            "dice": True, "noDice": False}
