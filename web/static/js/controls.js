// @ts-check
/**
 * Legal actions → affordances (chessground's `movable.dests`, generalised). The client holds
 * no rule: everything clickable comes from the `legal_actions` the server sent.
 *
 * Each action is read by the *shape* of its fields, not by its type:
 *   - unit fields (`unit_id`, `attacker_id`, `target_id`, `targets`, `unit_ids`, …) and
 *     cell fields (`to`, `cell`, `params.cell`, …) are references to the board;
 *   - a *source* action starts at one unit and goes to a cell or another unit (MOVE_UNIT,
 *     DECLARE_ATTACK, DEPLOY_UNIT): select the unit, then click where it goes;
 *   - a *card* action (`card_id`, or a PLAY_ type with `stored_index`) is grouped by card:
 *     a Play button, then its targets light up;
 *   - a *pick* action references only units/cells (WITHDRAW_ATTACK, CHOOSE_MALUS_TARGETS):
 *     aim, then click the highlighted units;
 *   - anything else is a labelled button.
 * Known types get nicer labels and shortcut keys; an unknown type still gets a control.
 */

import { parseLabel, quadrantOf } from "./iso.js";
import { cardInfo, cardName, genericLabel, humanize, nextPhaseLabel } from "./labels.js";
import { unitById } from "./state.js";
import { quadrantName, unitTypeName } from "./words.js";

/** @typedef {import("./types.js").Action} Action */
/** @typedef {import("./types.js").Model} Model */
/** @typedef {import("./types.js").CardInfo} CardInfo */
/** @typedef {import("./types.js").Hit} Hit */

const UNIT_KEY = /(^|_)(units?|attacker|target|supporter|victim)s?(_ids?)?$/;
const CELL_KEY = /^(to|cell|from|at|destination)$|_cell$/;
const UNIT_ID = /^[AD][1-9][0-9]{0,2}$/;
const CELL_LABEL = /^[A-Z]{1,3}[1-9][0-9]{0,3}$/;
const QUADRANT = /^(NW|NE|SW|SE)$/;

/** Labels and keys of the action types the engine has today (anything else still works). */
const KNOWN = /** @type {Record<string, [string, string]>} */ ({
  DRAW_CARD: ["Draw a card", "d"],
  END_TURN: ["End turn", "e"],
  ROLL_DICE: ["Roll the die", "r"],
  RESOLVE_ATTACK: ["Apply the result", "a"],
  PASS_REACTION: ["Pass", "p"],
  DISCARD_BONUS: ["Discard it", "x"],
  ACCEPT_MALUS: ["Accept the malus", "y"],
  AUTO_DEPLOY: ["Deploy the rest automatically", "u"],
  CONFIRM_DEPLOYMENT: ["Confirm deployment", "c"],
  NEXT_PHASE: ["Next phase", "n"],
  STORE_BONUS: ["Store it for later", "s"],
});
const PRIMARY = ["DRAW_CARD", "ROLL_DICE", "RESOLVE_ATTACK", "CONFIRM_DEPLOYMENT", "NEXT_PHASE"];
/** Types that move the game on past what is left to do; END_TURN is drawn apart and may ask first. */
const ENDS = ["NEXT_PHASE", "END_TURN"];

/**
 * @typedef {{units: string[], cells: string[], values: string[], lists: boolean}} Refs
 * @typedef {{action: Action, refs: Refs, kind: "source"|"card"|"pick"|"button", group: string|null}} Read
 * @typedef {{kind: "send", action: Action} | {kind: "aim", group: string} | {kind: "pick", value: string}
 *   | {kind: "confirm", action: Action, lose: string[]} | {kind: "arm", armed: import("./types.js").Armed|null}} Run
 *   `confirm`: send `action` only after the player confirms losing what `lose` says (the HUD asks);
 *   `arm`: preview a board choice (null: drop the preview).
 * @typedef {{id: string, label: string, key: string, run: Run, primary: boolean, title: string, apart?: boolean}} Button
 *   `apart`: a button that ends something (End turn), drawn away from the others
 * @typedef {{key: string, kind: "card"|"pick", type: string, label: string, reads: Read[]}} Group
 * @typedef {{
 *   reads: Read[], groups: Map<string, Group>, buttons: Button[], context: Button[], choices: Button[],
 *   cellMarks: Map<string, string>, unitMarks: Map<string, string>, arrowFrom: string|null,
 *   aiming: Group|null, question: boolean, prompt: string, armed: {hit: import("./types.js").Armed, action: Action}|null
 * }} Controls
 *   `armed`: the previewed board choice (`Selection.armed`) and the action it would send
 */

