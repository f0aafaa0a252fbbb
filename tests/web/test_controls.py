"""Controls come only from the legal actions, and unknown action types still get a control.

These run js/controls.js in the browser on synthetic positions, so they can offer action types
the engine does not have (yet): a new type must show up without any client change.
"""

from __future__ import annotations

from typing import Any

import pytest

from .conftest import WebServer

pytestmark = pytest.mark.browser

HARNESS = """async (legal) => {
  const c = await import('/static/js/controls.js');
  const s = await import('/static/js/state.js');
  const unit = (id, side, cell) =>
    ({id, side, type: 'LIGHT_INFANTRY', cell, hp: 1, has_moved: false, has_attacked: false});
  const view = {
    board: {width: 6, height: 6, rows: Array(6).fill('......')}, phase: 'MOVEMENT', turn: 1, active: 'ATTACKER',
    to_act: 'ATTACKER', units: [unit('A1', 'ATTACKER', 'B2'), unit('A2', 'ATTACKER', 'C2'),
    unit('D1', 'DEFENDER', 'E5'), unit('D9', 'DEFENDER', 'F5'), unit('D14', 'DEFENDER', 'D6')],
    players: [
      {side: 'ATTACKER', stored: [], tactics: ['enemy_recon_detection'], played_tactics: [], destroyed: [],
       point_vp: 0},
      {side: 'DEFENDER', stored: [], tactics: ['?'], played_tactics: [], destroyed: [], point_vp: 0}],
    draw_pile: [], discard_pile: [], pending_card: null, moves_this_turn: 0, attack_queue: [], pending_attack: null,
    last_roll: null, effects: [], events: [], winner: null, victory_reason: null,
  };
  let model = s.applyState(s.initialModel('play', 'm'), {version: 3, status: 'live', seat: 'ATTACKER',
    to_act: 'ATTACKER', legal_actions: legal, view, events: [], broken_reason: null, last_seq: 0,
    decision: {side: 'ATTACKER', kind: 'move', phase: 'MOVEMENT', phase_name: 'Move', windows: [], card: null,
      attack: null, ruler: [], at: null, next_phase: {phase: 'ATTACK', name: 'Attack'}}, legend: []});
  const recon = {id: 'enemy_recon_detection', name: 'Enemy Recon Detection', kind: 'tactic'};
  const cards = new Map([['enemy_recon_detection', recon]]);
  const out = {};
  const ctl = () => c.deriveControls(model, cards);
  const plain = (k) => ({buttons: k.buttons.map((b) => [b.label, b.key, b.run.kind]), cells: [...k.cellMarks],
    units: [...k.unitMarks], choices: k.choices.map((b) => b.label), context: k.context.map((b) => b.label),
    aiming: k.aiming ? k.aiming.key : null, question: k.question});
  const tap = (hit) => { const k = ctl(); const r = c.resolveTap(model, k, hit); return r; };
  out.start = plain(ctl());
  out.tapCell = tap({cell: 'C4', unit: null});
  out.tapA1 = tap({cell: 'B2', unit: 'A1'});
  model = s.select(model, 'A1');
  out.selected = plain(ctl());
  out.tapD4 = tap({cell: 'D4', unit: null});
  out.tapD1 = tap({cell: 'E5', unit: 'D1'});
  // A touch previews first: the same taps arm, and a second one on the armed cell sends.
  out.touchD1 = c.resolveTap(model, ctl(), {cell: 'E5', unit: 'D1'}, true);
  const armedModel = s.arm(model, {cell: 'E5', unit: 'D1'});
  const armedCtl = c.deriveControls(armedModel, cards);
  out.armed = {action: armedCtl.armed?.action ?? null, primary: armedCtl.buttons.filter((b) => b.primary).length,
    hover: armedModel.hover, again: c.resolveTap(armedModel, armedCtl, {cell: 'E5', unit: 'D1'}, true),
    elsewhere: c.resolveTap(armedModel, armedCtl, {cell: 'D4', unit: null}, true)};
  out.choicesOfA1 = c.boardChoices(model, ctl());
  model = s.clearSelection(model);
  const groups = [...ctl().groups.keys()];
  out.groups = groups;
  for (const key of groups) {
    let m = s.aim(model, key);
    const k = c.deriveControls(m, cards);
    out[key] = plain(k);
  }
  if (groups.includes('PLAY_TACTIC:enemy_recon_detection')) {
    model = s.addPick(s.aim(model, 'PLAY_TACTIC:enemy_recon_detection'), 'value:NE');
    out.recon = c.completed(ctl().aiming, model.sel.picks);
  }
  return out;
}"""

