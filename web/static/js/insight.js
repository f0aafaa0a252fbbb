// @ts-check
/**
 * What the engine knows about the position on screen, asked over the socket and kept per
 * version: the cells and cheapest paths of the selected unit (`preview_move`), the odds of
 * an attack under the pointer and of the pending one (`preview_attack`), why the cell or
 * unit under the pointer is not a legal choice (`explain`), and the enemy's threats
 * (`threats`). The client computes none of it; it only decides which question is worth
 * asking now, and asks each at most once per version, within a budget that leaves the
 * server's per-socket message rate to the actions (docs/protocol.md).
 */

import { label, parseLabel } from "./iso.js";
import { unitsByCell } from "./state.js";

/** @typedef {import("./types.js").Model} Model */
/** @typedef {import("./types.js").Action} Action */
/** @typedef {import("./controls.js").Controls} Controls */

/**
 * The engine's answers (server/protocol.py), as they arrive.
 * @typedef {{type: "explanation", id: number, version: number, legal: boolean, code: string|null, reason: string|null}} Explanation
 * @typedef {{cell: string, cost: number, mp: number, path: string[]}} MoveOption
 * @typedef {{unit: string, start: string|null, allowance: number, cells: MoveOption[]}} MovePreview
 * @typedef {{type: "move_preview", id: number, version: number, preview: MovePreview|null, problem: string|null}} MoveAnswer
 * @typedef {{kind: string, source: string, term: string, value: number, says?: string|null}} RollModifier
 * @typedef {{kind: string, source: string, op: "add"|"mul", value: number}} DamageModifier
 * @typedef {{attacker: string, target: string, distance: number, required: number, modifiers: RollModifier[],
 *   modifier: number, allowed: boolean, natural: number|null, rerolls: number, hits: number, outcomes: number,
 *   hit_chance: number, base_damage: number, damage_modifiers: DamageModifier[], damage: number,
 *   expected_damage: number, destroy_chance: number}} AttackOdds
 * @typedef {{play: Action, window: string, odds: AttackOdds}} TacticOdds
 * @typedef {{odds: AttackOdds, tactics: TacticOdds[]}} AttackPreview
 * @typedef {{type: "attack_preview", id: number, version: number, preview: AttackPreview|null, problem: string|null}} AttackAnswer
 * @typedef {{cell: string, reach: string[], fire: string[]}} CellThreat
 * @typedef {{side: string, by: string, cells: CellThreat[]}} ThreatMap
 * @typedef {{type: "threat_map", id: number, version: number, threats: ThreatMap|null, problem: string|null}} ThreatAnswer
 * @typedef {Explanation | MoveAnswer | AttackAnswer | ThreatAnswer} Answer
 * @typedef {(query: {type: string, [field: string]: unknown}) => Promise<Answer|null>} Ask
 */

const BURST = 8; // questions that may go at once
const REFILL_MS = 400; // one more question per this many ms: 2.5/s, half the server's 5 messages/s
const EXPLAIN_DELAY_MS = 180; // the pointer must rest this long on a cell before asking why

export class Insight {
  /** @param {Ask} ask @param {() => void} onChange called when an answer arrives */
  constructor(ask, onChange) {
    this.ask = ask;
    this.onChange = onChange;
    this.epoch = "";
    /** @type {Map<string, unknown>} answers of this version by question key (null: asked, no answer yet) */
    this.answers = new Map();
    this.tokens = BURST;
    this.refilled = performance.now();
    /** whether the hand must stay hidden (a public hot-seat screen) */
    this.hideHand = false;
    /** whether the threat overlay is on (asked only then) */
    this.showThreats = false;
    /** @type {ReturnType<typeof setTimeout>|undefined} */
    this.timer = undefined;
    /** @type {[Model, Controls|null]|null} what `see` was last shown, to ask again once there is budget */
    this.last = null;
    this.waiting = false;
  }

