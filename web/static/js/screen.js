// @ts-check
/**
 * The board screen: page layout, canvas, camera, renderer, HUD and input binding, shared by
 * live play, watching, hot-seat and the replay viewer. It shows the model its owner hands
 * it and reports taps, hovers, keys and button runs back; it never changes the game.
 */

import { Animator } from "./anim.js";
import { clamp, fit, minZoom, panBy, viewToWorld, worldToView, zoomAt } from "./camera.js";
import { bindBoard, bindKeys } from "./events.js";
import { Help } from "./help.js";
import { Hud } from "./hud.js";
import { boardBounds, parseLabel } from "./iso.js";
import { esc, humanize, sideName } from "./labels.js";
import { hitTest } from "./pick.js";
import { Painter, Renderer } from "./render.js";
import { EVENT_CUES, Sound } from "./sound.js";
import { describeCell } from "./terrain.js";

/** @typedef {import("./types.js").Model} Model */
/** @typedef {import("./controls.js").Controls} Controls */
/** @typedef {import("./controls.js").Run} Run */
/** @typedef {import("./types.js").Hit} Hit */
/** @typedef {import("./assets.js").Assets} Assets */

/**
 * @typedef {{onTap: (hit: Hit, preview: boolean) => void, onHover: (cell: string|null) => void, onRun: (run: Run) => void,
 *   onCancel: () => void, onKey?: (key: string) => boolean}} ScreenHandlers
 */

/** Below this zoom units are too small to tap comfortably; the first view zooms in to it. */
const READABLE_ZOOM = 0.55;

const LAYOUT = `
<div class="game">
  <header class="topbar">
    <a class="brand" href="/" title="Back to the lobby">Taktik</a>
    <div class="turn"></div>
    <div class="score" hidden></div>
    <ol class="ruler"></ol>
    <div class="seat"></div>
    <div class="conn"></div>
    <button type="button" class="iconbtn" data-mute title="Sound on/off (M)" aria-label="Sound" aria-pressed="false"></button>
    <button type="button" class="iconbtn" data-help title="How to play (?)">?</button>
  </header>
  <main class="board">
    <canvas class="board-canvas" tabindex="0" aria-label="Game board: arrow keys go through the choices, Enter takes one, Esc cancels"></canvas>
    <div class="hoverinfo" hidden></div>
    <div class="zoombar"><button type="button" data-zoom="in" title="Zoom in (+)">+</button><button type="button" data-zoom="out" title="Zoom out (−)">−</button><button type="button" data-zoom="fit" title="Show the whole board (0)">⤢</button></div>
    <div class="notice" hidden></div>
    <div class="extra"></div>
  </main>
  <section class="decision" aria-live="polite"></section>
  <aside class="side">
    <nav class="tabs"><button type="button" data-tab="cards" class="on">Cards</button><button type="button" data-tab="roll">Dice</button><button type="button" data-tab="log">Log</button></nav>
    <section class="panel status"></section>
    <section class="panel roll" data-pane="roll"></section>
    <section class="panel cards" data-pane="cards"></section>
    <section class="panel effects" data-pane="cards"></section>
    <section class="panel log" data-pane="log"></section>
  </aside>
  <div class="overlay" hidden></div>
  <div class="helpbox" hidden></div>
</div>`;

