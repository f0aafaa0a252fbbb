// @ts-check
/**
 * The HTTP API the client uses (server/api.py, server/replays.py): JSON in, JSON out.
 * Errors come back as `{code, reason}`; `request` turns them into an Error with the reason.
 */

/** @typedef {import("./types.js").CardInfo} CardInfo */
/** @typedef {import("./types.js").Side} Side */
/** @typedef {import("./types.js").Action} Action */
/** @typedef {import("./types.js").View} View */
/** @typedef {import("./types.js").EventText} EventText */

/*
 * What the endpoints answer (server/api.py, server/replays.py, server/records.py), the parts
 * the client reads.
 */
/** @typedef {{seat: Side, token: string, path: string, url: string}} SeatLink */
/**
 * @typedef {{match_id: string, status: "live"|"over"|"broken"|"other_rules", mode: string, bot_side: Side|null,
 *   bot: string|null, rules_version: string, created_at: number, updated_at: number, version: number, turn: number,
 *   phase: string, to_act: Side|null, winner: Side|null, victory_reason: string|null, broken_reason: string|null,
 *   clock?: import("./types.js").ClockSettings|null, open_seat?: Side|null}} MatchSummary
 */
/** @typedef {{match_id: string, seats: SeatLink[], spectator: {path: string, url: string}, summary: MatchSummary}} MatchCreated */
/** @typedef {{config: {seed?: number|null}, actions: Action[], hashes?: string[]|null, rules_version?: number}} GameRecord */
/**
 * `clocks[k]`: both clocks after k actions (ms); `elapsed_ms[k]`: the time action k+1 took (issue 17; null: no clock).
 * @typedef {{match_id: string, status: string, seed_commitment: string, seed: number|null, salt: string|null, record: GameRecord,
 *   clocks?: Array<{attacker: number, defender: number}>|null, elapsed_ms?: Array<number|null>|null}} RecordView
 */
/** @typedef {"spectator"|"full"|"ATTACKER"|"DEFENDER"} Perspective */
/** @typedef {{step: number, action: Action|null, to_act: Side|null, state: View, events: EventText[], decision: import("./types.js").Decision,
 *   score?: import("./types.js").Score}} ReplayStep */
/** @typedef {{status: "verified"|"unverified"|"failed", steps: number, actions: number, error: string|null, failed_step: number|null}} Verification */
/** @typedef {{total: number, start: number, view: Perspective, verification: Verification, steps: ReplayStep[], legend: import("./types.js").LegendEntry[]}} ReplayPage */

/**
 * The answer is whatever JSON the endpoint sends, typed `any` like `Response.json()`: the
 * caller names its shape by assigning it to a variable typed with one of the typedefs above.
 * @param {string} url @param {unknown} [body] POST this as JSON when given
 * @returns {Promise<any>}
 */
export async function request(url, body) {
  const init = body === undefined ? {} : { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) };
  return answer(await fetch(url, init));
}

/**
 * The JSON of an answer; its `reason` as the error when it is not OK.
 * @param {Response} response
 * @returns {Promise<any>}
 */
async function answer(response) {
  let data = null;
  try {
    data = await response.json();
  } catch {
    data = null;
  }
  if (!response.ok) throw new Error(data?.reason ?? `HTTP ${response.status}`);
  return data;
}

/**
 * Card texts and the unit table: full-strength HP and VP per unit type (loaded once per page).
 * @returns {Promise<{cards: Map<string, CardInfo>, fullHp: Record<string, {hp: number, vp: number}>}>}
 */
export async function loadCatalog() {
  // Board pages ask for both in index.html's first script, before any module has loaded: taken once.
  const win = /** @type {Window & {taktikCatalog?: Partial<Record<string, Promise<Response>>>}} */ (window);
  const early = win.taktikCatalog ?? {};
  delete win.taktikCatalog;
  const load = (/** @type {string} */ url) => early[url]?.then(answer) ?? request(url);
  /** @type {[CardInfo[], Record<string, {hp: number, vp: number}>]} */
  const [cards, fullHp] = await Promise.all([load("/api/cards"), load("/api/units")]);
  return { cards: new Map(cards.map((c) => [c.id, c])), fullHp };
}

/** Seat tokens this browser holds, per match (so a reload or the lobby can resume). */
const KEY = "taktik.seats";

/** @returns {Record<string, string[]>} */
export function storedSeats() {
  try {
    return JSON.parse(localStorage.getItem(KEY) ?? "{}") ?? {};
  } catch {
    return {};
  }
}

/** @param {string} matchId @param {string[]} tokens */
export function rememberSeats(matchId, tokens) {
  const all = storedSeats();
  all[matchId] = tokens;
  const ids = Object.keys(all);
  for (const old of ids.slice(0, Math.max(0, ids.length - 50))) delete all[old];
  localStorage.setItem(KEY, JSON.stringify(all));
}

/**
 * The play link for tokens: one token is one seat; two (hot-seat) are joined by a dot.
 * Tokens only ever travel in the URL fragment, which browsers never send to a server.
 * @param {string} matchId @param {string[]} tokens
 */
export function playPath(matchId, tokens) {
  return `/play/${encodeURIComponent(matchId)}#${tokens.join(".")}`;
}
