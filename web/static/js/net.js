// @ts-check
/**
 * One WebSocket to one match (docs/protocol.md): `hello` with the seat token (the only
 * message that ever carries it), then `act` with the version it is based on and a sequence
 * number, or `sync`. Reconnects by itself with jittered exponential backoff; every reconnect
 * says hello again, and the server answers with the current state, so the client resyncs.
 * A wrong token or a missing match closes for good.
 */

import { NO_SYNC, addSample, localNow } from "./clock.js";

/** @typedef {import("./types.js").Action} Action */
/**
 * Every message the server sends (server/protocol.py), told apart by `type`.
 * @typedef {import("./types.js").Welcome | import("./types.js").StateMsg | import("./types.js").Ack
 *   | import("./types.js").Reject | import("./types.js").ClockMsg | import("./types.js").PresenceMsg
 *   | import("./types.js").RematchMsg | import("./insight.js").Answer | import("./hint.js").HintAnswer} ServerMessage
 */

const FINAL_CLOSES = new Map([
  [4401, "this seat link is not valid for this match"],
  [4404, "there is no such match"],
  [4410, "this match cannot be shown (it is broken)"],
]);
const MAX_BACKOFF_MS = 10000;

/**
 * @typedef {{
 *   onMessage: (msg: ServerMessage) => void,
 *   onStatus: (status: "connecting"|"online"|"reconnecting"|"closed", detail: string) => void,
 * }} NetHandlers
 */

/**
 * One socket per seat token (none: a spectator's), opened at once; what arrives waits for the
 * page (`MatchSocket.attach`). The page opens them before the rest of its code has loaded.
 * @param {string} matchId @param {string[]} tokens
 */
export function openSockets(matchId, tokens) {
  return (tokens.length ? tokens : [null]).map((token) => new MatchSocket(matchId, token));
}

export class MatchSocket {
  /**
   * @param {string} matchId
   * @param {string|null} token seat token, or null for a spectator
   * @param {NetHandlers} [on] without handlers, what arrives is kept until `attach` (the page
   *   opens its sockets while the art still loads, so the first state is there when it is ready)
   */
  constructor(matchId, token, on) {
    this.matchId = matchId;
    this.token = token;
    /** @type {Array<() => void>} what arrived before `attach`, to hand over in order */
    this.early = [];
    this.on = on ?? {
      onMessage: (msg) => this.early.push(() => this.on.onMessage(msg)),
      onStatus: (status, detail) => this.early.push(() => this.on.onStatus(status, detail)),
    };
    /** @type {WebSocket|null} */
    this.ws = null;
    this.attempt = 0;
    this.closed = false;
    this.seq = 0;
    this.lastSeq = 0;
    this.queryId = 0;
    /** @type {Map<number, (answer: import("./insight.js").Answer|import("./hint.js").HintAnswer|null) => void>} questions awaiting their answer */
    this.questions = new Map();
    /** @type {ReturnType<typeof setTimeout>|null} */
    this.timer = null;
    /** The server's clock against this page's (js/clock.js), from the clock stamps of the messages. */
    this.timeSync = NO_SYNC;
    /**
     * The last message the server answers with a `state` (hello or sync: the next state; an
     * act: the state whose last_seq reaches its seq), and the local time it left.
     * @type {{at: number, seq: number}|null}
     */
    this.asked = null;
    this.wake = () => this.reconnectNow();
    window.addEventListener("online", this.wake);
    this.open();
  }

