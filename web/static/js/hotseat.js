// @ts-check
/**
 * Hot-seat: one device plays both seats over two sockets. The screen shows the seat that
 * must decide; whenever that changes, a "pass the device" curtain hides everything until
 * the next player says they are ready, so neither hand is seen by the other player.
 */

import { esc, sideName } from "./labels.js";

/** @typedef {import("./types.js").Model} Model */

export class HotSeat {
  /** @param {HTMLElement} overlay */
  constructor(overlay) {
    this.overlay = overlay;
    this.revealed = -1;
    this.shown = 0;
    this.curtain = -1;
  }

  /**
   * Which seat's model to show: the one whose seat must decide, else the last one shown.
   * @param {Model[]} models
   */
  choose(models) {
    const acting = models.findIndex((m) => m.seat && m.toAct === m.seat && m.status === "live");
    if (acting >= 0) this.shown = acting;
    return this.shown;
  }

  /**
   * Draw or lift the curtain; returns true while it is down (show nothing of the seat).
   * @param {Model[]} models @param {() => void} onReady @param {string} [why] what the next player decides
   */
  gate(models, onReady, why = "") {
    const model = models[this.shown];
    const settled = model && model.version >= 0 && model.status !== "live";
    if (!model?.seat || model.version < 0 || this.revealed === this.shown || settled) {
      if (this.overlay.classList.contains("pass")) this.overlay.hidden = true;
      this.overlay.classList.remove("pass");
      this.curtain = -1;
      if (settled) this.revealed = this.shown; // game over: nothing is secret any more
      return false;
    }
    if (this.curtain === this.shown) return true;
    this.curtain = this.shown;
    const side = model.seat;
    this.overlay.hidden = false;
    this.overlay.className = "overlay pass";
    this.overlay.innerHTML = `<div class="card-panel"><p class="muted">Hot-seat</p>
      <h1>Pass the device to <span class="side-${side}">${esc(sideName(side))}</span></h1>
      <p>${esc(sideName(side))} decides next${why ? ` (${esc(why)})` : ""}. The other player should look away: ${esc(sideName(side))}'s cards are about to be shown.</p>
      <div class="btns"><button type="button" class="btn primary" data-reveal>I am ${esc(sideName(side))} — show my side <kbd>↵</kbd></button></div></div>`;
    const button = /** @type {HTMLElement} */ (this.overlay.querySelector("[data-reveal]"));
    const reveal = () => {
      window.removeEventListener("keydown", onKey, true);
      this.revealed = this.shown;
      this.curtain = -1;
      this.overlay.hidden = true;
      this.overlay.classList.remove("pass");
      onReady();
    };
    const onKey = (/** @type {KeyboardEvent} */ e) => {
      if (e.key === "Enter") {
        e.preventDefault();
        e.stopPropagation();
        reveal();
      }
    };
    button.addEventListener("click", reveal);
    window.addEventListener("keydown", onKey, true);
    button.focus();
    return true;
  }
}
