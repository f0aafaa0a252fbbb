// @ts-check
/**
 * The recap: at the start of your turn, what the other side did that you did not see (the tab
 * was hidden, the cell was off-screen, the device was passed, or the page was not open: after
 * a reload the turn comes from `GET /api/matches/{id}/turns/{n}`). A card over the board names
 * the turn and the score, and goes through the moves, attacks and results, and cards played,
 * one step at a time: the camera goes to each and its animation plays again. With animations
 * on it runs by itself and ends by itself; without them (reduced motion, tests) it waits on
 * the first step, and ‹ › step through. Esc, the ✕ button or a tap on the board ends it, and
 * the camera returns to where you were looking. The "What happened" button (or W) shows the
 * last one again, seen steps too.
 */

import { esc } from "./labels.js";
import { vpText } from "./score.js";
import { eventText, otherSide, sideName } from "./words.js";

/** @typedef {import("./screen.js").Screen} Screen */
/** @typedef {import("./follow.js").Follow} Follow */
/** @typedef {import("./types.js").Model} Model */
/** @typedef {import("./types.js").Unit} Unit */
/** @typedef {import("./types.js").EventText} EventText */
/** @typedef {import("./types.js").CardInfo} CardInfo */
/** @typedef {{version: number, events: EventText[], cell: string|null, units: Unit[], seen: boolean}} Step */
/** @typedef {{who: string, turn: number, score: string, steps: Step[]}} Told a turn as the recap tells it */
/**
 * The server's account of one turn (`GET /api/matches/{id}/turns/{n}`, server/history.py).
 * @typedef {{turn: number, side: import("./types.js").Side, steps: Array<{step: number, events: EventText[]}>}} TurnEvents
 */

/** The events worth a step of their own (the rest are bookkeeping or part of one). */
const HEADLINES = new Set([
  "unit_moved", "attack_hit", "attack_missed", "attack_cancelled", "unit_destroyed", "bonus_played", "tactic_played",
  "malus_applied", "malus_victim", "unit_returned", "unit_restored", "point_captured", "points_scored", "time_ran_out",
]);
const PAN_MS = 300;
const HOLD_MS = 1300;
export const RECAP_KEY = "w";

/**
 * Where an event happened (by the units before it), or null when it has no place.
 * @param {EventText} e @param {Unit[]} before @returns {string|null}
 */
export function eventCell(e, before) {
  const at = (/** @type {string|undefined} */ id) => (id ? before.find((u) => u.id === id)?.cell ?? null : null);
  const ev = e.event;
  if (ev.kind === "unit_moved") return ev.cell ?? null;
  if (ev.kind === "attack_hit" || ev.kind === "attack_missed" || ev.kind === "attack_cancelled") return at(ev.target) ?? at(ev.unit);
  return ev.cell ?? at(ev.unit) ?? at(ev.target);
}

/**
 * Add the headline events of one version to `steps`: a hit and the unit it destroyed are one step.
 * @param {Step[]} steps @param {EventText[]} events @param {Unit[]} before @param {number} version @param {(cell: string|null) => boolean} seen
 */
function addSteps(steps, events, before, version, seen) {
  for (const e of events) {
    if (!HEADLINES.has(e.event.kind)) continue;
    const cell = eventCell(e, before);
    const last = steps.at(-1);
    if (last && last.version === version && (last.cell === cell || e.event.kind === "unit_destroyed")) {
      last.events.push(e);
      continue;
    }
    steps.push({ version, events: [e], cell, units: before, seen: seen(cell) });
  }
}

