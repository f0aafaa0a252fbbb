// @ts-check
/**
 * One WebSocket to one match (docs/protocol.md): `hello` with the seat token (the only
 * message that ever carries it), then `act` with the version it is based on and a sequence
 * number, or `sync`. Reconnects by itself with jittered exponential backoff; every reconnect
 * says hello again, and the server answers with the current state, so the client resyncs.
 * A wrong token or a missing match closes for good.
 */

/** @typedef {import("./types.js").Action} Action */
/**
 * Every message the server sends (server/protocol.py), told apart by `type`.
 * @typedef {import("./types.js").Welcome | import("./types.js").StateMsg | import("./types.js").Ack
 *   | import("./types.js").Reject | import("./hint.js").HintAnswer} ServerMessage
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

export class MatchSocket {
  /**
   * @param {string} matchId
   * @param {string|null} token seat token, or null for a spectator
   * @param {NetHandlers} on
   */
  constructor(matchId, token, on) {
    this.matchId = matchId;
    this.token = token;
    this.on = on;
    /** @type {WebSocket|null} */
    this.ws = null;
    this.attempt = 0;
    this.closed = false;
    this.seq = 0;
    this.lastSeq = 0;
    /** @type {ReturnType<typeof setTimeout>|null} */
    this.timer = null;
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
      this.on.onMessage(msg);
    };
    ws.onclose = (e) => {
      if (this.ws !== ws) return;
      this.ws = null;
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
    /** @type {WebSocket} */ (this.ws).send(JSON.stringify({ type: "act", version, seq: this.seq, action }));
    return this.seq;
  }

  /** Ask for the current state again. */
  sync() {
    if (this.online) /** @type {WebSocket} */ (this.ws).send(JSON.stringify({ type: "sync" }));
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