  /**
   * Ask what the model on screen calls for: the selected unit's paths, the odds under the
   * pointer and of the pending attack, why the hovered choice is refused, the threats.
   * @param {Model} model @param {Controls|null} ctl
   */
  see(model, ctl) {
    this.last = [model, ctl];
    this.hideHand = !!model.public;
    const epoch = `${model.matchId}|${model.seat}|${model.version}`;
    if (epoch !== this.epoch) {
      this.epoch = epoch;
      this.answers = new Map();
    }
    const view = model.view;
    if (!view) return;
    const sel = model.sel.unit;
    if (sel && ctl?.reads.some((r) => r.kind === "source" && r.refs.units[0] === sel && r.refs.cells.length)) {
      this.query(`move:${sel}`, { type: "preview_move", unit_id: sel });
    }
    if (view.pending_attack) this.attackQuery(view.pending_attack.attacker, view.pending_attack.target);
    const hovered = model.hover ? unitsByCell(view).get(model.hover) : undefined;
    if (sel && hovered && ctl?.unitMarks.get(hovered.id) === "attack") this.attackQuery(sel, hovered.id);
    if (this.showThreats && (model.seat || view.active)) {
      const side = model.seat ?? (view.active === "ATTACKER" ? "DEFENDER" : "ATTACKER");
      this.query(`threats:${side}`, { type: "threats", side });
    }
    const drawn = drawnQuestion(model);
    if (drawn) this.query(drawn.key, drawn.body);
    clearTimeout(this.timer);
    const question = whyQuestion(model, ctl);
    if (question && !this.answers.has(question.key)) {
      this.timer = setTimeout(() => this.query(question.key, question.body), EXPLAIN_DELAY_MS);
    }
  }

  /** @param {string} attacker @param {string} target */
  attackQuery(attacker, target) {
    this.query(`attack:${attacker}>${target}`, { type: "preview_attack", attacker_id: attacker, target_id: target });
  }

  /**
   * Ask once per version, within the budget; the answer is stored under `key`.
   * @param {string} key @param {{type: string, [field: string]: unknown}} body
   */
  query(key, body) {
    if (this.answers.has(key) || !this.spend()) return;
    this.answers.set(key, null);
    const epoch = this.epoch;
    this.ask(body).then((answer) => {
      if (epoch !== this.epoch) return;
      if (!answer) {
        this.answers.delete(key); // offline or dropped: ask again next time
        return;
      }
      this.answers.set(key, answer);
      this.onChange();
    });
  }

  spend() {
    const now = performance.now();
    const gained = Math.floor((now - this.refilled) / REFILL_MS);
    if (gained > 0) {
      this.tokens = Math.min(BURST, this.tokens + gained);
      this.refilled += gained * REFILL_MS;
    }
    if (this.tokens < 1) {
      if (!this.waiting) {
        this.waiting = true;
        setTimeout(() => { // look again once there is budget
          this.waiting = false;
          if (this.last) this.see(...this.last);
        }, REFILL_MS);
      }
      return false;
    }
    this.tokens -= 1;
    return true;
  }

  /** The move preview of a unit, if answered. @param {string} unit @returns {MovePreview|null} */
  moves(unit) {
    const answer = /** @type {MoveAnswer|null|undefined} */ (this.answers.get(`move:${unit}`));
    return answer?.preview ?? null;
  }

  /** The preview of an attack, if answered. @param {string} attacker @param {string} target @returns {AttackPreview|null} */
  attack(attacker, target) {
    const answer = /** @type {AttackAnswer|null|undefined} */ (this.answers.get(`attack:${attacker}>${target}`));
    const preview = answer?.preview ?? null;
    // A public hot-seat screen shows no hand: not even which tactics would change the odds.
    return preview && this.hideHand ? { ...preview, tactics: [] } : preview;
  }

  /** @returns {ThreatMap|null} */
  threats() {
    for (const [key, answer] of this.answers) {
      if (key.startsWith("threats:") && answer) return /** @type {ThreatAnswer} */ (answer).threats;
    }
    return null;
  }

  /**
   * Why the card just drawn cannot be played now, as the engine explains it (null: it can, or no answer yet).
   * @param {Model} model @returns {{code: string|null, reason: string}|null}
   */
  drawnWhy(model) {
    const question = drawnQuestion(model);
    const answer = question ? /** @type {Explanation|null|undefined} */ (this.answers.get(question.key)) : null;
    return answer && !answer.legal && answer.reason ? { code: answer.code, reason: answer.reason } : null;
  }

  /**
   * Why the hovered choice is refused, in the engine's words (null: legal, not asked, or not answered yet).
   * @param {Model} model @param {Controls|null} ctl
   */
  why(model, ctl) {
    const question = whyQuestion(model, ctl);
    const answer = question ? /** @type {Explanation|null|undefined} */ (this.answers.get(question.key)) : null;
    return answer && !answer.legal && answer.reason ? { subject: question?.subject ?? "", reason: answer.reason } : null;
  }
}

