// @ts-check
/**
 * Isometric projection (rules §12) and exact picking. Pure: no DOM, no canvas.
 *
 * World coordinates are the §12 screen coordinates at zoom 1 with the origin added:
 * cell (x, y) has its *cell point* at (originX + (x − y)·TILE_W/2, originY + (x + y)·STEP_Y).
 * Tile images are drawn with their centre on the cell point; the top face of the tile is
 * centred `faceDy` above it (−7.6 with the shipped art), and unit sprites stand on that face
 * centre. Picking inverts the §12 formula around the face, so a click on the diamond the
 * player sees selects that diamond.
 */

/** @typedef {import("./types.js").TileGeometry} TileGeometry */

/**
 * @typedef {{width: number, height: number, tileW: number, tileH: number, halfW: number, stepY: number,
 *   originX: number, originY: number, faceDy: number}} Grid
 */

/**
 * The projection for a `width` × `height` board with the manifest's tile geometry.
 * @param {number} width
 * @param {number} height
 * @param {TileGeometry} tile
 * @returns {Grid}
 */
export function makeGrid(width, height, tile) {
  const halfW = tile.tile_w / 2;
  return {
    width,
    height,
    tileW: tile.tile_w,
    tileH: tile.tile_h,
    halfW,
    stepY: tile.step_y,
    originX: (height - 1) * halfW,
    originY: 0,
    faceDy: (tile.face_centre[1] - tile.image_h / 2) * tile.display_scale,
  };
}

/**
 * The cell point of (x, y) in world coordinates (§12 grid → screen, origin added).
 * @param {Grid} g @param {number} x @param {number} y
 * @returns {[number, number]}
 */
export function cellToWorld(g, x, y) {
  return [g.originX + (x - y) * g.halfW, g.originY + (x + y) * g.stepY];
}

/**
 * §12 screen → grid: the cell whose lattice diamond around its cell point holds (wx, wy).
 * May return a cell off the board.
 * @param {Grid} g @param {number} wx @param {number} wy
 * @returns {[number, number]}
 */
export function worldToCell(g, wx, wy) {
  const fx = (wx - g.originX) / g.halfW;
  const fy = (wy - g.originY) / g.stepY;
  return [Math.floor((fy + fx) / 2 + 0.5), Math.floor((fy - fx) / 2 + 0.5)];
}

/**
 * Centre of the visible top face of (x, y): where units stand and where a click lands.
 * @param {Grid} g @param {number} x @param {number} y
 * @returns {[number, number]}
 */
export function faceCentre(g, x, y) {
  const [wx, wy] = cellToWorld(g, x, y);
  return [wx, wy + g.faceDy];
}

/**
 * The board cell whose visible top face contains (wx, wy), or null off the board.
 * @param {Grid} g @param {number} wx @param {number} wy
 * @returns {[number, number] | null}
 */
export function pickCell(g, wx, wy) {
  const [x, y] = worldToCell(g, wx, wy - g.faceDy);
  return onBoard(g, x, y) ? [x, y] : null;
}

/** @param {Grid} g @param {number} x @param {number} y */
export function onBoard(g, x, y) {
  return x >= 0 && y >= 0 && x < g.width && y < g.height;
}

/**
 * Top-left and size of a tile image placed on (x, y) (§12 tile placement).
 * @param {Grid} g @param {number} x @param {number} y
 * @returns {[number, number, number, number]}
 */
export function tileRect(g, x, y) {
  const [wx, wy] = cellToWorld(g, x, y);
  return [wx - g.halfW, wy - g.tileH / 2, g.tileW, g.tileH];
}

/** Painter's depth of a cell (§12): larger is nearer the viewer. @param {number} x @param {number} y */
export function depth(x, y) {
  return x + y;
}

/**
 * World rectangle holding every tile of the board, plus `top` extra room above for sprites.
 * @param {Grid} g @param {number} [top]
 * @returns {{x: number, y: number, w: number, h: number}}
 */
