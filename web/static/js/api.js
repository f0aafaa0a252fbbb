// @ts-check
/**
 * The HTTP API the client uses (server/api.py, server/replays.py): JSON in, JSON out.
 * Errors come back as `{code, reason}`; `request` turns them into an Error with the reason.
 */

/** @typedef {import("./types.js").CardInfo} CardInfo */

/**
 * @param {string} url @param {any} [body] POST this as JSON when given
 * @returns {Promise<any>}
 */
export async function request(url, body) {
  const init = body === undefined ? {} : { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) };
  const response = await fetch(url, init);
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
 * Card texts and full-strength HP per unit type (loaded once per page).
 * @returns {Promise<{cards: Map<string, CardInfo>, fullHp: Record<string, {hp: number}>}>}
 */
export async function loadCatalog() {
  const [cards, fullHp] = await Promise.all([request("/api/cards"), request("/api/units")]);
  return { cards: new Map(cards.map((/** @type {CardInfo} */ c) => [c.id, c])), fullHp };
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