/**
 * Read the references an action makes to the board.
 * @param {Action} action @param {Set<string>} onBoard unit ids standing on the board
 * @returns {Refs}
 */
export function refsOf(action, onBoard) {
  /** @type {Refs} */
  const refs = { units: [], cells: [], values: [], lists: false };
  /** @param {string} key @param {any} value */
  const visit = (key, value) => {
    if (value === null || value === undefined || key === "type") return;
    if (Array.isArray(value)) {
      if (value.length) refs.lists = true;
      for (const item of value) visit(key, item);
    } else if (typeof value === "object") {
      for (const [k, v] of Object.entries(value)) visit(k, v);
    } else if (typeof value === "string" && UNIT_KEY.test(key) && UNIT_ID.test(value)) {
      if (onBoard.has(value)) refs.units.push(value);
      else refs.values.push(value);
    } else if (typeof value === "string" && CELL_KEY.test(key) && CELL_LABEL.test(value)) {
      refs.cells.push(value);
    } else if (key === "quadrant" || key === "mode" || key === "option") {
      refs.values.push(String(value));
    }
  };
  for (const [key, value] of Object.entries(action)) visit(key, value);
  return refs;
}

/** The card group of an action, or null. @param {Action} action */
export function cardGroup(action) {
  if (typeof action.card_id === "string") return `${action.type}:${action.card_id}`;
  if ("stored_index" in action && action.type.startsWith("PLAY_")) return `${action.type}:${action.stored_index ?? "drawn"}`;
  return null;
}

/**
 * Classify every legal action by its shape.
 * @param {Action[]} legal @param {Set<string>} onBoard
 * @returns {Read[]}
 */
export function readActions(legal, onBoard) {
  return legal.map((action) => {
    const refs = refsOf(action, onBoard);
    const card = cardGroup(action);
    if (card) return { action, refs, kind: "card", group: card };
    const firstIsScalarUnit = refs.units.length > 0 && !refs.lists;
    if (firstIsScalarUnit && refs.units.length + refs.cells.length >= 2) return { action, refs, kind: "source", group: null };
    if (refs.units.length + refs.cells.length > 0) return { action, refs, kind: "pick", group: `pick:${action.type}` };
    return { action, refs, kind: "button", group: null };
  });
}

/**
 * Everything the screen offers for this model: marks on the board, buttons, the aim state.
 * @param {Model} model @param {Map<string, CardInfo>} cards
 * @returns {Controls}
 */
export function deriveControls(model, cards) {
  const view = model.view;
  const onBoard = new Set((view?.units ?? []).filter((u) => u.cell).map((u) => u.id));
  const reads = model.busy ? [] : readActions(model.legal, onBoard);
  /** @type {Map<string, Group>} */
  const groups = new Map();
  for (const read of reads) {
    if (!read.group) continue;
    let group = groups.get(read.group);
    if (!group) {
      group = { key: read.group, kind: read.kind === "card" ? "card" : "pick", type: read.action.type, label: "", reads: [] };
      group.label = groupLabel(group, read.action, model, cards);
      groups.set(read.group, group);
    }
    group.reads.push(read);
  }
  /** @type {Controls} */
  const ctl = {
    reads, groups, buttons: [], context: [], choices: [], cellMarks: new Map(), unitMarks: new Map(),
    arrowFrom: null, aiming: null, question: false, prompt: "", armed: null,
  };
  const aimKey = model.sel.group ?? autoAim(groups, reads, model);
  ctl.aiming = aimKey ? groups.get(aimKey) ?? null : null;
  if (ctl.aiming) markAim(ctl, ctl.aiming, model, cards);
  else markSelection(ctl, model);
  ctl.buttons = buildButtons(ctl, model, cards);
  const armed = model.sel.armed;
  const action = armed && !ctl.aiming ? boardAction(model, ctl, armed) : null;
  if (armed && action) {
    ctl.armed = { hit: armed, action };
    for (const b of ctl.buttons) b.primary = false; // Enter commits the preview
  }
  ctl.question = reads.length > 0 && reads.every((r) => r.kind === "button" || r.kind === "card")
    && !reads.some((r) => r.action.type === "NEXT_PHASE" || r.action.type === "END_TURN");
  return ctl;
}

