// @ts-check
/**
 * The threat overlay (toggle with T or the ⚠ button): the cells enemy units could fire at
 * next turn in red, deeper the more units could, and the cells they could only move onto
 * with an amber frame, from the engine's `threat_map` (asked over the socket only while the
 * overlay is on). Canvas drawing plus the toggle button; no rule lives here.
 */

import { parseLabel } from "./iso.js";
import { faceCorners } from "./paths.js";

/** @typedef {import("./render.js").Renderer} Renderer */
/** @typedef {import("./render.js").Scene} Scene */
/** @typedef {import("./iso.js").Grid} Grid */
/** @typedef {import("./insight.js").ThreatMap} ThreatMap */

export const THREAT_KEY = "t";

/**
 * Draw a threat map over the terrain (under the units).
 * @param {Renderer} r @param {Scene} scene @param {ThreatMap} map
 */
export function drawThreats(r, scene, map) {
  const grid = /** @type {Grid} */ (r.grid);
  const { ctx } = r;
  const px = 1 / scene.camera.zoom;
  ctx.save();
  for (const threat of map.cells) {
    const xy = parseLabel(threat.cell);
    if (!xy) continue;
    const c = faceCorners(grid, xy[0], xy[1]);
    const shrink = (/** @type {number} */ k) => c.map(([x, y]) => {
      const [cx, cy] = [(c[1][0] + c[3][0]) / 2, (c[0][1] + c[2][1]) / 2];
      return [cx + (x - cx) * k, cy + (y - cy) * k];
    });
    const face = shrink(threat.fire.length ? 1 : 0.82);
    ctx.beginPath();
    ctx.moveTo(face[0][0], face[0][1]);
    for (let i = 1; i < 4; i++) ctx.lineTo(face[i][0], face[i][1]);
    ctx.closePath();
    if (threat.fire.length) {
      ctx.fillStyle = `rgba(255,40,40,${Math.min(0.55, 0.2 + 0.1 * threat.fire.length)})`;
      ctx.fill();
    } else {
      ctx.strokeStyle = "rgba(255,190,60,0.9)";
      ctx.lineWidth = 2 * px;
      ctx.setLineDash([6 * px, 4 * px]);
      ctx.stroke();
      ctx.setLineDash([]);
    }
    if (threat.fire.length > 1 && scene.camera.zoom >= 0.8) {
      const [cx, cy] = [(c[1][0] + c[3][0]) / 2, (c[0][1] + c[2][1]) / 2];
      ctx.font = `800 ${10.5 * px}px system-ui, sans-serif`;
      ctx.textAlign = "center";
      ctx.textBaseline = "middle";
      ctx.lineWidth = 3 * px;
      ctx.strokeStyle = "rgba(0,0,0,0.75)";
      ctx.strokeText(`×${threat.fire.length}`, cx, cy);
      ctx.fillStyle = "#ffe2dc";
      ctx.fillText(`×${threat.fire.length}`, cx, cy);
    }
  }
  ctx.restore();
}

/**
 * What threatens one cell, in words, for the cell tip.
 * @param {ThreatMap|null} map @param {string} cell
 */
export function threatText(map, cell) {
  const t = map?.cells.find((c) => c.cell === cell);
  if (!t) return map ? "No enemy unit can reach or fire here next turn." : "";
  const parts = [];
  if (t.fire.length) parts.push(`in fire of ${t.fire.join(", ")}`);
  if (t.reach.length) parts.push(`in reach of ${t.reach.join(", ")}`);
  return `Next turn: ${parts.join("; ")}.`;
}

/**
 * The ⚠ button beside the zoom buttons; calls `toggle` when pressed.
 * @param {HTMLElement} board the board element holding `.zoombar` @param {() => void} toggle
 * @returns {HTMLButtonElement|null}
 */
export function addThreatButton(board, toggle) {
  const bar = board.querySelector(".zoombar");
  if (!bar) return null;
  const button = document.createElement("button");
  button.type = "button";
  button.className = "threat-toggle";
  button.title = "Show what the enemy can reach or hit next turn (T)";
  button.setAttribute("aria-pressed", "false");
  button.textContent = "⚠";
  button.addEventListener("click", toggle);
  bar.append(button);
  return button;
}