export class Recap {
  /**
   * @param {Screen} screen @param {Follow} follow @param {Map<string, CardInfo>} cards
   * @param {(turn: number) => Promise<TurnEvents|null>} loadTurn the server's account of a turn
   */
  constructor(screen, follow, cards, loadTurn) {
    this.screen = screen;
    this.follow = follow;
    this.cards = cards;
    this.loadTurn = loadTurn;
    /** @type {Map<string, Step[]>} per seat: steps of the opponent recorded since its last turn began */
    this.pending = new Map();
    /** @type {Map<string, number>} per seat: the opponent's turn whose start this page saw (so it holds the whole turn) */
    this.watched = new Map();
    /** @type {Map<string, Told>} per seat: the last recap (the "What happened" button) */
    this.last = new Map();
    /** @type {Map<string, number>} per seat: the turn whose start was recapped */
    this.turns = new Map();
    this.banner = document.createElement("div");
    this.banner.className = "recap";
    this.banner.hidden = true;
    this.banner.setAttribute("role", "dialog");
    this.banner.setAttribute("aria-label", "What happened");
    screen.board.append(this.banner);
    this.banner.addEventListener("click", (e) => {
      const t = /** @type {HTMLElement} */ (e.target);
      if (t.closest("[data-recap-close]")) this.skip();
      else if (t.closest("[data-recap-step]")) this.go(Number(/** @type {HTMLElement} */ (t.closest("[data-recap-step]")).dataset.recapStep));
    });
    this.button = document.createElement("button");
    this.button.type = "button";
    this.button.className = "btn whathappened";
    this.button.hidden = true;
    this.button.title = "What the other side did in its last turn (W)";
    this.button.innerHTML = "What happened <kbd>W</kbd>";
    this.button.addEventListener("click", () => this.again());
    screen.board.append(this.button);
    /** whether the steps run by themselves (animations on) */
    this.running = false;
    /** whether a recap is on screen (running or waiting) */
    this.open = false;
    /** @type {ReturnType<typeof setTimeout>|undefined} */
    this.timer = undefined;
    /** @type {import("./types.js").Camera|null} */
    this.home = null;
    /** @type {Told|null} */
    this.told = null;
    this.index = 0;
    /** @type {string} the seat on screen */
    this.seat = "";
  }

  /**
   * Note the events of a new version of the opponent's turn as a seat received them, and
   * whether the player saw them happen (watching this seat, the tab visible and the cell on
   * screen, no recap running).
   * @param {string} seat @param {EventText[]} events @param {Unit[]} before @param {number} version @param {boolean} watching
   */
  record(seat, events, before, version, watching) {
    const started = events.find((e) => e.event.kind === "turn_started")?.event.value;
    const steps = started !== undefined ? [] : this.pending.get(seat) ?? [];
    if (started !== undefined) this.watched.set(seat, started);
    const visible = watching && document.visibilityState === "visible" && !this.open;
    addSteps(steps, events, before, version, (cell) => visible && (!cell || this.follow.allVisible([cell], 0)));
    this.pending.set(seat, steps.slice(-60));
  }

  /**
   * At the start of the seat's own turn, tell what it missed of the opponent's (first turn
   * and after a reload included: then the turn comes from the server).
   * @param {Model} model
   */
  async startIfDue(model) {
    const view = model.view;
    const seat = model.seat;
    this.seat = seat ?? "";
    this.button.hidden = !seat || !this.last.get(seat)?.steps.length;
    if (!view || !seat || view.active !== seat || !model.legal.length || this.turns.get(seat) === view.turn) return;
    this.turns.set(seat, view.turn);
    const turn = view.turn - 1;
    let steps = this.pending.get(seat) ?? [];
    this.pending.set(seat, []);
    if (turn < 1) return;
    if (this.watched.get(seat) !== turn) steps = await this.fetched(turn, model, steps); // not all of it was seen here
    const score = model.score ? ` · ${vpText(model.score.vp)}` : "";
    const told = { who: sideName(otherSide(seat)), turn, score, steps };
    this.last.set(seat, told);
    this.button.hidden = this.seat !== seat || !steps.length;
    const missed = steps.filter((s) => !s.seen);
    if (missed.length && this.seat === seat && this.turns.get(seat) === view.turn) this.show({ ...told, steps: missed });
  }

