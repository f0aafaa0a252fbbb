// @ts-check
/**
 * "Hint": ask the server's bot what it would play for this seat now, and why. The server
 * works it out from this seat's own view (docs/protocol.md, `hint`), so it reveals nothing
 * the seat could not see; the answer names one of the seat's legal actions and gives the
 * reason in words (the odds it expects, the card's effect, its win estimate).
 *
 * `HintBox` owns a button and an answer line in the board's extra slot. The game hands it
 * a way to ask the socket a question (`MatchSocket.ask`, answers matched by `id`) and the
 * model after every update (`update`); an answer for an older version than the one shown is
 * dropped.
 */

import { esc, genericLabel } from "./labels.js";
import { actionText } from "./words.js";

/** @typedef {import("./types.js").Model} Model */
/** @typedef {import("./types.js").Action} Action */
/**
 * The server's answer to `hint` (server/protocol.py HintAnswer).
 * @typedef {{type: "hint", id: number, version: number, action: Action|null, reason: string|null,
 *   problem: string|null}} HintAnswer
 */

const BOX = `
<div class="hintbox">
  <button type="button" class="btn" data-hint title="What would the bot play here, and why?">Hint</button>
  <div class="hint-answer" aria-live="polite" hidden></div>
</div>`;

export class HintBox {
  /**
   * @param {HTMLElement} host the board's extra slot
   * @param {(query: {type: "hint"}) => Promise<HintAnswer|null>} question asks on the socket of the
   *   seat on screen; null when offline or the socket closed before the answer
   * @param {Map<string, import("./types.js").CardInfo>} cards card names, to word the bot's choice
   */
  constructor(host, question, cards) {
    this.cards = cards;
    host.insertAdjacentHTML("beforeend", BOX);
    this.root = /** @type {HTMLElement} */ (host.querySelector(".hintbox:last-child"));
    this.button = /** @type {HTMLButtonElement} */ (this.root.querySelector("[data-hint]"));
    this.out = /** @type {HTMLElement} */ (this.root.querySelector(".hint-answer"));
    this.root.hidden = true;
    this.question = question;
    this.asked = 0; // how many times the button asked: only the latest answer is shown
    this.version = -1;
    this.onClick = () => this.ask();
    this.button.addEventListener("click", this.onClick);
  }

  /** Show the button only while this seat must decide; forget an answer once the match moved on. @param {Model} model */
  update(model) {
    const mine = model.kind === "play" && model.legal.length > 0 && !model.busy && !model.public; // a public hot-seat screen keeps the hand hidden
    this.root.hidden = !mine;
    if (model.version !== this.version) {
      this.version = model.version;
      this.out.hidden = true;
      this.out.textContent = "";
      delete this.out.dataset.action;
    }
  }

  /** Ask the server (the button), and show its answer unless the match moved on meanwhile. */
  async ask() {
    if (this.root.hidden) return;
    const asked = ++this.asked;
    this.button.disabled = true;
    this.show("<span class=\"muted\">The bot is thinking…</span>");
    const msg = await this.question({ type: "hint" });
    if (asked !== this.asked) return;
    this.button.disabled = false;
    if (!msg) {
      this.show("<span class=\"error\">Not connected: no hint now.</span>");
      return;
    }
    if (msg.version !== this.version) return; // the match moved on while the bot thought
    if (!msg.action) {
      this.show(`<span class="error">${esc(msg.problem ?? "no hint")}</span>`);
      return;
    }
    this.out.dataset.action = JSON.stringify(msg.action);
    const choice = actionText(msg.action, this.cards) ?? genericLabel(msg.action);
    this.show(`<b>Bot's choice:</b> ${esc(choice.charAt(0).toUpperCase() + choice.slice(1))}<br>${esc(msg.reason ?? "")}`);
  }

  /** @param {string} html */
  show(html) {
    this.out.innerHTML = html;
    this.out.hidden = false;
  }

  destroy() {
    this.button.removeEventListener("click", this.onClick);
    this.root.remove();
  }
}
