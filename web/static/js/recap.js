// @ts-check
/**
 * The opponent-turn recap: at the start of your turn, a short replay of what the other side
 * did that you did not see (the tab was hidden, or the cell was off-screen when it
 * happened): each move, attack and result, and card played, one after the other, the
 * camera gliding to each with its sentence in a banner and its animation replayed. Esc,
 * Space, a tap on the board or the banner's Skip button ends it; the camera then goes back
 * to where it was. Off when animations are (reduced motion, tests): the log says the same.
 */

import { esc, sideName } from "./labels.js";

/** @typedef {import("./screen.js").Screen} Screen */
/** @typedef {import("./follow.js").Follow} Follow */
/** @typedef {import("./types.js").Model} Model */
/** @typedef {import("./types.js").Unit} Unit */
/** @typedef {import("./types.js").EventText} EventText */
/** @typedef {{version: number, events: EventText[], cell: string|null, units: Unit[], seen: boolean}} Step */

/** The events worth a step of their own (the rest are bookkeeping or part of one). */
const HEADLINES = new Set([
  "unit_moved", "attack_hit", "attack_missed", "attack_cancelled", "unit_destroyed", "bonus_played", "tactic_played",
  "malus_applied", "malus_victim", "unit_returned", "unit_restored", "point_captured",
]);
const PAN_MS = 300;
const HOLD_MS = 900;

/**
 * The step of one event: where it happened (by the units before it), or null when it has no place.
 * @param {EventText} e @param {Unit[]} before @returns {string|null}
 */
export function eventCell(e, before) {
  const at = (/** @type {string|undefined} */ id) => (id ? before.find((u) => u.id === id)?.cell ?? null : null);
  const ev = e.event;
  if (ev.kind === "unit_moved") return ev.cell ?? null;
  if (ev.kind === "attack_hit" || ev.kind === "attack_missed" || ev.kind === "attack_cancelled") return at(ev.target) ?? at(ev.unit);
  return ev.cell ?? at(ev.unit) ?? at(ev.target);
}

export class Recap {
  /** @param {Screen} screen @param {Follow} follow */
  constructor(screen, follow) {
    this.screen = screen;
    this.follow = follow;
    /** @type {Map<string, Step[]>} per seat: steps recorded since its last turn began */
    this.pending = new Map();
    /** @type {Map<string, Step[]>} per seat: the steps of the last recap (for the benchmark) */
    this.last = new Map();
    /** @type {Map<string, number>} per seat: the turn whose start was recapped */
    this.turns = new Map();
    this.banner = document.createElement("div");
    this.banner.className = "recap";
    this.banner.hidden = true;
    this.banner.setAttribute("aria-live", "polite");
    screen.board.append(this.banner);
    this.banner.addEventListener("click", (e) => {
      if (/** @type {HTMLElement} */ (e.target).closest("[data-skip]")) this.skip();
    });
    this.running = false;
    /** @type {ReturnType<typeof setTimeout>|undefined} */
    this.timer = undefined;
    /** @type {import("./types.js").Camera|null} */
    this.home = null;
    this.shown = 0;
  }

  /**
   * Note the events of a new version of the opponent's turn as a seat received them, and
   * whether the player saw them happen (the tab visible and the cell on screen, no recap running).
   * @param {string} seat @param {EventText[]} events @param {Unit[]} before @param {number} version
   */
  record(seat, events, before, version) {
    const steps = this.pending.get(seat) ?? [];
    for (const e of events) {
      if (!HEADLINES.has(e.event.kind)) continue;
      const cell = eventCell(e, before);
      const last = steps.at(-1);
      if (last && last.version === version && last.cell === cell) {
        last.events.push(e); // the hit and the unit it destroyed are one step
        continue;
      }
      const visible = document.visibilityState === "visible" && !this.running && (!cell || this.follow.allVisible([cell], 0));
      steps.push({ version, events: [e], cell, units: before, seen: visible });
    }
    this.pending.set(seat, steps.slice(-40));
  }

  /**
   * At the start of the seat's own turn, play what it missed of the opponent's.
   * @param {Model} model
   */
  startIfDue(model) {
    const view = model.view;
    const seat = model.seat;
    if (!view || !seat || view.active !== seat || !model.legal.length || this.turns.get(seat) === view.turn) return;
    const first = !this.turns.has(seat);
    this.turns.set(seat, view.turn);
    const steps = this.pending.get(seat) ?? [];
    this.pending.set(seat, []);
    this.last.set(seat, steps);
    const missed = steps.filter((s) => !s.seen);
    if (!first && missed.length && this.screen.anim.enabled) this.play(missed, sideName(view.active === "ATTACKER" ? "DEFENDER" : "ATTACKER"));
  }

  /**
   * Play steps now, one after the other.
   * @param {Step[]} steps @param {string} who the side whose turn is recapped
   */
  play(steps, who) {
    this.skip();
    if (!steps.length) return;
    this.running = true;
    this.home = { ...this.screen.camera };
    let i = 0;
    const next = () => {
      if (i >= steps.length) {
        this.finish();
        return;
      }
      const step = steps[i++];
      this.shown = i;
      this.banner.hidden = false;
      this.banner.innerHTML = `<span class="recap-count">${esc(who)}'s turn · ${i}/${steps.length}</span>`
        + `<span class="recap-text">${step.events.map((e) => esc(e.text)).join(" ")}</span>`
        + `<button type="button" class="btn ghost" data-skip>Skip <kbd>Esc</kbd></button>`;
      if (step.cell) this.follow.reveal(step.cell);
      this.timer = setTimeout(() => {
        this.screen.anim.fromEvents(step.events, step.units, performance.now());
        this.screen.painter.request();
        this.timer = setTimeout(next, HOLD_MS);
      }, step.cell ? PAN_MS : 0);
    };
    next();
  }

  /** Replay the last recap of a seat in full, seen steps included (benchmark, "what just happened"). @param {string} seat */
  replayLast(seat) {
    const steps = this.last.get(seat) ?? [];
    this.play(steps, "Opponent");
    return steps.length;
  }

  finish() {
    clearTimeout(this.timer);
    this.running = false;
    this.banner.hidden = true;
    this.follow.stop();
    if (this.home) this.follow.glide(this.home);
    this.home = null;
  }

  /** End the recap at once (Esc, Space, a tap, the Skip button). @returns {boolean} whether one was running */
  skip() {
    if (!this.running) return false;
    clearTimeout(this.timer);
    this.running = false;
    this.banner.hidden = true;
    this.follow.stop();
    this.screen.anim.skip();
    if (this.home) this.screen.setCamera(this.home);
    this.home = null;
    return true;
  }
}