export function boardBounds(g, top = 0) {
  const left = g.originX - (g.height - 1) * g.halfW - g.halfW;
  const right = g.originX + (g.width - 1) * g.halfW + g.halfW;
  const y0 = g.originY - g.tileH / 2 - top;
  const y1 = g.originY + (g.width + g.height - 2) * g.stepY + g.tileH / 2;
  return { x: left, y: y0, w: right - left, h: y1 - y0 };
}

/**
 * Board cells whose drawings may reach into the world rectangle, in painter's order
 * (depth ascending, then y ascending). `above`/`below` are how far a cell's drawings reach
 * above/below its cell point (tiles: tileH/2; units reach higher).
 * @param {Grid} g
 * @param {{x: number, y: number, w: number, h: number}} rect
 * @param {number} above
 * @param {number} below
 * @returns {Array<[number, number]>}
 */
export function cellsIn(g, rect, above, below) {
  const dMin = Math.max(0, Math.floor((rect.y - g.originY - below) / g.stepY));
  const dMax = Math.min(g.width + g.height - 2, Math.ceil((rect.y + rect.h - g.originY + above) / g.stepY));
  const vMin = Math.max(-(g.height - 1), Math.floor((rect.x - g.originX - g.halfW) / g.halfW));
  const vMax = Math.min(g.width - 1, Math.ceil((rect.x + rect.w - g.originX + g.halfW) / g.halfW));
  /** @type {Array<[number, number]>} */
  const out = [];
  for (let d = dMin; d <= dMax; d++) {
    // v = x − y has the parity of d; y ascending means v descending.
    let v = vMax;
    if ((((v - d) % 2) + 2) % 2 !== 0) v -= 1;
    for (; v >= vMin; v -= 2) {
      const x = (d + v) / 2;
      const y = (d - v) / 2;
      if (onBoard(g, x, y)) out.push([x, y]);
    }
  }
  return out;
}

/**
 * Spreadsheet column letters: 0 → A, 25 → Z, 26 → AA (rules §2.1).
 * @param {number} x
 */
export function columnLetters(x) {
  let n = x + 1;
  let letters = "";
  while (n > 0) {
    const rem = (n - 1) % 26;
    letters = String.fromCharCode(65 + rem) + letters;
    n = Math.floor((n - 1) / 26);
  }
  return letters;
}

/**
 * The quadrant a cell lies in (rules §2.1: west is x < W // 2, north is y < H // 2).
 * @param {number} x @param {number} y @param {number} width @param {number} height
 * @returns {string} NW, NE, SW or SE
 */
export function quadrantOf(x, y, width, height) {
  return `${y < Math.floor(height / 2) ? "N" : "S"}${x < Math.floor(width / 2) ? "W" : "E"}`;
}

/** Cell label of (x, y): `label(10, 15) === "K16"`. @param {number} x @param {number} y */
export function label(x, y) {
  return `${columnLetters(x)}${y + 1}`;
}

/**
 * Inverse of `label`, or null when the text is not a label.
 * @param {string} text
 * @returns {[number, number] | null}
 */
export function parseLabel(text) {
  const m = /^([A-Z]{1,3})([1-9][0-9]{0,3})$/.exec(text);
  if (!m) return null;
  let x = 0;
  for (const ch of m[1]) x = x * 26 + (ch.charCodeAt(0) - 64);
  return [x - 1, Number(m[2]) - 1];
}

/**
 * Square sprite rectangle of a unit on (x, y) (§12 unit placement): bottom centre at
 * (cell point + off_x, cell point + bottom_factor·TILE_H + off_y), side
 * width_factor·TILE_W·type_scale·(1 + tweak.scale).
 * @param {Grid} g @param {number} x @param {number} y
 * @param {{type_scale: number, tweak: {off_x: number, off_y: number, scale: number}}} type
 * @param {{width_factor: number, bottom_factor: number}} units
 * @returns {[number, number, number]} left, top, side
 */
export function unitRect(g, x, y, type, units) {
  const [wx, wy] = cellToWorld(g, x, y);
  const side = units.width_factor * g.tileW * type.type_scale * (1 + type.tweak.scale);
  const bottom = wy + units.bottom_factor * g.tileH + type.tweak.off_y;
  return [wx + type.tweak.off_x - side / 2, bottom - side, side];
}
