// @ts-check
/**
 * The DOM panels around the board: phase ruler, whose decision and why, the buttons the
 * legal actions became, cards, the roll and its modifiers, live effects, the log, the
 * hover info and the end screen. Each panel re-renders only when its inputs change.
 * Clicks are delegated: every button carries an index into the runs of the last render.
 * A `confirm` run (End turn that would forfeit something) asks in the panel before it is run.
 */

import { pickProgress } from "./controls.js";
import { DicePanel } from "./dicepanel.js";
import { endScreen } from "./endscreen.js";
import { cardInfo, cardName, cardTextFor, decisionText, esc, humanize, modifierText, sideName } from "./labels.js";
import { armedButtons, armedLine } from "./armed.js";
import { ScoreBox } from "./score.js";
import { oddsSlot } from "./odds.js";
import { Sheet } from "./sheet.js";
import { sides } from "./state.js";
import { CARD_KINDS, TACTIC_SIDES, eventText, windowName } from "./words.js";

/** @typedef {import("./types.js").Model} Model */
/** @typedef {import("./types.js").CardInfo} CardInfo */
/** @typedef {import("./controls.js").Controls} Controls */
/** @typedef {import("./controls.js").Button} Button */
/** @typedef {import("./controls.js").Run} Run */
/** @typedef {import("./endscreen.js").MatchHistory} MatchHistory */
/**
 * Called after every render of the decision panel with the panel and what it showed; a hook
 * may fill the panel's empty `[data-slot="hint"]` element (a hint button, say).
 * @typedef {(panel: HTMLElement, model: Model, ctl: Controls|null) => void} DecisionHook
 */

/**
 * @typedef {{turn: HTMLElement, score: HTMLElement, ruler: HTMLElement, seat: HTMLElement, conn: HTMLElement, decision: HTMLElement,
 *   status: HTMLElement, roll: HTMLElement, cards: HTMLElement, effects: HTMLElement, log: HTMLElement,
 *   hover: HTMLElement, notice: HTMLElement, overlay: HTMLElement}} HudElements
 */

const NOTICE_MS = 7000;

export class Hud {
  /**
   * @param {HudElements} els @param {Map<string, CardInfo>} cards
   * @param {(run: Run) => void} onRun @param {() => void} onCancel
   */
  constructor(els, cards, onRun, onCancel) {
    this.els = els;
    this.cards = cards;
    this.onRun = onRun;
    this.dice = new DicePanel(els.roll, cards);
    this.sheet = new Sheet();
    /** @type {Extract<Run, {kind: "confirm"}>|null} an End turn waiting for the player's yes */
    this.confirming = null;
    /** @type {DecisionHook[]} */
    this.decisionHooks = [];
    /** @type {MatchHistory|null} the match's rolls and turns from the server */
    this.history = null;
    /** @type {(value: string|null) => void} called with a choice's value while the pointer or focus is on its button */
    this.onPoint = () => {};
    /** called when a public hot-seat screen's player asks to see their cards */
    this.onShowHand = () => {};
    /** called when the decision becomes this screen's (a chime) */
    this.onMyTurn = () => {};
    this.wasMine = false;
    /** @type {{model: Model, ctl: Controls|null}|null} what the panels last showed */
    this.last = null;
    /** @type {ReturnType<typeof setInterval>|undefined} */
    this.waitTimer = undefined;
    /** @type {Map<string, Run>} runs of the buttons on screen, by button id */
    this.runs = new Map();
    this.epoch = "";
    /** @type {Record<string, string>} */
    this.keys = {};
    this.rolled = "";
    /** whether to play the die's tumble (off in tests and for reduced motion) */
    this.animate = true;
    this.victoryShown = -1;
    this.score = new ScoreBox(els.score);
    /** @type {ReturnType<typeof setTimeout>|undefined} */
    this.noticeTimer = undefined;
    const root = /** @type {HTMLElement} */ (els.decision.closest(".game"));
    const point = (/** @type {Event} */ e) => {
      const button = /** @type {HTMLElement|null} */ (/** @type {HTMLElement} */ (e.target).closest?.("[data-run]"));
      const run = button ? this.runs.get(button.dataset.run ?? "") : null;
      this.onPoint(run?.kind === "pick" && run.value.startsWith("value:") ? run.value.slice(6) : null);
    };
    els.decision.addEventListener("pointerover", point);
    els.decision.addEventListener("focusin", point);
    els.decision.addEventListener("pointerleave", () => this.onPoint(null));
    root.addEventListener("click", (e) => {
      const target = /** @type {HTMLElement} */ (e.target);
      const button = /** @type {HTMLElement|null} */ (target.closest("[data-run]"));
      if (button) {
        const run = this.runs.get(button.dataset.run ?? "");
        if (run) this.run(run);
      } else if (target.closest("[data-cancel]")) {
        if (this.confirming) this.cancelConfirm();
        else onCancel();
      } else if (target.closest("[data-close]")) els.overlay.hidden = true;
      else if (target.closest("[data-show-hand]")) this.onShowHand();
      else if (target.closest("[data-sheet]")) {
        this.sheet.toggle(els.decision.classList.contains("collapsed"));
        this.redraw();
      }
    });
  }

