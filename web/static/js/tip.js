// @ts-check
/**
 * The cell tip: a small box just above the cell under the pointer that says what the engine
 * knows about it: the odds of attacking the enemy there, the cost of moving there, why it is
 * not a legal choice, what threatens it (with the overlay on), and the status of the unit
 * there (damage, moved/fired, the cards acting on it). Content is built from the model and
 * the engine's answers (js/insight.js); the box follows the cell while the camera moves.
 */

import { esc } from "./labels.js";
import { oddsHtml } from "./odds.js";
import { unitsByCell } from "./state.js";
import { statusLines, unitStatus } from "./status.js";
import { threatText } from "./threats.js";

/** @typedef {import("./types.js").Model} Model */
/** @typedef {import("./controls.js").Controls} Controls */
/** @typedef {import("./insight.js").Insight} Insight */
/** @typedef {import("./types.js").CardInfo} CardInfo */

/**
 * Everything worth saying about the hovered cell, as HTML ("" when nothing is).
 * @param {Model} model @param {Controls|null} ctl @param {Insight} insight
 * @param {Map<string, CardInfo>} cards @param {Record<string, {hp: number}>} fullHp
 */
export function tipHtml(model, ctl, insight, cards, fullHp) {
  const view = model.view;
  const cell = model.hover;
  if (!view || !cell) return "";
  const parts = [];
  const there = unitsByCell(view).get(cell);
  const sel = model.sel.unit;
  const mark = ctl?.cellMarks.get(cell);
  if (sel && there && ctl?.unitMarks.get(there.id) === "attack") {
    const preview = insight.attack(sel, there.id);
    parts.push(preview ? oddsHtml(preview, cards) : `<div class="muted">Working out the odds of ${esc(sel)} → ${esc(there.id)}…</div>`);
  } else if (sel && mark === "move") {
    const option = insight.moves(sel)?.cells.find((c) => c.cell === cell);
    if (option) parts.push(`<div class="tip-move"><b>${esc(sel)} → ${esc(cell)}</b>: ${option.mp} MP, via ${esc(option.path.join(" → "))}</div>`);
  }
  const why = insight.why(model, ctl);
  if (why) parts.push(`<div class="tip-why"><b>${esc(why.subject)}</b>: ${esc(why.reason)}</div>`);
  if (there) {
    const lines = statusLines(unitStatus(there, view, fullHp), cards);
    if (lines) parts.push(`<div class="tip-status"><b class="side-${there.side}">${esc(there.id)}</b> ${lines}</div>`);
  }
  if (insight.showThreats) {
    const text = threatText(insight.threats(), cell);
    if (text) parts.push(`<div class="tip-threat">${esc(text)}</div>`);
  }
  return parts.join("");
}

export class CellTip {
  /** @param {HTMLElement} board */
  constructor(board) {
    this.board = board;
    this.el = document.createElement("div");
    this.el.className = "celltip";
    this.el.hidden = true;
    this.el.setAttribute("role", "status");
    board.append(this.el);
    this.html = "";
  }

  /**
   * Show `html` above the board point (x, y) (CSS px in the board), kept inside the board.
   * @param {string} html @param {{x: number, y: number}|null} at
   */
  show(html, at) {
    if (!html || !at) {
      this.el.hidden = true;
      this.html = "";
      return;
    }
    if (html !== this.html) {
      this.el.innerHTML = html;
      this.html = html;
    }
    this.el.hidden = false;
    const w = this.el.offsetWidth;
    const h = this.el.offsetHeight;
    const bw = this.board.clientWidth;
    // Below and to the right of the cell, clear of its unit, the path ending there and its
    // cost label; to the left or above it when the board ends first.
    const right = at.x + 36;
    const x = right + w <= bw - 6 ? right : Math.max(6, at.x - 36 - w);
    const below = at.y + 26;
    const y = below + h <= this.board.clientHeight - 6 ? below : Math.max(6, at.y - h - 60);
    this.el.style.transform = `translate(${Math.round(x)}px, ${Math.round(y)}px)`;
  }
}
