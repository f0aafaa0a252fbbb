// @ts-check
/**
 * Exact picking: which unit sprite (by its opaque pixels, front-most first) or which cell
 * (by its visible diamond) is under a world point.
 */

import { maskHit } from "./assets.js";
import { label, parseLabel, pickCell, unitRect } from "./iso.js";

/** @typedef {import("./iso.js").Grid} Grid */
/** @typedef {import("./assets.js").Assets} Assets */
/** @typedef {import("./types.js").Unit} Unit */
/** @typedef {import("./types.js").Hit} Hit */

/**
 * Units on the board in painter's order (§12: depth x + y ascending, then y).
 * @param {Unit[]} units
 * @returns {Array<{unit: Unit, x: number, y: number}>}
 */
export function drawOrder(units) {
  const placed = [];
  for (const unit of units) {
    const xy = unit.cell ? parseLabel(unit.cell) : null;
    if (xy) placed.push({ unit, x: xy[0], y: xy[1] });
  }
  return placed.sort((a, b) => a.x + a.y - (b.x + b.y) || a.y - b.y);
}

/**
 * What is under world point (wx, wy): the front-most unit whose sprite has an opaque pixel
 * there, and the cell whose top face holds the point (or the hit unit's cell).
 * @param {Grid} grid @param {Assets} assets @param {Unit[]} units @param {number} wx @param {number} wy
 * @returns {Hit}
 */
export function hitTest(grid, assets, units, wx, wy) {
  const types = assets.manifest.units.types;
  const order = drawOrder(units);
  for (let i = order.length - 1; i >= 0; i--) {
    const { unit, x, y } = order[i];
    const type = types[unit.type];
    if (!type) continue;
    const [left, top, side] = unitRect(grid, x, y, type, assets.manifest.units);
    if (wx < left || wy < top || wx >= left + side || wy >= top + side) continue;
    const mask = assets.mask(type.images[unit.side]);
    if (maskHit(mask, (wx - left) / side, (wy - top) / side)) return { cell: unit.cell, unit: unit.id };
  }
  const xy = pickCell(grid, wx, wy);
  if (!xy) return { cell: null, unit: null };
  const cell = label(xy[0], xy[1]);
  const there = units.find((u) => u.cell === cell);
  return { cell, unit: there ? there.id : null };
}
