// @ts-check
/**
 * The camera follows the game: it glides to frame every target when the player must
 * choose targets or victims, frames a declared attack when its roll or reaction window
 * comes up, and the "." key (and "," backwards) cycles through the units that can still
 * act, selecting and revealing each. Which units and cells matter comes from the controls
 * (the legal actions) and the view; the camera only moves when something is off-screen.
 */

import { lerp, MAX_ZOOM } from "./camera.js";

/** @typedef {import("./screen.js").Screen} Screen */
/** @typedef {import("./types.js").Model} Model */
/** @typedef {import("./types.js").Camera} Camera */
/** @typedef {import("./controls.js").Controls} Controls */

export const NEXT_UNIT_KEY = ".";
export const PREVIOUS_UNIT_KEY = ",";
const GLIDE_MS = 320;
const MARGIN = 70; // CSS px kept free around framed cells (room for the sprites above them)

export class Follow {
  /** @param {Screen} screen */
  constructor(screen) {
    this.screen = screen;
    this.framed = "";
    /** @type {number} */
    this.raf = 0;
  }

  /**
   * Glide the camera to `to` (a jump when animations are off).
   * @param {Camera} to @param {number} [ms]
   */
  glide(to, ms = GLIDE_MS) {
    cancelAnimationFrame(this.raf);
    const screen = this.screen;
    if (!screen.anim.enabled || ms <= 0) {
      screen.setCamera(to);
      return;
    }
    const from = { ...screen.camera };
    const start = performance.now();
    const step = () => {
      const t = Math.min(1, (performance.now() - start) / ms);
      screen.setCamera(lerp(from, to, t < 0.5 ? 2 * t * t : 1 - (-2 * t + 2) ** 2 / 2));
      if (t < 1) this.raf = requestAnimationFrame(step);
    };
    this.raf = requestAnimationFrame(step);
  }

  /** Stop a glide where it is. */
  stop() {
    cancelAnimationFrame(this.raf);
  }

  /**
   * The board area not covered by the decision panel: [width, height, shift of its centre].
   * Docked beside the board (desktop) the panel covers nothing; as a bottom sheet (phone) it
   * covers the foot of the canvas, by as much as its rectangle overlaps it.
   */
  usable() {
    const s = this.screen;
    const panel = /** @type {HTMLElement|null} */ (document.querySelector(".decision"));
    let reserve = 0;
    if (panel && !panel.hidden) {
      const c = s.canvas.getBoundingClientRect();
      const p = panel.getBoundingClientRect();
      const acrossTheFoot = p.top < c.bottom && p.bottom >= c.bottom - 1 && p.left < c.right && p.right > c.left
        && p.width >= c.width / 2;
      if (acrossTheFoot) reserve = Math.min(s.vh * 0.5, c.bottom - p.top + 14);
    }
    return { w: s.vw, h: Math.max(120, s.vh - reserve), shift: reserve / 2 };
  }

  /**
   * Whether every cell's face centre is in the usable part of the view, `margin` inside.
   * @param {string[]} cells @param {number} [margin]
   */
  allVisible(cells, margin = 40) {
    const s = this.screen;
    const { w, h } = this.usable();
    for (const cell of cells) {
      const p = s.renderer.cellPoint(cell);
      if (!p) continue;
      const x = (p[0] - s.camera.cx) * s.camera.zoom + s.vw / 2;
      const y = (p[1] - s.camera.cy) * s.camera.zoom + s.vh / 2;
      if (x < margin || x > w - margin || y < margin + 20 || y > h - margin) return false;
    }
    return true;
  }