/**
 * The group to aim without being asked: a pick group that is the only thing to do on the
 * board (malus victims; manual deployment, whose placed units may also be moved again).
 * @param {Map<string, Group>} groups @param {Read[]} reads @param {Model} model
 */
function autoAim(groups, reads, model) {
  if (groups.size !== 1 || model.sel.unit) return null;
  // With a way forward on offer (next phase, end turn) the pick is optional: a declared attack
  // stays withdrawable, but the panel leads on rather than asking which one to withdraw.
  if (reads.some((r) => ENDS.includes(r.action.type))) return null;
  const only = [...groups.values()][0];
  if (only.kind !== "pick") return null;
  return reads.every((r) => r.kind !== "source" || r.action.type === only.type) ? only.key : null;
}

/** @param {Group} group @param {Action} action @param {Model} model @param {Map<string, CardInfo>} cards */
function groupLabel(group, action, model, cards) {
  if (group.kind === "pick") return `${humanize(action.type)}…`;
  const view = model.view;
  let card = action.card_id;
  if (!card && view) {
    const mine = view.players.find((p) => p.side === model.toAct);
    card = action.stored_index === null || action.stored_index === undefined
      ? view.pending_card?.card
      : mine?.stored[action.stored_index];
  }
  return `Play ${cardName(cards, card ?? "?")}`;
}

/**
 * The references of an action as typed picks: "unit:A1", "cell:A1" and "value:NW" stay apart
 * (A1 is both a unit id and a cell label).
 * @param {Refs} refs
 */
export function pickKeys(refs) {
  return [...refs.units.map((u) => `unit:${u}`), ...refs.cells.map((c) => `cell:${c}`), ...refs.values.map((v) => `value:${v}`)];
}

/**
 * Candidates of the group consistent with the picks so far.
 * @param {Group} group @param {string[]} picks typed picks (see `pickKeys`)
 */
export function candidates(group, picks) {
  return group.reads.filter((r) => {
    const all = pickKeys(r.refs);
    return picks.every((p) => all.includes(p));
  });
}

/** @param {Controls} ctl @param {Group} group @param {Model} model @param {Map<string, CardInfo>} cards */
function markAim(ctl, group, model, cards) {
  const picks = model.sel.picks;
  const seen = new Set();
  for (const read of candidates(group, picks)) {
    for (const unit of read.refs.units) if (!picks.includes(`unit:${unit}`)) ctl.unitMarks.set(unit, "target");
    for (const cell of read.refs.cells) if (!picks.includes(`cell:${cell}`)) ctl.cellMarks.set(cell, "target");
    for (const value of read.refs.values) {
      if (picks.includes(`value:${value}`) || seen.has(value)) continue;
      seen.add(value);
      ctl.choices.push({ id: `choice:${value}`, label: optionName(read.action, value, model, cards) ?? valueLabel(value, model), key: "",
        run: { kind: "pick", value: `value:${value}` }, primary: false, title: "" });
    }
  }
  for (const pick of picks) if (pick.startsWith("unit:")) ctl.unitMarks.set(pick.slice(5), "picked");
  const units = unitCells(model);
  for (const [unit, mark] of ctl.unitMarks) {
    const cell = units.get(unit);
    if (cell && !ctl.cellMarks.has(cell)) ctl.cellMarks.set(cell, mark === "picked" ? "selected" : "target");
  }
}

/**
 * The name of the option ``value`` of a card play (`params.option`), from the card's own list.
 * @param {Action} action @param {string} value @param {Model} model @param {Map<string, CardInfo>} cards
 */