  /**
   * The opponent's turn as the server tells it, every step unseen except those this page saw.
   * @param {number} turn @param {Model} model @param {Step[]} recorded
   */
  async fetched(turn, model, recorded) {
    const answer = await this.loadTurn(turn);
    if (!answer) return recorded;
    const view = /** @type {import("./types.js").View} */ (model.view);
    const gone = view.players.flatMap((p) => p.destroyed);
    /** @type {Step[]} */
    const steps = [];
    for (const s of answer.steps) {
      const cells = new Map(s.events.filter((e) => e.event.kind === "unit_destroyed").map((e) => [e.event.unit, e.event.cell]));
      const units = view.units.concat(gone.map((u) => ({ ...u, cell: u.cell ?? cells.get(u.id) ?? null })));
      const known = recorded.find((r) => r.version === s.step);
      addSteps(steps, s.events, units, s.step, () => known?.seen ?? false);
    }
    return steps;
  }

  /** Show a told turn from its first step; with animations on, it runs by itself. @param {Told} told */
  show(told) {
    this.skip();
    if (!told.steps.length) return;
    this.told = told;
    this.open = true;
    this.running = this.screen.anim.enabled;
    this.home = { ...this.screen.camera };
    this.go(0);
  }

  /** Show step `i` of the told turn: its words, the camera on its cell, its animation again. @param {number} i */
  go(i) {
    const told = this.told;
    if (!told || i < 0 || i >= told.steps.length) return;
    clearTimeout(this.timer);
    this.index = i;
    const step = told.steps[i];
    const n = told.steps.length;
    this.banner.hidden = false;
    this.banner.innerHTML = `<div class="recap-head"><span class="recap-count">${esc(told.who)}'s turn ${told.turn}${esc(told.score)} · ${i + 1}/${n}</span>`
      + `<button type="button" class="btn ghost" data-recap-step="${i - 1}" aria-label="Previous"${i ? "" : " disabled"}>‹</button>`
      + `<button type="button" class="btn ghost" data-recap-step="${i + 1}" aria-label="Next"${i + 1 < n ? "" : " disabled"}>›</button>`
      + `<button type="button" class="btn ghost" data-recap-close aria-label="Close">✕ <kbd>Esc</kbd></button></div>`
      + `<div class="recap-text">${step.events.map((e) => esc(eventText(e, this.cards))).join(". ")}.</div>`;
    if (step.cell) this.follow.reveal(step.cell);
    if (!this.running) return;
    this.timer = setTimeout(() => {
      this.screen.anim.fromEvents(step.events, step.units, performance.now());
      this.screen.painter.request();
      this.timer = setTimeout(() => (i + 1 < n ? this.go(i + 1) : this.finish()), HOLD_MS);
    }, step.cell ? PAN_MS : 0);
  }

  /** The "What happened" button: the last recap of the seat on screen, every step. */
  again() {
    const told = this.last.get(this.seat);
    if (told) this.show(told);
    return told?.steps.length ?? 0;
  }

  /** Replay the last recap of a seat in full, seen steps included (the benchmark). @param {string} seat */
  replayLast(seat) {
    this.seat = seat;
    return this.again();
  }

  /** The steps ran to their end: the camera glides back. */
  finish() {
    clearTimeout(this.timer);
    this.running = this.open = false;
    this.banner.hidden = true;
    this.follow.stop();
    if (this.home) this.follow.glide(this.home);
    this.home = null;
  }

  /** End the recap at once (Esc, ✕, a tap). @returns {boolean} whether it was running by itself */
  skip() {
    if (!this.open) return false;
    const running = this.running;
    clearTimeout(this.timer);
    this.running = this.open = false;
    this.banner.hidden = true;
    this.follow.stop();
    this.screen.anim.skip();
    if (this.home) this.screen.setCamera(this.home);
    this.home = null;
    return running;
  }
}