  open() {
    if (this.closed) return;
    const scheme = location.protocol === "https:" ? "wss" : "ws";
    const ws = new WebSocket(`${scheme}://${location.host}/ws/matches/${encodeURIComponent(this.matchId)}`);
    this.ws = ws;
    this.on.onStatus(this.attempt ? "reconnecting" : "connecting", "");
    ws.onopen = () => {
      this.asked = { at: localNow(), seq: 0 };
      ws.send(JSON.stringify({ type: "hello", token: this.token }));
    };
    ws.onmessage = (e) => {
      /** @type {ServerMessage} */
      let msg;
      try {
        msg = JSON.parse(String(e.data));
      } catch {
        return;
      }
      if (msg.type === "welcome") {
        this.attempt = 0;
        this.on.onStatus("online", "");
      }
      if (msg.type === "state") this.lastSeq = Math.max(this.lastSeq, msg.last_seq);
      const stamped = msg.type === "state" || msg.type === "clock" ? msg.clock : null;
      if (stamped) {
        const answer = msg.type === "state" && this.asked && msg.last_seq >= this.asked.seq ? this.asked.at : null;
        this.timeSync = addSample(this.timeSync, stamped.server_time, localNow(), answer);
        if (answer !== null) this.asked = null;
      }
      const id = "id" in msg ? msg.id : undefined;
      const settle = id === undefined ? undefined : this.questions.get(id);
      if (id !== undefined && settle) {
        // A refused question (`rate_limited`, with `retry_after`) has no answer: ask again later.
        /** @type {(a: any) => void} */ (settle)(msg.type === "reject" ? null : msg);
        this.questions.delete(id);
        return;
      }
      this.on.onMessage(msg);
    };
    ws.onclose = (e) => {
      if (this.ws !== ws) return;
      this.ws = null;
      for (const settle of this.questions.values()) settle(null); // unanswered questions: ask again later
      this.questions.clear();
      if (this.closed) return;
      const final = FINAL_CLOSES.get(e.code);
      if (final) {
        this.closed = true;
        this.on.onStatus("closed", final);
        return;
      }
      const delay = Math.min(MAX_BACKOFF_MS, 400 * 2 ** this.attempt) * (0.6 + Math.random() * 0.4);
      this.attempt += 1;
      this.on.onStatus("reconnecting", `retrying in ${Math.ceil(delay / 1000)} s`);
      this.timer = setTimeout(() => this.open(), delay);
    };
  }

  /** Take the page's handlers and give them what arrived before. @param {NetHandlers} on */
  attach(on) {
    this.on = on;
    const early = this.early;
    this.early = [];
    for (const deliver of early) deliver();
  }

  /** Try at once (the network came back, or the user asked). */
  reconnectNow() {
    if (this.closed || (this.ws && this.ws.readyState <= WebSocket.OPEN)) return;
    if (this.timer) clearTimeout(this.timer);
    this.open();
  }

  /** @returns {boolean} */
  get online() {
    return !!this.ws && this.ws.readyState === WebSocket.OPEN;
  }

  /**
   * Send one of the offered actions, based on `version`; returns its seq, or 0 if offline.
   * @param {number} version @param {Action} action
   */
  act(version, action) {
    if (!this.online) return 0;
    this.seq = Math.max(this.seq, this.lastSeq) + 1;
    this.asked = { at: localNow(), seq: this.seq };
    /** @type {WebSocket} */ (this.ws).send(JSON.stringify({ type: "act", version, seq: this.seq, action }));
    return this.seq;
  }

  /**
   * Ask the server a question about the position (`explain`, `preview_move`, `preview_attack`,
   * `threats`); resolves with its answer, or null when offline or the socket closed first.
   * @param {{type: string, [field: string]: unknown}} query without `id`
   * @returns {Promise<import("./insight.js").Answer|import("./hint.js").HintAnswer|null>}
   */
  ask(query) {
    if (!this.online) return Promise.resolve(null);
    const id = ++this.queryId;
    /** @type {WebSocket} */ (this.ws).send(JSON.stringify({ ...query, id }));
    return new Promise((resolve) => this.questions.set(id, resolve));
  }

  /** Ask for the current state again. */
  sync() {
    if (!this.online) return;
    this.asked = { at: localNow(), seq: 0 };
    /** @type {WebSocket} */ (this.ws).send(JSON.stringify({ type: "sync" }));
  }

  /** Offer, accept or decline a rematch after the game; false if offline. @param {"offer"|"accept"|"decline"} choice */
  rematch(choice) {
    if (!this.online) return false;
    /** @type {WebSocket} */ (this.ws).send(JSON.stringify({ type: "rematch", choice }));
    return true;
  }

  /** Drop the connection on purpose (used by tests to show a reconnect). */
  drop() {
    this.ws?.close(4000, "dropped by the client");
  }

  close() {
    this.closed = true;
    window.removeEventListener("online", this.wake);
    if (this.timer) clearTimeout(this.timer);
    this.ws?.close(1000, "bye");
    this.ws = null;
  }
}
