// @ts-check
/**
 * The lobby's clock presets and open challenges: the clock a new match is created with
 * (none, blitz, rapid, per turn, or correspondence measured in days), the "open challenge"
 * opt-in, and the list of matches waiting for a second player, each joined with one click.
 */

import { request } from "./api.js";
import { describeClock } from "./clock.js";
import { ago, esc, sideName } from "./labels.js";

/** @typedef {import("./types.js").ClockSpec} ClockSpec */
/** @typedef {import("./api.js").MatchSummary} MatchSummary */

/**
 * The presets offered when a match is created (`POST /api/matches` `clock`). Correspondence
 * takes its days from the picker next to it.
 * @type {Array<{id: string, label: string, spec: ClockSpec|null}>}
 */
export const PRESETS = [
  { id: "none", label: "No clock", spec: null },
  { id: "blitz", label: "Blitz 5 + 3", spec: { initial: 300, increment: 3 } },
  { id: "rapid", label: "Rapid 15 + 10", spec: { initial: 900, increment: 10 } },
  { id: "turn", label: "2 min per turn", spec: { per_turn: 120 } },
  { id: "days", label: "Correspondence", spec: { per_turn: 86400 } },
];
const DAYS = [1, 2, 3, 5, 7];

/** The clock fieldset of the create form. */
export const CLOCK_FIELDS = `
<fieldset class="clockpick">
  <legend>Clock</legend>
  ${PRESETS.map((p, i) => `<label class="preset"><input type="radio" name="clock" value="${p.id}"${i === 0 ? " checked" : ""}> ${esc(p.label)}</label>`).join("")}
  <label class="days" title="Correspondence: time per turn"><select name="days" aria-label="Days per turn">${DAYS.map((d) => `<option value="${d}"${d === 3 ? " selected" : ""}>${d} day${d === 1 ? "" : "s"}</option>`).join("")}</select> per turn</label>
</fieldset>
<label class="openchallenge"><input type="checkbox" name="open"> Open challenge: list it in the lobby for anyone to take the other seat (against a person)</label>`;

/**
 * The clock chosen in the form, as the server takes it (null: no clock).
 * @param {ParentNode} root
 * @returns {ClockSpec|null}
 */
export function chosenClock(root) {
  const picked = /** @type {HTMLInputElement|null} */ (root.querySelector("[name=clock]:checked"))?.value ?? "none";
  const preset = PRESETS.find((p) => p.id === picked);
  if (!preset?.spec) return null;
  if (picked === "days") {
    const days = Number(/** @type {HTMLSelectElement} */ (root.querySelector("[name=days]")).value);
    return { per_turn: days * 86400 };
  }
  return { ...preset.spec };
}

/** @param {ParentNode} root */
export function wantsOpenChallenge(root) {
  return /** @type {HTMLInputElement|null} */ (root.querySelector("[name=open]"))?.checked ?? false;
}

/**
 * List the open challenges (`GET /api/challenges`: match summaries) into `el`, newest first; `mine` are the
 * match ids this browser already holds a seat of (shown, but not to be joined).
 * @param {HTMLElement} el @param {Set<string>} mine
 */
export async function listChallenges(el, mine) {
  /** @type {MatchSummary[]} */
  let rows;
  try {
    rows = (await request("/api/challenges")).challenges;
  } catch (err) {
    el.innerHTML = `<p class="error">${esc(/** @type {Error} */ (err).message)}</p>`;
    return;
  }
  if (!rows.length) {
    el.innerHTML = `<p class="muted">No open challenges. Create one: tick “Open challenge” and play against a person.</p>`;
    return;
  }
  const now = Date.now() / 1000;
  el.innerHTML = `<table class="matches challenges"><thead><tr><th>Match</th><th>You play</th><th>Clock</th><th>Waiting</th><th></th></tr></thead><tbody>${
    rows.map((c) => {
      const own = mine.has(c.match_id);
      const action = own ? `<span class="muted">yours</span>`
        : `<button type="button" class="btn primary" data-join="${esc(c.match_id)}">Join</button>`;
      return `<tr data-challenge="${esc(c.match_id)}"><td><code>${esc(c.match_id.slice(0, 8))}</code></td>
        <td class="side-${esc(c.open_seat ?? "")}">${esc(sideName(c.open_seat))}</td><td>${esc(describeClock(c.clock))}</td><td class="muted">${esc(ago(c.created_at, now))}</td><td>${action}</td></tr>`;
    }).join("")}</tbody></table>`;
}

/**
 * Take the open seat of a challenge; the answer is a creation answer holding that seat's link.
 * @param {string} matchId
 * @returns {Promise<import("./api.js").MatchCreated>}
 */
export function joinChallenge(matchId) {
  return request(`/api/challenges/${encodeURIComponent(matchId)}/join`, {});
}
