// @ts-check
/**
 * The dice panel: the last roll with its die, each modifier and the outcome, and the earlier
 * rolls of the game. Rolls seen live are merged with the match's history from the server
 * (`GET /api/matches/{id}/history`), so a reload, a late spectator or a forked match shows
 * the rolls made before it arrived. Rolls are keyed by turn and attack number; a roll that
 * changed after a tactic keeps its latest form.
 */

import { esc, modifierText } from "./labels.js";

/** @typedef {import("./types.js").Model} Model */
/** @typedef {import("./types.js").CardInfo} CardInfo */
/** @typedef {import("./endscreen.js").DiceRoll} DiceRoll */
/**
 * A roll as the panel shows it.
 * @typedef {{key: string, turn: number, unit: string, target: string, natural: number, modified: number,
 *   required: number, distance: number, outcome: "HIT"|"MISS", modifiers: import("./types.js").Modifier[]}} ShownRoll
 */

const EARLIER = 12; // earlier rolls listed under the last one

export class DicePanel {
  /** @param {HTMLElement} el @param {Map<string, CardInfo>} cards */
  constructor(el, cards) {
    this.el = el;
    this.cards = cards;
    /** @type {Map<string, ShownRoll>} by "turn:attack number", oldest first */
    this.rolls = new Map();
    this.rolled = "";
    this.shown = "";
  }

  /** Take the rolls of the match's history (older than anything seen live). @param {DiceRoll[]} rolls */
  setHistory(rolls) {
    const merged = new Map();
    for (const r of rolls) {
      merged.set(`${r.turn}:${r.seq}`, { key: `${r.turn}:${r.seq}`, turn: r.turn, unit: r.attacker, target: r.target, natural: r.natural,
        modified: r.modified, required: r.required, distance: r.distance, outcome: r.outcome, modifiers: r.modifiers });
    }
    for (const [key, roll] of this.rolls) merged.set(key, roll); // what was seen live is at least as new
    this.rolls = merged;
    this.shown = "";
  }

  /**
   * Bring the panel up to date with the model's last roll.
   * @param {Model} model @param {boolean} animate whether a new live roll tumbles
   */
  render(model, animate) {
    const live = model.lastRoll;
    if (model.kind === "replay") this.rolls.clear(); // the viewer moves back and forth: show the shown step's roll only
    if (live) {
      const key = live.key.split(":").slice(0, 2).join(":");
      this.rolls.delete(key); // re-inserted last: the newest roll stays last
      this.rolls.set(key, { key, turn: Number(key.split(":")[0]), unit: live.unit, target: live.target, natural: live.natural,
        modified: live.modified, required: live.required, distance: live.distance, outcome: live.outcome, modifiers: live.modifiers });
    }
    const now = !!model.view?.last_roll;
    const signature = `${live?.key}|${now}|${this.rolls.size}|${model.seat}`;
    if (signature === this.shown) return;
    this.shown = signature;
    const all = [...this.rolls.values()];
    const last = all.at(-1);
    if (!last) {
      this.el.innerHTML = `<h3>Dice</h3><p class="muted">No roll yet this game.</p>`;
      return;
    }
    const mods = last.modifiers.map((m) => `<li><b>${sign(m.value)}</b> ${esc(m.clause ?? modifierText(this.cards, m.source))}</li>`).join("");
    const earlier = all.slice(0, -1).reverse().slice(0, EARLIER).map((r) => {
      const extra = r.modifiers.reduce((sum, m) => sum + m.value, 0);
      return `<li><span class="t">T${r.turn}</span> ${esc(r.unit)} → ${esc(r.target)}: <b>${r.natural}</b>${extra ? ` ${sign(extra)}` : ""} = ${r.modified} vs ${r.required}+ <b class="outcome-${r.outcome}">${r.outcome}</b></li>`;
    }).join("");
    this.el.innerHTML = `<h3>Dice ${now ? "" : "<small>(last roll)</small>"}</h3>
      <div class="rollrow"><div class="die" data-face="${last.natural}">${pips(last.natural)}</div>
      <div class="rollmath"><div>${esc(last.unit)} → ${esc(last.target)} at distance ${last.distance}</div>
      <ul class="mods"><li><b>${last.natural}</b> on the die</li>${mods}</ul>
      <div>= <b>${last.modified}</b>, needs <b>${last.required}+</b></div></div>
      <div class="outcome outcome-${last.outcome}">${last.outcome}</div></div>
      ${earlier ? `<h3>Earlier rolls <small>${all.length - 1}</small></h3><ol class="earlier">${earlier}</ol>` : ""}`;
    if (now && live && this.rolled !== live.key && animate) {
      this.rolled = live.key;
      this.el.querySelector(".die")?.classList.add("rolling");
    }
  }
}

/** @param {number} value */
function sign(value) {
  return `${value > 0 ? "+" : "−"}${Math.abs(value)}`;
}

/** Pips of a die face. @param {number} n */
function pips(n) {
  const layout = /** @type {Record<number, number[]>} */ ({ 1: [4], 2: [0, 8], 3: [0, 4, 8], 4: [0, 2, 6, 8], 5: [0, 2, 4, 6, 8], 6: [0, 2, 3, 5, 6, 8] });
  return Array.from({ length: 9 }, (_, i) => `<i class="${(layout[n] ?? []).includes(i) ? "on" : ""}"></i>`).join("");
}
