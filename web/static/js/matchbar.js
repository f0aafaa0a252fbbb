// @ts-check
/**
 * The match around the game (issue 17), drawn on the board page of a live match: both
 * clocks with each seat's presence in the top bar (the running clock highlighted, a low
 * clock in red and in the tab title), a Resign button with its confirmation, the claim of
 * an abandoned seat, and the rematch box after the game. It shows what the server says and
 * sends only what the server offers (`match_actions`, the rematch choices); the clocks
 * count down between messages from the server's stamps (js/clock.js).
 */

import { describeState, faces, formatClock, localNow, serverNow } from "./clock.js";
import { esc, sideName } from "./labels.js";
import { claimState, claimText, isPresent, presenceTitle, resignAction } from "./presence.js";
import { CHOICE_LABELS, rematchView } from "./rematch.js";

/** @typedef {import("./types.js").Model} Model */
/** @typedef {import("./types.js").Action} Action */
/** @typedef {import("./clock.js").TimeSync} TimeSync */

const TICK_MS = 100;
const TITLE_MARK = /^⚠ [^·]* left · /; // the low-time prefix this module puts before the page's own title

/**
 * @typedef {{act: (action: Action) => void, rematch: (choice: "offer"|"accept"|"decline") => void,
 *   sync: () => TimeSync}} MatchBarHandlers
 */

export class MatchBar {
  /** @param {HTMLElement} gameRoot the board page's `.game` @param {MatchBarHandlers} on */
  constructor(gameRoot, on) {
    this.on = on;
    const topbar = /** @type {HTMLElement} */ (gameRoot.querySelector(".topbar"));
    this.bar = element("div", "matchbar");
    topbar.insertBefore(this.bar, topbar.querySelector(".conn"));
    this.claim = element("div", "claimbox");
    this.waiting = element("div", "waitingbox");
    /** @type {HTMLElement} */ (gameRoot.querySelector(".board")).append(this.claim, this.waiting);
    this.rematchBox = element("div", "rematchbox");
    this.confirm = element("div", "confirm-resign");
    gameRoot.append(this.rematchBox, this.confirm);
    this.claim.hidden = this.waiting.hidden = this.rematchBox.hidden = this.confirm.hidden = true;
    /** @type {Model|null} */
    this.model = null;
    this.key = "";
    /** the claim the player chose to keep waiting on (hidden until it lapses) */
    this.waitedOn = "";
    /** the claim box's markup as last written: its buttons are rebuilt only when it changes, never under a click */
    this.claimHtml = "";
    this.onClick = (/** @type {MouseEvent} */ e) => this.click(/** @type {HTMLElement} */ (e.target));
    for (const el of [this.bar, this.claim, this.waiting, this.rematchBox, this.confirm]) el.addEventListener("click", this.onClick);
    // While the confirmation is open, keys belong to it: Enter must not run the decision panel's button.
    this.onKey = (/** @type {KeyboardEvent} */ e) => {
      if (this.confirm.hidden) return;
      e.stopPropagation();
      if (e.key === "Escape") this.closeConfirm();
    };
    window.addEventListener("keydown", this.onKey, true);
    this.timer = setInterval(() => this.tick(), TICK_MS);
  }

  /** Show a model's clocks, presence, resign, claim and rematch. @param {Model} model */
  render(model) {
    this.model = model;
    const key = JSON.stringify([model.seat, model.status, model.toAct, model.clock, model.presence, model.matchActions,
      model.rematch, model.botSide, model.openSeat]);
    if (key === this.key) return;
    this.key = key;
    this.renderBar(model);
    this.renderWaiting(model);
    this.renderRematch(model);
    if (!resignAction(model)) this.closeConfirm();
    this.tick();
  }