  /** Run a button's run: a `confirm` asks first (in the panel), anything else goes on. @param {Run} run */
  run(run) {
    if (run.kind === "confirm") {
      this.confirming = run;
      this.redraw();
      return;
    }
    this.confirming = null;
    this.onRun(run);
  }

  /** Drop a pending confirmation; true if there was one. */
  cancelConfirm() {
    if (!this.confirming) return false;
    this.confirming = null;
    this.redraw();
    return true;
  }

  /** Render the decision panel again from what it last showed. */
  redraw() {
    this.keys.decision = "";
    if (this.last) this.renderDecision(this.last.model, this.last.ctl);
  }

  /** The match's history arrived (or changed). @param {MatchHistory} history */
  setHistory(history) {
    this.history = history;
    this.dice.setHistory(history.rolls);
    if (this.last) this.dice.render(this.last.model, false);
    if (!this.els.overlay.hidden && this.els.overlay.classList.contains("victory") && this.last) this.renderVictory(this.last.model);
  }

  /** @param {string} name @param {string} key */
  changed(name, key) {
    if (this.keys[name] === key) return false;
    this.keys[name] = key;
    return true;
  }

  /** @param {Button} b @param {string} [extra] */
  button(b, extra = "") {
    this.runs.set(b.id, b.run);
    const i = esc(b.id);
    const key = b.key ? `<kbd>${esc(b.key === "Enter" ? "↵" : b.key === "Escape" ? "Esc" : b.key.toUpperCase())}</kbd>` : "";
    return `<button type="button" class="btn${b.primary ? " primary" : ""} ${extra}" data-run="${i}" title="${esc(b.title)}">${esc(b.label)}${key}</button>`;
  }

  /**
   * Bring every panel up to date.
   * @param {Model} model @param {Controls|null} ctl @param {(cell: string) => string} describe
   */
  render(model, ctl, describe) {
    const view = model.view;
    const e = this.els;
    if (this.changed("conn", `${model.conn}|${model.connDetail}`)) {
      e.conn.hidden = model.kind === "replay";
      const words = { online: "online", connecting: "connecting…", reconnecting: "reconnecting…", closed: "disconnected", replay: "replay" };
      e.conn.className = `conn conn-${model.conn}`;
      e.conn.innerHTML = `<i></i>${esc(/** @type {any} */ (words)[model.conn] ?? model.conn)}${model.connDetail ? ` <small>${esc(model.connDetail)}</small>` : ""}`;
    }
    if (this.changed("notice", JSON.stringify(model.notice))) {
      e.notice.hidden = !model.notice;
      e.notice.className = `notice notice-${model.notice?.level ?? "info"}`;
      e.notice.textContent = model.notice?.text ?? "";
      clearTimeout(this.noticeTimer);
      if (model.notice) this.noticeTimer = setTimeout(() => { e.notice.hidden = true; }, NOTICE_MS);
    }
    if (this.changed("hover", `${model.hover}|${model.version}`)) {
      e.hover.hidden = !model.hover;
      e.hover.innerHTML = model.hover ? describe(model.hover) : "";
    }
    if (!view) return;
    this.last = { model, ctl };
    const base = `${model.version}|${model.seat}|${model.status}`;
    if (this.changed("top", base)) this.renderTop(model);
    // One epoch per state received by this seat's model (hot-seat switches models: the seat counts).
    const epoch = `${model.seat}|${model.public}|${model.received}|${model.busy}`;
    if (epoch !== this.epoch) {
      this.epoch = epoch;
      this.runs.clear();
      this.confirming = null; // a new position: ask again if it still forfeits something
    }
    const decisionKey = `${epoch}|${JSON.stringify(model.sel)}|${model.status}|${model.toAct}|${model.conn}`;
    if (this.changed("decision", decisionKey)) this.renderDecision(model, ctl);
    if (this.changed("status", `${base}|${model.busy}`)) this.renderStatus(model, ctl);
    this.dice.render(model, this.animate);
    this.renderCards(model, ctl);
    if (this.changed("effects", base)) this.renderEffects(model);
    if (this.changed("log", `${model.seat}|${model.log.length}|${model.log.at(-1)?.version}`)) this.renderLog(model);
    if (model.decision?.kind === "game_over" && this.victoryShown !== model.version && model.kind !== "replay") this.renderVictory(model);
  }