LEGAL: list[dict[str, Any]] = [
    {"type": "SURRENDER"},
    {"type": "BID", "amount": 3},
    {"type": "CALL_AIRSTRIKE", "cell": "C4"},
    {"type": "RALLY", "unit_id": "A2"},
    {"type": "TRANSFER", "unit_id": "A1", "to": "D4"},
    {"type": "DECLARE_ATTACK", "attacker_id": "A1", "target_id": "D1"},
    {"type": "END_TURN"},
    {"type": "NEXT_PHASE"},
    *({"type": "PLAY_TACTIC", "card_id": "enemy_recon_detection", "targets": [], "params": {"quadrant": q}}
      for q in ("NW", "NE", "SW", "SE")),
]


def run(web: WebServer, new_page: Any, legal: list[dict[str, Any]]) -> dict[str, Any]:
    page = new_page()
    page.goto(web.base + "/static/index.html")
    result: dict[str, Any] = page.evaluate(HARNESS, legal)
    return result


def test_every_action_shape_becomes_a_control(web: WebServer, new_page: Any) -> None:
    out = run(web, new_page, LEGAL)
    labels = {label: (key, kind) for label, key, kind in out["start"]["buttons"]}
    # Unknown types with no board reference are buttons named from their type and fields.
    assert labels["Surrender"][1] == "send" and labels["Bid (amount: 3)"][1] == "send"
    # Known types keep their labels and shortcut keys; the primary progress button is marked.
    # End turn asks first when it would give something up (here: A1 could still attack).
    assert labels["End turn"] == ("e", "confirm") and labels["Next: Attack"] == ("n", "send")
    # A card with several spellings is aimed, and its choices (quadrants) become buttons.
    assert labels["Play Enemy Recon Detection"][1] == "aim"
    assert out["PLAY_TACTIC:enemy_recon_detection"]["choices"] == [
        "North-west quarter", "North-east quarter", "South-west quarter", "South-east quarter"]
    assert out["recon"] == LEGAL[-3]
    # A cell-only unknown action is clicked on the board.
    assert out["tapCell"] == {"kind": "send", "action": {"type": "CALL_AIRSTRIKE", "cell": "C4"}}
    # Units that start a two-step action glow; tapping one selects it.
    assert ["A1", "source"] in out["start"]["units"]
    assert out["tapA1"] == {"kind": "select", "unit": "A1"}
    # Selected: its destination cell lights up, the enemy it may attack glows.
    assert ["D4", "move"] in out["selected"]["cells"] and ["B2", "selected"] in out["selected"]["cells"]
    assert ["D1", "attack"] in out["selected"]["units"] and ["E5", "attack"] in out["selected"]["cells"]
    assert out["tapD4"] == {"kind": "send", "action": LEGAL[4]}
    assert out["tapD1"] == {"kind": "send", "action": LEGAL[5]}
    # On a touch screen the first tap only previews; the armed choice is what Enter or its button sends.
    assert out["touchD1"] == {"kind": "arm", "armed": {"cell": "E5", "unit": "D1"}}
    assert out["armed"]["action"] == LEGAL[5] and out["armed"]["primary"] == 0 and out["armed"]["hover"] == "E5"
    assert out["armed"]["again"] == {"kind": "send", "action": LEGAL[5]}
    assert out["armed"]["elsewhere"] == {"kind": "arm", "armed": {"cell": "D4", "unit": None}}
    # The keyboard's cursor goes through the selected unit's targets first, then its cells.
    assert out["choicesOfA1"] == [{"cell": "E5", "unit": "D1"}, {"cell": "D4", "unit": None}]
    # A unit-only unknown action is aimed from its group and marks its unit as a target.
    assert "pick:RALLY" in out["groups"] and ["A2", "target"] in out["pick:RALLY"]["units"]


def test_a_choice_of_several_units_is_picked_one_click_at_a_time(web: WebServer, new_page: Any) -> None:
    pairs = (["D1", "D9"], ["D1", "D14"], ["D9", "D14"])
    legal = [{"type": "CHOOSE_MALUS_TARGETS", "unit_ids": pair} for pair in pairs]
    out = run(web, new_page, legal)
    start = out["start"]
    # The only decision is the choice: aiming starts by itself, every candidate is a target.
    assert start["aiming"] == "pick:CHOOSE_MALUS_TARGETS"
    assert sorted(u for u, mark in start["units"]) == ["D1", "D14", "D9"]
    page_out = new_page()
    page_out.goto(web.base + "/static/index.html")
    picked = page_out.evaluate("""async (legal) => {
      const c = await import('/static/js/controls.js');
      const reads = c.readActions(legal, new Set(['D1', 'D9', 'D14']));
      const group = {key: 'g', kind: 'pick', type: 'CHOOSE_MALUS_TARGETS', label: '', reads};
      return [c.completed(group, ['unit:D9']), c.completed(group, ['unit:D9', 'unit:D1']),
              c.candidates(group, ['unit:D14']).length, c.candidates(group, ['cell:D14']).length];
    }""", legal)
    assert picked == [None, legal[0], 2, 0]
