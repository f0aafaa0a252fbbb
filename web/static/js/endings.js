// @ts-check
/**
 * How a match ended, and the match actions (docs/protocol.md) in words: a resignation, a
 * loss on time, a win claimed from an abandoned seat. The victory screen (js/hud.js) and
 * the replay viewer's step line call these; the engine's own reasons keep their words.
 */

import { humanize, sideName } from "./labels.js";

/** @typedef {import("./types.js").Side} Side */
/** @typedef {import("./types.js").Action} Action */

/** @param {Side|null} side @returns {Side|null} */
export function otherSide(side) {
  return side === "ATTACKER" ? "DEFENDER" : side === "DEFENDER" ? "ATTACKER" : null;
}

/**
 * Why the game ended, in a sentence for the victory screen ("Defender resigned.").
 * @param {{winner: Side|null, victory_reason: string|null, turn: number}} view
 */
export function endReason(view) {
  const winner = sideName(view.winner);
  const loser = sideName(otherSide(view.winner));
  switch (view.victory_reason) {
    case "resignation": return `${loser} resigned: ${winner} wins.`;
    case "time": return `${loser} ran out of time: ${winner} wins on time.`;
    case "abandonment": return `${loser} left the game and did not come back: ${winner} claimed the win.`;
    default: return `${winner} wins by ${humanize(view.victory_reason ?? "")} after ${view.turn} turns.`;
  }
}

/** The match action types (they name their `side`, and may come from the seat not to act). */
export const MATCH_ACTIONS = new Set(["RESIGN", "CLAIM_VICTORY", "TIMEOUT"]);

/**
 * A match action in words for the replay viewer's step line, or null for a game move.
 * @param {Action|null} action
 */
export function matchActionText(action) {
  if (!action || !MATCH_ACTIONS.has(action.type)) return null;
  const who = sideName(action.side ?? null);
  if (action.type === "RESIGN") return `${who} resigned`;
  if (action.type === "CLAIM_VICTORY") {
    const reason = String(action.reason ?? "abandonment");
    const why = reason === "abandonment" ? `${sideName(otherSide(action.side ?? null))} had left the game` : humanize(reason).toLowerCase();
    return `${who} claimed the win: ${why}`;
  }
  return action.clock === "turn" ? `${who}'s turn clock ran out: the turn was ended for them` : `${who} ran out of time`;
}
