// @ts-check
/**
 * Presence and abandoned seats in words (docs/protocol.md "Presence and abandoned seats"):
 * whether each seat has a socket open, and whether this seat may claim the win from one
 * that left on its own turn. The server decides when a claim is allowed (it lists
 * `CLAIM_VICTORY` in `match_actions`); this only reads it. Pure: js/matchbar.js draws it.
 */

import { sideName } from "./labels.js";

/** @typedef {import("./types.js").Model} Model */
/** @typedef {import("./types.js").Side} Side */
/** @typedef {import("./types.js").Action} Action */

/**
 * Whether a seat has a socket open (null: not known yet).
 * @param {import("./types.js").Presence|null} presence @param {Side} side
 */
export function isPresent(presence, side) {
  if (!presence) return null;
  return side === "ATTACKER" ? presence.attacker : presence.defender;
}

/** @param {Model} model @param {Side} side */
export function presenceTitle(model, side) {
  const here = isPresent(model.presence, side);
  const who = model.seat === side ? "You are" : `${sideName(side)} is`;
  if (here === null) return `${sideName(side)}: not known yet`;
  if (model.botSide === side) return `${sideName(side)} is the bot`;
  return here ? `${who} connected` : `${who} away (no open connection)`;
}

/**
 * Where a claim stands for this seat: nothing to say; the seat to act is away and the claim
 * opens at a server time; or the server allows it now (with the action to send).
 * @typedef {{kind: "none"} | {kind: "waiting", absent: Side, at: number} | {kind: "allowed", absent: Side, action: Action}} Claim
 */

/** @param {Model} model @returns {Claim} */
export function claimState(model) {
  const seat = model.seat;
  const absent = model.toAct;
  if (!seat || !absent || absent === seat || model.status !== "live") return { kind: "none" };
  const action = model.matchActions.find((a) => a.type === "CLAIM_VICTORY" && a.side === seat);
  if (action) return { kind: "allowed", absent, action };
  const at = model.presence?.claim_at ?? null;
  if (at !== null && isPresent(model.presence, absent) === false) return { kind: "waiting", absent, at };
  return { kind: "none" };
}

/**
 * The claim in words at server time `now`.
 * @param {Claim} claim @param {number} now @param {(s: number) => string} format
 */
export function claimText(claim, now, format) {
  if (claim.kind === "none") return "";
  const who = sideName(claim.absent);
  if (claim.kind === "allowed") {
    return `${who} left the game on their turn and has not come back. You may claim the win, or keep waiting for them.`;
  }
  const left = Math.max(0, claim.at - now);
  return `${who} is away on their turn. If they are not back in ${format(left)}, you may claim the win.`;
}

/** The seat's resignation, if the server offers it now. @param {Model} model */
export function resignAction(model) {
  return model.matchActions.find((a) => a.type === "RESIGN" && a.side === model.seat) ?? null;
}
