// @ts-check
/**
 * The end screen: who won and why in words, the final victory points, and a turn-by-turn
 * summary whose rows open the replay at that turn. The turns come from the server's
 * history of the match (`GET /api/matches/{id}/history`, server/history.py); without it the
 * screen still says who won and why.
 *
 * Why the game ended is worded by js/words.js (`endReason`): the rules' conditions (§10) and
 * the match actions (a resignation, a clock, an abandoned seat); an unknown reason still
 * reads sensibly.
 */

import { esc, sideName } from "./labels.js";
import { vpText } from "./score.js";
import { endReason, eventText } from "./words.js";

/** @typedef {import("./types.js").Model} Model */
/** @typedef {import("./types.js").Side} Side */

/**
 * @typedef {{turn: number, side: Side, step: number, moves: number, hits: number, misses: number,
 *   destroyed: string[], highlights: string[], events?: import("./types.js").GameEvent[], vp: Record<string, number>}} TurnSummary
 * @typedef {{step: number, turn: number, seq: number, side: Side, attacker: string, target: string, natural: number,
 *   modified: number, required: number, distance: number, outcome: "HIT"|"MISS",
 *   modifiers: import("./types.js").Modifier[]}} DiceRoll
 * @typedef {{match_id: string, steps: number, rolls: DiceRoll[], turns: TurnSummary[], winner: Side|null,
 *   victory_reason: string|null}} MatchHistory
 */

/**
 * The end screen's markup.
 * @param {Model} model the final position @param {MatchHistory|null} history
 * @param {Map<string, import("./types.js").CardInfo>} cards card names, for the turns' notes
 */
export function endScreen(model, history, cards) {
  const view = /** @type {import("./types.js").View} */ (model.view);
  const won = !!model.seat && view.winner === model.seat;
  const title = model.seat ? (won ? "Victory!" : "Defeat") : `${sideName(view.winner)} wins`;
  const id = encodeURIComponent(model.matchId);
  // The final score in the words of the top bar and the recap: "VP 2 – 3", Attacker first.
  const points = model.score?.vp ?? history?.turns.at(-1)?.vp;
  const vp = points
    ? `<p class="finalvp" aria-label="${esc(vpText(points))}"><span class="vp-label">VP</span>${["ATTACKER", "DEFENDER"].map((s) =>
      `<span class="side-${s}">${sideName(/** @type {Side} */ (s))} <b>${points[s] ?? 0}</b></span>`).join("<span>–</span>")}</p>`
    : "";
  const losses = view.players.map((p) => `${sideName(p.side)}: ${p.destroyed.length} unit${p.destroyed.length === 1 ? "" : "s"} lost`).join(" · ");
  return `<div class="card-panel endscreen"><h1 class="${won ? "won" : ""}">${esc(title)}</h1>
    <p class="reason" data-reason="${esc(view.victory_reason ?? "")}">${esc(endReason(view.victory_reason, view.winner))}</p>
    ${vp}<p class="muted">${esc(losses)} · ${view.turn} turns</p>
    ${history ? turnTable(history, id, cards) : `<p class="muted turns-loading">Loading the turn summary…</p>`}
    <div class="btns"><a class="btn primary" href="/replay/${id}">Watch the replay &amp; verify the dice</a>
    <a class="btn" href="/api/matches/${id}/record" download="taktik-${esc(model.matchId)}.json">Download record</a>
    <a class="btn" href="/">New game</a><button type="button" class="btn ghost" data-close>See the board</button></div></div>`;
}

/**
 * @param {MatchHistory} history @param {string} id the match id, URL-encoded
 * @param {Map<string, import("./types.js").CardInfo>} cards
 */
function turnTable(history, id, cards) {
  const rows = history.turns.map((t) => {
    const bits = [t.moves ? `${t.moves} move${t.moves === 1 ? "" : "s"}` : "",
      t.hits ? `${t.hits} hit${t.hits === 1 ? "" : "s"}` : "", t.misses ? `${t.misses} miss${t.misses === 1 ? "" : "es"}` : "",
      t.destroyed.length ? `destroyed ${t.destroyed.join(", ")}` : ""].filter(Boolean).join(" · ") || "no moves or attacks";
    // Cards and captures (hits and misses are counted already), in player words.
    const notes = (t.events ?? []).filter((e) => e.kind !== "attack_hit" && e.kind !== "attack_missed" && e.kind !== "unit_destroyed")
      .slice(0, 3).map((event) => eventText({ event }, cards)).join("; ");
    return `<tr><td><a href="/replay/${id}#step=${t.step}" title="Open the replay at turn ${t.turn}">Turn ${t.turn}</a></td>
      <td class="side-${t.side}">${esc(sideName(t.side))}</td><td>${esc(bits)}${notes ? `<small>${esc(notes)}</small>` : ""}</td>
      <td class="vp">${t.vp.ATTACKER ?? 0}–${t.vp.DEFENDER ?? 0}</td></tr>`;
  });
  return `<div class="turns"><table><thead><tr><th>Turn</th><th>Side</th><th>What happened</th><th title="Victory points after the turn: Attacker–Defender">VP</th></tr></thead>
    <tbody>${rows.join("")}</tbody></table></div>`;
}