  /** @param {Model} model */
  renderTop(model) {
    const view = /** @type {import("./types.js").View} */ (model.view);
    const e = this.els;
    e.turn.innerHTML = `<span class="turn-word">Turn </span><b>${view.turn}</b> · <span class="side-${view.active}">${sideName(view.active)}</span>`;
    this.score.render(model);
    const d = model.decision;
    if (d) {
      // The server's ruler: the turn's phases in order, `at` the one the game is in (null outside a turn).
      const at = d.at ?? -1;
      e.ruler.innerHTML = d.ruler.map((step, i) =>
        `<li class="${i === at ? "now" : i < at ? "done" : ""}" data-phase="${esc(step.phase)}">${esc(step.name)}</li>`).join("")
        + (at < 0 ? `<li class="now">${esc(d.phase_name)}</li>` : "");
    }
    e.seat.innerHTML = model.kind === "replay" ? "Replay"
      : model.seat ? `You: <b class="side-${model.seat}">${sideName(model.seat)}</b>` : "Spectator";
  }

  /** @param {Model} model @param {Controls|null} ctl */
  renderDecision(model, ctl) {
    const view = /** @type {import("./types.js").View} */ (model.view);
    const el = this.els.decision;
    if (!model.decision) return;
    const d = decisionText(model.decision, view, model.seat, this.cards, model.legal);
    if (model.public) d.who = sideName(model.decision.side); // a public hot-seat screen: whoever holds the device
    const botThinking = !d.mine && !!view.to_act && view.to_act === model.botSide && model.kind !== "replay";
    if (model.kind !== "replay") {
      document.title = d.mine ? "▶ Your move · Taktik" : botThinking ? "The bot is thinking… · Taktik" : view.to_act ? "Taktik" : "Game over · Taktik";
      const mineNow = d.mine && model.status === "live";
      if (mineNow && !this.wasMine) this.onMyTurn();
      this.wasMine = mineNow;
    }
    const collapsed = this.sheet.collapsed(model, ctl);
    el.className = `decision${d.mine ? " mine" : ""}${ctl?.question && d.mine ? " question" : ""}${collapsed ? " collapsed" : ""}`;
    if (model.status === "broken" || model.status === "other_rules") {
      const title = model.status === "broken" ? "This match is read-only" : "Played under other rules — read only";
      el.innerHTML = `<div class="who">${title}</div><div class="detail">${esc(model.brokenReason ?? "")}</div>`;
      return;
    }
    const actor = model.decision.side ? `<span class="dot side-${model.decision.side}"></span>` : "";
    const aim = d.mine && ctl?.aiming ? this.aimText(model, ctl) : "";
    let html = `<button type="button" class="sheetbar" data-sheet aria-label="${collapsed ? "Show the whole panel" : "Fold the panel to one line"}">${collapsed ? "▴" : "▾"}</button>`
      + `<div class="oneline">${actor}${esc(aim || `${d.who}: ${d.why}`)}</div>`
      + `<div class="who">${actor}<b>${esc(d.who)}</b>: ${esc(d.why)}</div>`;
    if (d.mine && ctl?.armed && !model.busy) {
      html += `<div class="armedbar"><div class="armed-line">${armedLine(ctl.armed, this.cards)}</div>`
        + `<div class="btns">${armedButtons(ctl.armed).map((b, i) => this.button(b, i ? "ghost" : "")).join("")}</div></div>`;
    }
    if (model.public && d.mine) {
      html += `<div class="detail public">No hidden card is needed for this: either of you may press.
        <button type="button" class="btn ghost small" data-show-hand>Show ${esc(sideName(model.seat))}'s cards</button></div>`;
    }
    const roll = view.last_roll;
    if (roll) {
      const mods = roll.modifiers.map((m) => ` ${m.value > 0 ? "+" : "−"}${Math.abs(m.value)} ${m.clause ?? modifierText(this.cards, m.source)}`).join(",");
      html += `<div class="detail rollline">Rolled <b>${roll.natural}</b>${esc(mods)} = <b>${roll.modified}</b> vs ${roll.required}+: <b class="outcome-${roll.outcome}">${roll.outcome}</b></div>`;
    }
    if (view.pending_attack) html += oddsSlot(view.pending_attack); // filled with the engine's odds (js/assist.js)
    if (d.mine && model.busy) html += `<div class="detail">Sending…</div>`;
    else if (d.mine && ctl) html += this.decisionBody(model, ctl);
    else if (botThinking) {
      html += `<div class="detail waiting bot">The bot (${esc(sideName(view.to_act))}) is thinking… <span class="elapsed"></span></div>`;
    } else if (view.to_act && model.kind !== "replay") html += `<div class="detail waiting">Waiting for ${esc(sideName(view.to_act))}…</div>`;
    el.innerHTML = `${html}<div class="slot" data-slot="hint"></div>`;
    this.tickWaiting(botThinking);
    for (const hook of this.decisionHooks) hook(el, model, ctl);
  }

