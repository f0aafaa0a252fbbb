// @ts-check
/**
 * The replay viewer's view model: which record, whose eyes, the pages of steps loaded so far,
 * which step is shown and whether it plays. No DOM, no fetch, no timers: every function
 * takes a replay and returns a new one or a fact about it (like js/state.js for a live match);
 * js/replay.js does the requests and js/replaybar.js draws the bar.
 */

import { formatClock } from "./clock.js";
import { matchActionText } from "./endings.js";
import { genericLabel, sideName } from "./labels.js";
import { actionText, eventText } from "./words.js";
import { applyState, initialModel, setConn } from "./state.js";

/** @typedef {import("./types.js").Model} Model */
/** @typedef {import("./api.js").GameRecord} GameRecord */
/** @typedef {import("./api.js").RecordView} RecordView */
/** @typedef {import("./api.js").Perspective} Perspective */
/** @typedef {import("./api.js").ReplayPage} ReplayPage */
/** @typedef {import("./api.js").ReplayStep} ReplayStep */
/** @typedef {import("./api.js").Verification} Verification */
/** @typedef {import("./state.js").LimitlessStateMsg} LimitlessStateMsg */

export const PAGE_SIZE = 500;
export const SPEEDS = [1400, 700, 300, 120]; // ms per step: slow, normal, fast, fastest

/**
 * @typedef {object} Replay
 * @property {string} matchId a match id, or "file" for a record file opened in the lobby
 * @property {GameRecord|null} record what the server replays (null until opened)
 * @property {RecordView|null} revealed the match's revealed seed and salt, for "Verify dice"
 * @property {Perspective} perspective whose eyes the pages were loaded with
 * @property {number} pageSize steps per request
 * @property {(ReplayStep|undefined)[]} steps the loaded pages, by step number (holes not loaded yet)
 * @property {number} total positions that replay (actions + 1); 0 before the first page
 * @property {import("./types.js").LegendEntry[]} legend what each map character is, as the server sent it
 * @property {Verification|null} verification the server's check of the stored hashes
 * @property {number} index the step shown (-1: none from the current pages yet)
 * @property {boolean} playing
 * @property {number} speed an index into SPEEDS
 */

/** A replay of `matchId` with nothing loaded. @param {string} matchId @param {number} [pageSize] @returns {Replay} */
export function initialReplay(matchId, pageSize = PAGE_SIZE) {
  return { matchId, record: null, revealed: null, perspective: "spectator", pageSize, steps: [], total: 0, legend: [],
    verification: null, index: 0, playing: false, speed: 1 };
}

/**
 * A parsed record file: either what `GET /api/matches/{id}/record` answers (with the seed to
 * verify) or a bare `taktik replay` record.
 * @param {RecordView|GameRecord} data
 * @returns {{revealed: RecordView|null, record: GameRecord}}
 */
export function readRecordFile(data) {
  return "record" in data && data.record ? { revealed: data, record: data.record } : { revealed: null, record: /** @type {GameRecord} */ (data) };
}

/** @param {Replay} r @param {RecordView|null} revealed @param {GameRecord} record @returns {Replay} */
export function withRecord(r, revealed, record) {
  return { ...r, revealed, record };
}

/** Look through other eyes: the loaded pages no longer apply. @param {Replay} r @param {Perspective} perspective @returns {Replay} */
export function withPerspective(r, perspective) {
  return { ...r, perspective, steps: [], index: -1 };
}

/** Fold in a page the server answered. @param {Replay} r @param {ReplayPage} page @returns {Replay} */
export function withPage(r, page) {
  const steps = r.steps.slice();
  for (const s of page.steps) steps[s.step] = s;
  return { ...r, steps, total: page.total, legend: page.legend, verification: page.verification };
}

/** The first step of every page still missing to show step `i`. @param {Replay} r @param {number} i @returns {number[]} */
export function pagesToLoad(r, i) {
  const starts = [];
  for (let start = 0; start <= i; start += r.pageSize) {
    if (!(r.steps[start] && r.steps[Math.min(r.total - 1, start + r.pageSize - 1)])) starts.push(start);
  }
  return starts;
}

/** The nearest step that exists. @param {Replay} r @param {number} i */
export function clampStep(r, i) {
  return Math.max(0, Math.min(r.total - 1, i));
}

/** A step by number, or a move relative to the shown one. @typedef {"first"|"prev"|"next"|"last"|number} Go */