export class Screen {
  /**
   * @param {HTMLElement} root @param {Assets} assets @param {Map<string, import("./types.js").CardInfo>} cards
   * @param {Record<string, {hp: number, vp: number}>} fullHp the unit table (`/api/units`) @param {ScreenHandlers} on
   */
  constructor(root, assets, cards, fullHp, on) {
    root.innerHTML = LAYOUT;
    this.root = /** @type {HTMLElement} */ (root.querySelector(".game"));
    const q = (/** @type {string} */ s) => /** @type {HTMLElement} */ (this.root.querySelector(s));
    this.board = q(".board");
    this.canvas = /** @type {HTMLCanvasElement} */ (q("canvas"));
    this.extra = q(".extra");
    this.overlay = q(".overlay");
    this.assets = assets;
    this.fullHp = fullHp;
    this.on = on;
    this.renderer = new Renderer(this.canvas, assets);
    this.anim = new Animator();
    this.hud = new Hud({
      turn: q(".turn"), score: q(".score"), ruler: q(".ruler"), seat: q(".seat"), conn: q(".conn"), decision: q(".decision"),
      status: q(".status"), roll: q(".roll"), cards: q(".cards"), effects: q(".effects"), log: q(".log"),
      hover: q(".hoverinfo"), notice: q(".notice"), overlay: this.overlay,
    }, cards, on.onRun, on.onCancel);
    this.hud.score.units = fullHp;
    /** @type {string|null} the choice under the pointer on the panel's buttons (a quarter of the board) */
    this.pointed = null;
    this.hud.onPoint = (value) => {
      this.pointed = value;
      this.painter.request();
    };
    this.sound = new Sound();
    this.hud.onMyTurn = () => {
      if (this.model?.kind !== "replay") this.sound.play("turn");
    };
    this.help = new Help(q(".helpbox"));
    this.showMute();
    /** @type {Model|null} */
    this.model = null;
    /** @type {Controls|null} */
    this.ctl = null;
    this.camera = { cx: 0, cy: 0, zoom: 1 };
    this.fitted = false;
    this.vw = 1;
    this.vh = 1;
    this.dpr = 1;
    /** performance.now() when the first frame with a board on it was drawn */
    this.firstPaint = 0;
    /** how long recent frames took to draw (ms), for the benchmark */
    /** @type {number[]} */
    this.paintTimes = [];
    /** @type {import("./insight.js").Insight|null} the engine's answers the canvas shows (js/assist.js sets it) */
    this.insight = null;
    /** called when the decision panel changed size (a sheet over the board's foot may now hide something) */
    this.onSheet = () => {};
    /** @type {(() => void)|null} called after each frame (the cell tip follows its cell) */
    this.onPainted = null;
    this.painter = new Painter(() => this.paint());
    this.renderer.onSharper = () => this.painter.request();
    this.unbind = [
      bindBoard(this.canvas, {
        pan: (dx, dy) => this.setCamera(panBy(this.camera, dx, dy)),
        zoom: (f, x, y) => this.zoom(f, x, y),
        tap: (x, y, pointer) => {
          this.skipAnimations();
          const hit = this.hit(x, y);
          if (!hit) return;
          on.onHover(hit.cell); // touch screens have no hover: a tap shows the cell's info too
          on.onTap(hit, pointer === "touch" || pointer === "pen"); // no hover there: a first tap previews
        },
        hover: (x, y) => on.onHover(this.hit(x, y)?.cell ?? null),
        leave: () => on.onHover(null),
        resize: (w, h) => this.resize(w, h),
      }),
      bindKeys((key, e) => this.key(key, e)),
    ];
    this.root.addEventListener("click", (e) => {
      const t = /** @type {HTMLElement} */ (e.target);
      const zoom = /** @type {HTMLElement|null} */ (t.closest("[data-zoom]"))?.dataset.zoom;
      if (zoom) this.zoomButton(zoom);
      const tab = /** @type {HTMLElement|null} */ (t.closest("[data-tab]"))?.dataset.tab;
      if (tab) this.tab(tab);
      if (t.closest("[data-mute]")) this.toggleMute();
      if (t.closest("[data-help]")) this.help.toggle();
    });
    // The phone's bottom sheet covers the foot of the page: the side panel scrolls clear of it.
    const decision = q(".decision");
    new ResizeObserver(() => {
      this.root.style.setProperty("--sheet-h", `${decision.offsetHeight}px`);
      this.onSheet();
    }).observe(decision);
    this.resize(this.canvas.clientWidth, this.canvas.clientHeight);
  }

  /**
   * Show a model (and the controls derived from it).
   * @param {Model} model @param {Controls|null} ctl
   */
  show(model, ctl) {
    const first = !this.model?.view && model.view;
    if (model.view) this.renderer.setBoard(model.view, model.legend);
    if (this.model && model.sel.unit && model.sel.unit !== this.model.sel.unit) this.anim.startSweep(performance.now());
    this.model = model;
    this.ctl = ctl;
    this.hud.animate = this.anim.enabled;
    this.hud.render(model, ctl, (cell) => this.describe(cell));
    if (first) this.startCamera();
    this.painter.request();
  }

  /** Play the animations the events of a new version call for. @param {import("./types.js").EventText[]} events @param {import("./types.js").Unit[]} before */
  animate(events, before) {
    this.anim.fromEvents(events, before, performance.now());
    this.painter.request();
    if (this.model?.kind === "replay") return; // scrubbing a replay stays quiet
    const cues = new Set(events.map((e) => EVENT_CUES[e.event.kind]).filter(Boolean));
    for (const cue of cues) this.sound.play(cue);
  }

