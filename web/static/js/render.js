// @ts-check
/**
 * The one module that draws on the board canvas (rules §12 painter's order).
 *
 * Terrain (base tiles, rivers, roads, bridges, edge coordinates) is static for a match, so it
 * is drawn once per zoom level into 512-px offscreen chunks that are only re-blitted while
 * panning; a zoom level is a power of 2^(1/3) of the device scale, so a wheel step rarely
 * rebuilds anything. Per frame, only the visible cells are visited for highlights, traces,
 * units, arrows and animations. Redraws are coalesced into one animation frame by `Painter`.
 */

import { visibleRect } from "./camera.js";
import {
  boardBounds, cellsIn, cellToWorld, columnLetters, faceCentre, makeGrid, onBoard, parseLabel, tileRect,
} from "./iso.js";
import { targetQuadrant } from "./controls.js";
import { drawPath, drawRange } from "./paths.js";
import { drawQuadrants } from "./quadrants.js";
import { drawArrows, drawEffects, drawTraces, drawUnits } from "./pieces.js";
import { drawThreats } from "./threats.js";
import { cellImages, parseBoard } from "./terrain.js";

/** @typedef {import("./iso.js").Grid} Grid */
/** @typedef {import("./assets.js").Assets} Assets */
/** @typedef {import("./anim.js").Animator} Animator */
/** @typedef {import("./types.js").View} View */
/** @typedef {import("./types.js").Model} Model */
/** @typedef {import("./controls.js").Controls} Controls */
/** @typedef {import("./types.js").Camera} Camera */
/** @typedef {import("./camera.js").Rect} Rect */

/**
 * @typedef {{camera: Camera, vw: number, vh: number, dpr: number, model: Model, ctl: Controls|null,
 *   anim: Animator, now: number, fullHp: Record<string, {hp: number}>, insight?: import("./insight.js").Insight|null,
 *   pointed?: string|null}} Scene
 *   `pointed`: the choice under the pointer on the panel's buttons ("NW": that quarter is tinted)
 */

const CHUNK = 512;
const MAX_CHUNKS = 48; // 1 MB each
const CHUNK_BUDGET_MS = 10; // per frame, when a new zoom level is being prepared
const EDGE = 48; // world px around the board for the coordinate labels
const MARKS = /** @type {Record<string, string>} */ ({
  move: "move_adv", attack: "attack", target: "target_confirm", selected: "selected", hover: "hover", picked: "selected",
  armed: "selected",
});

export class Renderer {
  /** @param {HTMLCanvasElement} canvas @param {Assets} assets */
  constructor(canvas, assets) {
    this.canvas = canvas;
    this.ctx = /** @type {CanvasRenderingContext2D} */ (canvas.getContext("2d"));
    this.assets = assets;
    /** @type {Grid|null} */
    this.grid = null;
    /** @type {string[][]} tile images per cell (index y·W + x) */
    this.tiles = [];
    this.boardKey = "";
    /** @type {import("./terrain.js").Terrain|null} */
    this.terrain = null;
    /** @type {Map<string, HTMLCanvasElement>} terrain chunks of the zoom level on screen */
    this.chunks = new Map();
    this.level = 0;
    /** @type {Map<string, HTMLCanvasElement>} chunks of the zoom level being prepared */
    this.next = new Map();
    this.nextLevel = 0;
    this.bounds = { x: 0, y: 0, w: 1, h: 1 };
    this.frames = 0;
    /** called when sharper art arrived and the board should be drawn again */
    this.onSharper = () => {};
    this.sharpening = false;
    /** @type {Array<{id: string, x: number, y: number, w: number, h: number, compact: boolean}>} the unit tags of the last frame */
    this.tagBoxes = [];
  }

  /**
   * Take the board of a view; rebuilds the terrain only when the map (or its legend) changes.
   * @param {View} view @param {import("./types.js").LegendEntry[]} legend
   */
  setBoard(view, legend) {
    const key = `${view.board.width}x${view.board.height}:${view.board.rows.join("")}:${legend.length}`;
    if (key === this.boardKey) return;
    this.boardKey = key;
    const terrain = parseBoard(view.board, legend);
    this.terrain = terrain;
    const { manifest } = this.assets;
    this.grid = makeGrid(view.board.width, view.board.height, manifest.tile);
    this.tiles = terrain.cells.map((cell) => cellImages(cell, manifest));
    const b = boardBounds(this.grid);
    this.bounds = { x: b.x - EDGE, y: b.y - EDGE, w: b.w + 2 * EDGE, h: b.h + 2 * EDGE };
    this.chunks = new Map();
    this.next = new Map();
    this.level = 0;
    this.nextLevel = 0;
  }

