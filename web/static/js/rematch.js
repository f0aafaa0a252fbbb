// @ts-check
/**
 * The rematch after a game (docs/protocol.md "Rematch"): who offered, who declined, and
 * once accepted, the new match and the seat this tab's token opens there (sides swapped,
 * a fresh seed; the same links). Pure: js/matchbar.js draws it, js/game.js sends choices.
 */

import { sideName } from "./labels.js";

/** @typedef {import("./types.js").Model} Model */

/**
 * What the rematch box shows for this model: words and the choices this seat has.
 * @typedef {{text: string, choices: Array<"offer"|"accept"|"decline">, next: string|null}} RematchView
 */

/** @param {Model} model @returns {RematchView|null} null: no box (the game runs, or a read-only match) */
export function rematchView(model) {
  if (model.status !== "over" || model.kind !== "play" && model.kind !== "watch") return null;
  const r = model.rematch;
  const seat = model.seat;
  if (r?.match_id) {
    return { text: seat ? `Rematch accepted: you play ${sideName(r.seat)} now. Opening it…` : "The players started a rematch.",
      choices: [], next: r.match_id };
  }
  if (!seat) {
    return r?.offered_by ? { text: `${sideName(r.offered_by)} offers a rematch.`, choices: [], next: null } : null;
  }
  if (!r || !r.offered_by && !r.declined_by) return { text: "Play again, sides swapped?", choices: ["offer"], next: null };
  if (r.declined_by) {
    const text = r.declined_by === seat ? "You declined the rematch." : `${sideName(r.declined_by)} declined the rematch.`;
    return { text, choices: ["offer"], next: null };
  }
  if (r.offered_by === seat) return { text: "Rematch offered. Waiting for the answer…", choices: [], next: null };
  return { text: `${sideName(r.offered_by)} offers a rematch, sides swapped.`, choices: ["accept", "decline"], next: null };
}

/** @type {Record<"offer"|"accept"|"decline", string>} */
export const CHOICE_LABELS = { offer: "Offer a rematch", accept: "Accept the rematch", decline: "Decline" };
