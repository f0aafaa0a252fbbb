// @ts-check
/**
 * Words for people: sides, cards, actions, whose decision it is and why. Pure.
 * These only *word* what the server sent (the decision, its windows, the phase names);
 * nothing here knows a rule, a phase order or a window condition.
 */

/** @typedef {import("./types.js").Action} Action */
/** @typedef {import("./types.js").View} View */
/** @typedef {import("./types.js").CardInfo} CardInfo */
/** @typedef {import("./types.js").Side} Side */
/** @typedef {import("./types.js").Decision} Decision */
/** @typedef {import("./types.js").Window} Window */

import { cardName, endReason, modifierSource, plainWords, sideName, windowName } from "./words.js";

export { cardName, sideName };

/** "NEXT_PHASE" → "Next phase" (js/words.js `plainWords`). @param {string} text */
export function humanize(text) {
  return plainWords(text);
}

/** @param {Map<string, CardInfo>} cards @param {string|null|undefined} id */
export function cardInfo(cards, id) {
  if (!id || id === "?") return null;
  return cards.get(id.split("#")[0]) ?? null;
}

/**
 * A card's text worded for whoever reads it. Card texts speak to the card's owner ("Your
 * opponent picks two of your units"); the owner's opponent reads "You pick two of the
 * Attacker's units" and a spectator "The Defender picks two of the Attacker's units".
 * @param {string} text @param {Side} owner who drew or holds the card @param {Side|null} reader null: a spectator
 */
export function cardTextFor(text, owner, reader) {
  if (reader === owner) return text;
  const other = owner === "ATTACKER" ? "DEFENDER" : "ATTACKER";
  const them = `the ${sideName(owner)}`;
  const opp = reader === other ? null : `the ${sideName(other)}`; // null: the reader is the opponent
  // Words about the opponent first, kept apart (\u0001…) so the owner's "you/your" pass leaves them alone.
  const out = text
    .replace(/\byour opponent picks\b/gi, opp ? `\u0001${opp} picks` : "\u0001you pick")
    .replace(/\byour opponent's\b/gi, opp ? `\u0001${opp}'s` : "\u0001your")
    .replace(/\byour opponent\b/gi, opp ? `\u0001${opp}` : "\u0001you")
    .replace(/(^|[^\u0001])\byour\b/gi, `$1${them}'s`)
    .replace(/(^|[^\u0001])\byou\b/gi, `$1${them}`)
    .replaceAll("\u0001", "");
  return out.charAt(0).toUpperCase() + out.slice(1);
}

/**
 * A modifier source of a roll in words: card ids become card names (js/words.js).
 * @param {Map<string, CardInfo>} cards @param {string} source
 */
export function modifierText(cards, source) {
  return modifierSource(cards, source);
}

/**
 * The server's decision in words: who decides ("You (Attacker)") and what they are doing.
 * @param {Decision} d the `decision` of the state message
 * @param {View} view the position it belongs to (for the winner once the game is over)
 * @param {Side|null} seat  the viewer (null: spectator)
 * @param {Map<string, CardInfo>} cards
 * @param {Action[]} [legal] the actions offered to the viewer, to say what they can do
 * @returns {{who: string, why: string, mine: boolean}}
 */
export function decisionText(d, view, seat, cards, legal = []) {
  if (d.kind === "game_over" || !d.side) {
    return { who: "Game over", why: endReason(view.victory_reason, view.winner).replace(/\.$/, ""), mine: false };
  }
  const mine = d.side === seat;
  const who = mine ? `You (${sideName(d.side)})` : sideName(d.side);
  const card = cardName(cards, d.card);
  const attack = d.attack ? `${d.attack.attacker} → ${d.attack.target}` : "the attack";
  /** @type {Record<string, string>} */
  const words = {
    deploy: "deploy units",
    draw_card: "draw the turn's card",
    play_stored: d.next_phase ? `play stored bonuses or go on to the ${d.next_phase.name} phase` : "play stored bonuses",
    // A bonus the engine does not let its drawer play (nothing to act on) can only be kept or dropped.
    resolve_bonus: `${mine && !legal.some((a) => a.type === "PLAY_BONUS" && (a.stored_index ?? null) === null)
      ? "store or discard" : "play, store or discard"} ${card}`,
    // The drawer's options are in the legal actions; to others, both stay possible.
    resolve_malus: `${!mine || legal.some((a) => a.type === "CANCEL_MALUS") ? "accept or cancel" : "accept"} ${card}`,
    choose_victims: `choose the victims of ${card}`,
    move: "move units",
    declare_attacks: "declare attacks",
    roll: `roll for ${attack}`,
    apply_roll: `apply the roll of ${attack}`,
    finish_turn: "finish the turn",
    react: windowText(d),
  };
  return { who, why: words[d.kind] ?? humanize(d.kind), mine };
}

/**
 * The open reaction windows of a decision in words: "reaction window before the attack roll of A3 → D7".
 * @param {Decision} d
 */
export function windowText(d) {
  if (!d.windows.length) return "react";
  const attack = d.attack ? `${d.attack.attacker} → ${d.attack.target}` : "the attack";
  return `reaction window ${d.windows.map((w) => windowName(w, attack)).join(", ")}`;
}

/**
 * A fallback label for any action: its type in words plus its fields.
 * @param {Action} action
 */
export function genericLabel(action) {
  const fields = Object.entries(action)
    .filter(([key, value]) => key !== "type" && value !== null && !(Array.isArray(value) && !value.length)
      && !(typeof value === "object" && !Array.isArray(value) && !Object.keys(value).length))
    .map(([key, value]) => `${key.replace(/_id$/, "").replace(/_/g, " ")}: ${typeof value === "object" ? JSON.stringify(value) : value}`);
  return fields.length ? `${humanize(action.type)} (${fields.join(", ")})` : humanize(action.type);
}

/**
 * The label of a next-phase button: where it leads, as the server named it.
 * @param {Decision|null} d
 */
export function nextPhaseLabel(d) {
  return d?.next_phase ? `Next: ${d.next_phase.name}` : "Next phase";
}

/** Seconds → "2 min ago" style. @param {number} then seconds since the epoch @param {number} now */
export function ago(then, now) {
  const s = Math.max(0, Math.round(now - then));
  if (s < 60) return `${s}s ago`;
  if (s < 3600) return `${Math.round(s / 60)} min ago`;
  if (s < 86400) return `${Math.round(s / 3600)} h ago`;
  return `${Math.round(s / 86400)} d ago`;
}

/** Escape text for HTML. @param {unknown} text */
export function esc(text) {
  return String(text ?? "").replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}
