// @ts-check
/**
 * Words for people: phases, sides, cards, actions, whose decision it is and why. Pure.
 * These only *name* what the server sent; nothing here decides what is legal.
 */

/** @typedef {import("./types.js").Action} Action */
/** @typedef {import("./types.js").View} View */
/** @typedef {import("./types.js").CardInfo} CardInfo */
/** @typedef {import("./types.js").Side} Side */

/** The phases of a turn as the ruler shows them (rules §4.1), with short names. */
export const RULER = /** @type {Array<[string, string]>} */ ([
  ["CARD_DRAW", "Draw"],
  ["CARD_RESOLUTION", "Cards"],
  ["MOVEMENT", "Move"],
  ["ATTACK", "Attack"],
  ["DICE_RESOLUTION", "Dice"],
]);

/** @param {string} phase */
export function phaseName(phase) {
  const found = RULER.find(([p]) => p === phase);
  if (found) return found[1];
  return humanize(phase);
}

/** "NEXT_PHASE" → "Next phase". @param {string} text */
export function humanize(text) {
  const words = String(text).replace(/_/g, " ").toLowerCase();
  return words.charAt(0).toUpperCase() + words.slice(1);
}

/** @param {Side|null|undefined} side */
export function sideName(side) {
  return side ? humanize(side) : "Nobody";
}

/**
 * Card name for an instance id ("air_cover#2"), a card id, or "?" (hidden).
 * @param {Map<string, CardInfo>} cards @param {string|null|undefined} id
 */
export function cardName(cards, id) {
  if (!id) return "";
  if (id === "?") return "a hidden card";
  const info = cards.get(id.split("#")[0]);
  return info ? info.name : humanize(id.split("#")[0]);
}

/** @param {Map<string, CardInfo>} cards @param {string|null|undefined} id */
export function cardInfo(cards, id) {
  if (!id || id === "?") return null;
  return cards.get(id.split("#")[0]) ?? null;
}

/**
 * A modifier source of a roll in words: card ids become card names.
 * @param {Map<string, CardInfo>} cards @param {string} source
 */
export function modifierText(cards, source) {
  const info = cards.get(source);
  if (info) return info.name;
  return source.replace(/_/g, " ");
}

/**
 * What the player about to decide is doing, and why it is their decision (rules §4.4, §9).
 * @param {View} view
 * @param {Side|null} seat  the viewer (null: spectator)
 * @param {Map<string, CardInfo>} cards
 * @param {Action[]} [legal] the actions offered to the viewer, to say what they can do
 * @returns {{who: string, why: string, mine: boolean}}
 */
export function decision(view, seat, cards, legal = []) {
  if (view.phase === "VICTORY" || !view.to_act) {
    const winner = view.winner ? sideName(view.winner) : "Nobody";
    return { who: "Game over", why: `${winner} wins (${humanize(view.victory_reason ?? "end")})`, mine: false };
  }
  const actor = view.to_act;
  const mine = actor === seat;
  const who = mine ? `You (${sideName(actor)})` : sideName(actor);
  const pending = view.pending_card;
  if (view.phase === "DEPLOYMENT") return { who, why: "deploy units", mine };
  if (pending && pending.accepted && actor !== pending.drawer) {
    return { who, why: `choose the victims of ${cardName(cards, pending.card)}`, mine };
  }
  if (actor !== view.active) return { who, why: reactionWhy(view), mine };
  const attack = view.pending_attack;
  switch (view.phase) {
    case "CARD_DRAW":
      return { who, why: "draw the turn's card", mine };
    case "CARD_RESOLUTION":
      if (!pending) return { who, why: "play stored bonuses or go on to movement", mine };
      if (cardInfo(cards, pending.card)?.kind === "malus") {
        const cancel = !mine || legal.some((a) => a.type === "CANCEL_MALUS");
        return { who, why: `${cancel ? "accept or cancel" : "accept"} ${cardName(cards, pending.card)}`, mine };
      }
      return { who, why: `play, store or discard ${cardName(cards, pending.card)}`, mine };
    case "MOVEMENT":
      return { who, why: "move units", mine };
    case "ATTACK":
      return { who, why: "declare attacks", mine };
    case "DICE_RESOLUTION":
      if (!attack) return { who, why: "finish the turn", mine };
      if (view.last_roll) return { who, why: `apply the roll of ${attack.attacker} → ${attack.target}`, mine };
      return { who, why: `roll for ${attack.attacker} → ${attack.target}`, mine };
    default:
      return { who, why: humanize(view.phase), mine };
  }
}

/** Which reaction window gives the reacting player the decision (rules §9.1). @param {View} view */
export function reactionWhy(view) {
  if (view.phase === "MOVEMENT") {
    return view.moves_this_turn === 0 ? "reaction window before the first move" : "reaction window after a move";
  }
  if (view.phase === "DICE_RESOLUTION" && view.pending_attack) {
    const a = view.pending_attack;
    return view.last_roll
      ? `reaction window after the roll of ${a.attacker} → ${a.target}, before damage`
      : `reaction window before the attack roll of ${a.attacker} → ${a.target}`;
  }
  return "reaction";
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
 * The label of a next-phase button: where it leads.
 * @param {string} phase
 */
export function nextPhaseLabel(phase) {
  const i = RULER.findIndex(([p]) => p === phase);
  if (i >= 0 && i + 1 < RULER.length) return `Next: ${RULER[i + 1][1]}`;
  if (phase === "DICE_RESOLUTION") return "Finish turn";
  return "Next phase";
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
