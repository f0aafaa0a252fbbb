// @ts-check
/**
 * Hot-seat: one device plays both seats over two sockets. The screen shows the seat that must
 * decide. A hand (stored bonuses, tactics, a card just drawn) is shown only to its owner: when
 * a decision needs the other seat's hand, an opaque curtain ("Pass the device to Defender")
 * hides everything until that player says they are there, with a line on what happened since
 * they last looked. So there is at most one curtain per change of hands, and none for a
 * decision that needs no hidden card: rolling or applying a result, moving without a tactic in
 * play, choosing victims. Those show on a *public* screen with both hands hidden, which either
 * player may press (or "Show my cards" brings the curtain after all); a roll and its result
 * therefore stay together on one side of the device.
 *
 * The device is not passed at all for a reaction that cannot matter: the engine's
 * `decision.useful` false (a roll that already misses) asks in a small prompt whether to pass
 * for them, or passes at once when the players said so ("Always pass these"); and each player
 * may choose to pass their reactions unless their own unit is the one attacked.
 */

import { esc, sideName, windowText } from "./labels.js";
import { summary } from "./words.js";

/** @typedef {import("./types.js").Model} Model */
/** @typedef {import("./types.js").Action} Action */

const AUTOPASS_KEY = "taktik.autopass";
const UNLESS_TARGET_KEY = "taktik.passUnlessTarget";
/** Fields of an action that name something in its seat's hand. */
const HAND_FIELDS = ["card_id", "stored_index", "replace_index", "malus_play_id"];
const QUIET_MS = 6000; // how long "Passed for …" stays

/** Whether `model`'s seat must decide a reaction in which nothing can help it. @param {Model} model */
export function uselessReaction(model) {
  return model.decision?.kind === "react" && model.decision.useful === false && model.toAct === model.seat;
}

/**
 * Whether a seat's decision needs its hidden hand: an offered action names one of its cards
 * (a tactic, a stored bonus), it holds a drawn card the other seat cannot see, or its turn
 * begins (the draw). Everything else can be decided on a public screen.
 * @param {Model} model the deciding seat @param {Model|undefined} other the other seat
 */
export function needsHand(model, other) {
  if (model.decision?.kind === "draw_card") return true;
  const drawn = model.view?.pending_card;
  if (drawn && drawn.card !== "?" && other?.view?.pending_card?.card === "?") return true;
  return model.legal.some((a) => a.type.startsWith("PLAY_") || HAND_FIELDS.some((f) => f in a && a[f] !== null));
}

/**
 * The model with both hands hidden, for a public screen: the cards read "?" as a spectator
 * sees them; the decision and the actions stay the seat's.
 * @param {Model} model @returns {Model}
 */
export function publicModel(model) {
  const view = model.view;
  if (!view) return model;
  const hide = (/** @type {string[]} */ cards) => cards.map(() => "?");
  const players = /** @type {[import("./types.js").PlayerState, import("./types.js").PlayerState]} */ (
    view.players.map((p) => ({ ...p, stored: hide(p.stored), tactics: hide(p.tactics) })));
  const pending = view.pending_card ? { ...view.pending_card, card: "?" } : null;
  return { ...model, public: true, view: { ...view, players, pending_card: pending } };
}

