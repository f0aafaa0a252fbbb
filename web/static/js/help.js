// @ts-check
/**
 * "How to play": a panel over the page with four tabs: a walkthrough of one first turn, a
 * glossary of the words the screen uses, the rules in brief (how to win, units, terrain, hits,
 * cards: `/rules/short`, its tables from the engine's data) and the full rules (`/rules`,
 * docs/rules.md; section links like §6.2 jump within it). The server renders both pages; the
 * panel shows their bodies. Opened by the "?" button or the `?` / `h` key.
 */

import { esc } from "./labels.js";

/** @type {Array<[string, string]>} the screen's words and what they mean */
export const GLOSSARY = [
  ["Attacker / Defender", "The two sides. The Attacker (10 units) plays first; the Defender has 15 units."],
  ["Turn, round", "A turn is one side's go; a round is one turn of each side. The first side to destroy 5 victory points of enemy units wins (by default); otherwise the game ends at the round limit (25 rounds by default)."],
  ["Phases", "Each turn runs Draw → Cards → Move → Attack → Dice; the ruler at the top shows where the turn is."],
  ["Active / reacting", "The active side is the one whose turn it is; the other side is reacting: it may answer in reaction windows."],
  ["Reaction window", "A moment when a tactic card may be played: before the first move, after a move, before an attack roll, after the roll (before damage). The reacting side decides first; the active side has the last word."],
  ["Tactic", "One of the six single-use cards each side holds from the start, played in reaction windows."],
  ["Bonus", "A card drawn that helps you: play it at once, store it for later (face down), or discard it."],
  ["Malus", "A card drawn that hurts whoever drew it, unless they cancel it with a stored bonus that can."],
  ["Cancels any malus", "A bonus with this tag may be spent to cancel a malus you drew (some bonuses cancel only certain kinds)."],
  ["Victims", "Some maluses let the opponent of the drawer pick which of the drawer's units they hit."],
  ["MP", "Movement points. Each step costs MP by terrain; roads are cheaper, forests and rivers dearer."],
  ["Needs 4+", "The number the modified die must reach to hit. It depends on the distance: 3+ adjacent, then 4+, 5+, 6."],
  ["Modifiers", "Terrain, cards and tactics add to or subtract from the die; the dice panel lists each one with its source."],
  ["HIT / MISS", "The outcome of a roll. A hit removes HP from the target; a unit at 0 HP is destroyed."],
  ["Damaged", "A unit below its full HP; the board marks it."],
  ["VP", "Victory points: 1, 2 or 3 for each enemy unit destroyed (by type), plus points for controlled cells in some set-ups."],
  ["Declared attacks", "Attacks queued in the Attack phase; the Dice phase resolves them one by one. Ending the turn early drops the rest."],
  ["Hot-seat", "Both sides on one device: the screen hides the cards and asks to pass the device when the other person has a real choice."],
];

/** The first turn, step by step, in the words of the buttons. */
export const WALKTHROUGH = [
  ["Draw", "Press <b>Draw a card</b> (D). A bonus offers <b>Play</b>, <b>Store it for later</b> (S) or <b>Discard it</b> (X); a malus offers <b>Accept</b> (Y) or a cancel with a stored bonus."],
  ["Cards", "Play any stored bonus you want now, then press <b>Next: Move</b> (N)."],
  ["Move", "Click a glowing unit: the cells it can reach light up. Click one to move there. Up to five units move each turn; the status panel counts them."],
  ["Attack", "Press <b>Next: Attack</b>. Select a unit, then click a red-ringed enemy in range: that declares the attack (you can still withdraw it). Declare as many as you like, then press <b>Next: Dice</b>."],
  ["Dice", "Press <b>Roll the die</b> (R). The dice panel shows the die, every modifier and whether it hit. The opponent may answer with a tactic before or after the roll. Press <b>Apply the result</b> (A) for each attack."],
  ["End", "When no attack is left, <b>End turn</b> (E) passes the game to the other side. <b>End turn</b> sits apart from the other buttons and asks first if you would lose declared attacks or unused moves."],
];

