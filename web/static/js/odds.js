// @ts-check
/**
 * The odds of an attack in words, from the engine's `attack_preview` (docs/protocol.md):
 * the roll it needs, every modifier with its source, the hit chance in percent, the damage
 * and expected damage, and what each tactic in hand would change ("Precision Shot: 50 % →
 * 50 %, damage 1 → 2"). Pure: HTML strings from data; the numbers are the engine's.
 */

import { cardName, esc, humanize } from "./labels.js";

/** @typedef {import("./insight.js").AttackPreview} AttackPreview */
/** @typedef {import("./insight.js").AttackOdds} AttackOdds */
/** @typedef {import("./insight.js").RollModifier} RollModifier */
/** @typedef {import("./types.js").CardInfo} CardInfo */

/** A chance as players read it: whole percent, "<1 %" rather than a false 0. @param {number} p */
export function percent(p) {
  if (p > 0 && p < 0.005) return "<1 %";
  if (p < 1 && p > 0.995) return ">99 %";
  return `${Math.round(p * 100)} %`;
}

/** @param {number} x */
function num(x) {
  return Number.isInteger(x) ? String(x) : x.toFixed(2).replace(/0$/, "");
}

/** @param {number} v */
function signed(v) {
  return `${v > 0 ? "+" : "−"}${Math.abs(v)}`;
}

/**
 * Where a modifier comes from, in words.
 * @param {RollModifier} m @param {Map<string, CardInfo>} cards
 */
export function sourceText(m, cards) {
  const terrain = humanize(m.source.toLowerCase());
  if (m.term === "cover") return `target in ${terrain} (cover)`;
  if (m.term === "terrain_defense") return `target in ${terrain} (defence)`;
  if (m.kind === "ability") return m.says ?? humanize(m.source);
  const name = cardName(cards, m.source);
  return m.term === "defense" ? `${name} (${m.kind}, defence)` : `${name} (${m.kind})`;
}

/**
 * One attack's figures: the need, the modifiers, the chance and the damage.
 * @param {AttackOdds} o @param {Map<string, CardInfo>} cards
 */
export function oddsBody(o, cards) {
  if (!o.allowed) {
    return `<div class="odds-line"><b>${esc(o.attacker)} → ${esc(o.target)}</b>: an effect forbids this attack; it cannot hit.</div>`;
  }
  const mods = o.modifiers.map((m) => `<li><b>${signed(m.value)}</b> ${esc(sourceText(m, cards))}</li>`).join("");
  const dmgMods = o.damage_modifiers.map((m) => `${m.op === "mul" ? "×" : "+"}${m.value} ${esc(cardName(cards, m.source))}`);
  const die = o.natural !== null ? `rolled <b>${o.natural}</b>` : "needs";
  const need = o.natural !== null ? `, needed ${o.required}+` : ` <b>${o.required}+</b> on the die`;
  const kills = o.destroy_chance > 0 ? ` · <span class="odds-kill">a hit destroys ${esc(o.target)}</span>` : "";
  return `<div class="odds-line"><b>${esc(o.attacker)} → ${esc(o.target)}</b> · distance ${o.distance} · ${die}${need}${o.modifier ? ` (modifiers ${signed(o.modifier)})` : ""}</div>`
    + (mods ? `<ul class="odds-mods">${mods}</ul>` : `<div class="odds-none">No modifiers.</div>`)
    + `<div class="odds-main"><span class="odds-chance" data-chance="${o.hit_chance}">${percent(o.hit_chance)}</span> to hit`
    + ` · damage <b>${o.damage}</b>${dmgMods.length ? ` (${o.base_damage} ${dmgMods.join(" ")})` : ""}`
    + ` · expected <b>${num(Math.round(o.expected_damage * 100) / 100)}</b>${kills}</div>`;
}

/**
 * What each tactic would change: "Precision Shot: 50 % → 50 %, damage 1 → 2".
 * @param {AttackPreview} p @param {Map<string, CardInfo>} cards
 */
export function tacticLines(p, cards) {
  if (!p.tactics.length) return "";
  const base = p.odds;
  const rows = p.tactics.map((t) => {
    const name = cardName(cards, t.play.card_id);
    const whom = t.play.targets?.length ? `on ${t.play.targets.join(", ")} · ` : "";
    const dmg = t.odds.damage !== base.damage ? `, damage ${base.damage} → ${t.odds.damage}` : "";
    const when = humanize(t.window.replace(/([A-Z])/g, " $1").toLowerCase());
    return `<li data-card="${esc(t.play.card_id)}"><b>${esc(name)}</b>: ${percent(base.hit_chance)} → ${percent(t.odds.hit_chance)}${dmg} <small>${esc(whom)}${esc(when)}</small></li>`;
  });
  return `<div class="odds-tactics-title">With a tactic in hand:</div><ul class="odds-tactics">${rows.join("")}</ul>`;
}

/**
 * The whole preview: figures and, if any, the tactics that would change them.
 * @param {AttackPreview} p @param {Map<string, CardInfo>} cards
 */
export function oddsHtml(p, cards) {
  return `<div class="odds">${oddsBody(p.odds, cards)}${tacticLines(p, cards)}</div>`;
}

/**
 * A place in a panel for the odds of an attack, filled in by `fillOddsSlots` when the
 * engine's answer is there (the pre-roll panel renders before the answer arrives).
 * @param {{attacker: string, target: string}} attack
 */
export function oddsSlot(attack) {
  return `<div class="odds-slot" data-attacker="${esc(attack.attacker)}" data-target="${esc(attack.target)}"></div>`;
}

/**
 * Fill every empty odds slot under `root` whose answer has arrived.
 * @param {ParentNode} root @param {(attacker: string, target: string) => AttackPreview|null} lookup
 * @param {Map<string, CardInfo>} cards
 */
export function fillOddsSlots(root, lookup, cards) {
  for (const el of root.querySelectorAll(".odds-slot")) {
    const slot = /** @type {HTMLElement} */ (el);
    const key = `${slot.dataset.attacker}>${slot.dataset.target}`;
    const preview = lookup(slot.dataset.attacker ?? "", slot.dataset.target ?? "");
    if (!preview) continue;
    const shown = `${key}|${JSON.stringify(preview)}`;
    if (slot.dataset.shown === shown) continue;
    slot.dataset.shown = shown;
    slot.innerHTML = oddsHtml(preview, cards);
  }
}
