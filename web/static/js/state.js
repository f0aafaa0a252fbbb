// @ts-check
/**
 * The client's view model and the pure functions that update it. No DOM, no sockets:
 * every function takes a model and returns a new one (chessground's headless state).
 */

import { refusal, sideName } from "./words.js";

/** @typedef {import("./types.js").Model} Model */
/** @typedef {import("./types.js").StateMsg} StateMsg */
/** @typedef {import("./types.js").Welcome} Welcome */
/** @typedef {import("./types.js").EventText} EventText */
/** @typedef {import("./types.js").Side} Side */
/** @typedef {import("./types.js").View} View */
/**
 * A state message without the turn's limits: the replay viewer builds these from its steps,
 * and the replay knows no limits, so the HUD shows none.
 * @typedef {Omit<StateMsg, "move_limit" | "attack_limit">} LimitlessStateMsg
 */

const LOG_LIMIT = 400;
const NO_SELECTION = Object.freeze({ unit: null, group: null, picks: [], armed: null });

/**
 * A model before anything arrived from the server.
 * @param {"play"|"watch"|"replay"} kind @param {string} matchId
 * @returns {Model}
 */
export function initialModel(kind, matchId) {
  return {
    kind, matchId, seat: null, mode: "", botSide: null, commitment: "",
    version: -1, status: "connecting", toAct: null, view: null, decision: null, legend: [], legal: [], log: [],
    conn: "connecting", connDetail: "", busy: false, notice: null,
    sel: NO_SELECTION, hover: null, lastMove: null, lastAttack: null, lastRoll: null,
    fresh: [], prevUnits: [], brokenReason: null, received: 0, limits: null,
    clock: null, presence: null, matchActions: [], rematch: null, score: null, openSeat: null,
  };
}

/** @param {Model} model @param {Welcome} msg @returns {Model} */
export function applyWelcome(model, msg) {
  return { ...model, seat: msg.seat, mode: msg.mode, botSide: msg.bot_side, commitment: msg.seed_commitment };
}

/**
 * Take a `state` message. Older versions are ignored; a repeat of the current version
 * (after `sync` or a reconnect) refreshes the position without logging its events twice.
 * @param {Model} model @param {StateMsg | LimitlessStateMsg} msg @param {number} [now]
 * @returns {Model}
 */
export function applyState(model, msg, now = 0) {
  if (msg.version < model.version) return model;
  const advanced = msg.version > model.version;
  const next = {
    ...model,
    version: msg.version,
    status: msg.status,
    toAct: msg.to_act,
    seat: msg.seat,
    view: msg.view,
    decision: msg.decision,
    legend: msg.legend,
    legal: msg.legal_actions,
    busy: advanced ? false : model.busy,
    received: model.received + 1,
    brokenReason: msg.broken_reason,
    limits: "move_limit" in msg ? { moves: msg.move_limit, attacks: msg.attack_limit } : null,
    prevUnits: advanced && model.view ? model.view.units : model.prevUnits,
    fresh: advanced && model.version >= 0 ? msg.events : [],
    // Issue 17: what the server says of time, sockets and rematch (absent in replay steps).
    clock: msg.clock ?? null,
    presence: msg.presence ?? model.presence,
    matchActions: msg.match_actions ?? [],
    rematch: msg.rematch ?? model.rematch,
    score: msg.score ?? null,
    openSeat: msg.open_seat ?? null,
  };
  if (advanced) Object.assign(next, traces(model, msg.events, msg.version, msg.view, now));
  if (advanced) next.log = appendLog(model.log, msg.events, msg.version);
  next.sel = keepSelection(next, model.sel, advanced);
  if (next.notice && now - next.notice.at > 6000) next.notice = null;
  return next;
}

/**
 * Log lines for the events of one version.
 * @param {import("./types.js").LogEntry[]} log @param {EventText[]} events @param {number} version
 */
export function appendLog(log, events, version) {
  const added = events.map((e) => ({ event: e.event, text: e.text, kind: e.event.kind, version, side: e.event.side ?? null }));
  const all = log.concat(added);
  return all.length > LOG_LIMIT ? all.slice(all.length - LOG_LIMIT) : all;
}

/**
 * Put the events of earlier versions (fetched after a reload) before the log's own lines.
 * @param {Model} model @param {Array<{version: number, events: EventText[]}>} steps oldest first
 * @returns {Model}
 */
export function prependLog(model, steps) {
  const first = model.log.length ? model.log[0].version : model.version + 1;
  const older = steps.filter((s) => s.version < first)
    .reduce((log, s) => appendLog(log, s.events, s.version), /** @type {import("./types.js").LogEntry[]} */ ([]));
  return { ...model, log: older.concat(model.log).slice(-LOG_LIMIT) };
}

/**
 * The last move, last attack and last roll after `events`, keeping older ones otherwise.
 * @param {Model} model @param {EventText[]} events @param {number} version @param {View} view
 * @param {number} [now] when they arrived (performance.now(); 0 in a replay)
 */
