// @ts-check
/**
 * The two clocks as the client shows them. The server keeps time and is the judge (a
 * timeout is an action in the log); the client only counts down between messages, from
 * the server's snapshot of both clocks, so the numbers a player sees match what the server
 * will decide within a network round trip. Pure: no DOM, no timers; js/matchbar.js draws.
 *
 * Latency: every snapshot carries the server's time when it was sent. A `state` answering
 * something the client sent (`hello`, `sync`, its own `act`) closes a round trip,
 * and the best of those (Cristian's method: the shortest round trip) gives the offset
 * between the server's clock and this page's. Until one arrives, a one-way message gives a
 * lower bound (the message cannot have arrived before it was sent).
 */

/** @typedef {import("./types.js").Side} Side */
/** @typedef {import("./types.js").ClockState} ClockState */

/**
 * What the page knows about the server's clock: `offset` (server seconds minus local
 * seconds), the round trip it came from (`rtt`, Infinity: none yet) and `floor`, the
 * smallest offset any message allows (a message cannot arrive before it was sent).
 * @typedef {{offset: number, rtt: number, floor: number, samples: number}} TimeSync
 */

/** @type {TimeSync} */
export const NO_SYNC = Object.freeze({ offset: Number.NaN, rtt: Infinity, floor: -Infinity, samples: 0 });

/** Seconds since the epoch on this page's own clock, monotonic within the page. */
export function localNow() {
  return (performance.timeOrigin + performance.now()) / 1000;
}

/**
 * Fold one timestamped message into the sync.
 * @param {TimeSync} sync
 * @param {number} serverTime the server's time when it made the message (seconds)
 * @param {number} received local time it arrived (seconds)
 * @param {number|null} [sent] local time the request it answers left (null: not an answer)
 * @returns {TimeSync}
 */
export function addSample(sync, serverTime, received, sent = null) {
  if (!Number.isFinite(serverTime) || !Number.isFinite(received)) return sync;
  const floor = Math.max(sync.floor, serverTime - received);
  let { offset, rtt } = sync;
  if (sent !== null && received >= sent && received - sent <= rtt) {
    // The answer was made about half a round trip before it arrived; the shortest trip is the surest.
    rtt = received - sent;
    offset = serverTime + rtt / 2 - received;
  }
  if (Number.isNaN(offset) || offset < floor) offset = floor;
  return { offset, rtt, floor, samples: sync.samples + 1 };
}

/** The server's time now, as far as this page can tell. @param {TimeSync} sync @param {number} local */
export function serverNow(sync, local) {
  return local + (Number.isNaN(sync.offset) ? 0 : sync.offset);
}

/** @param {Side} side @returns {"attacker"|"defender"} */
const key = (side) => (side === "DEFENDER" ? "defender" : "attacker");

/**
 * Seconds left on one side's clock at server time `now`: the snapshot's figure, less the
 * time since the snapshot if that clock is running. Never below zero; at zero the server
 * appends the timeout.
 * @param {ClockState} clock @param {Side} side @param {number} now server time (seconds)
 */
export function remaining(clock, side, now) {
  const left = clock.remaining_ms[key(side)] / 1000;
  if (clock.running !== side) return Math.max(0, left);
  return Math.max(0, left - Math.max(0, now - clock.server_time));
}

/**
 * The budget a clock starts from (seconds): the time per turn, or the initial time.
 * @param {{initial_ms: number|null, per_turn_ms: number|null}} clock
 */
export function budget(clock) {
  return (clock.per_turn_ms ?? clock.initial_ms ?? 0) / 1000;
}

/**
 * Below this many seconds a clock warns: a tenth of the budget, at least 10 s and at most a
 * day (a correspondence game of a week warns on its last day).
 * @param {{initial_ms: number|null, per_turn_ms: number|null}} clock
 */
export function lowThreshold(clock) {
  return Math.min(86400, Math.max(10, budget(clock) * 0.1));
}

/**
 * A clock in words a player reads at a glance: days and hours for correspondence, h:mm:ss,
 * m:ss, and tenths in the last ten seconds.
 * @param {number} seconds
 */
export function formatClock(seconds) {
  const s = Math.max(0, seconds);
  if (s >= 86400) {
    const days = Math.floor(s / 86400);
    const hours = Math.floor((s % 86400) / 3600);
    return `${days}d ${String(hours).padStart(2, "0")}h`;
  }
  if (s >= 3600) {
    const h = Math.floor(s / 3600);
    const m = Math.floor((s % 3600) / 60);
    return `${h}:${String(m).padStart(2, "0")}:${String(Math.floor(s % 60)).padStart(2, "0")}`;
  }
  if (s < 10) return (Math.floor(s * 10) / 10).toFixed(1);
  const m = Math.floor(s / 60);
  return `${m}:${String(Math.floor(s % 60)).padStart(2, "0")}`;
}

/**
 * The clock's settings in words, for the lobby and the top bar ("5 min + 3 s",
 * "2 min per turn", "3 days per turn").
 * @param {{initial?: number|null, increment?: number|null, per_turn?: number|null}|null|undefined} c seconds
 */
export function describeClock(c) {
  if (!c) return "no clock";
  /** @param {number} s */
  const span = (s) => s % 86400 === 0 ? plural(s / 86400, "day") : s % 3600 === 0 ? plural(s / 3600, "hour")
    : s % 60 === 0 ? `${s / 60} min` : `${s} s`;
  if (c.per_turn) return `${span(c.per_turn)} per turn`;
  if (c.initial) return c.increment ? `${span(c.initial)} + ${c.increment} s` : span(c.initial);
  return "no clock";
}

/** @param {number} n @param {string} word */
function plural(n, word) {
  return `${n} ${word}${n === 1 ? "" : "s"}`;
}

/** The settings of a state's clock in words. @param {ClockState} clock */
export function describeState(clock) {
  /** @param {number|null} ms */
  const s = (ms) => (ms === null ? null : Math.round(ms / 1000));
  return describeClock({ initial: s(clock.initial_ms), increment: s(clock.increment_ms), per_turn: s(clock.per_turn_ms) });
}

/**
 * What to draw for one clock at one instant.
 * @typedef {{side: Side, seconds: number, text: string, running: boolean, low: boolean, out: boolean}} ClockFace
 */

/**
 * Both faces at server time `now` (attacker first).
 * @param {ClockState} clock @param {number} now
 * @returns {ClockFace[]}
 */
export function faces(clock, now) {
  const low = lowThreshold(clock);
  return /** @type {Side[]} */ (["ATTACKER", "DEFENDER"]).map((side) => {
    const seconds = remaining(clock, side, now);
    return { side, seconds, text: formatClock(seconds), running: clock.running === side, low: seconds <= low, out: seconds <= 0 };
  });
}