  /**
   * The camera that shows all of `cells` above the decision panel: the current zoom if they
   * fit at it, else zoomed out just enough.
   * @param {string[]} cells @returns {Camera|null}
   */
  framing(cells) {
    const s = this.screen;
    const points = cells.map((c) => s.renderer.cellPoint(c)).filter((p) => p !== null);
    if (!points.length) return null;
    const xs = points.map((p) => p[0]);
    const ys = points.map((p) => p[1]);
    const x0 = Math.min(...xs);
    const x1 = Math.max(...xs);
    const y0 = Math.min(...ys) - 60; // the sprites rise above their cells
    const y1 = Math.max(...ys);
    const { w, h, shift } = this.usable();
    const fits = Math.min((w - 2 * MARGIN) / Math.max(1, x1 - x0), (h - 2 * MARGIN) / Math.max(1, y1 - y0));
    const zoom = Math.max(0.05, Math.min(s.camera.zoom, fits, MAX_ZOOM));
    return { cx: (x0 + x1) / 2, cy: (y0 + y1) / 2 + shift / zoom, zoom };
  }

  /**
   * Frame `cells` if any of them is off-screen (or hidden under the panel).
   * @param {string[]} cells @returns {boolean} whether the camera moved
   */
  frame(cells) {
    if (!cells.length || this.allVisible(cells)) return false;
    const to = this.framing(cells);
    if (!to) return false;
    this.glide(to);
    return true;
  }

  /** Centre a cell (keeping the zoom). @param {string} cell */
  reveal(cell) {
    const p = this.screen.renderer.cellPoint(cell);
    if (!p) return;
    const { shift } = this.usable();
    const zoom = this.screen.camera.zoom;
    this.glide({ cx: p[0], cy: p[1] + shift / zoom, zoom });
  }

  /**
   * After each render: frame what the player must choose among, once per choice.
   * @param {Model} model @param {Controls|null} ctl
   */
  see(model, ctl) {
    const view = model.view;
    if (!view || !ctl) return;
    const units = new Map(view.units.filter((u) => u.cell).map((u) => [u.id, /** @type {string} */ (u.cell)]));
    let key = "";
    /** @type {string[]} */
    let cells = [];
    const attack = view.pending_attack
      ? [view.pending_attack.attacker, view.pending_attack.target].map((u) => units.get(u) ?? "").filter(Boolean) : [];
    if (ctl.aiming) {
      key = `aim:${model.version}:${ctl.aiming.key}:${Math.round(this.usable().shift / 24)}`;
      cells = [...ctl.cellMarks.entries()].filter(([, k]) => k === "target").map(([c]) => c);
      if (!cells.length) cells = attack; // a choice made with buttons (a quarter): keep the attack in sight
    } else if (model.sel.unit && units.has(model.sel.unit)) {
      const targets = [...ctl.unitMarks.entries()].filter(([, k]) => k === "attack").map(([u]) => units.get(u) ?? "");
      key = `sel:${model.version}:${model.sel.unit}`;
      if (targets.length) cells = [/** @type {string} */ (units.get(model.sel.unit)), ...targets.filter(Boolean)];
    } else if (view.pending_attack && model.legal.length) {
      // Framed again when the sheet over the board's foot grows (the odds arrive, a window opens).
      key = `attack:${view.turn}:${view.attack_seq}:${Math.round(this.usable().shift / 24)}`;
      cells = attack;
    }
    if (!key || key === this.framed) return;
    this.framed = key;
    this.frame(cells);
  }
}

/**
 * The units that can still act (the sources of legal actions), in the order they come.
 * @param {Controls|null} ctl @returns {string[]}
 */
export function actors(ctl) {
  /** @type {string[]} */
  const out = [];
  for (const read of ctl?.reads ?? []) {
    const unit = read.kind === "source" ? read.refs.units[0] : undefined;
    if (unit && !out.includes(unit)) out.push(unit);
  }
  return out.sort((a, b) => a[0].localeCompare(b[0]) || Number(a.slice(1)) - Number(b.slice(1)));
}

/**
 * The next (or previous) unit that can act after `current`, wrapping around; null if none.
 * @param {Controls|null} ctl @param {string|null} current @param {number} [step] 1 or -1
 */
export function nextActor(ctl, current, step = 1) {
  const list = actors(ctl);
  if (!list.length) return null;
  const at = current ? list.indexOf(current) : -1;
  if (at < 0) return step > 0 ? list[0] : list[list.length - 1];
  return list[(at + step + list.length) % list.length];
}
