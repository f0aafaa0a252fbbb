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
  boardBounds, cellsIn, cellToWorld, columnLetters, faceCentre, makeGrid, onBoard, parseLabel, tileRect, unitRect,
} from "./iso.js";
import { drawOrder } from "./pick.js";
import { cellImages, parseBoard } from "./terrain.js";

/** @typedef {import("./iso.js").Grid} Grid */
/** @typedef {import("./assets.js").Assets} Assets */
/** @typedef {import("./anim.js").Animator} Animator */
/** @typedef {import("./types.js").View} View */
/** @typedef {import("./types.js").Model} Model */
/** @typedef {import("./controls.js").Controls} Controls */
/** @typedef {import("./types.js").Camera} Camera */

/**
 * @typedef {{camera: Camera, vw: number, vh: number, dpr: number, model: Model, ctl: Controls|null,
 *   anim: Animator, now: number, fullHp: Record<string, {hp: number}>}} Scene
 */

const CHUNK = 512;
const MAX_CHUNKS = 48; // 1 MB each
const CHUNK_BUDGET_MS = 10; // per frame, when a new zoom level is being prepared
const EDGE = 48; // world px around the board for the coordinate labels
const UNIT_RISE = 90; // how far a unit sprite reaches above its cell point
const MARKS = /** @type {Record<string, string>} */ ({
  move: "move_adv", attack: "attack", target: "target_confirm", selected: "selected", hover: "hover", picked: "selected",
});
const ARROWS = /** @type {Record<string, [string, number, number[]]>} */ ({
  queued: ["rgba(255,170,60,0.9)", 3, [9, 7]],
  pending: ["rgba(255,72,48,0.95)", 4.5, []],
  candidate: ["rgba(255,226,120,0.95)", 4, []],
  last: ["rgba(255,110,90,0.55)", 3, [4, 6]],
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
  }

  /** Take the board of a view; rebuilds the terrain only when the map changes. @param {View} view */
  setBoard(view) {
    const key = `${view.board.width}x${view.board.height}:${view.board.rows.join("")}`;
    if (key === this.boardKey) return;
    this.boardKey = key;
    const terrain = parseBoard(view.board);
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
    this.drawTraces(scene);
    this.drawUnits(scene, rect);
    this.drawArrows(scene);
    this.drawEffects(scene);
    this.frames += 1;
    return more;
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
    for (const name of this.tiles[y * grid.width + x]) c.drawImage(this.assets.image(name), l, t, w, h);
  }

  /** Column letters beyond the north-east edge, row numbers beyond the north-west edge. @param {CanvasRenderingContext2D} c @param {{x: number, y: number, w: number, h: number}} rect */
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

  /** Highlights per cell (§12 offsets 4–7), with taller cells in front redrawn over them. @param {Scene} scene @param {any} rect */
  drawMarks(scene, rect) {
    const grid = /** @type {Grid} */ (this.grid);
    const { ctx } = this;
    const marks = new Map(scene.ctl ? scene.ctl.cellMarks : []);
    const selected = scene.model.sel.unit ? scene.model.view?.units.find((u) => u.id === scene.model.sel.unit)?.cell : null;
    const origin = selected ? parseLabel(selected) : null;
    /** @type {Array<[number, number, string]>} */
    const list = [];
    for (const [cell, kind] of marks) {
      const xy = parseLabel(cell);
      if (xy) list.push([xy[0], xy[1], kind]);
    }
    const hover = scene.model.hover ? parseLabel(scene.model.hover) : null;
    if (hover) list.push([hover[0], hover[1], "hover"]);
    list.sort((a, b) => a[0] + a[1] - (b[0] + b[1]));
    for (const [x, y, kind] of list) {
      const [l, t, w, h] = tileRect(grid, x, y);
      if (l > rect.x + rect.w || l + w < rect.x || t > rect.y + rect.h || t + h < rect.y) continue;
      const name = this.assets.manifest.highlights[MARKS[kind] ?? "move"];
      ctx.globalAlpha = kind === "move" && origin
        ? scene.anim.sweepAlpha(Math.abs(x - origin[0]) + Math.abs(y - origin[1]), scene.now)
        : 0.95;
      ctx.drawImage(this.assets.image(name), l, t, w, h);
      ctx.globalAlpha = 1;
      this.redrawFront(x, y);
    }
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

  /** The last move as a dashed trail from where the unit stood. @param {Scene} scene */
  drawTraces(scene) {
    const move = scene.model.lastMove;
    if (!move) return;
    const a = this.face(move.from);
    const b = this.face(move.to);
    if (!a || !b) return;
    const { ctx } = this;
    ctx.save();
    ctx.strokeStyle = "rgba(255,255,255,0.85)";
    ctx.lineWidth = 3;
    ctx.setLineDash([8, 7]);
    ctx.lineCap = "round";
    ctx.beginPath();
    ctx.moveTo(a[0], a[1]);
    ctx.lineTo(b[0], b[1]);
    ctx.stroke();
    ctx.setLineDash([]);
    ctx.fillStyle = "rgba(255,255,255,0.25)";
    ctx.beginPath();
    ctx.ellipse(a[0], a[1], 22, 11, 0, 0, Math.PI * 2);
    ctx.fill();
    ctx.stroke();
    ctx.restore();
  }

  /** @param {string} cell @returns {[number, number]|null} */
  face(cell) {
    const xy = parseLabel(cell);
    return xy && this.grid ? faceCentre(this.grid, xy[0], xy[1]) : null;
  }

  /** Units in painter's order, with their glow, damaged badge and id tag. @param {Scene} scene @param {any} rect */
  drawUnits(scene, rect) {
    const grid = /** @type {Grid} */ (this.grid);
    const view = /** @type {View} */ (scene.model.view);
    const { ctx, assets } = this;
    const { types } = assets.manifest.units;
    const marks = scene.ctl ? scene.ctl.unitMarks : new Map();
    const showTags = scene.camera.zoom >= 0.42;
    for (const { unit, x, y } of drawOrder(view.units)) {
      const type = types[unit.type];
      if (!type) continue;
      let [left, top, side] = unitRect(grid, x, y, type, assets.manifest.units);
      if (left > rect.x + rect.w || left + side < rect.x || top > rect.y + rect.h || top + side < rect.y - UNIT_RISE) continue;
      const glide = scene.anim.moveOf(unit.id, scene.now);
      let [gx, gy] = faceCentre(grid, x, y);
      if (glide) {
        const a = this.face(glide.from);
        if (a) {
          const dx = (a[0] - gx) * (1 - glide.t);
          const dy = (a[1] - gy) * (1 - glide.t) - Math.sin(glide.t * Math.PI) * 14;
          left += dx; top += dy; gx += dx; gy += dy;
        }
      }
      const mark = marks.get(unit.id);
      if (mark) this.glow(gx, gy, mark, unit.side);
      ctx.globalAlpha = scene.anim.appearOf(unit.id, scene.now);
      ctx.drawImage(assets.image(type.images[unit.side]), left, top, side, side);
      const full = scene.fullHp[unit.type]?.hp ?? unit.hp;
      if (unit.hp > 0 && unit.hp < full) this.badge(type.images[unit.side], left, top, side);
      ctx.globalAlpha = 1;
      if (showTags) this.tag(unit.id, gx, gy, unit.side, mark === "attack", scene.camera.zoom);
    }
  }

  /** @param {number} gx @param {number} gy @param {string} mark @param {string} side */
  glow(gx, gy, mark, side) {
    const { ctx } = this;
    const color = mark === "attack" ? "255,64,40" : mark === "target" || mark === "picked" ? "255,214,90"
      : side === "ATTACKER" ? "255,190,150" : "160,200,255";
    const strength = mark === "source" ? 0.45 : 0.9;
    const g = ctx.createRadialGradient(gx, gy, 4, gx, gy, 40);
    g.addColorStop(0, `rgba(${color},${strength})`);
    g.addColorStop(1, `rgba(${color},0)`);
    ctx.fillStyle = g;
    ctx.beginPath();
    ctx.ellipse(gx, gy, 40, 21, 0, 0, Math.PI * 2);
    ctx.fill();
    if (mark !== "source") {
      ctx.strokeStyle = `rgba(${color},0.95)`;
      ctx.lineWidth = 2.5;
      ctx.beginPath();
      ctx.ellipse(gx, gy, 30, 15, 0, 0, Math.PI * 2);
      ctx.stroke();
    }
  }

  /** @param {string} sprite @param {number} left @param {number} top @param {number} side */
  badge(sprite, left, top, side) {
    const entry = this.assets.manifest.images[sprite];
    const badgeName = this.assets.manifest.badges.damaged;
    const badge = this.assets.manifest.images[badgeName];
    const k = side / entry.size[0];
    const [bx, by] = entry.badge ?? [entry.size[0] * 0.7, entry.size[1] * 0.15];
    const bw = badge.size[0] * k;
    this.ctx.drawImage(this.assets.image(badgeName), left + bx * k - bw / 2, top + by * k - bw / 2, bw, bw);
  }

  /**
   * The unit's id on a small tag by its feet, about 11 CSS px tall whatever the zoom.
   * @param {string} id @param {number} gx @param {number} gy @param {string} side @param {boolean} hot @param {number} zoom
   */
  tag(id, gx, gy, side, hot, zoom) {
    const { ctx } = this;
    const size = Math.max(5, Math.min(20, 11 / zoom));
    const k = size / 11;
    ctx.font = `700 ${size}px system-ui, sans-serif`;
    const w = ctx.measureText(id).width + 8 * k;
    const x = gx + 15 + 4 * k;
    const y = gy + 4 + 5 * k;
    ctx.fillStyle = hot ? "rgba(150,24,16,0.92)" : side === "ATTACKER" ? "rgba(92,30,18,0.88)" : "rgba(18,36,84,0.88)";
    ctx.beginPath();
    ctx.roundRect(x, y, w, 14 * k, 4 * k);
    ctx.fill();
    ctx.fillStyle = "#fff";
    ctx.textAlign = "left";
    ctx.textBaseline = "middle";
    ctx.fillText(id, x + 4 * k, y + 7.5 * k);
  }

  /** Declared, pending, candidate and last attacks as arcs with arrowheads. @param {Scene} scene */
  drawArrows(scene) {
    const { model, ctl } = scene;
    const view = /** @type {View} */ (model.view);
    /** @type {Array<[string, string, string, string]>} */
    const arrows = view.attack_queue.map((a) => [a.attacker, a.target, "queued", ""]);
    if (view.pending_attack) arrows.push([view.pending_attack.attacker, view.pending_attack.target, "pending", ""]);
    else if (model.lastAttack && model.lastAttack.outcome) {
      arrows.push([model.lastAttack.unit, model.lastAttack.target, "last", model.lastAttack.outcome]);
    }
    const hovered = model.hover ? view.units.find((u) => u.cell === model.hover) : null;
    if (ctl?.arrowFrom && hovered && ctl.unitMarks.get(hovered.id) === "attack") arrows.push([ctl.arrowFrom, hovered.id, "candidate", ""]);
    const where = new Map(view.units.filter((u) => u.cell).map((u) => [u.id, /** @type {string} */ (u.cell)]));
    for (const [from, to, kind, text] of arrows) {
      const a = where.get(from) ? this.face(/** @type {string} */ (where.get(from))) : null;
      const b = where.get(to) ? this.face(/** @type {string} */ (where.get(to))) : null;
      if (a && b) this.arrow(a[0], a[1] - 26, b[0], b[1] - 26, kind, text);
    }
  }

  /** @param {number} x0 @param {number} y0 @param {number} x1 @param {number} y1 @param {string} kind @param {string} text */
  arrow(x0, y0, x1, y1, kind, text) {
    const { ctx } = this;
    const [color, width, dash] = ARROWS[kind];
    const dist = Math.hypot(x1 - x0, y1 - y0);
    const mx = (x0 + x1) / 2;
    const my = (y0 + y1) / 2 - Math.max(24, dist * 0.3);
    const angle = Math.atan2(y1 - my, x1 - mx);
    const ex = x1 - Math.cos(angle) * 10;
    const ey = y1 - Math.sin(angle) * 10;
    ctx.save();
    ctx.lineCap = "round";
    ctx.strokeStyle = "rgba(0,0,0,0.45)";
    ctx.lineWidth = width + 3;
    ctx.setLineDash(dash);
    ctx.beginPath();
    ctx.moveTo(x0, y0);
    ctx.quadraticCurveTo(mx, my, ex, ey);
    ctx.stroke();
    ctx.strokeStyle = color;
    ctx.lineWidth = width;
    ctx.stroke();
    ctx.setLineDash([]);
    ctx.fillStyle = color;
    ctx.beginPath();
    ctx.moveTo(x1, y1);
    ctx.lineTo(x1 - Math.cos(angle - 0.45) * 18, y1 - Math.sin(angle - 0.45) * 18);
    ctx.lineTo(x1 - Math.cos(angle + 0.45) * 18, y1 - Math.sin(angle + 0.45) * 18);
    ctx.closePath();
    ctx.fill();
    if (text) this.word(text, x1, y1 - 52, text === "HIT" ? "#ff8a70" : "#e2e6ee", 0.9);
    ctx.restore();
  }

  /** @param {string} text @param {number} x @param {number} y @param {string} color @param {number} alpha */
  word(text, x, y, color, alpha) {
    const { ctx } = this;
    ctx.globalAlpha = alpha;
    ctx.font = "800 17px system-ui, sans-serif";
    ctx.textAlign = "center";
    ctx.textBaseline = "middle";
    ctx.lineWidth = 4;
    ctx.strokeStyle = "rgba(0,0,0,0.7)";
    ctx.strokeText(text, x, y);
    ctx.fillStyle = color;
    ctx.fillText(text, x, y);
    ctx.globalAlpha = 1;
  }

  /** Hit flashes, floating words and fading destroyed units. @param {Scene} scene */
  drawEffects(scene) {
    const grid = /** @type {Grid} */ (this.grid);
    const { ctx, assets } = this;
    for (const { a, t } of scene.anim.running(scene.now)) {
      if (a.kind === "flash") {
        const c = this.face(a.cell);
        if (!c) continue;
        ctx.fillStyle = `rgba(${a.color},${0.65 * (1 - t)})`;
        ctx.beginPath();
        ctx.ellipse(c[0], c[1], grid.halfW * (0.6 + t * 0.5), grid.halfW * (0.3 + t * 0.25), 0, 0, Math.PI * 2);
        ctx.fill();
      } else if (a.kind === "float") {
        const c = this.face(a.cell);
        if (c) this.word(a.text, c[0], c[1] - 70 - t * 30, a.color, Math.min(1, 2 * (1 - t)));
      } else if (a.kind === "ghost" && a.unit.cell) {
        const xy = parseLabel(a.unit.cell);
        const type = assets.manifest.units.types[a.unit.type];
        if (!xy || !type) continue;
        const [left, top, side] = unitRect(grid, xy[0], xy[1], type, assets.manifest.units);
        ctx.globalAlpha = 1 - t;
        ctx.drawImage(assets.image(type.images[a.unit.side]), left, top + t * 12, side, side);
        ctx.globalAlpha = 1;
      }
    }
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

