"""The pure parts of issue 17's client, run in the browser: clock arithmetic and latency
correction (web/static/js/clock.js), presence and claims (presence.js), the rematch box
(rematch.js), the match actions (endings.js) and the end reasons (words.js)."""

from __future__ import annotations

import math
from typing import Any

import pytest

from .conftest import WebServer

pytestmark = pytest.mark.browser

EXERCISE = """async () => {
  const c = await import('/static/js/clock.js');
  const p = await import('/static/js/presence.js');
  const r = await import('/static/js/rematch.js');
  const e = await import('/static/js/endings.js');
  const ends = await import('/static/js/words.js');
  const st = await import('/static/js/state.js');
  const out = {};
  out.format = [0, 3.27, 9.99, 10, 59.9, 61, 3599, 3600, 3725, 86400, 3 * 86400 + 7200, -4].map(c.formatClock);
  out.describe = [null, {initial: 300, increment: 3}, {initial: 900, increment: 10}, {per_turn: 120},
                  {per_turn: 259200}, {per_turn: 86400}, {initial: 7200}, {initial: 45}].map(c.describeClock);

  const clock = {initial_ms: 300000, increment_ms: 3000, per_turn_ms: null,
                 remaining_ms: {attacker: 61000, defender: 200000}, running: 'ATTACKER', server_time: 1000};
  // The running clock loses the time since the stamp; the other one and a stopped one hold.
  out.remaining = [c.remaining(clock, 'ATTACKER', 1000), c.remaining(clock, 'ATTACKER', 1030.5),
                   c.remaining(clock, 'ATTACKER', 1100), c.remaining(clock, 'DEFENDER', 1100),
                   c.remaining(clock, 'ATTACKER', 990), c.remaining({...clock, running: null}, 'ATTACKER', 1100)];
  out.low = [clock, {initial_ms: 20000, per_turn_ms: null}, {initial_ms: null, per_turn_ms: 259200000},
             {initial_ms: null, per_turn_ms: 1209600000}].map(c.lowThreshold);
  out.faces = c.faces(clock, 1040).map((f) => [f.side, f.text, f.running, f.low, f.out]);
  out.facesOut = c.faces(clock, 1070).map((f) => [f.text, f.out]);

  // Latency: one-way messages give a floor; a round trip sets the offset to the midpoint;
  // a longer trip later does not replace a shorter one, a shorter one does.
  let s = c.NO_SYNC;
  s = c.addSample(s, 1000, 400);
  out.sync1 = [s.offset, s.rtt];
  s = c.addSample(s, 1000.5, 400.6, 400.0);        // round trip 0.6 s: offset = 1000.5 + 0.3 - 400.6
  out.sync2 = [Math.round(s.offset * 1000) / 1000, Math.round(s.rtt * 1000) / 1000];
  s = c.addSample(s, 1002, 403, 401.0);            // round trip 2 s: ignored
  out.sync3 = [Math.round(s.offset * 1000) / 1000, Math.round(s.rtt * 1000) / 1000];
  s = c.addSample(s, 1005.2, 405.1, 405.0);        // round trip 0.1 s: taken
  out.sync4 = [Math.round(s.offset * 1000) / 1000, Math.round(s.rtt * 1000) / 1000];
  s = c.addSample(s, 1010, 409.0);                 // a one-way message proving the offset is at least 601
  out.sync5 = Math.round(s.offset * 1000) / 1000;
  out.serverNow = c.serverNow(s, 500) - 500;
  out.noSync = c.serverNow(c.NO_SYNC, 123);

  // Presence and claims: the claim waits on claim_at, opens when the server lists CLAIM_VICTORY.
  const base = {...st.initialModel('play', 'm'), status: 'live', seat: 'ATTACKER', toAct: 'DEFENDER'};
  const away = {attacker: true, defender: false, claim_at: 2000};
  out.present = [p.isPresent(null, 'ATTACKER'), p.isPresent(away, 'ATTACKER'), p.isPresent(away, 'DEFENDER')];
  out.titles = ['ATTACKER', 'DEFENDER'].map((side) => p.presenceTitle({...base, presence: away}, side));
  const claim = {type: 'CLAIM_VICTORY', side: 'ATTACKER', reason: 'abandonment'};
  out.claims = [
    p.claimState(base).kind,
    p.claimState({...base, presence: away}),
    p.claimState({...base, presence: {...away, defender: true}}).kind,
    p.claimState({...base, presence: away, matchActions: [claim]}).kind,
    p.claimState({...base, seat: 'DEFENDER', presence: away, matchActions: [claim]}).kind,
    p.claimState({...base, seat: null, presence: away}).kind,
  ];
  out.claimText = [p.claimText(p.claimState({...base, presence: away}), 1850, c.formatClock),
                   p.claimText(p.claimState({...base, presence: away, matchActions: [claim]}), 0, c.formatClock)];
  out.resign = [p.resignAction({...base, matchActions: [{type: 'RESIGN', side: 'ATTACKER'}]}),
                p.resignAction({...base, matchActions: [{type: 'RESIGN', side: 'DEFENDER'}]})];

  // The rematch box, from both seats and a spectator.
  const over = {...base, status: 'over', toAct: null};
  const box = (m) => { const v = r.rematchView(m); return v && [v.text, v.choices, v.next]; };
  out.rematch = [
    box(base),
    box(over),
    box({...over, rematch: {offered_by: 'ATTACKER', declined_by: null, match_id: null, seat: null}}),
    box({...over, seat: 'DEFENDER', rematch: {offered_by: 'ATTACKER', declined_by: null, match_id: null, seat: null}}),
    box({...over, rematch: {offered_by: null, declined_by: 'DEFENDER', match_id: null, seat: null}}),
    box({...over, rematch: {offered_by: 'ATTACKER', declined_by: null, match_id: 'n2', seat: 'DEFENDER'}}),
    box({...over, seat: null, kind: 'watch'}),
    box({...over, seat: null, kind: 'watch',
         rematch: {offered_by: 'ATTACKER', declined_by: null, match_id: 'n2', seat: null}}),
  ];

  out.reasons = [['DEFENDER', 'resignation'], ['ATTACKER', 'time'], ['DEFENDER', 'abandonment'],
                 ['ATTACKER', 'elimination']]
    .map(([winner, reason]) => ends.endReason(reason, winner));
  out.actions = [{type: 'RESIGN', side: 'DEFENDER'}, {type: 'TIMEOUT', side: 'ATTACKER', clock: 'game'},
                 {type: 'TIMEOUT', side: 'DEFENDER', clock: 'turn'},
                 {type: 'CLAIM_VICTORY', side: 'ATTACKER', reason: 'abandonment'}, {type: 'END_TURN'}, null]
    .map(e.matchActionText);
  return out;
}"""