  /**
   * Paint one frame; true when another frame is needed (a zoom level still being prepared).
   * @param {Scene} scene
   * @returns {boolean}
   */
  draw(scene) {
    const { ctx, canvas } = this;
    ctx.setTransform(1, 0, 0, 1, 0, 0);
    ctx.clearRect(0, 0, canvas.width, canvas.height);
    const grid = this.grid;
    const view = scene.model.view;
    if (!grid || !view) return false;
    const { camera: cam, vw, vh, dpr } = scene;
    const scale = cam.zoom * dpr;
    const want = 2 ** (Math.ceil(Math.log2(scale) * 3 - 1e-9) / 3);
    if (want * this.assets.manifest.image_scale > this.assets.detail) this.sharpen();
    let more = false;
    if (want !== this.level) {
      // Build the new zoom level's visible chunks a few at a time; until they are all
      // there, keep showing the old level, scaled (one frame's budget each time).
      if (this.nextLevel !== want) {
        this.nextLevel = want;
        this.next = new Map();
      }
      if (!this.chunks.size || this.prepare(scene, want, performance.now() + CHUNK_BUDGET_MS)) {
        this.level = want;
        this.chunks = this.next;
        this.next = new Map();
        this.nextLevel = 0;
      } else {
        more = true;
      }
    }
    ctx.imageSmoothingEnabled = true;
    ctx.imageSmoothingQuality = "high";
    this.drawChunks(scene, this.level);
    ctx.setTransform(scale, 0, 0, scale, (vw / 2 - cam.cx * cam.zoom) * dpr, (vh / 2 - cam.cy * cam.zoom) * dpr);
    const rect = visibleRect(cam, vw, vh);
    this.drawMarks(scene, rect);
    const target = scene.ctl?.choices.length ? targetQuadrant(scene.model) : null;
    drawQuadrants(this, scene, scene.pointed ?? null, target?.quadrant ?? null, false);
    const threats = scene.insight?.showThreats ? scene.insight.threats() : null;
    if (threats) drawThreats(this, scene, threats);
    drawTraces(this, scene);
    drawUnits(this, scene, rect);
    drawQuadrants(this, scene, scene.pointed ?? null, target?.quadrant ?? null, true);
    this.drawHoverPath(scene);
    const fading = drawArrows(this, scene);
    drawEffects(this, scene);
    this.frames += 1;
    return more || fading;
  }

  /**
   * The tiles are drawn larger than the atlas in use holds them (zoomed in deep): load the whole
   * atlas, then draw the terrain again from it (the old chunks keep showing until then).
   */
  sharpen() {
    if (this.sharpening) return;
    this.sharpening = true;
    this.assets.sharpen().then((changed) => {
      if (!changed) return;
      this.chunks = new Map();
      this.next = new Map();
      this.level = 0;
      this.onSharper();
    });
  }

  /**
   * Chunk indices of the board that the viewport shows at `level`.
   * @param {Scene} scene @param {number} level
   * @returns {Array<[number, number]>}
   */
  visibleChunks(scene, level) {
    const size = CHUNK / level;
    const b = this.bounds;
    const rect = visibleRect(scene.camera, scene.vw, scene.vh);
    const i0 = Math.max(0, Math.floor((rect.x - b.x) / size));
    const i1 = Math.min(Math.ceil(b.w / size) - 1, Math.floor((rect.x + rect.w - b.x) / size));
    const j0 = Math.max(0, Math.floor((rect.y - b.y) / size));
    const j1 = Math.min(Math.ceil(b.h / size) - 1, Math.floor((rect.y + rect.h - b.y) / size));
    /** @type {Array<[number, number]>} */
    const out = [];
    for (let j = j0; j <= j1; j++) for (let i = i0; i <= i1; i++) out.push([i, j]);
    return out;
  }

  /**
   * Build missing visible chunks of `level` into the next cache until `deadline`; true when all are there.
   * @param {Scene} scene @param {number} level @param {number} deadline
   */
  prepare(scene, level, deadline) {
    for (const [i, j] of this.visibleChunks(scene, level)) {
      if (this.next.has(`${i},${j}`)) continue;
      if (performance.now() > deadline) return false;
      this.chunk(i, j, level, this.next);
    }
    return true;
  }