function optionName(action, value, model, cards) {
  if (action.params?.option === undefined || action.params?.option === null || String(action.params.option) !== value) return null;
  const mine = model.view?.players.find((p) => p.side === model.toAct);
  const id = action.card_id ?? (action.stored_index === null || action.stored_index === undefined
    ? model.view?.pending_card?.card : mine?.stored[action.stored_index]);
  return cardInfo(cards, id)?.options?.[Number(value)] ?? null;
}

/** @param {string} value @param {Model} model */
function valueLabel(value, model) {
  const dead = model.view?.players.flatMap((p) => p.destroyed).find((u) => u.id === value);
  if (dead) return `${value} (${unitTypeName(dead.type)}, destroyed)`;
  if (QUADRANT.test(value)) {
    // Which quarter the attack's target stands in: the one such a card is usually played for.
    const target = targetQuadrant(model);
    const name = quadrantName(value);
    return `${name.charAt(0).toUpperCase()}${name.slice(1)}${target && target.quadrant === value ? ` · ${target.unit} is here` : ""}`;
  }
  return /^[A-Z]{1,3}$/.test(value) ? value : humanize(value);
}

/**
 * The quadrant of the pending attack's target (null: no attack, or its target is off the board).
 * @param {Model} model @returns {{unit: string, quadrant: string}|null}
 */
export function targetQuadrant(model) {
  const view = model.view;
  const target = view?.pending_attack ? view.units.find((u) => u.id === view.pending_attack?.target) : null;
  const xy = target?.cell ? parseLabel(target.cell) : null;
  if (!view || !target || !xy) return null;
  return { unit: target.id, quadrant: quadrantOf(xy[0], xy[1], view.board.width, view.board.height) };
}

/** @param {Model} model @returns {Map<string, string>} unit id → cell */
function unitCells(model) {
  return new Map((model.view?.units ?? []).filter((u) => u.cell).map((u) => [u.id, /** @type {string} */ (u.cell)]));
}

/** @param {Controls} ctl @param {Model} model */
function markSelection(ctl, model) {
  const selected = model.sel.unit;
  const units = unitCells(model);
  const me = model.seat;
  for (const read of ctl.reads) {
    if (read.kind === "source" && read.refs.units[0] !== selected) ctl.unitMarks.set(read.refs.units[0], "source");
  }
  if (!selected) return;
  const cell = units.get(selected);
  if (cell) ctl.cellMarks.set(cell, "selected");
  for (const read of ctl.reads) {
    if (read.kind === "source" && read.refs.units[0] === selected) {
      for (const dest of read.refs.cells) if (!ctl.cellMarks.has(dest)) ctl.cellMarks.set(dest, "move");
      for (const unit of read.refs.units.slice(1)) {
        const enemy = unitById(model.view, unit)?.side !== (me ?? model.toAct);
        ctl.unitMarks.set(unit, enemy ? "attack" : "target");
        const at = units.get(unit);
        if (at) ctl.cellMarks.set(at, enemy ? "attack" : "target");
        ctl.arrowFrom = selected;
      }
    }
    if (read.kind === "pick" && read.refs.units.length === 1 && read.refs.cells.length === 0 && read.refs.units[0] === selected) {
      ctl.context.push(makeButton(read.action, model, new Map(), ""));
    }
  }
}

/** @param {Controls} ctl @param {Model} model @param {Map<string, CardInfo>} cards @returns {Button[]} */
function buildButtons(ctl, model, cards) {
  /** @type {Button[]} */
  const out = [];
  const endTurn = ctl.reads.some((r) => r.action.type === "END_TURN");
  for (const read of ctl.reads) {
    if (read.kind !== "button") continue;
    // One button per meaning: a next phase that only leads to the end of the turn is End turn.
    if (read.action.type === "NEXT_PHASE" && endTurn && model.decision?.next_phase?.phase === "END_TURN") continue;
    const button = makeButton(read.action, model, cards, "");
    if (read.action.type === "END_TURN") {
      button.apart = true;
      const lose = forfeits(model, ctl.reads);
      if (lose.length) button.run = { kind: "confirm", action: read.action, lose };
    }
    out.push(button);
  }
  for (const group of ctl.groups.values()) {
    const run = /** @type {Run} */ (group.reads.length === 1 && group.kind === "card"
      ? { kind: "send", action: group.reads[0].action }
      : { kind: "aim", group: group.key });
    out.push({ id: group.key, label: group.label, key: "", run, primary: false, title: "" });
  }
  let digit = 1;
  const used = new Set();
  for (const button of out) {
    const run = button.run;
    const want = button.key || (run.kind === "send" || run.kind === "confirm" ? KNOWN[run.action.type]?.[1] ?? "" : "");
    if (want && !used.has(want)) button.key = want;
    else button.key = digit <= 9 ? String(digit++) : "";
    used.add(button.key);
  }
  const primary = PRIMARY.map((t) => out.find((b) => b.run.kind === "send" && b.run.action.type === t)).find(Boolean);
  if (primary) primary.primary = true;
  return out;
}

