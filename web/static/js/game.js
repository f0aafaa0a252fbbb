// @ts-check
/**
 * A live match in this tab: one socket per seat token (none: spectator; two: hot-seat),
 * the view model of each, and the loop tap/button → action → server → state → screen.
 * The only actions ever sent are ones the server offered in `legal_actions`.
 */

import { Assist } from "./assist.js";
import { completed, deriveControls, resolveTap } from "./controls.js";
import { HintBox } from "./hint.js";
import { HotSeat } from "./hotseat.js";
import { decisionText } from "./labels.js";
import { playPath, rememberSeats, request } from "./api.js";
import { NO_SYNC } from "./clock.js";
import { MatchBar } from "./matchbar.js";
import { MatchSocket } from "./net.js";
import { Screen } from "./screen.js";
import {
  addPick, aim, applyClock, applyPresence, applyRematch, applyReject, applyState, applyWelcome, clearSelection, initialModel,
  markBusy, notify, prependLog, select, setConn, setHover,
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
      onCancel: () => {
        this.assist.recap.skip();
        this.update(clearSelection(this.model));
      },
      onKey: (key) => this.key(key),
    });
    const kind = tokens.length ? "play" : "watch";
    const seatTokens = tokens.length ? tokens : [null];
    /** @type {Model[]} */
    this.models = seatTokens.map(() => initialModel(kind, matchId));
    this.hotseat = tokens.length > 1 ? new HotSeat(this.screen.overlay, this.screen.extra, (i, action) => this.send(action, i)) : null;
    this.historyAsked = -1; // the version whose history was last asked for
    // The socket's answers are matched by id; the board's questions get the board's answers.
    const ask = async (/** @type {{type: string, [field: string]: unknown}} */ q) =>
      /** @type {import("./insight.js").Answer|null} */ (await this.sockets[this.shown].ask(q));
    this.assist = new Assist(this.screen, ask, catalog.cards, catalog.fullHp);
    this.shown = 0;
    this.leaving = false;
    /** @type {Controls|null} */
    this.ctl = null;
    this.tokens = tokens;
    // Issue 17: clocks, presence, resign, claim and rematch around the board.
    this.matchbar = new MatchBar(this.screen.root, {
      act: (action) => this.send(action),
      rematch: (choice) => this.sockets[this.shown].rematch(choice),
      sync: () => this.sockets?.[this.shown]?.timeSync ?? NO_SYNC, // the first render comes while the sockets are made
    });
    this.sockets = seatTokens.map((token, i) => new MatchSocket(matchId, token, {
      onMessage: (msg) => this.receive(i, msg),
      onStatus: (status, detail) => {
        this.models[i] = setConn(this.models[i], status, detail);
        this.refresh();
      },
    }));
    /** The "Hint" button: asks on the socket of the seat on screen. */
    this.hint = kind === "play"
      ? new HintBox(this.screen.extra, async (query) => /** @type {import("./hint.js").HintAnswer|null} */ (
        await this.sockets[this.shown].ask(query)))
      : null;
  }

  /** The model on screen. */
  get model() {
    return this.models[this.shown];
  }

  /** @param {number} i @param {import("./net.js").ServerMessage} msg */
  receive(i, msg) {
    const before = this.models[i];
    const now = performance.now();
    if (msg.type === "welcome") {
      for (const card of msg.cards ?? []) this.cards.set(card.id, card); // the match's own cards (a variant's)
      this.models[i] = applyWelcome(before, msg);
    }
    else if (msg.type === "state") {
      this.assist.received(before, msg);
      this.models[i] = applyState(before, msg, now);
      if (before.version < 0 && msg.version > 1) this.backfill(i, msg.version);
      // The dice panel's earlier rolls and the end screen's turns come from the match's history.
      if ((before.version < 0 && msg.version > 0) || (msg.status !== "live" && before.status === "live")) this.loadHistory(msg.version);
    }
    else if (msg.type === "reject") {
      this.models[i] = applyReject(before, msg, now);
      if (msg.code === "stale_version") this.sockets[i].sync();
    }
    else if (msg.type === "clock") this.models[i] = applyClock(before, msg);
    else if (msg.type === "presence") this.models[i] = applyPresence(before, msg);
    else if (msg.type === "rematch") this.models[i] = applyRematch(before, msg);
    this.followRematch(this.models[i]);
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
    this.matchbar.render(this.model);
    this.assist.see(this.model, this.ctl);
    this.hint?.update(this.model);
  }

  /**
   * Once a rematch is accepted, this tab's tokens open the new match (sides swapped), so a
   * player goes there with the same link; a spectator gets a link to follow.
   * @param {Model} model
   */
  followRematch(model) {
    const next = model.rematch?.match_id;
    if (!next || !model.seat || this.leaving) return;
    this.leaving = true;
    rememberSeats(next, this.tokens);
    location.assign(playPath(next, this.tokens));
  }

  /** Board keys (js/assist.js): T threats, "." / "," cycle the units that can act. @param {string} key */
  key(key) {
    const used = this.assist.key(key);
    if (typeof used === "string") this.update(select(this.model, used));
    return used !== false;
  }

  /** @param {Model} model */
  update(model) {
    if (model === this.model) return;
    this.models[this.shown] = model;
    this.refresh();
  }

  /** @param {import("./types.js").Hit} hit */
  tap(hit) {
    if (!this.ctl || this.assist.tap()) return;
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

  /** Fetch the match's rolls and turn summaries for the HUD. @param {number} version */
  async loadHistory(version) {
    if (version <= this.historyAsked) return;
    this.historyAsked = version;
    const history = await request(`/api/matches/${encodeURIComponent(this.model.matchId)}/history`).catch(() => null);
    if (history) this.screen.hud.setHistory(history);
  }

  /**
   * Send an offered action for a seat (only ever one of its `legal_actions`).
   * @param {Action} action @param {number} [i] the seat's model (default: the one on screen)
   */
  send(action, i = this.shown) {
    const model = this.models[i];
    const wanted = JSON.stringify(action);
    const same = (/** @type {Action} */ a) => a === action || JSON.stringify(a) === wanted;
    const offered = model.legal.find(same);
    // A match action (resign, claim) is the seat's at any time: it does not wait for a move in flight.
    const matchAction = model.matchActions.find(same);
    if ((model.busy || !offered) && !matchAction) return;
    const seq = this.sockets[i].act(model.version, /** @type {Action} */ (matchAction ?? offered));
    if (!seq) {
      this.models[i] = notify(model, "Not connected: the action was not sent. Reconnecting…", "error", performance.now());
      this.sockets[i].reconnectNow();
    } else this.models[i] = markBusy(model);
    this.refresh();
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
    this.matchbar.destroy();
    this.hint?.destroy();
    for (const s of this.sockets) s.close();
    this.screen.destroy();
  }
}