export function traces(model, events, version, view, now = 0) {
  let { lastMove, lastAttack, lastRoll } = model;
  for (const { event } of events) {
    if (event.kind === "unit_moved" && event.unit && event.from_cell && event.cell) {
      lastMove = { unit: event.unit, from: event.from_cell, to: event.cell, version };
    } else if (event.kind === "dice_rolled" && event.unit && event.target) {
      lastAttack = { unit: event.unit, target: event.target, outcome: null, version, turn: view.turn, at: now };
    } else if ((event.kind === "attack_hit" || event.kind === "attack_missed") && event.unit && event.target) {
      lastAttack = { unit: event.unit, target: event.target, outcome: event.kind === "attack_hit" ? "HIT" : "MISS", version,
        turn: view.turn, at: now };
    }
  }
  if (view.last_roll && view.pending_attack) {
    const roll = view.last_roll;
    const key = `${view.turn}:${view.attack_seq}:${roll.natural}:${roll.modified}:${roll.outcome}`;
    // A roll keeps the version it appeared at until it changes (a re-roll, a modifier played after it).
    const since = lastRoll && lastRoll.key === key ? lastRoll.version : version;
    lastRoll = { ...roll, unit: view.pending_attack.attacker, target: view.pending_attack.target, version: since, key };
  }
  return { lastMove, lastAttack, lastRoll };
}

/**
 * Keep the local selection while it still means something in the new position.
 * @param {Model} model @param {import("./types.js").Selection} sel @param {boolean} advanced
 */
function keepSelection(model, sel, advanced) {
  if (!advanced) return sel;
  const unitStill = sel.unit && model.legal.some((a) => Object.values(a).includes(sel.unit));
  return { unit: unitStill ? sel.unit : null, group: null, picks: [], armed: null };
}

/**
 * A change of connection. An action in flight when the socket went away may or may not have
 * arrived; the state that follows a reconnect tells, so the controls unlock.
 * @param {Model} model @param {string} conn @param {string} [detail] @returns {Model}
 */
export function setConn(model, conn, detail = "") {
  return { ...model, conn, connDetail: detail, busy: conn === model.conn ? model.busy : false };
}

/**
 * A turn ended by its clock, as a notice for `seat` (the game goes on; a lost game says so on
 * its end screen): null when the message holds no such event.
 * @param {StateMsg} msg @param {Side|null} seat
 */
export function timeoutNotice(msg, seat) {
  if (msg.status !== "live") return null;
  const ran = msg.events.find((e) => e.event.kind === "time_ran_out")?.event;
  if (!ran) return null;
  if (ran.side === seat) return "Your turn clock ran out: your turn was ended.";
  const who = sideName(ran.side);
  return `${who}'s turn clock ran out: ${who}'s turn was ended.${msg.to_act === seat && seat ? " Your move." : ""}`;
}

/** @param {Model} model @param {string} text @param {string} level @param {number} now @returns {Model} */
export function notify(model, text, level, now) {
  return { ...model, notice: { text, level, at: now } };
}

/** A rejected action: show why, unlock the controls. @param {Model} model @param {import("./types.js").Reject} msg @param {number} now @returns {Model} */
export function applyReject(model, msg, now) {
  return { ...model, busy: false, notice: { text: refusal(msg.code, msg.reason), level: "error", at: now } };
}

/** @param {Model} model @returns {Model} */
export function markBusy(model) {
  return { ...model, busy: true, sel: NO_SELECTION };
}

/** @param {Model} model @param {string|null} unit @returns {Model} */
export function select(model, unit) {
  return { ...model, sel: { unit, group: null, picks: [], armed: null } };
}

/**
 * Preview a board choice before committing it (a first touch, or the keyboard's cursor): the
 * hover follows it, so its path and cost or its odds show. Null disarms.
 * @param {Model} model @param {import("./types.js").Armed|null} armed @returns {Model}
 */
export function arm(model, armed) {
  return { ...model, sel: { ...model.sel, armed }, hover: armed ? armed.cell : model.hover };
}

/** Start aiming a card (or any grouped choice). @param {Model} model @param {string|null} group @returns {Model} */
export function aim(model, group) {
  return { ...model, sel: { unit: null, group, picks: [], armed: null } };
}

/** @param {Model} model @param {string} value @returns {Model} */
export function addPick(model, value) {
  return { ...model, sel: { ...model.sel, picks: model.sel.picks.concat([value]), armed: null } };
}

/** @param {Model} model @returns {Model} */
export function clearSelection(model) {
  return { ...model, sel: NO_SELECTION };
}

/** @param {Model} model @param {string|null} cell @returns {Model} */
export function setHover(model, cell) {
  return model.hover === cell ? model : { ...model, hover: cell };
}

/**
 * Units on the board by cell label.
 * @param {View|null} view
 * @returns {Map<string, import("./types.js").Unit>}
 */
export function unitsByCell(view) {
  const map = new Map();
  for (const unit of view?.units ?? []) if (unit.cell) map.set(unit.cell, unit);
  return map;
}

/** @param {View|null} view @param {string} id */
export function unitById(view, id) {
  return view?.units.find((u) => u.id === id) ?? null;
}

/**
 * This seat's player state and the opponent's (spectators: attacker then defender).
 * @param {View} view @param {Side|null} seat
 */
export function sides(view, seat) {
  const mineIndex = seat === "DEFENDER" ? 1 : 0;
  return { mine: view.players[mineIndex], theirs: view.players[1 - mineIndex] };
}

/*
 * Issue 17: messages between states (docs/protocol.md): the clock starting or stopping, a
 * seat's socket coming or going, a rematch offer and its answer.
 */

/** @param {Model} model @param {import("./types.js").ClockMsg} msg @returns {Model} */
export function applyClock(model, msg) {
  return { ...model, clock: msg.clock };
}

/** @param {Model} model @param {import("./types.js").PresenceMsg} msg @returns {Model} */
export function applyPresence(model, msg) {
  return { ...model, presence: msg.presence };
}

/** @param {Model} model @param {import("./types.js").RematchMsg} msg @returns {Model} */
export function applyRematch(model, msg) {
  return { ...model, rematch: msg.rematch };
}
