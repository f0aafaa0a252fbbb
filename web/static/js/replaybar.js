// @ts-check
/**
 * The replay viewer's bar, docked at the foot of the board: step buttons, the slider, whether
 * the record checked out, and the step in words on one line; "More" opens the rest (speed,
 * whose cards, "Continue from here", the dice check in plain words, the evaluation graph).
 * `mountBar` builds it, the render functions draw a js/replaystate.js replay into it, and
 * `bindBar` turns its input into intents and returns its `unbind`.
 */

import { esc } from "./labels.js";
import { canFork, stepClocks, stepSummary } from "./replaystate.js";

/** @typedef {import("./replaystate.js").Replay} Replay */
/** @typedef {import("./api.js").Perspective} Perspective */
/** @typedef {import("./api.js").Verification} Verification */

const BAR = `
<div class="replaybar">
  <div class="replay-main">
    <button type="button" class="btn" data-go="first" title="First step (Home)" aria-label="First step">«</button>
    <button type="button" class="btn" data-go="prev" title="Previous step (←)" aria-label="Previous step">‹</button>
    <button type="button" class="btn primary" data-go="play" title="Play / pause (space)">Play</button>
    <button type="button" class="btn" data-go="next" title="Next step (→)" aria-label="Next step">›</button>
    <button type="button" class="btn" data-go="last" title="Last step (End)" aria-label="Last step">»</button>
    <input type="range" min="0" max="0" value="0" aria-label="Step">
    <span class="replay-check" hidden></span>
    <button type="button" class="btn ghost" data-go="more" aria-expanded="false" title="Speed, whose cards, continue from here, the dice check">More ▾</button>
  </div>
  <div class="stepinfo"></div>
  <div class="replay-more" hidden>
    <select name="speed" title="Speed"><option value="0">slow</option><option value="1" selected>normal</option><option value="2">fast</option><option value="3">fastest</option></select>
    <select name="view" title="Whose cards to show"><option value="spectator">Spectator view</option><option value="full">All cards</option><option value="ATTACKER">Attacker's eyes</option><option value="DEFENDER">Defender's eyes</option></select>
    <button type="button" class="btn" data-go="fork" title="Start a new hot-seat match from this position">Continue from here</button>
    <button type="button" class="btn" data-go="verify" hidden>Verify dice</button>
    <div class="verify"></div>
  </div>
</div>`;

/**
 * @typedef {{root: HTMLElement, slider: HTMLInputElement, info: HTMLElement, verify: HTMLElement, check: HTMLElement,
 *   more: HTMLElement, moreButton: HTMLButtonElement, play: HTMLButtonElement, fork: HTMLButtonElement,
 *   verifyDice: HTMLButtonElement, speed: HTMLSelectElement, view: HTMLSelectElement}} Bar
 */

/** Put the bar into `host` (the board page's extra slot). @param {HTMLElement} host @returns {Bar} */
export function mountBar(host) {
  host.innerHTML = BAR;
  const root = /** @type {HTMLElement} */ (host.querySelector(".replaybar"));
  const q = (/** @type {string} */ selector) => /** @type {HTMLElement} */ (root.querySelector(selector));
  return {
    root,
    slider: /** @type {HTMLInputElement} */ (q("input[type=range]")),
    info: q(".stepinfo"),
    verify: q(".verify"),
    check: q(".replay-check"),
    more: q(".replay-more"),
    moreButton: /** @type {HTMLButtonElement} */ (q("[data-go=more]")),
    play: /** @type {HTMLButtonElement} */ (q("[data-go=play]")),
    fork: /** @type {HTMLButtonElement} */ (q("[data-go=fork]")),
    verifyDice: /** @type {HTMLButtonElement} */ (q("[data-go=verify]")),
    speed: /** @type {HTMLSelectElement} */ (q("[name=speed]")),
    view: /** @type {HTMLSelectElement} */ (q("[name=view]")),
  };
}

/**
 * The slider's place, the step in words, and whether "Continue from here" applies.
 * @param {Bar} bar @param {Replay} r @param {Map<string, import("./types.js").CardInfo>} cards
 */