  /** Count the seconds while the bot thinks (the server reports no progress of its own). @param {boolean} on */
  tickWaiting(on) {
    clearInterval(this.waitTimer);
    this.waitTimer = undefined;
    if (!on) return;
    const since = performance.now();
    const tick = () => {
      const el = this.els.decision.querySelector(".waiting .elapsed");
      if (el) el.textContent = `${Math.floor((performance.now() - since) / 1000)} s`;
    };
    tick();
    this.waitTimer = setInterval(tick, 1000);
  }

  /** What the player is aiming for, in one line ("Choose malus targets: pick 2 — 1 picked"). @param {Model} model @param {Controls} ctl */
  aimText(model, ctl) {
    const group = /** @type {import("./controls.js").Group} */ (ctl.aiming);
    const what = group.label.replace(/…$/, "");
    const progress = pickProgress(group, model.sel.picks);
    if (progress) return `${what}: pick ${progress.need} — ${progress.picked} of ${progress.need} picked`;
    return `${what}: ${ctl.choices.length ? "choose an option" : "pick a highlighted target"}`;
  }

  /** @param {Model} model @param {Controls} ctl */
  decisionBody(model, ctl) {
    const view = /** @type {import("./types.js").View} */ (model.view);
    let html = "";
    const pending = view.pending_card;
    if (ctl.question && pending && pending.card !== "?") {
      html += cardFace(this.cards, pending.card, "drawn", "", pending.drawer, model.seat);
      if (model.decision?.kind === "resolve_bonus") html += `<div class="detail drawn-why" data-drawn-why></div>`; // filled with the engine's reason (js/assist.js)
    }
    if (this.confirming) {
      const lose = this.confirming.lose;
      const yes = { id: "confirm:yes", label: "End turn anyway", key: "e", run: /** @type {Run} */ ({ kind: "send", action: this.confirming.action }), primary: false, title: "" };
      return `${html}<div class="confirm"><div class="detail"><b>End the turn now?</b> ${esc(lose.join("; "))}.</div>
        <div class="btns">${this.button(yes, "danger")}<button type="button" class="btn" data-cancel>Keep playing <kbd>Esc</kbd></button></div></div>`;
    }
    if (ctl.aiming) {
      const what = ctl.aiming.label.replace(/…$/, "");
      const targets = ctl.cellMarks.size > 0;
      const progress = pickProgress(ctl.aiming, model.sel.picks);
      const picked = model.sel.picks.filter((p) => p.startsWith("unit:") || p.startsWith("cell:")).map((p) => p.slice(5));
      const how = progress ? `pick ${progress.need} highlighted units on the board — ${progress.picked} of ${progress.need} picked${picked.length ? ` (${picked.join(", ")})` : ""}`
        : ctl.choices.length && targets ? "choose below, or click a highlighted target on the board"
          : ctl.choices.length ? "choose an option" : "pick a highlighted target on the board";
      html += `<div class="detail aim">${esc(what)}: ${esc(how)}.</div>`;
      html += `<div class="btns">${ctl.choices.map((b) => this.button(b, "choice")).join("")}`
        + (model.sel.group ? `<button type="button" class="btn ghost" data-cancel>Cancel <kbd>Esc</kbd></button>` : "") + "</div>";
      // Aimed without being asked (the only thing to pick): the other choices stay at hand.
      const others = model.sel.group ? [] : ctl.buttons.filter((b) => b.id !== ctl.aiming?.key);
      if (others.length) html += `<div class="btns">${others.map((b) => this.button(b)).join("")}</div>`;
      return html;
    }
    const hint = hintOf(ctl);
    if (hint) html += `<div class="detail">${esc(hint)}</div>`;
    else if (model.decision?.kind === "declare_attacks" || model.decision?.kind === "move") {
      // The phase is open but the engine offers nothing to do in it (a malus, no unit in range…).
      html += `<div class="detail">No unit can ${model.decision.kind === "move" ? "move" : "attack"} now: go on when ready.</div>`;
    }
    if (ctl.context.length) {
      html += `<div class="btns context"><span>${esc(model.sel.unit ?? "")}:</span>${ctl.context.map((b) => this.button(b)).join("")}</div>`;
    }
    const apart = ctl.buttons.filter((b) => b.apart);
    html += `<div class="btns">${ctl.buttons.filter((b) => !b.apart).map((b) => this.button(b)).join("")}`
      + (apart.length ? `<span class="apart">${apart.map((b) => this.button(b, "end")).join("")}</span>` : "") + "</div>";
    return html;
  }