  /** The terrain chunks in view, each stretched so neighbours share their edges exactly. @param {Scene} scene @param {number} level */
  drawChunks(scene, level) {
    const { camera: cam, vw, vh, dpr } = scene;
    const size = CHUNK / level;
    const b = this.bounds;
    const px = (/** @type {number} */ wx) => Math.round(((wx - cam.cx) * cam.zoom + vw / 2) * dpr);
    const py = (/** @type {number} */ wy) => Math.round(((wy - cam.cy) * cam.zoom + vh / 2) * dpr);
    for (const [i, j] of this.visibleChunks(scene, level)) {
      const chunk = this.chunk(i, j, level, this.chunks);
      const x0 = px(b.x + i * size);
      const y0 = py(b.y + j * size);
      this.ctx.drawImage(chunk, x0, y0, px(b.x + (i + 1) * size) - x0, py(b.y + (j + 1) * size) - y0);
    }
  }

  /**
   * The chunk (i, j) of `level` from `cache`, drawn now if missing (least recently used go first).
   * @param {number} i @param {number} j @param {number} level @param {Map<string, HTMLCanvasElement>} cache
   */
  chunk(i, j, level, cache) {
    const key = `${i},${j}`;
    const cached = cache.get(key);
    if (cached) {
      cache.delete(key);
      cache.set(key, cached);
      return cached;
    }
    if (cache.size >= MAX_CHUNKS) cache.delete(/** @type {string} */ (cache.keys().next().value));
    const grid = /** @type {Grid} */ (this.grid);
    const size = CHUNK / level;
    const x0 = this.bounds.x + i * size;
    const y0 = this.bounds.y + j * size;
    const canvas = document.createElement("canvas");
    canvas.width = CHUNK;
    canvas.height = CHUNK;
    const c = /** @type {CanvasRenderingContext2D} */ (canvas.getContext("2d"));
    c.imageSmoothingQuality = "high";
    c.setTransform(level, 0, 0, level, -x0 * level, -y0 * level);
    for (const [x, y] of cellsIn(grid, { x: x0, y: y0, w: size, h: size }, grid.tileH, grid.tileH)) {
      this.drawCell(c, x, y);
    }
    this.drawEdgeLabels(c, { x: x0, y: y0, w: size, h: size });
    cache.set(key, canvas);
    return canvas;
  }

  /** Base tile and overlays of one cell. @param {CanvasRenderingContext2D} c @param {number} x @param {number} y */
  drawCell(c, x, y) {
    const grid = /** @type {Grid} */ (this.grid);
    const [l, t, w, h] = tileRect(grid, x, y);
    for (const name of this.tiles[y * grid.width + x]) this.assets.draw(c, name, l, t, w, h);
  }

  /** Column letters beyond the north-east edge, row numbers beyond the north-west edge. @param {CanvasRenderingContext2D} c @param {Rect} rect */
  drawEdgeLabels(c, rect) {
    const grid = /** @type {Grid} */ (this.grid);
    c.font = "600 15px system-ui, sans-serif";
    c.fillStyle = "rgba(214,222,235,0.75)";
    c.textAlign = "center";
    c.textBaseline = "middle";
    const put = (/** @type {string} */ text, /** @type {number} */ wx, /** @type {number} */ wy) => {
      if (wx > rect.x - 40 && wx < rect.x + rect.w + 40 && wy > rect.y - 40 && wy < rect.y + rect.h + 40) c.fillText(text, wx, wy);
    };
    for (let x = 0; x < grid.width; x++) {
      const [wx, wy] = faceCentre(grid, x, -1);
      put(columnLetters(x), wx + 10, wy + 12);
    }
    for (let y = 0; y < grid.height; y++) {
      const [wx, wy] = faceCentre(grid, -1, y);
      put(String(y + 1), wx - 10, wy + 12);
    }
  }

