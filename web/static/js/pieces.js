// @ts-check
/**
 * The pieces drawn over the terrain each frame (rules §12: units after all tiles, by depth):
 * the last-move trail, units with their glow, id tag, status (js/status.js) and damaged badge, attack arrows, hit
 * flashes, floating words and fading destroyed units. Canvas only; called by js/render.js.
 */

import { faceCentre, parseLabel, unitRect } from "./iso.js";
import { drawOrder } from "./pick.js";
import { drawStatus, unitStatus } from "./status.js";
import { layoutTags } from "./tags.js";

/** @typedef {import("./render.js").Renderer} Renderer */
/** @typedef {import("./render.js").Scene} Scene */
/** @typedef {import("./iso.js").Grid} Grid */
/** @typedef {import("./types.js").View} View */
/** @typedef {import("./camera.js").Rect} Rect */

const UNIT_RISE = 90; // how far a unit sprite reaches above its cell point
const ARROWS = /** @type {Record<string, [string, number, number[]]>} */ ({
  queued: ["rgba(255,170,60,0.9)", 3, [9, 7]],
  pending: ["rgba(255,72,48,0.95)", 4.5, []],
  candidate: ["rgba(255,226,120,0.95)", 4, []],
  last: ["rgba(255,110,90,0.55)", 3, [4, 6]],
});

