// @ts-check
/**
 * The replay viewer's evaluation graph: the server's bot judges the game at the start of each
 * turn (POST /api/replays/evaluation, server/replays.py) and this draws the ATTACKER's win
 * estimate over the game, with the turning points (the largest swings) as buttons that jump
 * to that step and a line at the step on screen.
 *
 * `mountEvalGraph` builds it inside the replay bar; `render` draws an answer; `mark` moves the
 * line. Pure drawing: the requests and the jumping are the viewer's (js/replay.js).
 */

import { esc } from "./labels.js";

/**
 * @typedef {{step: number, turn: number, attacker: number, swing: number}} EvalPoint
 * @typedef {{points: EvalPoint[], turning: number[]}} Evaluation
 * @typedef {{root: HTMLElement, plot: HTMLElement, svg: SVGSVGElement, last: number}} EvalGraph
 */

const W = 1000; // the SVG's own width; it is stretched to the bar
const H = 100;

const GRAPH = `
<div class="evalgraph" hidden>
  <span class="evalgraph-label" title="The server's bot judges the position at the start of every turn">Attacker's chances</span>
  <div class="evalgraph-plot" style="position: relative; flex: 1 1 auto; min-width: 0;">
    <svg viewBox="0 0 ${W} ${H}" preserveAspectRatio="none" role="img" aria-label="The attacker's win estimate over the game"></svg>
  </div>
</div>`;

/** Add the (hidden) graph to the replay bar. @param {HTMLElement} bar the bar's root @returns {EvalGraph} */
export function mountEvalGraph(bar) {
  bar.insertAdjacentHTML("beforeend", GRAPH);
  const root = /** @type {HTMLElement} */ (bar.querySelector(".evalgraph"));
  return {
    root,
    plot: /** @type {HTMLElement} */ (root.querySelector(".evalgraph-plot")),
    svg: /** @type {SVGSVGElement} */ (root.querySelector("svg")),
    last: 1,
  };
}

/** @param {EvalGraph} g @param {number} step */
const xOf = (g, step) => (W * step) / Math.max(1, g.last);
/** @param {number} p the ATTACKER's chance */
const yOf = (p) => H * (1 - p);

/**
 * Draw `evaluation` for a replay whose last step is `last`; `jump(step)` is called when a
 * turning point is clicked.
 * @param {EvalGraph} g @param {Evaluation} evaluation @param {number} last @param {(step: number) => void} jump
 */
export function renderEvalGraph(g, evaluation, last, jump) {
  g.last = Math.max(1, last);
  const points = evaluation.points;
  if (!points.length) return;
  const path = points.map((p, i) => `${i ? "L" : "M"}${xOf(g, p.step).toFixed(1)},${yOf(p.attacker).toFixed(1)}`).join(" ");
  g.svg.innerHTML = `<line class="even" x1="0" y1="${H / 2}" x2="${W}" y2="${H / 2}"></line>`
    + `<path class="curve" d="${path}"></path><line class="here" x1="0" y1="0" x2="0" y2="${H}"></line>`;
  for (const old of g.plot.querySelectorAll("button")) old.remove();
  const byStep = new Map(points.map((p) => [p.step, p]));
  for (const step of evaluation.turning) {
    const p = byStep.get(step);
    if (!p) continue;
    const swing = Math.round(100 * p.swing);
    const words = `Turning point at step ${step} (turn ${p.turn}): the attacker's chances ${swing > 0 ? "rose" : "fell"} by ${Math.abs(swing)} points to ${Math.round(100 * p.attacker)} %`;
    const button = document.createElement("button");
    button.type = "button";
    button.className = "turning";
    button.dataset.step = String(step);
    button.title = words;
    button.setAttribute("aria-label", words);
    button.style.cssText = `position: absolute; left: ${(100 * step) / g.last}%; top: ${100 * (1 - p.attacker)}%;`
      + "transform: translate(-50%, -50%); width: 13px; height: 13px; padding: 0; border-radius: 50%;";
    button.addEventListener("click", () => jump(step));
    g.plot.append(button);
  }
  g.root.dataset.points = String(points.length);
  g.root.hidden = false;
}

/** Move the line to the step on screen. @param {EvalGraph} g @param {number} step */
export function markEvalGraph(g, step) {
  const here = g.svg.querySelector(".here");
  if (!here) return;
  const x = xOf(g, step).toFixed(1);
  here.setAttribute("x1", x);
  here.setAttribute("x2", x);
}

/** Say why there is no graph (a server without a bot to judge, a failed request). @param {EvalGraph} g @param {string} why */
export function hideEvalGraph(g, why) {
  g.root.hidden = true;
  g.root.dataset.missing = esc(why);
}
