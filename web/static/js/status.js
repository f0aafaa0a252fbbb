// @ts-check
/**
 * Unit status on the board: HP pips (lost ones red and crossed, so a damaged unit reads at
 * a glance), a "moved" and an "attacked" chip, and one small arrow per card effect aimed at
 * the unit (green up: played by its own side, red down: by the enemy or a malus). The card
 * names are in the cell tip (`statusLines`). Reads only the view: the unit's flags and hp
 * and the effects' `targets`; whether an effect applies is the engine's business, so
 * effects that cover a whole side (no named targets) stay in the effects panel.
 */

import { cardName, esc, humanize } from "./labels.js";

/** @typedef {import("./types.js").Unit} Unit */
/** @typedef {import("./types.js").View} View */
/** @typedef {import("./types.js").Effect} Effect */
/** @typedef {import("./types.js").CardInfo} CardInfo */
/** @typedef {{card: string, good: boolean, kind: string, left: string}} Mark */
/** @typedef {{hp: number, full: number, moved: boolean, attacked: boolean, marks: Mark[]}} Status */

/** @param {Effect} e */
function duration(e) {
  if (e.expires === "permanent") return "rest of the game";
  if (e.expires === "this_attack") return "this attack";
  if (e.expires === "until_phase") return "this phase";
  return e.remaining_turn_ends === 1 ? "until the end of this turn" : `${e.remaining_turn_ends} turn ends`;
}

/**
 * The status of one unit as the board shows it.
 * @param {Unit} unit @param {View} view @param {Record<string, {hp: number}>} fullHp
 * @returns {Status}
 */
export function unitStatus(unit, view, fullHp) {
  /** @type {Map<number, Mark>} */
  const plays = new Map();
  for (const e of view.effects) {
    if (!e.targets.includes(unit.id) || plays.has(e.play_id)) continue;
    const good = e.source_kind !== "malus" && e.controller === unit.side;
    plays.set(e.play_id, { card: e.source_card, good, kind: e.source_kind, left: duration(e) });
  }
  return {
    hp: unit.hp, full: fullHp[unit.type]?.hp ?? unit.hp, moved: unit.has_moved, attacked: unit.has_attacked,
    marks: [...plays.values()],
  };
}

/**
 * Draw the status beside a unit's id tag, which ends at (x, y) and is `h` tall; `k` scales.
 * Compact, the MOVED and FIRED chips shrink to their first letter. With `measure` nothing is
 * drawn. Returns the width it takes.
 * @param {CanvasRenderingContext2D} ctx @param {Status} s @param {number} x @param {number} y @param {number} h @param {number} k
 * @param {{compact?: boolean, measure?: boolean}} [how]
 */
export function drawStatus(ctx, s, x, y, h, k, how = {}) {
  const draw = !how.measure;
  let at = x + 3 * k;
  const mid = y + h / 2;
  if (s.full > 1) {
    const box = 8 * k;
    const width = s.full * (box + 2 * k) + 4 * k;
    if (draw) pips(ctx, s, at, y, width, h, box, k);
    at += width + 3 * k;
  }
  const chip = (/** @type {string} */ text, /** @type {string} */ bg) => {
    ctx.font = `800 ${9.5 * k}px system-ui, sans-serif`;
    const label = how.compact ? text.charAt(0) : text;
    const w = ctx.measureText(label).width + 7 * k;
    if (draw) {
      ctx.fillStyle = bg;
      ctx.beginPath();
      ctx.roundRect(at, y, w, h, 4 * k);
      ctx.fill();
      ctx.fillStyle = "#fff";
      ctx.textAlign = "left";
      ctx.textBaseline = "middle";
      ctx.fillText(label, at + 3.5 * k, mid + 0.5 * k);
    }
    at += w + 3 * k;
  };
  if (s.moved) chip("MOVED", "rgba(70,88,112,0.95)");
  if (s.attacked) chip("FIRED", "rgba(196,96,24,0.95)");
  for (const m of s.marks) {
    const r = 7 * k;
    if (draw) mark(ctx, m, at + r, mid, r, k);
    at += 2 * r + 2 * k;
  }
  return at - x;
}

/**
 * HP pips: green while alive, red and crossed once lost.
 * @param {CanvasRenderingContext2D} ctx @param {Status} s @param {number} at @param {number} y @param {number} width
 * @param {number} h @param {number} box @param {number} k
 */
function pips(ctx, s, at, y, width, h, box, k) {
  const mid = y + h / 2;
  ctx.fillStyle = "rgba(8,10,14,0.85)";
  ctx.beginPath();
  ctx.roundRect(at, y, width, h, 4 * k);
  ctx.fill();
  for (let i = 0; i < s.full; i++) {
    const bx = at + 3 * k + i * (box + 2 * k);
    const by = mid - box / 2;
    const alive = i < s.hp;
    ctx.fillStyle = alive ? "#7be07b" : "#ff2d2d";
    ctx.fillRect(bx, by, box, box);
    if (!alive) {
      ctx.strokeStyle = "#ffffff";
      ctx.lineWidth = 1.4 * k;
      ctx.beginPath();
      ctx.moveTo(bx + 1.5 * k, by + 1.5 * k);
      ctx.lineTo(bx + box - 1.5 * k, by + box - 1.5 * k);
      ctx.moveTo(bx + box - 1.5 * k, by + 1.5 * k);
      ctx.lineTo(bx + 1.5 * k, by + box - 1.5 * k);
      ctx.stroke();
    }
  }
}

/**
 * A card mark: a green up arrow (its own side's card) or a red down arrow (an enemy's, a malus).
 * @param {CanvasRenderingContext2D} ctx @param {Mark} m @param {number} cx @param {number} mid @param {number} r @param {number} k
 */
function mark(ctx, m, cx, mid, r, k) {
  ctx.fillStyle = m.good ? "#2f9e48" : "#c2262a";
  ctx.beginPath();
  ctx.arc(cx, mid, r, 0, Math.PI * 2);
  ctx.fill();
  ctx.fillStyle = "#fff";
  ctx.beginPath();
  const d = m.good ? -1 : 1;
  ctx.moveTo(cx - 3.2 * k, mid - d * 1.8 * k);
  ctx.lineTo(cx + 3.2 * k, mid - d * 1.8 * k);
  ctx.lineTo(cx, mid + d * 2.8 * k);
  ctx.closePath();
  ctx.fill();
}

/**
 * The status of a unit in words, for the cell tip: what the marks on the board mean.
 * @param {Status} s @param {Map<string, CardInfo>} cards
 */
export function statusLines(s, cards) {
  const flags = [];
  if (s.hp < s.full) flags.push(`<b class="status-damaged">damaged: ${s.hp} of ${s.full} HP</b>`);
  if (s.moved) flags.push("moved this turn");
  if (s.attacked) flags.push("fired this turn");
  const marks = s.marks.map((m) => `<li class="${m.good ? "buff" : "malus"}">${m.good ? "▲" : "▼"} <b>${esc(cardName(cards, m.card))}</b> <small>${esc(humanize(m.kind))} · ${esc(m.left)}</small></li>`);
  return (flags.length ? `<div class="status-flags">${flags.join(" · ")}</div>` : "")
    + (marks.length ? `<ul class="status-marks">${marks.join("")}</ul>` : "");
}
