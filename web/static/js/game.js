// @ts-check
/**
 * A live match in this tab: one socket per seat token (none: spectator; two: hot-seat),
 * the view model of each, and the loop tap/button → action → server → state → screen.
 * The only actions ever sent are ones the server offered in `legal_actions`.
 */

import { Assist } from "./assist.js";
import { boardChoices, completed, deriveControls, resolveTap } from "./controls.js";
import { HintBox } from "./hint.js";
import { HotSeat, uselessReaction } from "./hotseat.js";
import { decisionText } from "./labels.js";
import { playPath, rememberSeats, request } from "./api.js";
import { NO_SYNC } from "./clock.js";
import { MatchBar } from "./matchbar.js";
import { openSockets } from "./net.js";
import { Screen } from "./screen.js";
import {
  addPick, aim, applyClock, arm, applyPresence, applyRematch, applyReject, applyState, applyWelcome, clearSelection, initialModel,
  markBusy, notify, prependLog, select, setConn, setHover, timeoutNotice,
} from "./state.js";

/** @typedef {import("./types.js").Model} Model */
/** @typedef {import("./types.js").Action} Action */
/** @typedef {import("./controls.js").Controls} Controls */
/** @typedef {import("./controls.js").Run} Run */

/** The unit standing on `cell`, if any. @param {Model} model @param {string} cell */
function unitAt(model, cell) {
  return model.view?.units.find((u) => u.cell === cell)?.id ?? null;
}

export class Game {
  /**
   * @param {HTMLElement} root @param {import("./assets.js").Assets} assets
   * @param {{cards: Map<string, import("./types.js").CardInfo>, fullHp: Record<string, {hp: number, vp: number}>}} catalog
   * @param {string} matchId @param {string[]} tokens seat tokens (empty: watch)
   * @param {import("./net.js").MatchSocket[]} [sockets] sockets already opened for them (`openSockets`), else opened here
   */
  constructor(root, assets, catalog, matchId, tokens, sockets = openSockets(matchId, tokens)) {
    this.cards = catalog.cards;
    this.screen = new Screen(root, assets, catalog.cards, catalog.fullHp, {
      onTap: (hit, preview) => this.tap(hit, preview),
      onHover: (cell) => this.update(setHover(this.model, cell)),
      onRun: (run) => this.run(run),
      onCancel: () => {
        if (this.assist.recap.open) this.assist.recap.skip(); // Esc closes the recap first
        else this.update(this.model.sel.armed ? arm(this.model, null) : clearSelection(this.model));
      },
      onKey: (key) => this.key(key),
    });
    const kind = tokens.length ? "play" : "watch";
    /** @type {Model[]} */
    this.models = sockets.map(() => initialModel(kind, matchId));
    this.hotseat = tokens.length > 1
      ? new HotSeat(this.screen.overlay, this.screen.extra, (i, action) => this.send(action, i), catalog.cards) : null;
    if (this.hotseat) this.screen.hud.onShowHand = () => this.hotseat?.showHand();
    this.historyAsked = -1; // the version whose history was last asked for
    this.passedUseless = ""; // "seat|version" of the useless reaction passed for this seat
    // The socket's answers are matched by id; the board's questions get the board's answers.
    const ask = async (/** @type {{type: string, [field: string]: unknown}} */ q) =>
      /** @type {import("./insight.js").Answer|null} */ (await this.sockets[this.shown].ask(q));
    /** @type {Map<number, Promise<import("./recap.js").TurnEvents|null>>} the turns asked of the server, by number */
    this.turnsAsked = new Map();
    this.assist = new Assist(this.screen, ask, catalog.cards, catalog.fullHp, (turn) => this.loadTurn(turn));
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
    this.sockets = sockets;
    /** The "Hint" button: asks on the socket of the seat on screen. */
    this.hint = kind === "play"
      ? new HintBox(this.screen.extra, async (query) => /** @type {import("./hint.js").HintAnswer|null} */ (
        await this.sockets[this.shown].ask(query)), catalog.cards)
      : null;
    sockets.forEach((socket, i) => socket.attach({
      onMessage: (msg) => this.receive(i, msg),
      onStatus: (status, detail) => {
        this.models[i] = setConn(this.models[i], status, detail);
        this.refresh();
      },
    }));
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
      this.assist.received(before, msg, i === this.shown && !this.hotseat?.curtainDown());
      this.models[i] = applyState(before, msg, now);
      const timeout = before.version >= 0 ? timeoutNotice(msg, msg.seat) : null;
      if (timeout) this.models[i] = notify(this.models[i], timeout, "warn", now);
      if (before.version < 0 && msg.version > 1) this.backfill(i, msg.view.turn);
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
    this.passUseless();
    const shown = this.hotseat ? this.hotseat.display(this.models) : this.model;
    this.ctl = deriveControls(shown, this.cards);
    this.screen.show(shown, this.ctl);
    this.matchbar.render(shown);
    this.assist.see(shown, this.ctl);
    this.hint?.update(shown);
  }

