// @ts-check
/**
 * Moves you can read: the selected unit's range as one bright region with a dark-backed
 * outline (the same few CSS pixels at every zoom, readable on every terrain), and, for
 * the reachable cell under the pointer, the engine's cheapest path (`move_preview`) with
 * its cost in MP. Canvas only; called by js/render.js with the world transform set.
 */

import { faceCentre, label, parseLabel } from "./iso.js";

/** @typedef {import("./render.js").Renderer} Renderer */
/** @typedef {import("./render.js").Scene} Scene */
/** @typedef {import("./iso.js").Grid} Grid */
/** @typedef {import("./insight.js").MovePreview} MovePreview */

const FILL = "rgba(64,224,255,0.26)";
const EDGE = "rgba(120,240,255,1)";
const EDGE_UNDER = "rgba(4,20,32,0.85)";

/**
 * The four corners of a cell's top face: top, right, bottom, left.
 * @param {Grid} g @param {number} x @param {number} y
 * @returns {Array<[number, number]>}
 */
export function faceCorners(g, x, y) {
  const [cx, cy] = faceCentre(g, x, y);
  return [[cx, cy - g.stepY], [cx + g.halfW, cy], [cx, cy + g.stepY], [cx - g.halfW, cy]];
}

/**
 * Edges of a cell's face and the neighbour across each: (x, y−1) shares top–right,
 * (x+1, y) right–bottom, (x, y+1) bottom–left, (x−1, y) left–top.
 */
const SIDES = /** @type {Array<[number, number, number, number]>} */ ([[0, -1, 0, 1], [1, 0, 1, 2], [0, 1, 2, 3], [-1, 0, 3, 0]]);

/**
 * The move range: every cell filled, then the region's outline twice (dark under bright),
 * widths in CSS pixels whatever the zoom. `alpha` fades a cell (the §12 sweep).
 * @param {Renderer} r @param {Scene} scene @param {string[]} cells
 * @param {(x: number, y: number) => number} alpha
 * @param {(x: number, y: number) => void} [filled] called after each cell's fill (to redraw trees in front)
 */
export function drawRange(r, scene, cells, alpha, filled) {
  const grid = /** @type {Grid} */ (r.grid);
  const { ctx } = r;
  const inside = new Set(cells);
  /** @type {Array<[number, number]>} */
  const xys = [];
  for (const cell of cells) {
    const xy = parseLabel(cell);
    if (xy) xys.push(xy);
  }
  ctx.save();
  for (const [x, y] of xys) {
    const c = faceCorners(grid, x, y);
    ctx.fillStyle = FILL;
    ctx.globalAlpha = Math.min(1, alpha(x, y) + 0.1);
    ctx.beginPath();
    ctx.moveTo(c[0][0], c[0][1]);
    for (let i = 1; i < 4; i++) ctx.lineTo(c[i][0], c[i][1]);
    ctx.closePath();
    ctx.fill();
    ctx.globalAlpha = 1;
    filled?.(x, y);
  }
  ctx.globalAlpha = 1;
  ctx.beginPath();
  for (const [x, y] of xys) {
    const c = faceCorners(grid, x, y);
    for (const [dx, dy, a, b] of SIDES) {
      if (x + dx >= 0 && y + dy >= 0 && inside.has(label(x + dx, y + dy))) continue;
      ctx.moveTo(c[a][0], c[a][1]);
      ctx.lineTo(c[b][0], c[b][1]);
    }
  }
  const px = 1 / scene.camera.zoom;
  ctx.lineJoin = "round";
  ctx.lineCap = "round";
  ctx.strokeStyle = EDGE_UNDER;
  ctx.lineWidth = 5.5 * px;
  ctx.stroke();
  ctx.strokeStyle = EDGE;
  ctx.lineWidth = 2.5 * px;
  ctx.stroke();
  ctx.restore();
}

/**
 * The cheapest path to `cell` (the engine's), from the unit's cell, with its cost.
 * @param {Renderer} r @param {Scene} scene @param {MovePreview} preview @param {string} cell
 */
export function drawPath(r, scene, preview, cell) {
  const option = preview.cells.find((c) => c.cell === cell);
  if (!option || !preview.start) return;
  const points = [preview.start, ...option.path].map((c) => r.face(c)).filter((p) => p !== null);
  if (points.length < 2) return;
  const { ctx } = r;
  const px = 1 / scene.camera.zoom;
  ctx.save();
  ctx.lineJoin = "round";
  ctx.lineCap = "round";
  const trace = () => {
    ctx.beginPath();
    ctx.moveTo(points[0][0], points[0][1]);
    for (const [x, y] of points.slice(1)) ctx.lineTo(x, y);
  };
  trace();
  ctx.strokeStyle = "rgba(0,0,0,0.7)";
  ctx.lineWidth = 8 * px;
  ctx.stroke();
  trace();
  ctx.strokeStyle = "#ffffff";
  ctx.lineWidth = 4 * px;
  ctx.stroke();
  for (const [x, y] of points.slice(1, -1)) {
    ctx.fillStyle = "#ffffff";
    ctx.beginPath();
    ctx.arc(x, y, 5 * px, 0, Math.PI * 2);
    ctx.fill();
  }
  const [ex, ey] = points[points.length - 1];
  ctx.fillStyle = "#ffffff";
  ctx.strokeStyle = "rgba(0,0,0,0.7)";
  ctx.lineWidth = 2 * px;
  ctx.beginPath();
  ctx.ellipse(ex, ey, 14 * px * 1.6, 14 * px * 0.8, 0, 0, Math.PI * 2);
  ctx.stroke();
  pill(r, `${fmt(option.mp)} of ${fmt(preview.allowance / 2)} MP`, ex, ey - 30 * px, px);
  ctx.restore();
}

/** @param {number} mp */
function fmt(mp) {
  return Number.isInteger(mp) ? String(mp) : mp.toFixed(1);
}

/**
 * A label on a dark rounded box, `px` world units per CSS pixel.
 * @param {Renderer} r @param {string} text @param {number} x @param {number} y @param {number} px
 */
export function pill(r, text, x, y, px) {
  const { ctx } = r;
  ctx.font = `700 ${13 * px}px system-ui, sans-serif`;
  const w = ctx.measureText(text).width + 14 * px;
  const h = 21 * px;
  ctx.fillStyle = "rgba(10,14,20,0.9)";
  ctx.strokeStyle = "rgba(120,240,255,0.95)";
  ctx.lineWidth = 1.5 * px;
  ctx.beginPath();
  ctx.roundRect(x - w / 2, y - h / 2, w, h, 6 * px);
  ctx.fill();
  ctx.stroke();
  ctx.fillStyle = "#ffffff";
  ctx.textAlign = "center";
  ctx.textBaseline = "middle";
  ctx.fillText(text, x, y + 0.5 * px);
}