@pytest.fixture(scope="module")
def results(web: WebServer, browser: Any) -> dict[str, Any]:
    context = browser.new_context()
    page = context.new_page()
    page.goto(web.base + "/")
    out: dict[str, Any] = page.evaluate(EXERCISE)
    context.close()
    return out


def test_clocks_read_at_a_glance_from_tenths_to_days(results: dict[str, Any]) -> None:
    assert results["format"] == ["0.0", "3.2", "9.9", "0:10", "0:59", "1:01", "59:59", "1:00:00", "1:02:05",
                                 "1d 00h", "3d 02h", "0.0"]
    assert results["describe"] == ["no clock", "5 min + 3 s", "15 min + 10 s", "2 min per turn", "3 days per turn",
                                   "1 day per turn", "2 hours", "45 s"]


def test_only_the_running_clock_counts_down_from_the_servers_stamp(results: dict[str, Any]) -> None:
    assert results["remaining"] == [61, 30.5, 0, 200, 61, 61]
    # 10 % of the budget, at least 10 s, at most a day.
    assert results["low"] == [30, 10, 25920, 86400]
    assert results["faces"] == [["ATTACKER", "0:21", True, True, False], ["DEFENDER", "3:20", False, False, False]]
    assert results["facesOut"] == [["0.0", True], ["3:20", False]]


def test_the_offset_comes_from_the_shortest_round_trip_and_never_undercuts_a_one_way_message(
        results: dict[str, Any]) -> None:
    assert results["sync1"] == [600, math.inf]  # no round trip yet
    assert results["sync2"] == [600.2, 0.6]
    assert results["sync3"] == [600.2, 0.6]
    assert results["sync4"] == [600.15, 0.1]
    assert results["sync5"] == 601
    assert results["serverNow"] == 601
    assert results["noSync"] == 123


def test_presence_and_the_claim_of_an_abandoned_seat_follow_the_server(results: dict[str, Any]) -> None:
    assert results["present"] == [None, True, False]
    assert results["titles"] == ["You are connected", "Defender is away (no open connection)"]
    none, waiting, back, allowed, absent_seat, spectator = results["claims"]
    assert none == "none" and back == "none" and absent_seat == "none" and spectator == "none"
    assert waiting == {"kind": "waiting", "absent": "DEFENDER", "at": 2000}
    assert allowed == "allowed"
    assert results["claimText"][0] == ("Defender is away on their turn. If they are not back in 2:30,"
                                       " you may claim the win.")
    assert "You may claim the win, or keep waiting" in results["claimText"][1]
    assert results["resign"] == [{"type": "RESIGN", "side": "ATTACKER"}, None]


def test_the_rematch_box_offers_accepts_declines_and_follows(results: dict[str, Any]) -> None:
    live, fresh, offered, to_answer, declined, accepted, watch, watch_accepted = results["rematch"]
    assert live is None
    assert fresh == ["Play again, sides swapped?", ["offer"], None]
    assert offered == ["Rematch offered. Waiting for the answer…", [], None]
    assert to_answer == ["Attacker offers a rematch, sides swapped.", ["accept", "decline"], None]
    assert declined == ["Defender declined the rematch.", ["offer"], None]
    assert accepted == ["Rematch accepted: you play Defender now. Opening it…", [], "n2"]
    assert watch is None
    assert watch_accepted == ["The players started a rematch.", [], "n2"]


def test_the_end_and_the_match_actions_are_said_in_words(results: dict[str, Any]) -> None:
    assert results["reasons"] == [
        "Attacker resigned: Defender wins.",
        "Defender ran out of time: Attacker wins on time.",
        "Attacker left the game and did not come back: Defender claimed the win.",
        "Attacker wins (elimination).",
    ]
    assert results["actions"] == ["Defender resigned", "Attacker ran out of time",
                                  "Defender's turn clock ran out: the turn was ended for them",
                                  "Attacker claimed the win: Defender had left the game", None, None]
