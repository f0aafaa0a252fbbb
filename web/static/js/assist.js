// @ts-check
/**
 * The board's assistance in a live match, put together for game.js: the engine's answers
 * (js/insight.js) shown as the cell tip (js/tip.js), the odds in the pre-roll panel
 * (js/odds.js), paths and the threat overlay on the canvas (drawn by js/render.js from
 * `screen.insight`), and the camera that follows the game (js/follow.js, js/recap.js).
 *
 * Keys: T toggles the threat overlay; "." and "," cycle through the units that can act.
 */

import { armedFigures } from "./armed.js";
import { Follow, NEXT_UNIT_KEY, nextActor, PREVIOUS_UNIT_KEY } from "./follow.js";
import { Insight } from "./insight.js";
import { fillOddsSlots } from "./odds.js";
import { RECAP_KEY, Recap } from "./recap.js";
import { addThreatButton, THREAT_KEY } from "./threats.js";
import { CellTip, tipHtml } from "./tip.js";
import { UNPLAYABLE, cardName } from "./words.js";

/** @typedef {import("./screen.js").Screen} Screen */
/** @typedef {import("./types.js").Model} Model */
/** @typedef {import("./controls.js").Controls} Controls */
/** @typedef {import("./types.js").CardInfo} CardInfo */

export class Assist {
  /**
   * @param {Screen} screen @param {import("./insight.js").Ask} ask questions go to the seat on screen
   * @param {Map<string, CardInfo>} cards @param {Record<string, {hp: number}>} fullHp
   * @param {(turn: number) => Promise<import("./recap.js").TurnEvents|null>} loadTurn a turn's events, from the server
   */
  constructor(screen, ask, cards, fullHp, loadTurn) {
    this.screen = screen;
    this.cards = cards;
    this.fullHp = fullHp;
    /** @type {Model|null} */
    this.model = null;
    /** @type {Controls|null} */
    this.ctl = null;
    this.insight = new Insight(ask, () => this.refresh());
    screen.insight = this.insight;
    this.tip = new CellTip(screen.board);
    this.follow = new Follow(screen);
    this.recap = new Recap(screen, this.follow, cards, loadTurn);
    this.threatButton = addThreatButton(screen.board, () => this.toggleThreats());
    screen.onPainted = () => this.placeTip(false);
    screen.onSheet = () => {
      if (this.model?.kind === "play" && !this.recap.open) this.follow.see(this.model, this.ctl);
    };
  }

  /**
   * After every render of a model: ask what it calls for, fill the panels, frame choices,
   * and start the recap when a turn of this seat begins.
   * @param {Model} model @param {Controls|null} ctl
   */
  see(model, ctl) {
    this.model = model;
    this.ctl = ctl;
    this.insight.see(model, ctl);
    this.refresh();
    if (model.kind !== "play") return;
    this.recap.startIfDue(model);
    if (!this.recap.running) this.follow.see(model, ctl);
  }

  /** Show what has arrived: the odds slots, the tip, the canvas. */
  refresh() {
    if (!this.model) return;
    fillOddsSlots(this.screen.root, (a, t) => this.insight.attack(a, t), this.cards);
    armedFigures(this.screen.root, this.insight);
    this.fillDrawnWhy();
    this.placeTip();
    this.screen.painter.request();
  }

  /** Say why the bonus just drawn cannot be played (it can only be stored or discarded). */
  fillDrawnWhy() {
    const slot = /** @type {HTMLElement|null} */ (this.screen.root.querySelector("[data-drawn-why]"));
    const why = this.model ? this.insight.drawnWhy(this.model) : null;
    if (!slot || !why) return;
    const card = cardName(this.cards, this.model?.view?.pending_card?.card);
    const text = `${card} cannot be played now: ${why.code && UNPLAYABLE[why.code] ? UNPLAYABLE[why.code] : why.reason}. Store it for later, or discard it.`;
    if (slot.textContent !== text) slot.textContent = text;
  }

  /** Keep the tip on its cell; with `content`, rebuild what it says too. */
  placeTip(content = true) {
    const model = this.model;
    if (!model || !model.hover) {
      if (this.tip.html) this.tip.show("", null);
      return;
    }
    if (!content && !this.tip.html) return;
    const html = content ? tipHtml(model, this.ctl, this.insight, this.cards, this.fullHp) : this.tip.html;
    const client = html ? this.screen.cellToClient(model.hover) : null;
    const box = this.screen.board.getBoundingClientRect();
    this.tip.show(html, client ? { x: client.x - box.left, y: client.y - box.top } : null);
  }

  /**
   * A state message arrived for a seat: remember what the opponent did, for the recap.
   * @param {Model} before the seat's model before it @param {import("./types.js").StateMsg} msg
   * @param {boolean} watching whether this seat is the one on screen (hot-seat: the other looks away)
   */
  received(before, msg, watching) {
    const seat = msg.seat;
    if (!seat || before.version < 0 || msg.version <= before.version || msg.view.active === seat) return;
    this.recap.record(seat, msg.events, before.view?.units ?? [], msg.version, watching);
  }

  toggleThreats() {
    this.insight.showThreats = !this.insight.showThreats;
    this.threatButton?.setAttribute("aria-pressed", String(this.insight.showThreats));
    this.threatButton?.classList.toggle("on", this.insight.showThreats);
    if (this.model) this.insight.see(this.model, this.ctl);
    this.refresh();
  }

  /**
   * A key the board may use; returns the unit to select for "." / "," (null: none), or
   * true when the key was used otherwise, false when it was not ours.
   * @param {string} key @returns {string|boolean|null}
   */
  key(key) {
    if (key === "Escape" || key === " ") return this.recap.skip();
    if (key === RECAP_KEY) return this.recap.again() > 0;
    if (key === THREAT_KEY) {
      this.toggleThreats();
      return true;
    }
    if (key === NEXT_UNIT_KEY || key === PREVIOUS_UNIT_KEY) {
      const unit = nextActor(this.ctl, this.model?.sel.unit ?? null, key === NEXT_UNIT_KEY ? 1 : -1);
      const cell = unit ? this.model?.view?.units.find((u) => u.id === unit)?.cell : null;
      if (cell) this.follow.reveal(cell);
      return unit;
    }
    return false;
  }

  /**
   * Read-only test and benchmark hooks (window.taktik, docs/client.md).
   * @param {() => Model} model the model on screen
   */
  hooks(model) {
    return {
      /** the threat map on screen (null: overlay off or not answered) */
      threats: () => (this.insight.showThreats ? this.insight.threats() : null),
      /** the cell tip's text */
      tip: () => (this.tip.el.hidden ? "" : this.tip.el.textContent ?? ""),
      /** whether the recap is playing, and its banner */
      recap: () => ({ running: this.recap.running, open: this.recap.open,
        text: this.recap.banner.hidden ? "" : this.recap.banner.textContent ?? "" }),
      /** play the last recap of the seat on screen again, seen steps too; returns its length */
      replayRecap: () => this.recap.replayLast(model().seat ?? ""),
    };
  }

  /** A tap on the board: ends the recap (used up by it only while the recap runs by itself). */
  tap() {
    return this.recap.skip();
  }
}
