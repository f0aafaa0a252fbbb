// @ts-check
/**
 * The previewed board choice (a first touch on a phone, or the keyboard's cursor): what it
 * would do in words, with a button that commits it and one that drops it. The figures (the
 * move's cost, the attack's chance) are the engine's: the bar leaves a slot that js/assist.js
 * fills from its answers (`armedFigures`), as the odds panel does.
 */

import { esc } from "./labels.js";
import { percent } from "./odds.js";
import { actionText } from "./words.js";

/** @typedef {import("./types.js").Model} Model */
/** @typedef {import("./controls.js").Controls} Controls */
/** @typedef {import("./controls.js").Button} Button */
/** @typedef {import("./types.js").CardInfo} CardInfo */

/** What the commit button says, by action type (anything else: "Confirm"). @type {Record<string, string>} */
const COMMIT = { MOVE_UNIT: "Move here", DECLARE_ATTACK: "Attack", DEPLOY_UNIT: "Deploy here" };

/**
 * The bar's buttons: commit (Enter) and cancel (Esc).
 * @param {NonNullable<Controls["armed"]>} armed @returns {[Button, Button]}
 */
export function armedButtons(armed) {
  const commit = { id: "armed:commit", label: COMMIT[armed.action.type] ?? "Confirm", key: "Enter",
    run: /** @type {import("./controls.js").Run} */ ({ kind: "send", action: armed.action }), primary: true, title: "" };
  const cancel = { id: "armed:cancel", label: "Cancel", key: "Escape",
    run: /** @type {import("./controls.js").Run} */ ({ kind: "arm", armed: null }), primary: false, title: "" };
  return [commit, cancel];
}

/**
 * The bar's sentence: "Move A7 to G4", with an empty slot for the engine's figures.
 * @param {NonNullable<Controls["armed"]>} armed @param {Map<string, CardInfo>} cards
 */
export function armedLine(armed, cards) {
  const a = armed.action;
  const words = actionText(a, cards) ?? "Confirm this choice";
  const slot = a.type === "MOVE_UNIT" ? `<span class="armed-figures" data-move="${esc(a.unit_id)}" data-cell="${esc(a.to)}"></span>`
    : a.type === "DECLARE_ATTACK" ? `<span class="armed-figures" data-attacker="${esc(a.attacker_id)}" data-target="${esc(a.target_id)}"></span>`
      : "";
  return `<span class="armed-what">${esc(words.charAt(0).toUpperCase() + words.slice(1))}</span>${slot}`;
}

/**
 * Fill the figures of the bar from the engine's answers: "3 of 4 MP", "58 % to hit · a hit destroys D9".
 * @param {ParentNode} root
 * @param {import("./insight.js").Insight} insight
 */
export function armedFigures(root, insight) {
  for (const el of root.querySelectorAll(".armed-figures")) {
    const slot = /** @type {HTMLElement} */ (el);
    let text = "";
    if (slot.dataset.move) {
      const preview = insight.moves(slot.dataset.move);
      const option = preview?.cells.find((c) => c.cell === slot.dataset.cell);
      if (preview && option) text = `${mp(option.mp)} of ${mp(preview.allowance / 2)} MP`;
    } else if (slot.dataset.attacker && slot.dataset.target) {
      const odds = insight.attack(slot.dataset.attacker, slot.dataset.target)?.odds;
      if (odds) text = `${percent(odds.hit_chance)} to hit${odds.destroy_chance > 0 ? ` · a hit destroys ${odds.target}` : ""}`;
    }
    if (text && slot.textContent !== text) slot.textContent = text;
  }
}

/** @param {number} points */
function mp(points) {
  return Number.isInteger(points) ? String(points) : points.toFixed(1);
}