  /**
   * A reaction in which nothing can help this seat (the engine's `decision.useful` false: the
   * roll already misses its unit) is not asked: the PASS_REACTION the engine offers is sent at
   * once, with a notice. Hot-seat asks in its own prompt (js/hotseat.js).
   */
  passUseless() {
    const model = this.model;
    if (this.hotseat || model.kind !== "play" || model.busy || !uselessReaction(model)) return;
    const pass = model.legal.find((a) => a.type === "PASS_REACTION");
    const key = `${model.seat}|${model.version}`;
    if (!pass || this.passedUseless === key) return;
    this.passedUseless = key;
    this.send(pass);
    this.models[this.shown] = notify(this.model, "Passed for you: no tactic could help here (the attack already misses).", "info",
      performance.now());
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
    if (this.cursor(key)) return true;
    const used = this.assist.key(key);
    if (typeof used === "string") this.update(select(this.model, used));
    return used !== false;
  }

  /**
   * The keyboard's cursor over the board: the arrow keys go through the choices on offer (the
   * selected unit's targets, then its cells; or the targets of what is being aimed), previewing
   * each as a first touch does; Enter takes the previewed one. True when the key was used.
   * @param {string} key
   */
  cursor(key) {
    const ctl = this.ctl;
    if (!ctl) return false;
    const armed = this.model.sel.armed;
    if (key === "Enter" && armed) {
      if (ctl.armed) this.send(ctl.armed.action);
      else this.tap({ cell: armed.cell, unit: armed.unit });
      return true;
    }
    const step = { ArrowRight: 1, ArrowDown: 1, ArrowLeft: -1, ArrowUp: -1 }[key];
    if (!step) return false;
    if (!this.model.sel.unit && !ctl.aiming) return false; // nothing chosen yet: "." / "," pick a unit first
    const choices = ctl.aiming
      ? [...ctl.cellMarks.entries()].filter(([, mark]) => mark === "target").map(([cell]) => ({ cell, unit: unitAt(this.model, cell) }))
      : boardChoices(this.model, ctl);
    if (!choices.length) return false;
    const at = armed ? choices.findIndex((c) => c.cell === armed.cell) : -1;
    const next = choices[(at + step + choices.length + (at < 0 && step < 0 ? 1 : 0)) % choices.length];
    this.update(arm(this.model, next));
    this.assist.follow.frame([next.cell]);
    return true;
  }

  /** @param {Model} model */
  update(model) {
    if (model === this.model) return;
    this.models[this.shown] = model;
    this.refresh();
  }

  /** @param {import("./types.js").Hit} hit @param {boolean} [preview] a touch: arm before sending */
  tap(hit, preview = false) {
    if (!this.ctl || this.assist.tap()) return;
    const outcome = resolveTap(this.model, this.ctl, hit, preview);
    if (outcome.kind === "send") this.send(outcome.action);
    else if (outcome.kind === "arm") this.update(arm(this.model, outcome.armed));
    else if (outcome.kind === "select") this.update(select(this.model, outcome.unit));
    else if (outcome.kind === "pick") this.pick(outcome.value);
    else if (outcome.kind === "cancel") this.update(clearSelection(this.model));
  }

  /** @param {Run} run */
  run(run) {
    if (run.kind === "send") this.send(run.action);
    else if (run.kind === "aim") this.update(aim(this.model, run.group));
    else if (run.kind === "pick") this.pick(run.value);
    else if (run.kind === "arm") this.update(arm(this.model, run.armed));
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
   * One turn's events from the server (`GET /api/matches/{id}/turns/{n}`), asked once: the recap
   * after a reload and the log's context. Null when it cannot be had.
   * @param {number} turn
   */
  loadTurn(turn) {
    let asked = this.turnsAsked.get(turn);
    if (!asked) {
      asked = request(`/api/matches/${encodeURIComponent(this.model.matchId)}/turns/${turn}`).catch(() => null);
      // A turn still being played grows: only a finished one is kept.
      if (turn < (this.model.view?.turn ?? 0)) this.turnsAsked.set(turn, asked);
    }
    return asked;
  }

  /**
   * After a (re)load, fetch the events of this turn and the one before so the log has its
   * context. Spectator views: the seat's own hidden cards read "a card" there.
   * @param {number} i @param {number} turn the turn the game is in
   */
  async backfill(i, turn) {
    const turns = await Promise.all([turn - 1, turn].filter((t) => t >= 1).map((t) => this.loadTurn(t)));
    const found = turns.flatMap((t) => t?.steps ?? []).map((s) => ({ version: s.step, events: s.events }));
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
