// @ts-check
/**
 * The board's four quarters on the canvas, while the player chooses one for a card (Enemy
 * Recon Detection: +1 against targets in the quarter named): the lines that divide the board,
 * each quarter's name, the one the attack's target stands in marked, and the one under the
 * pointer (or focus) on the choice buttons tinted. Which quarters there are to choose comes
 * from the choices the legal actions made (js/controls.js); where they lie is rules §2.1.
 */

import { faceCentre } from "./iso.js";

/** @typedef {import("./render.js").Renderer} Renderer */
/** @typedef {import("./render.js").Scene} Scene */
/** @typedef {import("./iso.js").Grid} Grid */

const QUADRANT = /^value:(NW|NE|SW|SE)$/;

/**
 * The quarters offered as choices now (empty: none).
 * @param {import("./controls.js").Controls|null} ctl
 */
export function offeredQuadrants(ctl) {
  const out = [];
  for (const b of ctl?.choices ?? []) {
    const m = b.run.kind === "pick" ? QUADRANT.exec(b.run.value) : null;
    if (m) out.push(m[1]);
  }
  return out;
}

/**
 * Draw the quarters (see the module comment); `pointed` is the quarter under the pointer on
 * the buttons, `target` the one the attack's target stands in.
 * Regions go under the units, names (`names` true) over them.
 * @param {Renderer} r @param {Scene} scene @param {string|null} pointed @param {string|null} target @param {boolean} names
 */
export function drawQuadrants(r, scene, pointed, target, names) {
  const grid = /** @type {Grid} */ (r.grid);
  const offered = offeredQuadrants(scene.ctl);
  if (!offered.length) return;
  const { ctx } = r;
  const w = grid.width;
  const h = grid.height;
  const wx = Math.floor(w / 2);
  const hy = Math.floor(h / 2);
  const at = (/** @type {number} */ x, /** @type {number} */ y) => faceCentre(grid, x - 0.5, y - 0.5);
  /** @type {Record<string, [number, number, number, number]>} x0, y0, x1, y1 in cells */
  const spans = { NW: [0, 0, wx, hy], NE: [wx, 0, w, hy], SW: [0, hy, wx, h], SE: [wx, hy, w, h] };
  const px = 1 / scene.camera.zoom;
  ctx.save();
  for (const q of offered) {
    const [x0, y0, x1, y1] = spans[q];
    const [cx, cy] = faceCentre(grid, (x0 + x1 - 1) / 2, (y0 + y1 - 1) / 2);
    if (names) {
      ctx.font = `800 ${22 * px}px system-ui, sans-serif`;
      ctx.textAlign = "center";
      ctx.textBaseline = "middle";
      ctx.lineWidth = 5 * px;
      ctx.strokeStyle = "rgba(0,0,0,0.7)";
      const text = q === target ? `${q} ★` : q;
      ctx.strokeText(text, cx, cy);
      ctx.fillStyle = q === pointed || q === target ? "#ffd76e" : "#f2f4f8";
      ctx.fillText(text, cx, cy);
      continue;
    }
    const corners = [at(x0, y0), at(x1, y0), at(x1, y1), at(x0, y1)];
    ctx.beginPath();
    corners.forEach(([cx, cy], i) => (i ? ctx.lineTo(cx, cy) : ctx.moveTo(cx, cy)));
    ctx.closePath();
    ctx.fillStyle = q === pointed ? "rgba(240,194,75,0.28)" : q === target ? "rgba(240,194,75,0.10)" : "rgba(0,0,0,0)";
    ctx.fill();
    ctx.strokeStyle = q === pointed ? "rgba(255,214,110,0.95)" : "rgba(255,255,255,0.55)";
    ctx.lineWidth = (q === pointed ? 4 : 2) * px;
    ctx.setLineDash(q === pointed ? [] : [10 * px, 8 * px]);
    ctx.stroke();
    ctx.setLineDash([]);
  }
  ctx.restore();
}