export function renderStep(bar, r, cards) {
  const { step, last, what, texts } = stepSummary(r, cards);
  bar.slider.value = String(step);
  bar.info.innerHTML = `<b>Step ${step} of ${last}</b> · ${esc(what)}${texts.length ? ` — ${esc(texts.join("; "))}` : ""}`;
  const clocks = stepClocks(r); // issue 17: the clocks as they stood after this step
  if (clocks) {
    bar.info.innerHTML += `<div class="replayclocks">Clocks: <span class="side-ATTACKER">Attacker ${esc(clocks.attacker)}</span> · <span class="side-DEFENDER">Defender ${esc(clocks.defender)}</span>${clocks.took ? ` <span class="muted">· this action took ${esc(clocks.took)}</span>` : ""}</div>`;
  }
  bar.fork.disabled = !canFork(r);
}

/** The slider's range and the server's verdict on the record's hashes, in plain words. @param {Bar} bar @param {Replay} r */
export function renderVerification(bar, r) {
  bar.slider.max = String(r.total - 1);
  const v = /** @type {Verification} */ (r.verification);
  bar.verify.innerHTML = v.status === "verified"
    ? `<span class="ok">✓ This record replays exactly</span>: all ${v.actions} moves lead to the very positions stored during the game.`
    : v.status === "unverified" ? `<span class="muted">This record replays, but it carries no positions to check it against.</span>`
      : `<span class="bad">✗ This record does not replay as stored</span>: ${esc(v.error ?? "")}`;
  bar.verify.dataset.status = v.status;
  bar.check.hidden = v.status === "unverified";
  bar.check.className = `replay-check ${v.status === "verified" ? "ok" : "bad"}`;
  bar.check.textContent = v.status === "verified" ? "✓ checked" : "✗ altered";
  bar.check.title = bar.verify.textContent ?? "";
}

/** Append the browser's own check of the revealed seed, in plain words. @param {Bar} bar @param {{ok: boolean, reason: string}} result */
export function renderDice(bar, result) {
  const out = result.ok
    ? `<span class="ok">✓ The dice were fair</span>: the game's secret seed, revealed now, matches the sealed fingerprint
      published before the first roll, so nobody could have chosen the dice. <small class="muted">(${esc(result.reason)})</small>`
    : `<span class="bad">✗ The dice cannot be vouched for</span>: ${esc(result.reason)}.`;
  bar.verify.innerHTML = `${bar.verify.innerHTML}<br>${out}`;
  bar.verify.dataset.dice = result.ok ? "ok" : "bad";
}

/** Open or fold the bar's "More" part. @param {Bar} bar @param {boolean} open */
export function renderMore(bar, open) {
  bar.more.hidden = !open;
  bar.root.classList.toggle("open", open);
  bar.moreButton.setAttribute("aria-expanded", String(open));
  bar.moreButton.textContent = open ? "Less ▴" : "More ▾";
}

/** @param {Bar} bar @param {boolean} playing */
export function renderPlaying(bar, playing) {
  bar.play.textContent = playing ? "Pause" : "Play";
}

/** A line in place of the step's words (an error, or why there is nothing to show). @param {Bar} bar @param {string} html */
export function renderNotice(bar, html) {
  bar.info.innerHTML = html;
}

/**
 * @typedef {{
 *   go: (to: import("./replaystate.js").Go) => void,
 *   togglePlay: () => void,
 *   speed: (speed: number) => void,
 *   perspective: (perspective: Perspective) => void,
 *   fork: () => void,
 *   verifyDice: () => void,
 * }} BarIntents
 */

/** @param {Bar} bar @param {BarIntents} on @returns {() => void} unbind */
export function bindBar(bar, on) {
  /** @param {MouseEvent} e */
  const onClick = (e) => {
    const what = /** @type {HTMLElement|null} */ (/** @type {HTMLElement} */ (e.target).closest("[data-go]"))?.dataset.go;
    if (what === "first" || what === "prev" || what === "next" || what === "last") on.go(what);
    else if (what === "play") on.togglePlay();
    else if (what === "fork") on.fork();
    else if (what === "verify") on.verifyDice();
    else if (what === "more") renderMore(bar, !bar.root.classList.contains("open"));
  };
  const onSlide = () => on.go(Number(bar.slider.value));
  const onSpeed = () => on.speed(Number(bar.speed.value));
  const onView = () => on.perspective(/** @type {Perspective} */ (bar.view.value));
  bar.root.addEventListener("click", onClick);
  bar.slider.addEventListener("input", onSlide);
  bar.speed.addEventListener("change", onSpeed);
  bar.view.addEventListener("change", onView);
  return () => {
    bar.root.removeEventListener("click", onClick);
    bar.slider.removeEventListener("input", onSlide);
    bar.speed.removeEventListener("change", onSpeed);
    bar.view.removeEventListener("change", onView);
  };
}