  /** @param {Model} model @param {Controls|null} ctl */
  renderStatus(model, ctl) {
    const view = /** @type {import("./types.js").View} */ (model.view);
    const movers = new Set();
    const attackers = new Set();
    for (const r of ctl?.reads ?? []) {
      if (r.kind !== "source") continue;
      if (r.refs.cells.length) movers.add(r.refs.units[0]);
      if (r.refs.units.length > 1) attackers.add(r.refs.units[0]);
    }
    const { mine, theirs } = sides(view, model.seat);
    const limits = model.limits;
    // The counters are the active side's: say whose when they are not the viewer's own.
    const whose = model.seat && view.active !== model.seat ? `${sideName(view.active)}'s ` : "";
    const Cap = (/** @type {string} */ t) => (whose ? t : t.charAt(0).toUpperCase() + t.slice(1));
    // What is left of the turn, never more than its limit allows ("1 more" with one move left and 5 units ready).
    const movesLeft = limits ? Math.min(movers.size, Math.max(0, limits.moves - view.moves_this_turn)) : movers.size;
    const parts = [`<span>${esc(whose)}${Cap("moves")} <b>${view.moves_this_turn}</b>${limits ? ` of ${limits.moves}` : ""}${movesLeft ? ` · ${movesLeft} more possible` : ""}</span>`,
      `<span>${esc(whose)}${Cap("declared attacks")} <b>${view.attack_queue.length + (view.pending_attack ? 1 : 0)}</b>${limits ? ` of ${limits.attacks}` : ""}${attackers.size ? ` · ${attackers.size} can attack` : ""}</span>`,
      `<span>Units <b class="side-${mine.side}">${countUnits(view, mine.side)}</b> vs <b class="side-${theirs.side}">${countUnits(view, theirs.side)}</b></span>`,
      `<span>Deck ${view.draw_pile.length} · discard ${view.discard_pile.length}</span>`];
    if (model.seat) {
      parts.push(`<span class="wide">Opponent holds <b>${theirs.stored.length}</b> stored bonus${theirs.stored.length === 1 ? "" : "es"} · <b>${theirs.tactics.length}</b> tactic${theirs.tactics.length === 1 ? "" : "s"}</span>`);
    }
    this.els.status.innerHTML = parts.join("");
  }