/**
 * The question about a bonus this seat just drew but cannot play (the engine offers to store or
 * discard it only): why not. Null when there is nothing to ask. The action is a question only.
 * @param {Model} model
 * @returns {{key: string, body: {type: "explain", action: Action}}|null}
 */
export function drawnQuestion(model) {
  const drawn = model.view?.pending_card;
  if (model.decision?.kind !== "resolve_bonus" || !drawn || drawn.drawer !== model.seat || !model.legal.length) return null;
  if (model.legal.some((a) => a.type === "PLAY_BONUS" && (a.stored_index === null || a.stored_index === undefined))) return null;
  const action = { type: "PLAY_BONUS", stored_index: null, targets: [], params: { quadrant: null, cell: null } };
  return { key: `drawn:${drawn.card}`, body: { type: "explain", action } };
}

/**
 * The question worth asking about the cell under the pointer, if it is not a legal choice:
 * with a unit selected, moving it there or attacking the enemy there; with none, why an
 * own unit that does not glow cannot move (or attack) now. The action is a question only:
 * it is never sent.
 * @param {Model} model @param {Controls|null} ctl
 * @returns {{key: string, subject: string, body: {type: "explain", action: Action}}|null}
 */
export function whyQuestion(model, ctl) {
  const view = model.view;
  const kind = model.decision?.kind;
  const cell = model.hover;
  if (!view || !ctl || !cell || !model.seat || !model.legal.length || ctl.aiming) return null;
  if (kind !== "move" && kind !== "declare_attacks") return null;
  if (ctl.cellMarks.get(cell) && ctl.cellMarks.get(cell) !== "selected") return null;
  const byCell = unitsByCell(view);
  const there = byCell.get(cell);
  const sel = model.sel.unit ? view.units.find((u) => u.id === model.sel.unit) : undefined;
  /** @type {Action|null} */
  let action = null;
  let subject = "";
  if (sel && sel.cell && sel.side === model.seat) {
    if (cell === sel.cell) return null;
    if (there && there.side !== sel.side && kind === "declare_attacks") {
      action = { type: "DECLARE_ATTACK", attacker_id: sel.id, target_id: there.id };
      subject = `${sel.id} → ${there.id}`;
    } else if (!there && kind === "move") {
      action = { type: "MOVE_UNIT", unit_id: sel.id, to: cell };
      subject = `${sel.id} → ${cell}`;
    }
  } else if (!sel && there && there.side === model.seat && ctl.unitMarks.get(there.id) !== "source" && there.cell) {
    if (kind === "move") {
      const next = emptyNeighbour(there.cell, byCell, view.board);
      if (next) action = { type: "MOVE_UNIT", unit_id: there.id, to: next };
      subject = `${there.id} cannot move`;
    } else {
      const enemy = nearestEnemy(there, view.units);
      if (enemy) action = { type: "DECLARE_ATTACK", attacker_id: there.id, target_id: enemy.id };
      subject = `${there.id} cannot attack`;
    }
  }
  if (!action) return null;
  return { key: `why:${JSON.stringify(action)}`, subject, body: { type: "explain", action } };
}

/**
 * A free cell next to `cell` (the question "may it move at all?" needs a destination).
 * @param {string} cell @param {Map<string, unknown>} byCell @param {{width: number, height: number}} board
 */
function emptyNeighbour(cell, byCell, board) {
  const xy = parseLabel(cell);
  if (!xy) return null;
  for (const [dx, dy] of [[0, 1], [1, 0], [0, -1], [-1, 0], [1, 1], [-1, -1], [1, -1], [-1, 1]]) {
    const x = xy[0] + dx;
    const y = xy[1] + dy;
    if (x >= 0 && y >= 0 && x < board.width && y < board.height && !byCell.has(label(x, y))) return label(x, y);
  }
  return null;
}

/**
 * The enemy closest to `unit` (Chebyshev, as ranges count): the engine's reason for that
 * attack is the unit's own ("already attacked", "moved and cannot fire") or "out of range".
 * @param {import("./types.js").Unit} unit @param {import("./types.js").Unit[]} units
 */
function nearestEnemy(unit, units) {
  const from = parseLabel(/** @type {string} */ (unit.cell));
  let best = null;
  let bestD = Infinity;
  for (const u of units) {
    if (u.side === unit.side || !u.cell || !from) continue;
    const to = parseLabel(u.cell);
    if (!to) continue;
    const d = Math.max(Math.abs(to[0] - from[0]), Math.abs(to[1] - from[1]));
    if (d < bestD) {
      bestD = d;
      best = u;
    }
  }
  return best;
}