/**
 * What ending the turn now would give up, in words, read from the position and the legal
 * actions (the engine's offers, not a rule of the client): declared attacks not yet resolved,
 * units that could still move or attack.
 * @param {Model} model @param {Read[]} reads
 * @returns {string[]}
 */
export function forfeits(model, reads) {
  const view = model.view;
  const lose = [];
  const declared = (view?.attack_queue.length ?? 0) + (view?.pending_attack ? 1 : 0);
  if (declared) lose.push(`${declared} declared attack${declared === 1 ? "" : "s"} will not be resolved`);
  const sources = (/** @type {string} */ type) => new Set(reads.filter((r) => r.kind === "source" && r.action.type === type).map((r) => r.refs.units[0]));
  // No more than the turn's limit allows: with one move left, one unit could still move.
  const movesLeft = model.limits && view ? Math.max(0, model.limits.moves - view.moves_this_turn) : Infinity;
  const movers = Math.min(sources("MOVE_UNIT").size, movesLeft);
  if (movers) lose.push(`${movers} more unit${movers === 1 ? "" : "s"} could still move`);
  const attacksLeft = model.limits ? Math.max(0, model.limits.attacks - declared) : Infinity;
  const attackers = Math.min(sources("DECLARE_ATTACK").size, attacksLeft);
  if (attackers) lose.push(`${attackers} more unit${attackers === 1 ? "" : "s"} could still attack`);
  return lose;
}

/**
 * How many units a list pick takes and how many are picked (malus victims): null when the
 * group's actions do not all take a list of the same length.
 * @param {Group} group @param {string[]} picks
 * @returns {{need: number, picked: number}|null}
 */
export function pickProgress(group, picks) {
  const sizes = new Set(group.reads.map((r) => (r.refs.lists ? r.refs.units.length + r.refs.cells.length : 0)));
  if (sizes.size !== 1) return null;
  const need = [...sizes][0];
  return need > 1 ? { need, picked: picks.length } : null;
}

/**
 * The button for one action: a known type's label, else its type and fields in words.
 * @param {Action} action @param {Model} model @param {Map<string, CardInfo>} cards @param {string} key
 * @returns {Button}
 */
export function makeButton(action, model, cards, key) {
  const view = model.view;
  const mine = view?.players.find((p) => p.side === model.toAct);
  let label = KNOWN[action.type]?.[0] ?? genericLabel(action);
  if (action.type === "NEXT_PHASE") label = nextPhaseLabel(model.decision);
  if (action.type === "STORE_BONUS" && action.replace_index !== null && action.replace_index !== undefined) {
    label = `Store, replacing ${cardName(cards, mine?.stored[action.replace_index])}`;
  }
  if (action.type === "CANCEL_MALUS") {
    const bonus = cardName(cards, mine?.stored[action.stored_index]);
    const malus = action.malus_play_id === null || action.malus_play_id === undefined
      ? cardName(cards, view?.pending_card?.card)
      : cardName(cards, view?.effects.find((e) => e.play_id === action.malus_play_id)?.source_card);
    label = `Cancel ${malus} with ${bonus}`;
  }
  if (action.type === "WITHDRAW_ATTACK") label = `Withdraw ${action.attacker_id}'s attack`;
  return { id: JSON.stringify(action), label, key, run: { kind: "send", action }, primary: false, title: genericLabel(action) };
}