  /** @param {Model} model @param {Controls|null} ctl */
  renderCards(model, ctl) {
    const view = /** @type {import("./types.js").View} */ (model.view);
    const groups = ctl?.groups ?? new Map();
    const key = `${this.epoch}|${[...groups.keys()].join(",")}`;
    const seat = model.public ? null : model.seat; // a public screen shows the cards as a spectator sees them
    const { mine, theirs } = sides(view, seat);
    const play = (/** @type {string} */ group) => {
      const g = groups.get(group);
      if (!g) return "";
      const run = g.reads.length === 1 ? { kind: "send", action: g.reads[0].action } : { kind: "aim", group: g.key };
      return this.button({ id: `card:${g.key}`, label: "Play", key: "", run: /** @type {Run} */ (run), primary: false, title: g.label });
    };
    if (!this.changed("cards", key)) return;
    let html = "";
    const pending = view.pending_card;
    if (pending) {
      html += `<h3>Drawn this turn <small>by ${esc(sideName(pending.drawer))}</small></h3>`;
      html += cardFace(this.cards, pending.card, "drawn", play("PLAY_BONUS:drawn"), pending.drawer, seat);
    }
    if (seat) {
      html += `<h3>Your stored bonuses <small>${mine.stored.length}</small></h3>`;
      html += mine.stored.length ? mine.stored.map((c, i) => cardFace(this.cards, c, "stored", play(`PLAY_BONUS:${i}`))).join("") : `<p class="muted">None stored.</p>`;
      html += `<h3>Your tactics <small>${mine.tactics.length}</small></h3>`;
      html += mine.tactics.length ? mine.tactics.map((c) => cardFace(this.cards, c, "tactic", play(`PLAY_TACTIC:${c}`))).join("") : `<p class="muted">All played.</p>`;
    }
    for (const p of seat ? [theirs] : view.players) {
      const hidden = p.stored.concat(p.tactics).every((c) => c === "?");
      html += `<h3><span class="side-${p.side}">${esc(sideName(p.side))}</span>${seat ? " (opponent)" : ""}</h3>`;
      if (hidden) {
        html += `<p class="counts"><b>${p.stored.length}</b> stored bonus${p.stored.length === 1 ? "" : "es"} · <b>${p.tactics.length}</b> tactic${p.tactics.length === 1 ? "" : "s"} in hand</p>`;
      } else {
        html += p.stored.concat(p.tactics).map((c) => cardFace(this.cards, c, "small")).join("") || `<p class="muted">No cards.</p>`;
      }
    }
    const played = view.players.flatMap((p) => p.played_tactics.map((c) => `<span class="chip side-${p.side}">${esc(cardName(this.cards, c))}</span>`));
    if (played.length) html += `<h3>Tactics played</h3><p>${played.join(" ")}</p>`;
    this.els.cards.innerHTML = html;
  }

  /** @param {Model} model */
  renderEffects(model) {
    const view = /** @type {import("./types.js").View} */ (model.view);
    const plays = new Map();
    for (const e of view.effects) if (!plays.has(e.play_id)) plays.set(e.play_id, e);
    const rows = [...plays.values()].map((e) => {
      const left = e.expires === "permanent" ? "rest of the game" : e.expires === "this_attack" ? "this attack"
        : e.remaining_turn_ends === 1 ? "until the end of this turn" : `${e.remaining_turn_ends} turn ends`;
      const on = e.targets.length ? ` on ${e.targets.join(", ")}` : "";
      return `<li><span class="chip side-${e.controller}">${esc(cardName(this.cards, e.source_card))}</span>${esc(on)} <small>${esc(left)}</small></li>`;
    });
    this.els.effects.innerHTML = `<h3>Effects in play</h3>${rows.length ? `<ul>${rows.join("")}</ul>` : `<p class="muted">None.</p>`}`;
  }

