// @ts-check
/**
 * The DOM panels around the board: phase ruler, whose decision and why, the buttons the
 * legal actions became, cards, the roll and its modifiers, live effects, the log, the
 * hover info and the victory screen. Each panel re-renders only when its inputs change.
 * Clicks are delegated: every button carries an index into the runs of the last render.
 */

import { cardInfo, cardName, decisionText, esc, humanize, modifierText, sideName } from "./labels.js";
import { oddsSlot } from "./odds.js";
import { sides } from "./state.js";

/** @typedef {import("./types.js").Model} Model */
/** @typedef {import("./types.js").CardInfo} CardInfo */
/** @typedef {import("./controls.js").Controls} Controls */
/** @typedef {import("./controls.js").Button} Button */
/** @typedef {import("./controls.js").Run} Run */

/**
 * @typedef {{turn: HTMLElement, ruler: HTMLElement, seat: HTMLElement, conn: HTMLElement, decision: HTMLElement,
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
    /** @type {Map<string, Run>} runs of the buttons on screen, by button id */
    this.runs = new Map();
    this.epoch = "";
    /** @type {Record<string, string>} */
    this.keys = {};
    this.rolled = "";
    /** whether to play the die's tumble (off in tests and for reduced motion) */
    this.animate = true;
    this.victoryShown = -1;
    /** @type {ReturnType<typeof setTimeout>|undefined} */
    this.noticeTimer = undefined;
    const root = /** @type {HTMLElement} */ (els.decision.closest(".game"));
    root.addEventListener("click", (e) => {
      const target = /** @type {HTMLElement} */ (e.target);
      const button = /** @type {HTMLElement|null} */ (target.closest("[data-run]"));
      if (button) {
        const run = this.runs.get(button.dataset.run ?? "");
        if (run) onRun(run);
      } else if (target.closest("[data-cancel]")) onCancel();
      else if (target.closest("[data-close]")) els.overlay.hidden = true;
    });
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
    const key = b.key ? `<kbd>${esc(b.key === "Enter" ? "↵" : b.key.toUpperCase())}</kbd>` : "";
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
    const base = `${model.version}|${model.seat}|${model.status}`;
    if (this.changed("top", base)) this.renderTop(model);
    // One epoch per state received by this seat's model (hot-seat switches models: the seat counts).
    const epoch = `${model.seat}|${model.received}|${model.busy}`;
    if (epoch !== this.epoch) {
      this.epoch = epoch;
      this.runs.clear();
    }
    const decisionKey = `${epoch}|${JSON.stringify(model.sel)}|${model.status}|${model.toAct}|${model.conn}`;
    if (this.changed("decision", decisionKey)) this.renderDecision(model, ctl);
    if (this.changed("status", `${base}|${model.busy}`)) this.renderStatus(model, ctl);
    if (this.changed("roll", `${model.lastRoll?.key}|${!!view.last_roll}|${model.seat}`)) this.renderRoll(model);
    this.renderCards(model, ctl);
    if (this.changed("effects", base)) this.renderEffects(model);
    if (this.changed("log", `${model.seat}|${model.log.length}|${model.log.at(-1)?.version}`)) this.renderLog(model);
    if (model.decision?.kind === "game_over" && this.victoryShown !== model.version && model.kind !== "replay") this.renderVictory(model);
  }

  /** @param {Model} model */
  renderTop(model) {
    const view = /** @type {import("./types.js").View} */ (model.view);
    const e = this.els;
    e.turn.innerHTML = `Turn <b>${view.turn}</b> · Round ${Math.floor((view.turn + 1) / 2)} · <span class="side-${view.active}">${sideName(view.active)}</span>`;
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
    if (model.kind !== "replay") document.title = d.mine ? "▶ Your move · Taktik" : view.to_act ? "Taktik" : "Game over · Taktik";
    el.className = `decision${d.mine ? " mine" : ""}${ctl?.question && d.mine ? " question" : ""}`;
    if (model.status === "broken" || model.status === "other_rules") {
      const title = model.status === "broken" ? "This match is read-only" : "Played under other rules — read only";
      el.innerHTML = `<div class="who">${title}</div><div class="detail">${esc(model.brokenReason ?? "")}</div>`;
      return;
    }
    const actor = model.decision.side ? `<span class="dot side-${model.decision.side}"></span>` : "";
    let html = `<div class="who">${actor}<b>${esc(d.who)}</b>: ${esc(d.why)}</div>`;
    const roll = view.last_roll;
    if (roll) {
      const mods = roll.modifiers.map((m) => ` ${m.value > 0 ? "+" : "−"}${Math.abs(m.value)} ${modifierText(this.cards, m.source)}`).join(",");
      html += `<div class="detail rollline">Rolled <b>${roll.natural}</b>${esc(mods)} = <b>${roll.modified}</b> vs ${roll.required}+: <b class="outcome-${roll.outcome}">${roll.outcome}</b></div>`;
    }
    if (view.pending_attack) html += oddsSlot(view.pending_attack); // filled with the engine's odds (js/assist.js)
    if (d.mine && model.busy) html += `<div class="detail">Sending…</div>`;
    else if (d.mine && ctl) html += this.decisionBody(model, ctl);
    else if (view.to_act && model.kind !== "replay") {
      const who = view.to_act === model.botSide ? `the bot (${sideName(view.to_act)})` : sideName(view.to_act);
      html += `<div class="detail waiting">Waiting for ${esc(who)}…</div>`;
    }
    el.innerHTML = html;
  }

  /** @param {Model} model @param {Controls} ctl */
  decisionBody(model, ctl) {
    const view = /** @type {import("./types.js").View} */ (model.view);
    let html = "";
    const pending = view.pending_card;
    if (ctl.question && pending && pending.card !== "?") html += cardFace(this.cards, pending.card, "drawn");
    if (ctl.aiming) {
      const what = ctl.aiming.label.replace(/…$/, "");
      const targets = ctl.cellMarks.size > 0;
      const how = ctl.choices.length && targets ? "choose below, or click a highlighted target on the board"
        : ctl.choices.length ? "choose an option" : "pick a highlighted target on the board";
      html += `<div class="detail aim">${esc(what)}: ${how}.</div>`;
      html += `<div class="btns">${ctl.choices.map((b) => this.button(b, "choice")).join("")}`
        + (model.sel.group ? `<button type="button" class="btn ghost" data-cancel>Cancel <kbd>Esc</kbd></button>` : "") + "</div>";
      // Aimed without being asked (the only thing to pick): the other choices stay at hand.
      const others = model.sel.group ? [] : ctl.buttons.filter((b) => b.id !== ctl.aiming?.key);
      if (others.length) html += `<div class="btns">${others.map((b) => this.button(b)).join("")}</div>`;
      return html;
    }
    const hint = hintOf(ctl);
    if (hint) html += `<div class="detail">${esc(hint)}</div>`;
    if (ctl.context.length) {
      html += `<div class="btns context"><span>${esc(model.sel.unit ?? "")}:</span>${ctl.context.map((b) => this.button(b)).join("")}</div>`;
    }
    html += `<div class="btns">${ctl.buttons.map((b) => this.button(b)).join("")}</div>`;
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
    const parts = [`<span>Moves <b>${view.moves_this_turn}</b>${limits ? ` of ${limits.moves}` : ""}${movers.size ? ` · ${movers.size} can move` : ""}</span>`,
      `<span>Attacks <b>${view.attack_queue.length}</b>${limits ? ` of ${limits.attacks}` : ""}${attackers.size ? ` · ${attackers.size} can attack` : ""}</span>`,
      `<span>Units <b class="side-${mine.side}">${countUnits(view, mine.side)}</b> vs <b class="side-${theirs.side}">${countUnits(view, theirs.side)}</b></span>`,
      `<span>Deck ${view.draw_pile.length} · discard ${view.discard_pile.length}</span>`];
    if (model.seat) {
      parts.push(`<span class="wide">Opponent holds <b>${theirs.stored.length}</b> stored bonus${theirs.stored.length === 1 ? "" : "es"} · <b>${theirs.tactics.length}</b> tactic${theirs.tactics.length === 1 ? "" : "s"}</span>`);
    }
    this.els.status.innerHTML = parts.join("");
  }

  /** @param {Model} model */
  renderRoll(model) {
    const roll = model.lastRoll;
    const el = this.els.roll;
    if (!roll) {
      el.innerHTML = `<h3>Dice</h3><p class="muted">No roll yet this game.</p>`;
      return;
    }
    const live = !!model.view?.last_roll;
    const mods = roll.modifiers.map((m) => `<li><b>${m.value > 0 ? "+" : "−"}${Math.abs(m.value)}</b> ${esc(modifierText(this.cards, m.source))}</li>`).join("");
    el.innerHTML = `<h3>Dice ${live ? "" : "<small>(last roll)</small>"}</h3>
      <div class="rollrow"><div class="die" data-face="${roll.natural}">${pips(roll.natural)}</div>
      <div class="rollmath"><div>${esc(roll.unit)} → ${esc(roll.target)} at distance ${roll.distance}</div>
      <ul class="mods"><li><b>${roll.natural}</b> on the die</li>${mods}</ul>
      <div>= <b>${roll.modified}</b>, needs <b>${roll.required}+</b></div></div>
      <div class="outcome outcome-${roll.outcome}">${roll.outcome}</div></div>`;
    if (live && this.rolled !== roll.key && this.animate) {
      this.rolled = roll.key;
      el.querySelector(".die")?.classList.add("rolling");
    }
  }

  /** @param {Model} model @param {Controls|null} ctl */
  renderCards(model, ctl) {
    const view = /** @type {import("./types.js").View} */ (model.view);
    const groups = ctl?.groups ?? new Map();
    const key = `${this.epoch}|${[...groups.keys()].join(",")}`;
    const { mine, theirs } = sides(view, model.seat);
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
      html += cardFace(this.cards, pending.card, "drawn", play("PLAY_BONUS:drawn"));
    }
    if (model.seat) {
      html += `<h3>Your stored bonuses <small>${mine.stored.length}</small></h3>`;
      html += mine.stored.length ? mine.stored.map((c, i) => cardFace(this.cards, c, "stored", play(`PLAY_BONUS:${i}`))).join("") : `<p class="muted">None stored.</p>`;
      html += `<h3>Your tactics <small>${mine.tactics.length}</small></h3>`;
      html += mine.tactics.length ? mine.tactics.map((c) => cardFace(this.cards, c, "tactic", play(`PLAY_TACTIC:${c}`))).join("") : `<p class="muted">All played.</p>`;
    }
    for (const p of model.seat ? [theirs] : view.players) {
      const hidden = p.stored.concat(p.tactics).every((c) => c === "?");
      html += `<h3><span class="side-${p.side}">${esc(sideName(p.side))}</span>${model.seat ? " (opponent)" : ""}</h3>`;
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
      return `<li class="${cls}" data-kind="${esc(l.kind)}">${esc(l.text)}</li>`;
    });
    this.els.log.innerHTML = `<h3>Log</h3>${lines.length ? `<ol>${lines.join("")}</ol>` : `<p class="muted">Nothing has happened yet.</p>`}`;
  }

  /** @param {Model} model */
  renderVictory(model) {
    const view = /** @type {import("./types.js").View} */ (model.view);
    this.victoryShown = model.version;
    const won = model.seat && view.winner === model.seat;
    const title = model.seat ? (won ? "Victory!" : "Defeat") : `${sideName(view.winner)} wins`;
    const o = this.els.overlay;
    o.hidden = false;
    o.className = "overlay victory";
    o.innerHTML = `<div class="card-panel"><h1 class="${won ? "won" : ""}">${esc(title)}</h1>
      <p><b class="side-${view.winner}">${esc(sideName(view.winner))}</b> wins by ${esc(humanize(view.victory_reason ?? ""))} after ${view.turn} turns.</p>
      <p class="muted">${view.players.map((p) => `${sideName(p.side)}: ${p.destroyed.length} unit${p.destroyed.length === 1 ? "" : "s"} lost`).join(" · ")}</p>
      <div class="btns"><a class="btn primary" href="/replay/${encodeURIComponent(model.matchId)}">Watch the replay &amp; verify the dice</a>
      <a class="btn" href="/api/matches/${encodeURIComponent(model.matchId)}/record" download="taktik-${esc(model.matchId)}.json">Download record</a>
      <a class="btn" href="/">New game</a><button type="button" class="btn ghost" data-close>See the board</button></div></div>`;
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
 * A card as a tile: name, kind, timing and text.
 * @param {Map<string, CardInfo>} cards @param {string} id @param {string} where @param {string} [buttons]
 */
export function cardFace(cards, id, where, buttons = "") {
  const info = cardInfo(cards, id);
  if (!info) return `<div class="cardface hidden ${where}"><b>Hidden card</b><p class="muted">Only its owner can see it.</p></div>`;
  const tags = [humanize(info.kind)];
  if (info.window) tags.push(`${humanize(info.window.replace(/([A-Z])/g, " $1"))} · ${info.side}`);
  if (info.cancel_power && info.cancel_power !== "none") tags.push(`cancels ${info.cancel_power} malus`);
  return `<div class="cardface kind-${info.kind} ${where}" data-card="${esc(info.id)}"><div class="cardtop"><b>${esc(info.name)}</b>${buttons}</div>
    <div class="tags">${tags.map((t) => `<span>${esc(t)}</span>`).join("")}</div><p>${esc(info.text)}</p></div>`;
}

/** Pips of a die face. @param {number} n */
function pips(n) {
  const layout = /** @type {Record<number, number[]>} */ ({ 1: [4], 2: [0, 8], 3: [0, 4, 8], 4: [0, 2, 6, 8], 5: [0, 2, 4, 6, 8], 6: [0, 2, 3, 5, 6, 8] });
  return Array.from({ length: 9 }, (_, i) => `<i class="${(layout[n] ?? []).includes(i) ? "on" : ""}"></i>`).join("");
}