/**
 * @typedef {{kind: "send", action: Action} | {kind: "arm", armed: import("./types.js").Armed}
 *   | {kind: "select", unit: string|null} | {kind: "pick", value: string} | {kind: "cancel"} | {kind: "none"}} TapOutcome
 */

/**
 * What a tap on the board does: send an action, change the local selection, or nothing.
 * With `preview` (a touch screen), a tap that would send a move, an attack or a deployment
 * first arms it (`arm`: the path and cost or the odds show); a second tap on the armed cell
 * sends it.
 * @param {Model} model @param {Controls} ctl @param {Hit} hit @param {boolean} [preview]
 * @returns {TapOutcome}
 */
export function resolveTap(model, ctl, hit, preview = false) {
  if (ctl.aiming) {
    if (hit.unit && ctl.unitMarks.get(hit.unit) === "target") return { kind: "pick", value: `unit:${hit.unit}` };
    if (hit.cell && ctl.cellMarks.get(hit.cell) === "target") return { kind: "pick", value: `cell:${hit.cell}` };
    if (model.sel.group) return { kind: "cancel" };
  }
  const action = boardAction(model, ctl, hit);
  if (action && hit.cell) {
    const armed = model.sel.armed;
    if (!preview || (armed && armed.cell === hit.cell)) return { kind: "send", action };
    return { kind: "arm", armed: { cell: hit.cell, unit: hit.unit && hit.unit !== model.sel.unit ? hit.unit : null } };
  }
  if (hit.unit) return { kind: "select", unit: hit.unit === model.sel.unit ? null : hit.unit };
  return { kind: "select", unit: null };
}

/**
 * The action a tap on `hit` would send: the selected unit's move, attack or deployment there,
 * or the one pick that takes only that cell; null if none.
 * @param {Model} model @param {Controls} ctl @param {Hit} hit @returns {Action|null}
 */
export function boardAction(model, ctl, hit) {
  const selected = model.sel.unit;
  if (selected) {
    const sources = ctl.reads.filter((r) => r.kind === "source" && r.refs.units[0] === selected);
    const toUnit = hit.unit && hit.unit !== selected ? sources.filter((r) => r.refs.units.slice(1).includes(/** @type {string} */ (hit.unit))) : [];
    if (toUnit.length) return toUnit[0].action;
    const toCell = hit.cell ? sources.filter((r) => r.refs.cells.includes(/** @type {string} */ (hit.cell))) : [];
    if (toCell.length) return toCell[0].action;
  }
  if (hit.unit) return null;
  const cellOnly = ctl.reads.filter((r) => r.kind === "pick" && !r.refs.units.length && r.refs.cells.length === 1
    && r.refs.cells[0] === hit.cell && r.refs.values.length === 0);
  return cellOnly.length === 1 ? cellOnly[0].action : null;
}

/**
 * The board choices of the selected unit, for the keyboard's cursor: its attack targets (enemy
 * units, nearest first as the server listed them) then the cells it can reach, as hits.
 * @param {Model} model @param {Controls} ctl @returns {import("./types.js").Armed[]}
 */
export function boardChoices(model, ctl) {
  const selected = model.sel.unit;
  if (!selected) return [];
  const cells = unitCells(model);
  /** @type {import("./types.js").Armed[]} */
  const targets = [];
  /** @type {import("./types.js").Armed[]} */
  const moves = [];
  for (const read of ctl.reads) {
    if (read.kind !== "source" || read.refs.units[0] !== selected) continue;
    for (const unit of read.refs.units.slice(1)) {
      const cell = cells.get(unit);
      if (cell && !targets.some((t) => t.unit === unit)) targets.push({ cell, unit });
    }
    for (const cell of read.refs.cells) if (!moves.some((m) => m.cell === cell)) moves.push({ cell, unit: null });
  }
  return [...targets, ...moves];
}

/**
 * After a pick in aim mode: the action to send once exactly one candidate is left.
 * @param {Group} group @param {string[]} picks typed picks (see `pickKeys`)
 * @returns {Action|null}
 */
export function completed(group, picks) {
  const left = candidates(group, picks);
  return left.length === 1 ? left[0].action : null;
}
