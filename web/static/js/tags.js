// @ts-check
/**
 * Where each unit's tag goes (its id, HP pips, MOVED/FIRED chips, card marks), so that no two
 * tags overlap however the units crowd together. Tags are placed one by one, the ones that
 * matter most first (the selected unit, the units it may attack, then top to bottom): each
 * takes the first free spot of a fixed list around its unit (right of its feet as before, then
 * left, beside its body, under it), clear of the other units' bodies too; failing that it
 * shrinks (chips to a letter), then gives up keeping clear of bodies, and last sits farther out
 * with a thin line back to its unit. A tag that still finds no room is left out: the cell tip
 * tells what it would have. Pure geometry: the caller measures
 * and draws (js/pieces.js); coordinates are world units, sizes too (the camera's zoom scales
 * screen pixels to them).
 */

/** @typedef {{x: number, y: number, w: number, h: number}} Box */
/**
 * One tag to place: its unit's foot point, its sizes in full and compact form (world units), and
 * its rank (lower first).
 * `body`: the upper part of its unit's sprite, which other tags keep clear of when they can.
 * @typedef {{id: string, gx: number, gy: number, w: number, compactW: number, h: number, rank: number, body?: Box}} TagSpec
 */
/**
 * Where a tag went: its box, whether it is compact, and the point its leader line starts from
 * (null when it sits by its unit).
 * @typedef {{spec: TagSpec, box: Box, compact: boolean, leader: [number, number]|null}} Placed
 */

const GAP = 2; // screen px kept between two tags

/**
 * The spots to try for a tag of width `w` and height `h`, by its unit's foot (gx, gy); `px` is
 * one screen pixel in world units. Near ones first, then a ring farther out (with a leader).
 * @param {number} gx @param {number} gy @param {number} w @param {number} h @param {number} px
 * @returns {Array<{x: number, y: number, far: boolean}>}
 */
export function spots(gx, gy, w, h, px) {
  const side = 19 * px; // clear of the unit's ring
  const near = [
    [gx + side, gy + 9 * px], // right of the feet (the usual place)
    [gx - side - w, gy + 9 * px], // left of the feet
    [gx + side, gy - 12 * px - h], // beside the body, right
    [gx - side - w, gy - 12 * px - h], // beside the body, left
    [gx - w / 2, gy + 20 * px], // under the unit
    [gx + side, gy + 11 * px + h], // lower right
    [gx - side - w, gy + 11 * px + h], // lower left
  ].map(([x, y]) => ({ x, y, far: false }));
  const far = [];
  for (const r of [46, 66]) {
    for (let i = 0; i < 8; i++) {
      const a = (i / 8) * Math.PI * 2 + Math.PI / 8;
      far.push({ x: gx + Math.cos(a) * r * px - w / 2, y: gy + Math.sin(a) * r * 0.7 * px - h / 2, far: true });
    }
  }
  return near.concat(far);
}

/** @param {Box} a @param {Box} b @param {number} gap */
export function overlaps(a, b, gap) {
  return a.x < b.x + b.w + gap && b.x < a.x + a.w + gap && a.y < b.y + b.h + gap && b.y < a.y + a.h + gap;
}

/**
 * Place every tag so none overlaps another nor a unit's ring (see the module comment), and,
 * where there is room for it, clear of the other units' bodies too.
 * @param {TagSpec[]} specs @param {number} px one screen pixel in world units
 * @returns {Placed[]} in the order placed; tags left out are missing
 */
export function layoutTags(specs, px) {
  /** @type {Placed[]} */
  const placed = [];
  // Each unit's ring stays clear, so a tag never hides the unit it does not belong to.
  const rings = specs.map((s) => ({ x: s.gx - 16 * px, y: s.gy - 8 * px, w: 32 * px, h: 16 * px }));
  const bodies = specs.map((s) => s.body).filter((b) => b !== undefined);
  /** @param {Box} box @param {boolean} strict */
  const free = (box, strict) => placed.every((p) => !overlaps(box, p.box, GAP * px))
    && rings.every((r) => !overlaps(box, r, 0)) && (!strict || bodies.every((b) => !overlaps(box, b, 0)));
  const passes = [[false, true, false], [true, true, false], [false, false, false], [true, false, true]];
  const ordered = specs.slice().sort((a, b) => a.rank - b.rank || a.gy - b.gy || a.gx - b.gx);
  for (const spec of ordered) {
    for (const [compact, strict, far] of passes) {
      const w = compact ? spec.compactW : spec.w;
      const spot = spots(spec.gx, spec.gy, w, spec.h, px)
        .find((s) => (far || !s.far) && free({ x: s.x, y: s.y, w, h: spec.h }, strict));
      if (!spot) continue;
      placed.push({ spec, box: { x: spot.x, y: spot.y, w, h: spec.h }, compact, leader: spot.far ? [spec.gx, spec.gy] : null });
      break;
    }
  }
  return placed;
}