/** The last move as a dashed trail from where the unit stood. @param {Renderer} r @param {Scene} scene */
export function drawTraces(r, scene) {
  const move = scene.model.lastMove;
  if (!move) return;
  const a = r.face(move.from);
  const b = r.face(move.to);
  if (!a || !b) return;
  const { ctx } = r;
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

/**
 * Units in painter's order, with their glow and damaged badge; then every id tag on top,
 * so a unit standing in front never hides its neighbour's tag.
 * @param {Renderer} r @param {Scene} scene @param {Rect} rect the visible world rectangle
 */
export function drawUnits(r, scene, rect) {
  const grid = /** @type {Grid} */ (r.grid);
  const view = /** @type {View} */ (scene.model.view);
  const { ctx, assets } = r;
  const { types } = assets.manifest.units;
  const marks = scene.ctl ? scene.ctl.unitMarks : new Map();
  const showTags = scene.camera.zoom >= 0.42;
  /** @type {[string, number, number, string, string|undefined, import("./status.js").Status][]} */
  const tags = [];
  /** @type {import("./tags.js").Box[]} */
  const bodies = [];
  for (const { unit, x, y } of drawOrder(view.units)) {
    const type = types[unit.type];
    if (!type) continue;
    let [left, top, side] = unitRect(grid, x, y, type, assets.manifest.units);
    if (left > rect.x + rect.w || left + side < rect.x || top > rect.y + rect.h || top + side < rect.y - UNIT_RISE) continue;
    const glide = scene.anim.moveOf(unit.id, scene.now);
    let [gx, gy] = faceCentre(grid, x, y);
    if (glide) {
      const a = r.face(glide.from);
      if (a) {
        const dx = (a[0] - gx) * (1 - glide.t);
        const dy = (a[1] - gy) * (1 - glide.t) - Math.sin(glide.t * Math.PI) * 14;
        left += dx; top += dy; gx += dx; gy += dy;
      }
    }
    const mark = marks.get(unit.id);
    if (mark) glow(r, gx, gy, mark, unit.side);
    ctx.globalAlpha = scene.anim.appearOf(unit.id, scene.now);
    assets.draw(ctx, type.images[unit.side], left, top, side, side);
    const full = scene.fullHp[unit.type]?.hp ?? unit.hp;
    if (unit.hp > 0 && unit.hp < full) badge(r, type.images[unit.side], left, top, side);
    ctx.globalAlpha = 1;
    if (showTags) {
      bodies.push({ x: left + side * 0.3, y: top + side * 0.2, w: side * 0.4, h: side * 0.45 });
      tags.push([unit.id, gx, gy, unit.side, mark, unitStatus(unit, view, scene.fullHp)]);
    }
  }
  if (tags.length) drawTags(r, scene, tags, bodies);
  else r.tagBoxes = [];
}

/**
 * Every unit's tag, laid out so none overlaps another (js/tags.js): the selected unit and the
 * units it may attack first. About 11 CSS px tall whatever the zoom.
 * @param {Renderer} r @param {Scene} scene
 * @param {[string, number, number, string, string|undefined, import("./status.js").Status][]} tags
 * @param {import("./tags.js").Box[]} bodies each unit's body (the upper part of its sprite), in the same order
 */
function drawTags(r, scene, tags, bodies) {
  const { ctx } = r;
  const zoom = scene.camera.zoom;
  const size = Math.max(5, Math.min(20, 11 / zoom));
  const k = size / 11;
  const h = 14 * k;
  const selected = scene.model.sel.unit;
  const armed = scene.model.sel.armed?.unit;
  ctx.font = `700 ${size}px system-ui, sans-serif`;
  const specs = tags.map(([id, gx, gy, , mark, status], i) => {
    ctx.font = `700 ${size}px system-ui, sans-serif`;
    const idW = ctx.measureText(id).width + 8 * k;
    const rank = id === selected ? 0 : id === armed ? 1 : mark === "attack" || mark === "target" ? 2 : 3;
    return { id, gx, gy, h, rank, i, idW, body: bodies[i],
      w: idW + drawStatus(ctx, status, 0, 0, h, k, { measure: true }),
      compactW: idW + drawStatus(ctx, status, 0, 0, h, k, { measure: true, compact: true }) };
  });
  const placed = layoutTags(specs, 1 / zoom);
  const cam = scene.camera;
  // Where the tags went, in CSS px of the canvas (window.taktik.tags(), for tests).
  r.tagBoxes = placed.map((p) => ({ id: p.spec.id, x: (p.box.x - cam.cx) * zoom + scene.vw / 2,
    y: (p.box.y - cam.cy) * zoom + scene.vh / 2, w: p.box.w * zoom, h: p.box.h * zoom, compact: p.compact }));
  for (const p of placed) {
    const [id, , , side, mark, status] = tags[/** @type {typeof specs[0]} */ (p.spec).i];
    const idW = /** @type {typeof specs[0]} */ (p.spec).idW;
    if (p.leader) leader(r, p.leader, p.box, k);
    tag(r, id, p.box.x, p.box.y, idW, side, mark === "attack", k, size);
    drawStatus(ctx, status, p.box.x + idW, p.box.y, h, k, { compact: p.compact });
  }
}

/**
 * A thin line from a unit's feet to its tag, when the tag had to sit farther out.
 * @param {Renderer} r @param {[number, number]} from @param {import("./tags.js").Box} box @param {number} k
 */
function leader(r, from, box, k) {
  const { ctx } = r;
  const tx = Math.max(box.x, Math.min(from[0], box.x + box.w));
  const ty = Math.max(box.y, Math.min(from[1], box.y + box.h));
  ctx.save();
  ctx.strokeStyle = "rgba(230,236,245,0.7)";
  ctx.lineWidth = 1.2 * k;
  ctx.beginPath();
  ctx.moveTo(from[0], from[1]);
  ctx.lineTo(tx, ty);
  ctx.stroke();
  ctx.restore();
}

/** @param {Renderer} r @param {number} gx @param {number} gy @param {string} mark @param {string} side */
function glow(r, gx, gy, mark, side) {
  const { ctx } = r;
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

/** @param {Renderer} r @param {string} sprite @param {number} left @param {number} top @param {number} side */
function badge(r, sprite, left, top, side) {
  const entry = r.assets.manifest.images[sprite];
  const badgeName = r.assets.manifest.badges.damaged;
  const badge = r.assets.manifest.images[badgeName];
  const k = side / entry.size[0];
  const [bx, by] = entry.badge ?? [entry.size[0] * 0.7, entry.size[1] * 0.15];
  const bw = badge.size[0] * k;
  r.assets.draw(r.ctx, badgeName, left + bx * k - bw / 2, top + by * k - bw / 2, bw, bw);
}

/**
 * The unit's id on a small tag at (x, y), `w` wide; `k` scales, `size` is the font size.
 * @param {Renderer} r @param {string} id @param {number} x @param {number} y @param {number} w @param {string} side
 * @param {boolean} hot @param {number} k @param {number} size
 */
function tag(r, id, x, y, w, side, hot, k, size) {
  const { ctx } = r;
  ctx.font = `700 ${size}px system-ui, sans-serif`;
  ctx.fillStyle = hot ? "rgba(150,24,16,0.92)" : side === "ATTACKER" ? "rgba(92,30,18,0.88)" : "rgba(18,36,84,0.88)";
  ctx.beginPath();
  ctx.roundRect(x, y, w, 14 * k, 4 * k);
  ctx.fill();
  ctx.fillStyle = "#fff";
  ctx.textAlign = "left";
  ctx.textBaseline = "middle";
  ctx.fillText(id, x + 4 * k, y + 7.5 * k);
}

const WORD_MS = 3000; // a HIT / MISS word shows this long over its target, then fades
const FADE_MS = 1000;

/**
 * How visible the last attack's HIT / MISS word is now: 1 for a few seconds after its result
 * came, then fading to 0; in a replay (no arrival time) only on the step it happened.
 * @param {import("./types.js").Model} model @param {number} now
 */
export function resultWordAlpha(model, now) {
  const last = model.lastAttack;
  if (!last || !last.outcome) return 0;
  if (!last.at) return last.version === model.version ? 1 : 0;
  const age = now - last.at;
  return age < WORD_MS ? 1 : Math.max(0, 1 - (age - WORD_MS) / FADE_MS);
}

/**
 * Declared, pending, candidate and last attacks as arcs with arrowheads; the last attack only
 * during its turn, its word fading (`resultWordAlpha`). True while a word is still fading.
 * @param {Renderer} r @param {Scene} scene
 */
export function drawArrows(r, scene) {
  const { model, ctl } = scene;
  const view = /** @type {View} */ (model.view);
  /** @type {Array<[string, string, string, string]>} */
  const arrows = view.attack_queue.map((a) => [a.attacker, a.target, "queued", ""]);
  const wordAlpha = resultWordAlpha(model, scene.now);
  if (view.pending_attack) arrows.push([view.pending_attack.attacker, view.pending_attack.target, "pending", ""]);
  else if (model.lastAttack && model.lastAttack.outcome && model.lastAttack.turn === view.turn) {
    arrows.push([model.lastAttack.unit, model.lastAttack.target, "last", wordAlpha > 0 ? model.lastAttack.outcome : ""]);
  }
  const hovered = model.hover ? view.units.find((u) => u.cell === model.hover) : null;
  if (ctl?.arrowFrom && hovered && ctl.unitMarks.get(hovered.id) === "attack") arrows.push([ctl.arrowFrom, hovered.id, "candidate", ""]);
  const where = new Map(view.units.filter((u) => u.cell).map((u) => [u.id, /** @type {string} */ (u.cell)]));
  for (const [from, to, kind, text] of arrows) {
    const a = where.get(from) ? r.face(/** @type {string} */ (where.get(from))) : null;
    const b = where.get(to) ? r.face(/** @type {string} */ (where.get(to))) : null;
    if (a && b) arrow(r, a[0], a[1] - 26, b[0], b[1] - 26, kind, text, scene.camera.zoom, wordAlpha);
  }
  return wordAlpha > 0 && wordAlpha < 1 || (wordAlpha === 1 && !!model.lastAttack?.at);
}

/**
 * @param {Renderer} r @param {number} x0 @param {number} y0 @param {number} x1 @param {number} y1 @param {string} kind
 * @param {string} text @param {number} zoom @param {number} [alpha] of the text
 */
function arrow(r, x0, y0, x1, y1, kind, text, zoom, alpha = 0.9) {
  const { ctx } = r;
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
  if (text) word(r, text, x1, y1 - 52, text === "HIT" ? "#ff8a70" : "#e2e6ee", 0.9 * alpha, zoom);
  ctx.restore();
}

/**
 * A word over the board, at least 18 CSS px tall at any zoom (HIT / MISS must read at a glance).
 * @param {Renderer} r @param {string} text @param {number} x @param {number} y @param {string} color @param {number} alpha
 * @param {number} [zoom] the camera's zoom
 */
function word(r, text, x, y, color, alpha, zoom = 1) {
  const { ctx } = r;
  ctx.globalAlpha = alpha;
  ctx.font = `800 ${Math.max(17, 18 / zoom)}px system-ui, sans-serif`;
  ctx.textAlign = "center";
  ctx.textBaseline = "middle";
  ctx.lineWidth = 4;
  ctx.strokeStyle = "rgba(0,0,0,0.7)";
  ctx.strokeText(text, x, y);
  ctx.fillStyle = color;
  ctx.fillText(text, x, y);
  ctx.globalAlpha = 1;
}

/** Hit flashes, floating words and fading destroyed units. @param {Renderer} r @param {Scene} scene */
export function drawEffects(r, scene) {
  const grid = /** @type {Grid} */ (r.grid);
  const { ctx, assets } = r;
  for (const { a, t } of scene.anim.running(scene.now)) {
    if (a.kind === "flash") {
      const c = r.face(a.cell);
      if (!c) continue;
      ctx.fillStyle = `rgba(${a.color},${0.65 * (1 - t)})`;
      ctx.beginPath();
      ctx.ellipse(c[0], c[1], grid.halfW * (0.6 + t * 0.5), grid.halfW * (0.3 + t * 0.25), 0, 0, Math.PI * 2);
      ctx.fill();
    } else if (a.kind === "float") {
      const c = r.face(a.cell);
      if (c) word(r, a.text, c[0], c[1] - 70 - t * 30, a.color, Math.min(1, 2 * (1 - t)), scene.camera.zoom);
    } else if (a.kind === "ghost" && a.unit.cell) {
      const xy = parseLabel(a.unit.cell);
      const type = assets.manifest.units.types[a.unit.type];
      if (!xy || !type) continue;
      const [left, top, side] = unitRect(grid, xy[0], xy[1], type, assets.manifest.units);
      ctx.globalAlpha = 1 - t;
      assets.draw(ctx, type.images[a.unit.side], left, top + t * 12, side, side);
      ctx.globalAlpha = 1;
    }
  }
}