/** The step `to` leads to from the shown one, within the record. @param {Replay} r @param {Go} to */
export function targetStep(r, to) {
  const i = to === "first" ? 0 : to === "prev" ? r.index - 1 : to === "next" ? r.index + 1 : to === "last" ? r.total - 1 : to;
  return clampStep(r, i);
}

/** @param {Replay} r */
export function atEnd(r) {
  return r.index >= r.total - 1;
}

/** @param {Replay} r @param {number} index @returns {Replay} */
export function atStep(r, index) {
  return { ...r, index };
}

/** @param {Replay} r @param {boolean} playing @returns {Replay} */
export function withPlaying(r, playing) {
  return { ...r, playing };
}

/** @param {Replay} r @param {number} speed an index into SPEEDS @returns {Replay} */
export function withSpeed(r, speed) {
  return { ...r, speed };
}

/** Milliseconds per step while playing. @param {Replay} r */
export function stepDelay(r) {
  return SPEEDS[r.speed] ?? 700;
}

/** Step `k` as the state message a live match would have sent. @param {Replay} r @param {number} k @returns {LimitlessStateMsg} */
export function stateMessage(r, k) {
  const s = /** @type {ReplayStep} */ (r.steps[k]);
  const over = s.decision.kind === "game_over";
  return { type: "state", match_id: r.matchId, version: k, status: over ? "over" : "live", seat: null, to_act: s.to_act,
    legal_actions: [], last_seq: 0, view: s.state, events: s.events, decision: s.decision, legend: r.legend,
    broken_reason: null, score: s.score ?? null };
}

/** The board's model at step `i`, folded from the start so the log and traces are as they were. @param {Replay} r @param {number} i @returns {Model} */
export function modelAt(r, i) {
  let m = setConn(initialModel("replay", r.matchId), "replay");
  for (let k = 0; k <= i && r.steps[k]; k++) m = applyState(m, stateMessage(r, k), 0);
  return m;
}

/**
 * The board's model for step `target`, from the one shown (`before`): one step forward folds
 * in just that step, any other jump folds again from the start.
 * @param {Replay} r @param {Model} before @param {number} target @returns {Model}
 */
export function modelFor(r, before, target) {
  const follows = target === r.index + 1 && before.version === r.index;
  return follows ? applyState(before, stateMessage(r, target), 0) : modelAt(r, target);
}

/**
 * The shown step in words: its number, the action that led there and who took it, and the
 * first of its events (phase changes left out: the ruler shows those).
 * @param {Replay} r @param {Map<string, import("./types.js").CardInfo>} cards
 * @returns {{step: number, last: number, what: string, texts: string[]}}
 */
export function stepSummary(r, cards) {
  const s = r.steps[r.index];
  const prev = r.steps[r.index - 1];
  const who = prev ? sideName(prev.to_act) : "";
  const what = s?.action ? matchActionText(s.action) ?? `${who}: ${actionText(s.action, cards) ?? genericLabel(s.action)}` : "Starting position";
  const texts = (s?.events ?? []).filter((e) => e.event.kind !== "phase_entered").map((e) => eventText(e, cards));
  return { step: r.index, last: Math.max(0, r.total - 1), what, texts: texts.slice(0, 3) };
}

/**
 * Both clocks after the shown step and the time its action took, in words, from the
 * record answer's `clocks` and `elapsed_ms` (null: the match had no clock, or a bare record file).
 * @param {Replay} r @returns {{attacker: string, defender: string, took: string|null}|null}
 */
export function stepClocks(r) {
  const at = r.revealed?.clocks?.[r.index];
  if (!at) return null;
  const took = r.index > 0 ? r.revealed?.elapsed_ms?.[r.index - 1] ?? null : null;
  return { attacker: formatClock(at.attacker / 1000), defender: formatClock(at.defender / 1000),
    took: took === null ? null : formatClock(took / 1000) };
}

/** A hot-seat match can start from the shown step: there is a record and the game is not over there. @param {Replay} r */
export function canFork(r) {
  return Boolean(r.record) && r.steps[r.index]?.decision.kind !== "game_over";
}

/** The revealed seed and salt are there to check against the commitment. @param {Replay} r */
export function canVerifyDice(r) {
  return Boolean(r.revealed && r.revealed.seed !== null && r.revealed.salt);
}