export class Help {
  /** @param {HTMLElement} box the panel's element (hidden until opened) */
  constructor(box) {
    this.box = box;
    /** @type {Set<string>} the rules tabs already filled */
    this.loaded = new Set();
    box.addEventListener("click", (e) => {
      const t = /** @type {HTMLElement} */ (e.target);
      const tab = /** @type {HTMLElement|null} */ (t.closest("[data-help-tab]"))?.dataset.helpTab;
      if (tab) this.show(tab);
      else if (t.closest("[data-help-close]") || t === box) this.close();
      if (t.closest(".rules a[href='/rules']")) { // the summary's link to the full rules: its tab, not away from the game
        e.preventDefault();
        this.show("rules");
        return;
      }
      const link = /** @type {HTMLAnchorElement|null} */ (t.closest(".rules a[href^='#']"));
      if (link) {
        e.preventDefault();
        box.querySelector(`[id="${CSS.escape(link.hash.slice(1))}"]`)?.scrollIntoView({ block: "start" });
      }
    });
  }

  get open() {
    return !this.box.hidden;
  }

  /** Open on a tab ("turn", "words", "brief" or "rules"). @param {string} [tab] */
  show(tab = "turn") {
    if (this.box.hidden) this.box.innerHTML = this.markup();
    this.box.hidden = false;
    for (const b of this.box.querySelectorAll("[data-help-tab]")) b.classList.toggle("on", /** @type {HTMLElement} */ (b).dataset.helpTab === tab);
    for (const p of this.box.querySelectorAll("[data-help-pane]")) /** @type {HTMLElement} */ (p).hidden = /** @type {HTMLElement} */ (p).dataset.helpPane !== tab;
    const page = RULE_PAGES[tab];
    if (page) this.loadRules(tab, page);
  }

  close() {
    this.box.hidden = true;
  }

  toggle() {
    if (this.open) this.close();
    else this.show();
  }

  markup() {
    const steps = WALKTHROUGH.map(([name, text]) => `<li><b>${esc(name)}</b> ${text}</li>`).join("");
    const words = GLOSSARY.map(([word, text]) => `<dt>${esc(word)}</dt><dd>${esc(text)}</dd>`).join("");
    return `<div class="helppanel" role="dialog" aria-label="How to play">
      <header><h2>How to play</h2><nav><button type="button" data-help-tab="turn">First turn</button><button type="button" data-help-tab="words">Words</button><button type="button" data-help-tab="brief">Rules in brief</button><button type="button" data-help-tab="rules">Full rules</button></nav>
      <button type="button" class="btn ghost" data-help-close>Close <kbd>Esc</kbd></button></header>
      <section data-help-pane="turn"><p>One turn of the Attacker, the way the screen asks for it. The panel beside the board always says who decides and why; the buttons show their keys.</p><ol class="walk">${steps}</ol></section>
      <section data-help-pane="words" hidden><dl class="glossary">${words}</dl></section>
      <section data-help-pane="brief" hidden><p class="muted">Loading the rules in brief…</p></section>
      <section data-help-pane="rules" hidden><p class="muted">Loading the rules…</p></section></div>`;
  }

  /**
   * Show a rules page (rendered by the server) in its tab, once.
   * @param {string} tab @param {string} url
   */
  async loadRules(tab, url) {
    if (this.loaded.has(tab)) return;
    const pane = /** @type {HTMLElement} */ (this.box.querySelector(`[data-help-pane='${tab}']`));
    try {
      const response = await fetch(url);
      if (!response.ok) throw new Error(`HTTP ${response.status}`);
      const doc = new DOMParser().parseFromString(await response.text(), "text/html");
      const main = doc.querySelector("main.rules");
      if (!main) throw new Error("no rules in the page");
      pane.innerHTML = `<p><a href="${esc(url)}" target="_blank" rel="noopener">Open in its own tab</a></p><div class="rules">${main.innerHTML}</div>`;
      this.loaded.add(tab);
    } catch (err) {
      pane.innerHTML = `<p class="error">The rules could not be loaded (${esc(/** @type {Error} */ (err).message)}).</p>`;
    }
  }
}

/** The tabs that show a rules page of the server's, and its address. @type {Record<string, string>} */
const RULE_PAGES = { brief: "/rules/short", rules: "/rules" };
