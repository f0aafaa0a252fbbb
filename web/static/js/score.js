// @ts-check
/**
 * The score, always in sight: "VP 2 – 3 · first to 5 · round 3 of 25" in the top bar, how to
 * win in words (its title, the help), and what changed since the last position (the cue).
 * Everything comes from the state's `score` (server/score.py): the client counts no points.
 * The end screen and the recap use the same words (`vpText`).
 */

import { esc } from "./labels.js";
import { sideName, unitTypeName } from "./words.js";

/** @typedef {import("./types.js").Score} Score */
/** @typedef {import("./types.js").Side} Side */

const SIDES = /** @type {Side[]} */ (["ATTACKER", "DEFENDER"]);

/**
 * How each victory condition (rules §10) reads in "how to win"; `{goal}` and `{rounds}` are the
 * game's numbers.
 * @type {Record<string, string>}
 */
export const GOALS = {
  victory_points: "destroy enemy units worth {goal} VP first{values}",
  annihilation: "destroy every enemy unit",
  target_elimination: "destroy the enemy leader",
  capture_and_hold: "hold an objective for enough turns in a row",
  territorial_control: "control more points when time runs out",
  timed_resistance: "the Defender wins by holding out to the last round",
  round_limit: "after round {rounds} the side with more VP wins (a tie goes to the Defender)",
};

/** "VP 2 – 3" (Attacker first), as the top bar, the recap and the end screen say it. @param {Record<string, number>} vp */
export function vpText(vp) {
  return `VP ${vp.ATTACKER ?? 0} – ${vp.DEFENDER ?? 0}`;
}

/** "first to 5 · round 3 of 25" (what is there of it). @param {Score} score */
export function limitsText(score) {
  const parts = [];
  if (score.goal !== null) parts.push(`first to ${score.goal}`);
  parts.push(score.rounds !== null ? `round ${score.round} of ${score.rounds}` : `round ${score.round}`);
  return parts.join(" · ");
}

/**
 * How to win this game, in a sentence or two.
 * @param {Score} score @param {Record<string, {vp?: number}>} [units] the unit table (`/api/units`): what each kind is worth
 */
export function goalText(score, units = {}) {
  const worth = Object.entries(units).filter(([, u]) => typeof u.vp === "number")
    .map(([type, u]) => `${unitTypeName(type).toLowerCase()} ${u.vp}`);
  const values = worth.length ? ` (${worth.join(", ")})` : "";
  const ways = score.conditions.map((c) => (GOALS[c] ?? c.replace(/_/g, " "))
    .replace("{goal}", String(score.goal ?? "")).replace("{rounds}", String(score.rounds ?? "")).replace("{values}", values));
  if (!ways.length) return "";
  const first = ways.filter((w) => !w.startsWith("after round") && !w.startsWith("the Defender wins"));
  const later = ways.filter((w) => !first.includes(w));
  const head = first.length ? `To win: ${first.join(", or ")}.` : "";
  return [head, ...later.map((w) => `${w.charAt(0).toUpperCase()}${w.slice(1)}.`)].join(" ").trim();
}

/**
 * The top bar's score: each side's VP in its colour, the goal and the round; `gained` marks
 * the sides whose VP just went up (the cue: "+2" beside the number).
 * @param {Score} score @param {Record<string, number>} [gained]
 */
export function scoreHtml(score, gained = {}) {
  const side = (/** @type {Side} */ s) => {
    const up = gained[s] ? `<span class="vp-gain">+${gained[s]}</span>` : "";
    return `<b class="vp side-${s}" title="${esc(sideName(s))}">${score.vp[s] ?? 0}</b>${up}`;
  };
  const short = [score.goal !== null ? `/${score.goal}` : "", `R${score.round}${score.rounds !== null ? `/${score.rounds}` : ""}`]
    .filter(Boolean).join(" · ");
  return `<span class="vp-label">VP</span> ${side("ATTACKER")}<span class="vp-dash">–</span>${side("DEFENDER")}`
    + `<span class="vp-limits">${esc(limitsText(score))}</span><span class="vp-limits short" aria-hidden="true">${esc(short)}</span>`;
}

/**
 * Which sides gained VP from `before` to `after` (empty when nothing changed or before is unknown).
 * @param {Score|null} before @param {Score|null} after @returns {Record<string, number>}
 */
export function gains(before, after) {
  /** @type {Record<string, number>} */
  const out = {};
  if (!before || !after) return out;
  for (const s of SIDES) {
    const up = (after.vp[s] ?? 0) - (before.vp[s] ?? 0);
    if (up > 0) out[s] = up;
  }
  return out;
}

const CUE_MS = 4000; // how long "+2" stands beside a side's points

/** The score in the top bar, with how to win as its title, and the cue when points are won. */
export class ScoreBox {
  /** @param {HTMLElement} el */
  constructor(el) {
    this.el = el;
    /** @type {Record<string, {vp?: number}>} the unit table (what each kind is worth, for "how to win") */
    this.units = {};
    /** @type {Score|null} the score last shown (its change is the cue) */
    this.last = null;
    /** @type {ReturnType<typeof setTimeout>|undefined} */
    this.timer = undefined;
  }

  /**
   * Show a model's score; when a side's VP go up the box lights up and "+2" stands beside its
   * number for a few seconds (not while a replay scrubs).
   * @param {import("./types.js").Model} model
   */
  render(model) {
    const { el } = this;
    const score = model.score;
    el.hidden = !score;
    if (!score) return;
    const before = this.last && this.last.round <= score.round ? this.last : null;
    const up = model.kind === "replay" ? {} : gains(before, score);
    this.last = score;
    el.innerHTML = scoreHtml(score, up);
    el.title = `${vpText(score.vp)} (Attacker – Defender). ${goalText(score, this.units)}`;
    el.setAttribute("aria-label", `Score: Attacker ${score.vp.ATTACKER ?? 0}, Defender ${score.vp.DEFENDER ?? 0} victory points; ${limitsText(score)}`);
    if (!Object.keys(up).length) return;
    el.classList.remove("scored");
    void el.offsetWidth; // restart the animation
    el.classList.add("scored");
    clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      el.classList.remove("scored");
      for (const gain of el.querySelectorAll(".vp-gain")) gain.remove();
    }, CUE_MS);
  }
}
