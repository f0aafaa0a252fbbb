// @ts-check
/**
 * Hot-seat: one device plays both seats over two sockets. The screen shows the seat that
 * must decide; whenever that changes, a "pass the device" curtain hides everything until
 * the next player says they are ready, so neither hand is seen by the other player.
 *
 * The device is passed only when the other person has a real choice. A reaction window in
 * which the engine says no response can help (`decision.useful` false, e.g. after a roll that
 * already misses) keeps the screen where it is and asks in a small prompt whether to pass
 * for them or hand the device over anyway; a remembered setting passes such windows at once.
 */

import { esc, sideName, windowText } from "./labels.js";

/** @typedef {import("./types.js").Model} Model */
/** @typedef {import("./types.js").Action} Action */

const AUTOPASS_KEY = "taktik.autopass";

/** Whether `model`'s seat must decide a reaction in which nothing can help it. @param {Model} model */
export function uselessReaction(model) {
  return model.decision?.kind === "react" && model.decision.useful === false && model.toAct === model.seat;
}

export class HotSeat {
  /**
   * @param {HTMLElement} overlay the curtain @param {HTMLElement} prompt where the "pass for them?" prompt goes
   * @param {(seat: number, action: Action) => void} send send an offered action for a seat
   */
  constructor(overlay, prompt, send) {
    this.overlay = overlay;
    this.prompt = prompt;
    this.send = send;
    this.revealed = -1;
    this.shown = 0;
    this.curtain = -1;
    /** the seat whose useless reaction waits on the prompt (-1: none) */
    this.skipped = -1;
    /** "seat|version" of a useless reaction the player chose to hand over anyway */
    this.forced = "";
    this.autoPass = readAutoPass();
    /** @type {Model[]|null} the models last seen */
    this.models = null;
    /** called when the player hands the device over from the prompt */
    this.onChange = () => {};
    prompt.addEventListener("click", (e) => {
      const t = /** @type {HTMLElement} */ (e.target);
      if (t.closest("[data-pass-for]")) this.passFor(this.skipped);
      else if (t.closest("[data-hand-over]")) this.handOver();
    });
    prompt.addEventListener("change", (e) => {
      const box = /** @type {HTMLInputElement} */ (e.target);
      if (box.matches("[data-autopass]")) this.setAutoPass(box.checked);
    });
  }

  /**
   * Which seat's model to show: the one whose seat must decide, else the last one shown; a
   * seat that can only make a useless reaction is not shown (see the class comment).
   * @param {Model[]} models
   */
  choose(models) {
    this.models = models;
    const acting = models.findIndex((m) => m.seat && m.toAct === m.seat && m.status === "live");
    const before = this.skipped;
    this.skipped = -1;
    if (acting >= 0 && acting !== this.shown && uselessReaction(models[acting]) && this.forced !== key(models[acting])) {
      this.skipped = acting;
      if (this.autoPass) this.passFor(acting);
    } else if (acting >= 0) this.shown = acting;
    if (this.skipped !== before || this.skipped >= 0) this.drawPrompt(models);
    return this.shown;
  }

  /** Whether the curtain hides the board now (nobody is watching the seat behind it). */
  curtainDown() {
    return !this.overlay.hidden && this.overlay.classList.contains("pass");
  }

  /** Send the pass of a useless reaction for `seat` (if the engine offers one). @param {number} seat */
  passFor(seat) {
    const model = this.models?.[seat];
    const pass = model?.legal.find((a) => a.type === "PASS_REACTION");
    if (!model || !pass || model.busy) return;
    this.send(seat, pass);
  }

  /** The player wants the other person to choose after all: hand the device over. */
  handOver() {
    const model = this.models?.[this.skipped];
    if (!model) return;
    this.forced = key(model);
    this.skipped = -1;
    this.prompt.innerHTML = "";
    this.onChange();
  }

  /** @param {boolean} on */
  setAutoPass(on) {
    this.autoPass = on;
    try {
      localStorage.setItem(AUTOPASS_KEY, on ? "1" : "0");
    } catch {
      // storage refused: the setting lasts for this page
    }
    if (on && this.skipped >= 0) this.passFor(this.skipped);
  }

  /** @param {Model[]} models */
  drawPrompt(models) {
    this.models = models;
    const model = models[this.skipped];
    if (!model || this.autoPass || !model.decision) {
      this.prompt.innerHTML = this.autoPass && model ? `<div class="hsprompt quiet">Passed for ${esc(sideName(model.seat))}: no tactic could help.</div>` : "";
      return;
    }
    const side = sideName(model.seat);
    this.prompt.innerHTML = `<div class="hsprompt" role="dialog" aria-label="${esc(side)} may react">
      <p><b class="side-${model.seat}">${esc(side)}</b>: ${esc(windowText(model.decision))}. No tactic can help ${esc(side)} here${model.view?.last_roll?.outcome === "MISS" ? " (the attack already misses)" : ""}.</p>
      <div class="btns"><button type="button" class="btn primary" data-pass-for>Pass for ${esc(side)}</button>
      <button type="button" class="btn" data-hand-over>${esc(side)} wants to choose</button></div>
      <label class="autopass"><input type="checkbox" data-autopass> Always pass these for us</label></div>`;
  }

  /**
   * Draw or lift the curtain; returns true while it is down (show nothing of the seat).
   * @param {Model[]} models @param {() => void} onReady @param {string} [why] what the next player decides
   */
  gate(models, onReady, why = "") {
    this.models = models;
    this.onChange = onReady;
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

/** A decision's identity: the seat and the version it belongs to. @param {Model} model */
function key(model) {
  return `${model.seat}|${model.version}`;
}

/** Whether the players chose to pass useless reactions without asking. */
function readAutoPass() {
  try {
    return localStorage.getItem(AUTOPASS_KEY) === "1";
  } catch {
    return false;
  }
}