  /** @param {Model} model */
  renderBar(model) {
    if (!model.view) {
      this.bar.innerHTML = "";
      return;
    }
    const clock = model.clock;
    const seats = /** @type {import("./types.js").Side[]} */ (["ATTACKER", "DEFENDER"]).map((side) => {
      const here = isPresent(model.presence, side);
      const dot = `<i class="presence ${here === null ? "unknown" : here ? "on" : "off"}" title="${esc(presenceTitle(model, side))}"></i>`;
      const you = model.seat === side ? " <small>(you)</small>" : "";
      const time = clock ? `<b class="time"></b>` : "";
      const title = clock ? ` title="${esc(`${sideName(side)}'s clock: ${describeState(clock)}`)}"` : "";
      const initial = `<span class="initial side-${side}" aria-hidden="true">${esc(sideName(side).charAt(0))}</span>`;
      return `<div class="clockface${model.seat === side ? " yours" : ""}" data-side="${side}"${title}>${dot}${initial}<span class="who side-${side}">${esc(sideName(side))}${you}</span>${time}</div>`;
    }).join("");
    const kind = clock ? `<span class="clockkind" title="Clock">${esc(describeState(clock))}</span>` : "";
    const resign = resignAction(model) ? `<button type="button" class="btn ghost resign" data-resign title="Resign this game" aria-label="Resign">⚑<span> Resign</span></button>` : "";
    this.bar.innerHTML = `${seats}${kind}${resign}`;
  }

  /**
   * An open challenge's creator waits for someone to take the other seat: say so, and give the
   * link that brings a friend straight to it (the lobby opens it with its Join button).
   * @param {Model} model
   */
  renderWaiting(model) {
    const free = model.openSeat;
    const waiting = !!free && !!model.seat && model.status === "live" && isPresent(model.presence, free) !== true;
    this.waiting.hidden = !waiting;
    if (!waiting || !free) return;
    const link = `${location.origin}/?join=${encodeURIComponent(model.matchId)}`;
    this.waiting.innerHTML = `<p><b>Waiting for an opponent.</b> Your game is listed in the lobby's open challenges: whoever
      takes the <span class="side-${free}">${esc(sideName(free))}</span> seat starts it (your clock waits until then).
      To invite someone, send them this link:</p>
      <div class="btns"><code class="invite-link">${esc(link)}</code><button type="button" class="btn primary" data-copy-invite="${esc(link)}">Copy link</button></div>`;
  }

  /** @param {Model} model */
  renderRematch(model) {
    const view = rematchView(model);
    this.rematchBox.hidden = !view;
    if (!view) return;
    const buttons = view.choices.map((c) =>
      `<button type="button" class="btn${c === "decline" ? "" : " primary"}" data-rematch="${c}">${esc(CHOICE_LABELS[c])}</button>`).join("");
    const follow = view.next && !model.seat ? ` <a class="btn" href="/watch/${encodeURIComponent(view.next)}">Watch the rematch</a>` : "";
    this.rematchBox.innerHTML = `<span>${esc(view.text)}</span>${buttons}${follow}`;
  }

  /** Redraw what moves with time: the clocks, the claim countdown, the title. */
  tick() {
    const model = this.model;
    if (!model) return;
    const now = serverNow(this.on.sync(), localNow());
    let warn = "";
    if (model.clock) {
      for (const face of faces(model.clock, now)) {
        const el = /** @type {HTMLElement|null} */ (this.bar.querySelector(`.clockface[data-side="${face.side}"]`));
        if (!el) continue;
        el.classList.toggle("running", face.running && model.status === "live");
        el.classList.toggle("low", face.low && model.status === "live");
        el.classList.toggle("out", face.out);
        const time = /** @type {HTMLElement} */ (el.querySelector(".time"));
        if (time.textContent !== face.text) time.textContent = face.text;
        if (face.low && face.running && model.status === "live" && (face.side === model.seat || !model.seat)) warn = face.text;
      }
    }
    this.renderClaim(model, now);
    const base = document.title.replace(TITLE_MARK, "");
    const title = warn ? `⚠ ${warn} left · ${base}` : base;
    if (document.title !== title) document.title = title;
  }

