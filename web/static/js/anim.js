// @ts-check
/**
 * Short, skippable animations as timed records: a unit gliding along its last move, a hit
 * flash, a floating word, a destroyed unit fading out, the move-range sweep. The renderer
 * asks for progress at its frame time; nothing here touches the canvas. A tap, a key or
 * `skip()` ends them all; `setEnabled(false)` turns them off (tests, reduced motion).
 */

/** @typedef {import("./types.js").EventText} EventText */
/** @typedef {import("./types.js").Unit} Unit */

/**
 * @typedef {{kind: "move", unit: string, from: string, to: string, start: number, dur: number}
 *   | {kind: "flash", cell: string, color: string, start: number, dur: number}
 *   | {kind: "float", cell: string, text: string, color: string, start: number, dur: number}
 *   | {kind: "ghost", unit: Unit, start: number, dur: number}
 *   | {kind: "appear", unit: string, start: number, dur: number}} Anim
 */

export const SWEEP_RING_MS = 250; // rules §12 move-range sweep: one ring per 250 ms
export const SWEEP_HOLD_MS = 400;

export class Animator {
  constructor() {
    /** @type {Anim[]} */
    this.items = [];
    this.enabled = !globalThis.matchMedia?.("(prefers-reduced-motion: reduce)").matches;
    /** When the current move-range sweep started (its origin is the selected unit). */
    this.sweepStart = -Infinity;
  }

  /** @param {boolean} on */
  setEnabled(on) {
    this.enabled = on;
    if (!on) this.skip();
  }

  /** End every running animation now. */
  skip() {
    this.items = [];
    this.sweepStart = -Infinity;
  }

  /** @param {number} now */
  active(now) {
    this.items = this.items.filter((a) => now - a.start < a.dur);
    return this.items.length > 0 || this.sweeping(now, 12);
  }

  /** @param {number} now @param {number} rings */
  sweeping(now, rings) {
    return now - this.sweepStart < rings * SWEEP_RING_MS + SWEEP_HOLD_MS;
  }

  /** @param {number} now */
  startSweep(now) {
    if (this.enabled) this.sweepStart = now;
  }

  /**
   * Opacity of a move highlight `ring` cells from the selected unit (rules §12): the range
   * shows at once, and a brighter band sweeps outwards one ring per 250 ms.
   * @param {number} ring @param {number} now
   */
  sweepAlpha(ring, now) {
    const t = now - this.sweepStart;
    if (!this.enabled || t < 0 || t > 12 * SWEEP_RING_MS + SWEEP_HOLD_MS) return 0.95;
    const front = t / SWEEP_RING_MS;
    const band = Math.max(0, 1 - Math.abs(front - ring));
    return 0.6 + 0.35 * band;
  }

  /**
   * Queue the animations that the events of one update call for.
   * @param {EventText[]} events @param {Unit[]} before units before the update @param {number} now
   */
  fromEvents(events, before, now) {
    if (!this.enabled) return;
    for (const { event } of events) {
      if (event.kind === "unit_moved" && event.unit && event.from_cell && event.cell) {
        this.items.push({ kind: "move", unit: event.unit, from: event.from_cell, to: event.cell, start: now, dur: 360 });
      } else if (event.kind === "attack_hit" && event.target) {
        const at = before.find((u) => u.id === event.target)?.cell;
        if (at) {
          this.items.push({ kind: "flash", cell: at, color: "255,70,50", start: now, dur: 650 });
          this.items.push({ kind: "float", cell: at, text: "HIT", color: "#ff6a4d", start: now, dur: 1100 });
        }
      } else if (event.kind === "attack_missed" && event.target) {
        const at = before.find((u) => u.id === event.target)?.cell;
        if (at) this.items.push({ kind: "float", cell: at, text: "MISS", color: "#d8dde6", start: now, dur: 1000 });
      } else if (event.kind === "unit_destroyed" && event.unit) {
        const unit = before.find((u) => u.id === event.unit);
        if (unit) this.items.push({ kind: "ghost", unit, start: now, dur: 900 });
      } else if ((event.kind === "unit_returned" || event.kind === "unit_deployed") && event.unit) {
        this.items.push({ kind: "appear", unit: event.unit, start: now, dur: 400 });
      }
    }
  }

  /**
   * Where a gliding unit is: from-cell, to-cell and eased progress, or null.
   * @param {string} unit @param {number} now
   */
  moveOf(unit, now) {
    for (const a of this.items) {
      if (a.kind === "move" && a.unit === unit && now - a.start < a.dur) {
        const t = Math.max(0, (now - a.start) / a.dur);
        return { from: a.from, to: a.to, t: t < 0.5 ? 2 * t * t : 1 - (-2 * t + 2) ** 2 / 2 };
      }
    }
    return null;
  }

  /** Fade-in of a unit that just appeared (0..1), 1 when not appearing. @param {string} unit @param {number} now */
  appearOf(unit, now) {
    const a = this.items.find((x) => x.kind === "appear" && x.unit === unit);
    return a ? Math.min(1, Math.max(0, (now - a.start) / a.dur)) : 1;
  }

  /** Running animations with their progress 0..1. @param {number} now */
  running(now) {
    return this.items.map((a) => ({ a, t: Math.min(1, Math.max(0, (now - a.start) / a.dur)) }));
  }
}
