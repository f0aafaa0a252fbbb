// @ts-check
/**
 * The board as the renderer needs it: base terrain, road/river/bridge per cell and the
 * overlay masks (connections to orthogonal neighbours in the same set, N=1 E=2 S=4 W=8,
 * docs/tiles.md). This reads the board's ASCII rows with the legend the server sends beside
 * them (what each map character is); it is drawing data, not rules. Pure: no DOM.
 */

/** @typedef {import("./types.js").Board} Board */
/** @typedef {import("./types.js").LegendEntry} LegendEntry */

/** Mask letters in N, E, S, W order with their bit and grid step. */
const SIDES = /** @type {Array<[string, number, number, number]>} */ ([
  ["N", 1, 0, -1],
  ["E", 2, 1, 0],
  ["S", 4, 0, 1],
  ["W", 8, -1, 0],
]);

/**
 * @typedef {{terrain: string, road: boolean, river: boolean, bridge: boolean, roadMask: number, riverMask: number}} CellInfo
 * @typedef {{width: number, height: number, cells: CellInfo[], at: (x: number, y: number) => CellInfo}} Terrain
 */

/**
 * Parse a board into per-cell drawing facts (index y·width + x). A character the legend
 * does not list reads as UNKNOWN terrain (drawn with the manifest's fallback tile).
 * @param {Board} board
 * @param {LegendEntry[]} legend what each map character is (the state message's `legend`)
 * @returns {Terrain}
 */
export function parseBoard(board, legend) {
  const { width, height, rows } = board;
  const byChar = new Map(legend.map((entry) => [entry.char, entry]));
  /** @type {CellInfo[]} */
  const cells = [];
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const { terrain, road, river } = byChar.get(rows[y][x]) ?? { terrain: "UNKNOWN", road: false, river: false };
      cells.push({ terrain, road, river, bridge: road && river, roadMask: 0, riverMask: 0 });
    }
  }
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const cell = cells[y * width + x];
      for (const [, bit, dx, dy] of SIDES) {
        const nx = x + dx;
        const ny = y + dy;
        if (nx < 0 || ny < 0 || nx >= width || ny >= height) continue;
        const other = cells[ny * width + nx];
        if (cell.road && other.road) cell.roadMask |= bit;
        if (cell.river && other.river) cell.riverMask |= bit;
      }
    }
  }
  return { width, height, cells, at: (x, y) => cells[y * width + x] };
}

/**
 * Letters of a mask value in N, E, S, W order: 5 → "NS", 0 → "".
 * @param {number} mask
 */
export function maskName(mask) {
  return SIDES.filter(([, bit]) => mask & bit).map(([letter]) => letter).join("");
}

/**
 * The image names for one cell, in draw order (base, river, road, bridge), from the manifest.
 * A lone road or river cell (mask 0) has no piece to draw.
 * @param {CellInfo} cell
 * @param {{terrain: Record<string, string>, connectors: Record<string, string>}} manifest
 * @returns {string[]}
 */
export function cellImages(cell, manifest) {
  const names = [manifest.terrain[cell.terrain] ?? manifest.terrain.fallback];
  if (cell.river && cell.riverMask) names.push(`river_${maskName(cell.riverMask)}`);
  if (cell.road && cell.roadMask) names.push(`road_${maskName(cell.roadMask)}`);
  if (cell.bridge) names.push(manifest.connectors.bridge);
  return names;
}

/** Words for a terrain type, for the hover panel. @param {string} terrain */
export function terrainName(terrain) {
  return terrain.charAt(0) + terrain.slice(1).toLowerCase();
}

/**
 * A short description of a cell for people: "Forest", "Plain · road", "Plain · river · bridge".
 * @param {CellInfo} cell
 */
export function describeCell(cell) {
  const parts = [terrainName(cell.terrain)];
  if (cell.bridge) parts.push("bridge over a river");
  else if (cell.road) parts.push("road");
  else if (cell.river) parts.push("river");
  return parts.join(" · ");
}