export class HotSeat {
  /**
   * @param {HTMLElement} overlay the curtain @param {HTMLElement} prompt where the "pass for them?" prompt goes
   * @param {(seat: number, action: Action) => void} send send an offered action for a seat
   * @param {Map<string, import("./types.js").CardInfo>} cards card names, for the curtain's line
   */
  constructor(overlay, prompt, send, cards) {
    this.overlay = overlay;
    this.prompt = prompt;
    this.send = send;
    this.cards = cards;
    /** the seat whose hand was shown last (-1: none yet) */
    this.revealed = -1;
    /** @type {number[]} per seat: the version it last looked at, for "since you last looked" */
    this.looked = [-1, -1];
    this.shown = 0;
    this.curtain = -1;
    /** whether the seat on screen shows publicly (both hands hidden) */
    this.public = false;
    /** the seat whose useless reaction waits on the prompt (-1: none) */
    this.skipped = -1;
    /** "seat|version" of a useless reaction the player chose to hand over anyway */
    this.forced = "";
    this.autoPass = readSetting(AUTOPASS_KEY) === "1";
    /** @type {Record<string, boolean>} per side: pass its reactions unless its own unit is attacked */
    this.unlessTarget = readUnlessTarget();
    /** @type {string} a quiet line on what was passed for whom */
    this.passed = "";
    /** @type {ReturnType<typeof setTimeout>|undefined} */
    this.quiet = undefined;
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
    overlay.addEventListener("change", (e) => {
      const box = /** @type {HTMLInputElement} */ (e.target);
      if (box.matches("[data-unless-target]")) this.setUnlessTarget(box.dataset.unlessTarget ?? "", box.checked);
    });
  }

  /**
   * Which seat's model to show: the one whose seat must decide, else the last one shown. A
   * reaction the players chose not to be asked is passed here instead (see the class comment).
   * @param {Model[]} models
   */
  choose(models) {
    this.models = models;
    const acting = models.findIndex((m) => m.seat && m.toAct === m.seat && m.status === "live");
    const before = this.skipped;
    this.skipped = -1;
    const model = models[acting];
    if (acting >= 0 && this.notTargeted(model)) {
      this.passFor(acting, `Passed for ${sideName(model.seat)}: its unit is not the one attacked.`);
    } else if (acting >= 0 && acting !== this.shown && uselessReaction(model) && this.forced !== key(model)) {
      this.skipped = acting;
      if (this.autoPass) this.passFor(acting, `Passed for ${sideName(model.seat)}: no tactic could help.`);
    } else if (acting >= 0) this.shown = acting;
    if (this.skipped !== before || this.skipped >= 0 || this.passed) this.drawPrompt(models);
    return this.shown;
  }

  /**
   * A reaction its seat asked to pass unless its own unit is the one attacked.
   * @param {Model|undefined} model
   */
  notTargeted(model) {
    const d = model?.decision;
    if (!model?.seat || !d || d.kind !== "react" || !this.unlessTarget[model.seat]) return false;
    const target = d.attack ? model.view?.units.find((u) => u.id === d.attack?.target) : null;
    return !target || target.side !== model.seat;
  }

  /** The model to put on screen: the seat's own, or its public face (hands hidden). @param {Model[]} models */
  display(models) {
    const model = models[this.shown];
    return this.public ? publicModel(model) : model;
  }

  /**
   * Send the pass of a reaction for `seat` (if the engine offers one), with a quiet note.
   * @param {number} seat @param {string} [note]
   */
  passFor(seat, note = "") {
    const model = this.models?.[seat];
    const pass = model?.legal.find((a) => a.type === "PASS_REACTION");
    if (!model || !pass || model.busy) return;
    this.passed = note;
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
    writeSetting(AUTOPASS_KEY, on ? "1" : "0");
    if (on && this.skipped >= 0) this.passFor(this.skipped, `Passed for ${sideName(this.models?.[this.skipped]?.seat)}: no tactic could help.`);
  }

  /** @param {string} side @param {boolean} on */
  setUnlessTarget(side, on) {
    this.unlessTarget = { ...this.unlessTarget, [side]: on };
    writeSetting(UNLESS_TARGET_KEY, JSON.stringify(this.unlessTarget));
  }

