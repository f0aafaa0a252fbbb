// @ts-check
/**
 * The match actions (docs/protocol.md) in words for the replay viewer's step line: a
 * resignation, a loss on time, a win claimed from an abandoned seat. How a game ended is
 * worded by js/words.js (`END_REASONS`).
 */

import { humanize, sideName } from "./labels.js";
import { otherSide } from "./words.js";

/** @typedef {import("./types.js").Side} Side */
/** @typedef {import("./types.js").Action} Action */

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