  /** @param {Model} model */
  renderLog(model) {
    const lines = model.log.filter((l) => l.kind !== "phase_entered").slice(-160).reverse().map((l) => {
      const cls = l.kind === "turn_started" ? "turn" : `side-${l.side ?? "none"}`;
      return `<li class="${cls}" data-kind="${esc(l.kind)}">${esc(eventText(l, this.cards))}</li>`;
    });
    this.els.log.innerHTML = `<h3>Log</h3>${lines.length ? `<ol>${lines.join("")}</ol>` : `<p class="muted">Nothing has happened yet.</p>`}`;
  }

  /** The end screen over the board (its turn summary fills in when the history arrives). @param {Model} model */
  renderVictory(model) {
    this.victoryShown = model.version;
    const o = this.els.overlay;
    o.hidden = false;
    o.className = "overlay victory";
    o.innerHTML = endScreen(model, this.history && this.history.steps >= model.version ? this.history : null, this.cards);
  }

  /** The shortcut table of the last render: key → run. */
  shortcuts() {
    /** @type {Map<string, Run>} */
    const map = new Map();
    for (const el of this.els.decision.querySelectorAll("[data-run]")) {
      const key = el.querySelector("kbd")?.textContent?.toLowerCase();
      const run = this.runs.get(/** @type {HTMLElement} */ (el).dataset.run ?? "");
      if (key && run && !map.has(key)) map.set(key, run);
      if (el.classList.contains("primary") && run) map.set("enter", run);
    }
    return map;
  }
}

/** @param {Controls} ctl */
function hintOf(ctl) {
  const toCells = ctl.reads.some((r) => r.kind === "source" && r.refs.cells.length);
  const toUnits = ctl.reads.some((r) => r.kind === "source" && r.refs.units.length > 1);
  if (toCells && toUnits) return "Select a glowing unit, then a highlighted cell or a ringed enemy.";
  if (toCells) return "Select a glowing unit, then one of its highlighted cells.";
  if (toUnits) return "Select a glowing unit, then a red-ringed enemy in range.";
  return "";
}

/** @param {import("./types.js").View} view @param {string} side */
function countUnits(view, side) {
  return view.units.filter((u) => u.side === side && u.cell).length;
}

/**
 * A card as a tile: name, kind, timing and text (worded for `reader` when `owner` is given).
 * @param {Map<string, CardInfo>} cards @param {string} id @param {string} where @param {string} [buttons]
 * @param {import("./types.js").Side} [owner] who drew or holds it @param {import("./types.js").Side|null} [reader] who reads (null: spectator)
 */
export function cardFace(cards, id, where, buttons = "", owner = undefined, reader = null) {
  const info = cardInfo(cards, id);
  if (!info) return `<div class="cardface hidden ${where}"><b>Hidden card</b><p class="muted">Only its owner can see it.</p></div>`;
  const tags = [CARD_KINDS[info.kind] ?? humanize(info.kind)];
  if (info.window) tags.push(`${windowName(info.window)} · ${TACTIC_SIDES[info.side ?? ""] ?? humanize(info.side ?? "")}`);
  if (info.cancel_power && info.cancel_power !== "none") tags.push(`cancels ${info.cancel_power} malus`);
  return `<div class="cardface kind-${info.kind} ${where}" data-card="${esc(info.id)}"><div class="cardtop"><b>${esc(info.name)}</b>${buttons}</div>
    <div class="tags">${tags.map((t) => `<span>${esc(t)}</span>`).join("")}</div><p>${esc(owner ? cardTextFor(info.text, owner, reader) : info.text)}</p>${info.warning ? `<p class="warning" title="The card's rules do not do all its text says">⚠ ${esc(info.warning)}</p>` : ""}</div>`;
}