  /** @param {Model[]} models */
  drawPrompt(models) {
    this.models = models;
    const model = models[this.skipped];
    if (!model || this.autoPass || !model.decision) {
      this.prompt.innerHTML = this.passed ? `<div class="hsprompt quiet">${esc(this.passed)}</div>` : "";
      this.passed = "";
      clearTimeout(this.quiet);
      this.quiet = setTimeout(() => this.prompt.querySelector(".hsprompt.quiet")?.remove(), QUIET_MS);
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
   * Draw or lift the curtain; returns true while it is down (show nothing of the seat). A seat
   * whose decision needs no hidden card shows publicly, without a curtain.
   * @param {Model[]} models @param {() => void} onReady @param {string} [why] what the next player decides
   */
  gate(models, onReady, why = "") {
    this.models = models;
    this.onChange = onReady;
    const model = models[this.shown];
    const settled = model && model.version >= 0 && model.status !== "live";
    this.public = false;
    if (!model?.seat || model.version < 0 || this.revealed === this.shown || settled) {
      this.lift();
      if (settled) this.revealed = this.shown; // game over: nothing is secret any more
      if (model && this.revealed === this.shown) this.looked[this.shown] = model.version;
      return false;
    }
    if (this.curtain === this.shown) return true; // up already: waiting for the player
    if (!needsHand(model, models[1 - this.shown])) {
      this.lift();
      this.public = true;
      return false;
    }
    this.curtain = this.shown;
    this.drawCurtain(model, why, onReady);
    return true;
  }

  /** Show the seat on screen with its hand: the player asked ("Show my cards"). */
  showHand() {
    this.public = false;
    const model = this.models?.[this.shown];
    if (!model) return;
    this.curtain = this.shown;
    this.drawCurtain(model, "", this.onChange);
  }

  /** @param {Model} model @param {string} why @param {() => void} onReady */
  drawCurtain(model, why, onReady) {
    const side = model.seat;
    const name = sideName(side);
    // What happened since this player last looked (never: all this page has seen of the game).
    const since = model.log.filter((l) => l.version > this.looked[this.shown]);
    const line = summary(since, this.cards, 5, ["reaction_passed", "attack_declared"]);
    this.overlay.hidden = false;
    this.overlay.className = "overlay pass";
    this.overlay.innerHTML = `<div class="card-panel"><p class="muted">Hot-seat</p>
      <h1>Pass the device to <span class="side-${side}">${esc(name)}</span></h1>
      <p>${esc(name)} decides next${why ? `: ${esc(why)}` : ""}. The other player should look away: ${esc(name)}'s cards are about to be shown.</p>
      ${line ? `<p class="since"><b>Since you last looked:</b> ${esc(line)}</p>` : ""}
      <div class="btns"><button type="button" class="btn primary" data-reveal>I am ${esc(name)} — show my side <kbd>↵</kbd></button></div>
      <label class="autopass"><input type="checkbox" data-unless-target="${esc(side)}"${side && this.unlessTarget[side] ? " checked" : ""}>
        ${esc(name)}: pass my reactions unless my own unit is attacked</label></div>`;
    const button = /** @type {HTMLElement} */ (this.overlay.querySelector("[data-reveal]"));
    const reveal = () => {
      window.removeEventListener("keydown", onKey, true);
      this.revealed = this.shown;
      this.looked[this.shown] = model.version;
      this.curtain = -1;
      this.lift();
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
  }

  lift() {
    if (this.overlay.classList.contains("pass")) this.overlay.hidden = true;
    this.overlay.classList.remove("pass");
    this.curtain = -1;
  }

  /** Whether the curtain hides the board now (nobody is watching the seat behind it). */
  curtainDown() {
    return !this.overlay.hidden && this.overlay.classList.contains("pass");
  }
}

/** A decision's identity: the seat and the version it belongs to. @param {Model} model */
function key(model) {
  return `${model.seat}|${model.version}`;
}

/** @param {string} name */
function readSetting(name) {
  try {
    return localStorage.getItem(name);
  } catch {
    return null;
  }
}

/** @param {string} name @param {string} value */
function writeSetting(name, value) {
  try {
    localStorage.setItem(name, value);
  } catch {
    // storage refused: the setting lasts for this page
  }
}

/** @returns {Record<string, boolean>} */
function readUnlessTarget() {
  try {
    const found = JSON.parse(readSetting(UNLESS_TARGET_KEY) ?? "{}");
    return found && typeof found === "object" ? found : {};
  } catch {
    return {};
  }
}