  /** Highlights per cell (§12 offsets 4–7), with taller cells in front redrawn over them. @param {Scene} scene @param {Rect} rect */
  drawMarks(scene, rect) {
    const grid = /** @type {Grid} */ (this.grid);
    const { ctx } = this;
    const marks = new Map(scene.ctl ? scene.ctl.cellMarks : []);
    const selected = scene.model.sel.unit ? scene.model.view?.units.find((u) => u.id === scene.model.sel.unit)?.cell : null;
    const origin = selected ? parseLabel(selected) : null;
    /** @type {Array<[number, number, string]>} */
    const list = [];
    /** @type {string[]} */
    const range = [];
    for (const [cell, kind] of marks) {
      const xy = parseLabel(cell);
      if (kind === "move") range.push(cell);
      else if (xy) list.push([xy[0], xy[1], kind]);
    }
    if (range.length) {
      // The move range is one bright region with an outline (js/paths.js), readable on every terrain.
      if (selected) range.push(selected);
      const sweep = (/** @type {number} */ x, /** @type {number} */ y) =>
        origin ? scene.anim.sweepAlpha(Math.abs(x - origin[0]) + Math.abs(y - origin[1]), scene.now) : 0.95;
      drawRange(this, scene, range, sweep, (x, y) => this.redrawFront(x, y));
    }
    const hover = scene.model.hover ? parseLabel(scene.model.hover) : null;
    if (hover) list.push([hover[0], hover[1], "hover"]);
    const armed = scene.ctl?.armed ? parseLabel(scene.ctl.armed.hit.cell) : null; // a previewed choice: framed in gold
    if (armed) list.push([armed[0], armed[1], "armed"]);
    list.sort((a, b) => a[0] + a[1] - (b[0] + b[1]));
    for (const [x, y, kind] of list) {
      const [l, t, w, h] = tileRect(grid, x, y);
      if (l > rect.x + rect.w || l + w < rect.x || t > rect.y + rect.h || t + h < rect.y) continue;
      const name = this.assets.manifest.highlights[MARKS[kind] ?? "move"];
      ctx.globalAlpha = kind === "move" && origin
        ? scene.anim.sweepAlpha(Math.abs(x - origin[0]) + Math.abs(y - origin[1]), scene.now)
        : 0.95;
      this.assets.draw(ctx, name, l, t, w, h);
      ctx.globalAlpha = 1;
      this.redrawFront(x, y);
    }
  }

  /** The engine's cheapest path to the reachable cell under the pointer, with its cost. @param {Scene} scene */
  drawHoverPath(scene) {
    const { model, ctl, insight } = scene;
    const unit = model.sel.unit;
    if (!unit || !model.hover || !insight || ctl?.cellMarks.get(model.hover) !== "move") return;
    const preview = insight.moves(unit);
    if (preview) drawPath(this, scene, preview, model.hover);
  }

  /** Redraw the tall cells just in front of (x, y), clipped to its face, so trees stay in front. @param {number} x @param {number} y */
  redrawFront(x, y) {
    const grid = /** @type {Grid} */ (this.grid);
    const front = [[x + 1, y], [x, y + 1]]
      .filter(([fx, fy]) => onBoard(grid, fx, fy) && this.assets.tall(this.tiles[fy * grid.width + fx][0]));
    if (!front.length) return;
    const { ctx } = this;
    const [cx, cy] = faceCentre(grid, x, y);
    ctx.save();
    ctx.beginPath();
    ctx.moveTo(cx, cy - grid.halfW / 2);
    ctx.lineTo(cx + grid.halfW, cy);
    ctx.lineTo(cx, cy + grid.halfW / 2);
    ctx.lineTo(cx - grid.halfW, cy);
    ctx.closePath();
    ctx.clip();
    for (const [fx, fy] of front) this.drawCell(ctx, fx, fy);
    ctx.restore();
  }

  /** @param {string} cell @returns {[number, number]|null} */
  face(cell) {
    const xy = parseLabel(cell);
    return xy && this.grid ? faceCentre(this.grid, xy[0], xy[1]) : null;
  }

  /** World point of a cell's face centre, for hooks and the camera. @param {string} cell */
  cellPoint(cell) {
    return this.face(cell);
  }

  /** The world point of a cell point (no face shift). @param {number} x @param {number} y */
  cellWorld(x, y) {
    return this.grid ? cellToWorld(this.grid, x, y) : null;
  }
}

/**
 * Coalesce redraw requests into one animation frame, and keep drawing while animations run.
 */
export class Painter {
  /** @param {() => boolean} paint draws one frame; returns true to ask for another */
  constructor(paint) {
    this.paint = paint;
    this.pending = false;
    this.stopped = false;
  }

  request() {
    if (this.pending || this.stopped) return;
    this.pending = true;
    requestAnimationFrame(() => {
      this.pending = false;
      if (this.stopped) return;
      if (this.paint()) this.request();
    });
  }

  stop() {
    this.stopped = true;
  }
}

