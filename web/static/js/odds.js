// @ts-check
/**
 * The odds of an attack in words, from the engine's `attack_preview` (docs/protocol.md):
 * the roll it needs, every modifier with its source, the hit chance in percent, the damage
 * and expected damage, and what each tactic in hand would change ("Precision Shot: 50 % →
 * 50 %, damage 1 → 2"). Pure: HTML strings from data; the numbers are the engine's.
 */

import { cardName, esc } from "./labels.js";
import { CARD_KINDS, modifierSource, terrainName, windowName } from "./words.js";

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
  if (m.term === "cover") return `target in the ${terrainName(m.source)} (cover)`;
  if (m.term === "terrain_defense") return `target on the ${terrainName(m.source)} (defence)`;
  if (m.kind === "ability") return m.says ?? modifierSource(cards, m.source);
  const name = cardName(cards, m.source);
  const kind = (CARD_KINDS[m.kind] ?? m.kind).toLowerCase();
  return m.term === "defense" ? `${name} (${kind}, defence)` : `${name} (${kind})`;
}

/**
 * What the die must show, as a player counts it: the modifiers already folded in ("needs 4+"
 * where the distance asks 3+ and cover takes 1). The engine clamps the modified roll to 1..6,
 * so a need of 1 or less hits on any roll; no hitting face at all (`hits`) cannot hit.
 * @param {AttackOdds} o
 */
export function needText(o) {
  const need = o.required - o.modifier;
  if (o.hits === 0) return "cannot hit";
  if (need > 6) return "hits only through a card's effect";
  if (need <= 1) return "hits on any roll";
  return `needs <b>${need === 6 ? "6" : `${need}+`}</b> on the die`;
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
  const need = needText(o);
  const die = o.natural !== null ? `rolled <b>${o.natural}</b>, ${need.replace(/^needs/, "needed")}` : need;
  const why = o.modifier ? ` <small>(${o.required}+ at distance ${o.distance}, ${signed(o.modifier)} from modifiers)</small>` : "";
  const kills = o.destroy_chance > 0 ? ` · <span class="odds-kill">a hit destroys ${esc(o.target)}</span>` : "";
  return `<div class="odds-line"><b>${esc(o.attacker)} → ${esc(o.target)}</b> · distance ${o.distance} · ${die}${why}</div>`
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
    const when = windowName(t.window);
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