  toggleMute() {
    this.sound.setMuted(!this.sound.muted);
    this.showMute();
  }

  showMute() {
    const button = /** @type {HTMLElement} */ (this.root.querySelector("[data-mute]"));
    // Drawn, not an emoji: fonts on some systems have no speaker glyph.
    const waves = this.sound.muted ? `<path d="M16 9l5 6M21 9l-5 6"/>` : `<path d="M16 9.5a4 4 0 0 1 0 5M18.5 7a7.5 7.5 0 0 1 0 10"/>`;
    button.innerHTML = `<svg viewBox="0 0 24 24" width="18" height="18" fill="none" stroke="currentColor" stroke-width="2" stroke-linecap="round" stroke-linejoin="round" aria-hidden="true"><path d="M4 9.5h3.5L12 5.5v13l-4.5-4H4z" fill="currentColor"/>${waves}</svg>`;
    button.setAttribute("aria-pressed", String(this.sound.muted));
    button.title = this.sound.muted ? "Sound is off: turn it on (M)" : "Sound is on: mute it (M)";
  }

  paint() {
    if (!this.model) return false;
    const now = performance.now();
    const more = this.renderer.draw({ camera: this.camera, vw: this.vw, vh: this.vh, dpr: this.dpr, model: this.model,
      ctl: this.ctl, anim: this.anim, now, fullHp: this.fullHp, insight: this.insight, pointed: this.pointed });
    const done = performance.now();
    this.onPainted?.();
    if (this.paintTimes.length > 600) this.paintTimes.shift();
    this.paintTimes.push(done - now);
    if (!this.firstPaint && this.model.view) this.firstPaint = done;
    return this.anim.active(now) || more;
  }

  /** End the running animations, the die's tumble included. */
  skipAnimations() {
    this.anim.skip();
    this.root.querySelector(".die.rolling")?.classList.remove("rolling");
    this.painter.request();
  }

  /** @param {number} w @param {number} h */
  resize(w, h) {
    this.vw = Math.max(1, w);
    this.vh = Math.max(1, h);
    this.dpr = window.devicePixelRatio || 1;
    this.canvas.width = Math.round(this.vw * this.dpr);
    this.canvas.height = Math.round(this.vh * this.dpr);
    if (!this.fitted && this.model?.view) this.startCamera();
    this.painter.request();
  }

  /** How much of the board's foot the decision panel covers (0 where it is docked beside the board). */
  covered() {
    const panel = this.root.querySelector(".decision")?.getBoundingClientRect();
    const board = this.canvas.getBoundingClientRect();
    if (!panel || panel.height === 0 || panel.left >= board.right || panel.right <= board.left) return 0;
    return Math.max(0, Math.min(board.bottom, panel.bottom) - Math.max(board.top, panel.top));
  }

  bounds() {
    const grid = this.renderer.grid;
    return grid ? boardBounds(grid, 60) : { x: 0, y: 0, w: 1, h: 1 };
  }

  fitCamera() {
    if (!this.renderer.grid || this.vw < 2) return;
    const reserve = this.covered();
    const cam = fit(this.bounds(), this.vw, Math.max(120, this.vh - reserve));
    this.camera = { ...cam, cy: cam.cy + reserve / 2 / cam.zoom };
    this.fitted = true;
    this.painter.request();
  }

  /**
   * The first view: the whole board if units are big enough to tap that way, else a
   * readable zoom centred on this seat's units (all units for spectators).
   */
  startCamera() {
    this.fitCamera();
    const view = this.model?.view;
    if (!view || !this.fitted || this.camera.zoom >= READABLE_ZOOM) return;
    const side = this.model?.seat;
    const mine = view.units.filter((u) => u.cell && (!side || u.side === side));
    const points = mine.map((u) => this.renderer.cellPoint(/** @type {string} */ (u.cell))).filter((p) => p !== null);
    if (!points.length) return;
    const cx = points.reduce((sum, p) => sum + p[0], 0) / points.length;
    const cy = points.reduce((sum, p) => sum + p[1], 0) / points.length;
    this.setCamera({ cx, cy, zoom: READABLE_ZOOM });
  }

  /** @param {import("./types.js").Camera} cam */
  setCamera(cam) {
    this.camera = clamp(cam, this.bounds());
    this.painter.request();
  }

