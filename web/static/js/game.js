// @ts-check
/**
 * A live match in this tab: one socket per seat token (none: spectator; two: hot-seat),
 * the view model of each, and the loop tap/button → action → server → state → screen.
 * The only actions ever sent are ones the server offered in `legal_actions`.
 */

import { completed, deriveControls, resolveTap } from "./controls.js";
import { HintBox } from "./hint.js";
import { HotSeat } from "./hotseat.js";
import { decisionText } from "./labels.js";
import { request } from "./api.js";
import { MatchSocket } from "./net.js";
import { Screen } from "./screen.js";
import {
  addPick, aim, applyReject, applyState, applyWelcome, clearSelection, initialModel, markBusy, notify, prependLog, select,
  setConn, setHover,
} from "./state.js";

const BACKFILL = 12; // steps of log history fetched after a reload

/** @typedef {import("./types.js").Model} Model */
/** @typedef {import("./types.js").Action} Action */
/** @typedef {import("./controls.js").Controls} Controls */
/** @typedef {import("./controls.js").Run} Run */

export class Game {
  /**
   * @param {HTMLElement} root @param {import("./assets.js").Assets} assets
   * @param {{cards: Map<string, import("./types.js").CardInfo>, fullHp: Record<string, {hp: number}>}} catalog
   * @param {string} matchId @param {string[]} tokens seat tokens (empty: watch)
   */
  constructor(root, assets, catalog, matchId, tokens) {
    this.cards = catalog.cards;
    this.screen = new Screen(root, assets, catalog.cards, catalog.fullHp, {
      onTap: (hit) => this.tap(hit),
      onHover: (cell) => this.update(setHover(this.model, cell)),
      onRun: (run) => this.run(run),
      onCancel: () => this.update(clearSelection(this.model)),
    });
    const kind = tokens.length ? "play" : "watch";
    const seatTokens = tokens.length ? tokens : [null];
    /** @type {Model[]} */
    this.models = seatTokens.map(() => initialModel(kind, matchId));
    this.hotseat = tokens.length > 1 ? new HotSeat(this.screen.overlay) : null;
    this.shown = 0;
    /** @type {Controls|null} */
    this.ctl = null;
    this.sockets = seatTokens.map((token, i) => new MatchSocket(matchId, token, {
      onMessage: (msg) => this.receive(i, msg),
      onStatus: (status, detail) => {
        this.models[i] = setConn(this.models[i], status, detail);
        this.refresh();
      },
    }));
    /** The "Hint" button: asks on the socket of the seat on screen. */
    this.hint = kind === "play" ? new HintBox(this.screen.extra, (message) => {
      const socket = this.sockets[this.shown];
      if (socket.online) /** @type {WebSocket} */ (socket.ws).send(JSON.stringify(message));
      return socket.online;
    }) : null;
  }

  /** The model on screen. */
  get model() {
    return this.models[this.shown];
  }

  /** @param {number} i @param {import("./net.js").ServerMessage} msg */
  receive(i, msg) {
    const before = this.models[i];
    const now = performance.now();
    if (msg.type === "welcome") this.models[i] = applyWelcome(before, msg);
    else if (msg.type === "state") {
      this.models[i] = applyState(before, msg, now);
      if (before.version < 0 && msg.version > 1) this.backfill(i, msg.version);
    }
    else if (msg.type === "reject") {
      this.models[i] = applyReject(before, msg, now);
      if (msg.code === "stale_version") this.sockets[i].sync();
    }
    else if (msg.type === "hint" && i === this.shown) this.hint?.answer(msg);
    const after = this.models[i];
    if (i === this.shown && after.fresh.length && after.version > before.version) {
      this.screen.animate(after.fresh, before.view?.units ?? []);
    }
    this.refresh();
  }

  refresh() {
    if (this.hotseat) {
      this.shown = this.hotseat.choose(this.models);
      const view = this.model.view;
      const d = this.model.decision;
      const why = view && d ? decisionText(d, view, this.model.seat, this.cards).why : "";
      if (this.hotseat.gate(this.models, () => this.refresh(), why)) return;
    }
    this.ctl = deriveControls(this.model, this.cards);
    this.screen.show(this.model, this.ctl);
    this.hint?.update(this.model);
  }

  /** @param {Model} model */
  update(model) {
    if (model === this.model) return;
    this.models[this.shown] = model;
    this.refresh();
  }

  /** @param {import("./types.js").Hit} hit */
  tap(hit) {
    if (!this.ctl) return;
    const outcome = resolveTap(this.model, this.ctl, hit);
    if (outcome.kind === "send") this.send(outcome.action);
    else if (outcome.kind === "select") this.update(select(this.model, outcome.unit));
    else if (outcome.kind === "pick") this.pick(outcome.value);
    else if (outcome.kind === "cancel") this.update(clearSelection(this.model));
  }

  /** @param {Run} run */
  run(run) {
    if (run.kind === "send") this.send(run.action);
    else if (run.kind === "aim") this.update(aim(this.model, run.group));
    else if (run.kind === "pick") this.pick(run.value);
  }

  /** @param {string} value */
  pick(value) {
    const group = this.ctl?.aiming;
    if (!group) return;
    const model = addPick(this.model, value);
    const action = completed(group, model.sel.picks);
    if (action) this.send(action);
    else this.update(model);
  }

  /**
   * Send an offered action for the seat on screen (only ever one of its `legal_actions`).
   * @param {Action} action
   */
  send(action) {
    const model = this.model;
    const wanted = JSON.stringify(action);
    const offered = model.legal.find((a) => a === action || JSON.stringify(a) === wanted);
    if (model.busy || !offered) return;
    const seq = this.sockets[this.shown].act(model.version, offered);
    if (!seq) {
      this.update(notify(model, "Not connected: the action was not sent. Reconnecting…", "error", performance.now()));
      this.sockets[this.shown].reconnectNow();
      return;
    }
    this.update(markBusy(model));
  }

  /**
   * After a (re)load, fetch the events of the last few steps so the log has its context.
   * Spectator views: the seat's own hidden cards read "a card" there.
   * @param {number} i @param {number} version
   */
  async backfill(i, version) {
    const wanted = [];
    for (let v = Math.max(1, version - BACKFILL); v < version; v++) wanted.push(v);
    const steps = await Promise.all(wanted.map((v) =>
      request(`/api/matches/${encodeURIComponent(this.models[i].matchId)}/steps/${v}`).catch(() => null)));
    const found = steps.filter(Boolean).map((s) => ({ version: s.step, events: s.events }));
    this.models[i] = prependLog(this.models[i], found);
    this.refresh();
  }

  /** Test hook: drop every socket (they reconnect by themselves). */
  drop() {
    for (const s of this.sockets) s.drop();
  }

  destroy() {
    this.hint?.destroy();
    for (const s of this.sockets) s.close();
    this.screen.destroy();
  }
}