  /** @param {Model} model @param {number} now */
  renderClaim(model, now) {
    const claim = claimState(model);
    const id = claim.kind === "none" ? "" : `${claim.kind}|${claim.absent}|${claim.kind === "waiting" ? claim.at : ""}`;
    // "Keep waiting" holds until the claim lapses (the seat came back); a new absence asks again.
    if (claim.kind !== "allowed") this.waitedOn = "";
    const hide = claim.kind === "none" || id === this.waitedOn;
    this.claim.hidden = hide;
    if (hide) return;
    const text = claimText(claim, now, formatClock);
    const buttons = claim.kind === "allowed"
      ? `<div class="btns"><button type="button" class="btn primary" data-claim>Claim the win</button><button type="button" class="btn" data-wait="${esc(id)}">Keep waiting</button></div>`
      : "";
    const html = `<p>${esc(text)}</p>${buttons}`;
    // Compared with what was written, not with innerHTML (the browser writes `data-claim` back as
    // `data-claim=""`): rebuilt every tick, a button lost the clicks whose press and release straddled one.
    if (this.claimHtml !== html) this.claim.innerHTML = this.claimHtml = html;
  }

  /** @param {HTMLElement} t */
  click(t) {
    const model = this.model;
    if (!model) return;
    const invite = /** @type {HTMLElement|null} */ (t.closest("[data-copy-invite]"));
    if (invite) {
      copyText(invite.dataset.copyInvite ?? "").then((ok) => { invite.textContent = ok ? "Copied" : "Select and copy it"; });
    } else if (t.closest("[data-resign]")) this.openConfirm(model);
    else if (t.closest("[data-confirm-resign]")) {
      const action = resignAction(model);
      this.closeConfirm();
      if (action) this.on.act(action);
    } else if (t.closest("[data-cancel-resign]")) this.closeConfirm();
    else if (t.closest("[data-claim]")) {
      const claim = claimState(model);
      if (claim.kind === "allowed") this.on.act(claim.action);
    } else if (t.closest("[data-wait]")) {
      this.waitedOn = /** @type {HTMLElement} */ (t.closest("[data-wait]")).dataset.wait ?? "";
      this.claim.hidden = true;
    } else {
      const choice = /** @type {HTMLElement|null} */ (t.closest("[data-rematch]"))?.dataset.rematch;
      if (choice === "offer" || choice === "accept" || choice === "decline") this.on.rematch(choice);
    }
  }

  /** @param {Model} model */
  openConfirm(model) {
    const other = model.seat === "ATTACKER" ? "DEFENDER" : "ATTACKER";
    this.confirm.innerHTML = `<div class="card-panel" role="alertdialog" aria-labelledby="resign-title">
      <h2 id="resign-title">Resign this game?</h2>
      <p>${esc(sideName(other))} wins at once. A resignation cannot be taken back.</p>
      <div class="btns"><button type="button" class="btn danger" data-confirm-resign>Resign</button>
      <button type="button" class="btn primary" data-cancel-resign>Keep playing</button></div></div>`;
    this.confirm.hidden = false;
    /** @type {HTMLElement} */ (this.confirm.querySelector("[data-cancel-resign]")).focus();
  }

  closeConfirm() {
    if (this.confirm.hidden) return;
    this.confirm.hidden = true;
    this.confirm.innerHTML = "";
  }

  destroy() {
    clearInterval(this.timer);
    window.removeEventListener("keydown", this.onKey, true);
    for (const el of [this.bar, this.claim, this.waiting, this.rematchBox, this.confirm]) el.remove();
  }
}

/** Put `text` on the clipboard; false where the browser refuses. @param {string} text */
async function copyText(text) {
  try {
    await navigator.clipboard.writeText(text);
    return true;
  } catch {
    return false;
  }
}

/** @param {string} tag @param {string} cls */
function element(tag, cls) {
  const el = document.createElement(tag);
  el.className = cls;
  return el;
}