  /** @param {number} factor @param {number} x @param {number} y */
  zoom(factor, x, y) {
    this.setCamera(zoomAt(this.camera, factor, x, y, this.vw, this.vh, minZoom(this.bounds(), this.vw, this.vh)));
  }

  /** @param {string} which */
  zoomButton(which) {
    if (which === "fit") this.fitCamera();
    else this.zoom(which === "in" ? 1.35 : 1 / 1.35, this.vw / 2, this.vh / 2);
  }

  /** @param {string} name */
  tab(name) {
    for (const b of this.root.querySelectorAll("[data-tab]")) b.classList.toggle("on", /** @type {HTMLElement} */ (b).dataset.tab === name);
    this.root.dataset.tab = name;
  }

  /** What is under CSS point (x, y) of the board. @param {number} x @param {number} y @returns {Hit|null} */
  hit(x, y) {
    const grid = this.renderer.grid;
    if (!grid || !this.model?.view) return null;
    const [wx, wy] = viewToWorld(this.camera, this.vw, this.vh, x, y);
    return hitTest(grid, this.assets, this.model.view.units, wx, wy);
  }

  /** @param {string} key @param {KeyboardEvent} e */
  key(key, e) {
    if (!this.overlay.hidden && this.overlay.classList.contains("pass")) return; // hot-seat curtain: nothing behind it
    if (key === "?" || (key === "h" && !this.hud.shortcuts().has("h"))) return this.help.toggle();
    if (key === "Escape" && this.help.open) return this.help.close();
    if (this.help.open) return;
    if (key === "m" && !this.hud.shortcuts().has("m")) return this.toggleMute();
    if (key === "Escape") {
      this.skipAnimations();
      if (this.hud.cancelConfirm()) return;
      this.overlay.hidden = this.overlay.classList.contains("victory") ? true : this.overlay.hidden;
      this.on.onCancel();
      return;
    }
    // Enter and the arrows act on the board only when nothing else has the focus (a link, a
    // field, a button of another panel): a focused link's Enter must not run the game's action.
    const focus = document.activeElement;
    const onBoard = !focus || focus === document.body || focus === this.canvas;
    if ((key === "Enter" || key.startsWith("Arrow")) && !onBoard) return;
    if (this.on.onKey?.(key)) return e.preventDefault();
    if (key === "+" || key === "=") return this.zoomButton("in");
    if (key === "-") return this.zoomButton("out");
    if (key === "0") return this.zoomButton("fit");
    if (key === " ") this.skipAnimations();
    const run = this.hud.shortcuts().get(key.toLowerCase());
    if (run) {
      e.preventDefault();
      this.hud.run(run);
    }
  }

  /** Hover text for a cell: label, terrain and the unit there. @param {string} cell */
  describe(cell) {
    const xy = parseLabel(cell);
    const terrain = this.renderer.terrain;
    if (!xy || !terrain) return "";
    let html = `<b>${esc(cell)}</b> · ${esc(describeCell(terrain.at(xy[0], xy[1])))}`;
    const unit = this.model?.view?.units.find((u) => u.cell === cell);
    if (unit) {
      const full = this.fullHp[unit.type]?.hp ?? unit.hp;
      const flags = [unit.has_moved ? "moved" : "", unit.has_attacked ? "attacked" : ""].filter(Boolean).join(", ");
      html += `<br><span class="side-${unit.side}">${esc(unit.id)}</span> ${esc(humanize(unit.type))} (${esc(sideName(unit.side))}) · ${unit.hp}/${full} HP${unit.hp < full ? " · damaged" : ""}${flags ? ` · ${flags}` : ""}`;
    }
    return html;
  }

  /** Centre the view on a cell. @param {string} cell */
  reveal(cell) {
    const p = this.renderer.cellPoint(cell);
    if (p) this.setCamera({ cx: p[0], cy: p[1], zoom: this.camera.zoom });
  }

  /** Client (viewport) coordinates of a cell's face centre, for tests. @param {string} cell */
  cellToClient(cell) {
    const p = this.renderer.cellPoint(cell);
    if (!p) return null;
    const [x, y] = worldToView(this.camera, this.vw, this.vh, p[0], p[1]);
    const r = this.canvas.getBoundingClientRect();
    return { x: r.left + x, y: r.top + y };
  }

  destroy() {
    this.painter.stop();
    for (const unbind of this.unbind) unbind();
  }
}
