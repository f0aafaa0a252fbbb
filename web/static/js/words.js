// @ts-check
/**
 * The one table of player words for the engine's vocabulary: sides, unit types, terrain,
 * phases, reaction windows, dice outcomes, quadrants, why a game ended, why an action was
 * refused, where a roll modifier comes from, and a sentence for every kind of event. The
 * engine names things for programs ("DEFENDER", "victory_points", "beforeAttackRoll",
 * "terrain_cover:URBAN"); everything a player reads goes through here, so no identifier
 * reaches the screen (tests/web/test_words.py reads every screen for them). Pure.
 *
 * An identifier this table has never heard of still reads as words (`plainWords`).
 */

/** @typedef {import("./types.js").Side} Side */
/** @typedef {import("./types.js").GameEvent} GameEvent */
/** @typedef {import("./types.js").CardInfo} CardInfo */

/** @type {Record<string, string>} */
export const SIDES = { ATTACKER: "Attacker", DEFENDER: "Defender" };

/** @type {Record<string, string>} */
export const UNIT_TYPES = { LIGHT_INFANTRY: "Light infantry", MECHANIZED: "Mechanized", SPECIAL: "Special forces" };

/** A terrain as a place ("in the forest"). @type {Record<string, string>} */
export const TERRAIN = {
  PLAIN: "open ground", ROUGH: "rough ground", FOREST: "forest", URBAN: "town", INDUSTRIAL: "industrial area",
  HILL: "hill", WATER: "water",
};

/** @type {Record<string, string>} */
export const PHASES = {
  DEPLOYMENT: "Deployment", TURN_START: "Turn start", CARD_DRAW: "Draw", CARD_RESOLUTION: "Cards", MOVEMENT: "Move",
  ATTACK: "Attack", DICE_RESOLUTION: "Dice", END_TURN: "End of the turn", VICTORY: "Game over",
};

/** When a reaction window is open; `{attack}` is the pending attack ("A7 → D9"). @type {Record<string, string>} */
export const WINDOWS = {
  beforeMove: "before the first move",
  afterMove: "after a move",
  beforeAttackRoll: "before the attack roll of {attack}",
  afterAttackRoll: "after the roll of {attack}",
  beforeDamage: "before damage",
};

/** @type {Record<string, string>} */
export const OUTCOMES = { HIT: "hit", MISS: "miss" };

/** @type {Record<string, string>} */
export const QUADRANTS = { NW: "north-west quarter", NE: "north-east quarter", SW: "south-west quarter", SE: "south-east quarter" };

/** @type {Record<string, string>} */
export const CARD_KINDS = { bonus: "Bonus", malus: "Malus", tactic: "Tactic" };

/** Who may play a tactic, as its card says. @type {Record<string, string>} */
export const TACTIC_SIDES = { active: "on your turn", reacting: "on the opponent's turn", either: "on either turn" };

/**
 * Why a game ended, one sentence each; `{winner}` and `{loser}` are side names. The rules'
 * conditions (§10) and the ways a match ends (a resignation, a clock, an abandoned seat).
 * @type {Record<string, string>}
 */
export const END_REASONS = {
  annihilation: "{winner} destroyed every unit of {loser}.",
  target_elimination: "{winner} destroyed the enemy leader.",
  victory_points: "{winner} reached the victory points needed to win.",
  capture_and_hold: "{winner} held an objective for the turns it needed.",
  territorial_control: "{winner} controlled more points when the time ran out.",
  timed_resistance: "{winner} held out to the last round with units still standing.",
  round_limit: "The last round is over: {winner} wins on victory points (a tie goes to the Defender).",
  action_cap: "The game reached its action limit: {winner} wins on victory points (a tie goes to the Defender).",
  resignation: "{loser} resigned: {winner} wins.",
  time: "{loser} ran out of time: {winner} wins on time.",
  abandonment: "{loser} left the game and did not come back: {winner} claimed the win.",
};

/**
 * Why a card cannot be played now, by the engine's code (`explain`); anything else in the
 * engine's own words.
 * @type {Record<string, string>}
 */
export const UNPLAYABLE = {
  not_playable: "it has nothing to act on now (no legal target)",
  card_blocked: "an effect in play forbids playing it now",
  bad_target: "there is nothing it could be aimed at now",
};

/** Why the server refused an action, by its code. @type {Record<string, string>} */
export const REFUSALS = {
  stale_version: "The game moved on before your action arrived; here is the latest position",
  not_your_turn: "It is not your decision now",
  illegal_action: "That is not allowed",
  rate_limited: "Too fast",
  game_over: "The game is over",
  forbidden: "Not allowed here",
};

/**
 * Any identifier as words: "LIGHT_INFANTRY" → "Light infantry", "beforeAttackRoll" → "Before
 * attack roll", "terrain_cover:URBAN" → "Terrain cover urban".
 * @param {string|null|undefined} text
 */
export function plainWords(text) {
  const words = String(text ?? "").replace(/([a-z])([A-Z])/g, "$1 $2").replace(/[_:]+/g, " ").trim().toLowerCase();
  return words.charAt(0).toUpperCase() + words.slice(1);
}

/** @param {Side|string|null|undefined} side */
export function sideName(side) {
  return side ? SIDES[side] ?? plainWords(side) : "Nobody";
}

/** @param {Side|null|undefined} side @returns {Side|null} */
export function otherSide(side) {
  return side === "ATTACKER" ? "DEFENDER" : side === "DEFENDER" ? "ATTACKER" : null;
}

/** @param {string} type */
export function unitTypeName(type) {
  return UNIT_TYPES[type] ?? plainWords(type);
}

/** @param {string} terrain */
export function terrainName(terrain) {
  return TERRAIN[terrain] ?? plainWords(terrain).toLowerCase();
}

/** @param {string|null|undefined} phase */
export function phaseName(phase) {
  return PHASES[phase ?? ""] ?? plainWords(phase);
}

/** "before the attack roll of A7 → D9" (without an attack: "before the attack roll"). @param {string} window @param {string} [attack] */
export function windowName(window, attack = "") {
  const words = WINDOWS[window] ?? plainWords(window).toLowerCase();
  return attack ? words.replace("{attack}", attack) : words.replace(" of {attack}", "");
}

/** @param {string|null|undefined} outcome */
export function outcomeName(outcome) {
  return OUTCOMES[outcome ?? ""] ?? plainWords(outcome).toLowerCase();
}

/** "NW" → "north-west quarter"; anything else as words. @param {string} value */
export function quadrantName(value) {
  return QUADRANTS[value] ?? plainWords(value);
}

/** Why the game ended, as a sentence. @param {string|null|undefined} reason @param {Side|null|undefined} winner */
export function endReason(reason, winner) {
  const words = END_REASONS[reason ?? ""] ?? `{winner} wins (${plainWords(reason ?? "the game ended").toLowerCase()}).`;
  return words.replaceAll("{winner}", sideName(winner)).replaceAll("{loser}", sideName(otherSide(winner ?? null)));
}

/** A refusal in words: the code's sentence and the server's reason. @param {string} code @param {string} reason */
export function refusal(code, reason) {
  const lead = REFUSALS[code];
  return lead ? `${lead} (${reason}).` : reason;
}

/**
 * A card's name for an instance id ("air_cover#2"), a card id, or "?" (hidden).
 * @param {Map<string, CardInfo>} cards @param {string|null|undefined} id
 */
export function cardName(cards, id) {
  if (!id) return "";
  if (id === "?") return "a hidden card";
  const info = cards.get(id.split("#")[0]);
  return info ? info.name : plainWords(id.split("#")[0]);
}

/**
 * Where a roll modifier comes from (the `source` of a roll's modifiers): "cover of the town",
 * "Dense Fog (defence)", a card by name, a standing ability in words.
 * @param {Map<string, CardInfo>} cards @param {string} source
 */
export function modifierSource(cards, source) {
  const [kind, what] = source.includes(":") ? [source.slice(0, source.indexOf(":")), source.slice(source.indexOf(":") + 1)] : ["", source];
  if (kind === "terrain_cover") return `cover of the ${terrainName(what)}`;
  if (kind === "terrain_defense") return `defence of the ${terrainName(what)}`;
  if (kind === "ability") return `ability: ${plainWords(what).toLowerCase()}`;
  if (kind === "defense") return `${cardName(cards, what)} (defence)`;
  return cardName(cards, source);
}

/**
 * A sentence for every kind of event (engine `EventKind`), from its fields: who did what to
 * which unit where. `card` is the card's name ("a card" when hidden).
 * @type {Record<string, (e: GameEvent, who: string, card: string) => string>}
 */
const SENTENCES = {
  turn_started: (e, who) => `Turn ${e.value}: ${who} to play`,
  phase_entered: (e) => phaseName(e.detail),
  unit_deployed: (e, who) => `${who} deployed ${e.unit} at ${e.cell}`,
  deployment_confirmed: (_e, who) => `${who} finished deploying`,
  card_drawn: (_e, who, card) => `${who} drew ${card}`,
  deck_recycled: (e) => `The discard pile was shuffled into a new draw pile (${e.value} cards)`,
  bonus_played: (e, who, card) => `${who} played ${card}${e.unit ? ` on ${e.unit}` : ""}${e.cell ? ` at ${e.cell}` : ""}`,
  bonus_stored: (_e, who, card) => `${who} stored ${card}`,
  bonus_discarded: (_e, who, card) => `${who} discarded ${card}`,
  malus_accepted: (e, who, card) => `${who} accepted ${card}; ${sideName(otherSide(e.side))} picks the victims`,
  malus_applied: (_e, who, card) => `${card} hits ${who}`,
  malus_victim: (e, _who, card) => `${card} hits ${e.unit}`,
  malus_fizzled: (_e, who, card) => `${card} fizzled: ${who} has no unit it could hit`,
  malus_cancelled: (_e, who, card) => `${who} cancelled ${card}`,
  effect_expired: (_e, _who, card) => `${card} wore off`,
  unit_restored: (e) => `${e.unit} was restored to full strength`,
  unit_returned: (e) => `${e.unit} came back at ${e.cell}`,
  unit_moved: (e, who) => `${who} moved ${e.unit} from ${e.from_cell} to ${e.cell}`,
  attack_declared: (e, who) => `${who} declared an attack: ${e.unit} → ${e.target}`,
  attack_withdrawn: (e, who) => `${who} withdrew ${e.unit}'s attack on ${e.target}`,
  attack_pending: (e) => `Attack ${e.value}: ${e.unit} → ${e.target}`,
  attack_skipped: (e) => `${e.unit} → ${e.target} skipped: no longer possible`,
  attack_cancelled: (e) => `${e.unit} → ${e.target} cancelled: ${e.detail ?? "no reason given"}`,
  attack_dropped: (e) => `${e.unit} → ${e.target} dropped at the end of the turn`,
  dice_rolled: (e) => `${e.unit} rolled ${e.value} against ${e.target}: a ${outcomeName(e.detail)}`,
  dice_rerolled: (e, who) => `${who} rolled again: ${e.value}`,
  roll_changed: (e) => `The roll is now ${e.value}: a ${outcomeName(e.detail)}`,
  card_rule: (e, _who, card) => e.detail ?? card,
  attack_hit: (e) => `${e.unit} hit ${e.target}`,
  attack_missed: (e) => `${e.unit} missed ${e.target}`,
  unit_damaged: (e) => `${e.unit} took ${e.value} damage`,
  unit_destroyed: (e) => `${e.unit} was destroyed at ${e.cell}`,
  tactic_played: (e, who, card) => `${who} played ${card}${e.unit ? ` on ${e.unit}` : ""}${e.detail ? ` (${quadrantName(e.detail)})` : ""}`,
  reaction_passed: (e, who) => `${who} passed (${windowName(e.detail ?? "")})`,
  points_scored: (e, who) => `${who} scored ${e.value} VP from held points`,
  point_captured: (e, who) => `${who} took ${e.cell}`,
  time_ran_out: (e, who, card) => `${who} ran out of time${e.card ? `; ${card} is discarded` : ""}`,
  victory: (e) => endReason(e.detail, e.side ?? null),
};

/** The event kinds with a sentence of their own (tests check the engine's list against it). */
export const EVENT_KINDS = Object.keys(SENTENCES);

/**
 * One event in player words. An event kind the table does not know reads from the engine's
 * own sentence with its identifiers turned into words.
 * @param {{event: GameEvent, text?: string}} e @param {Map<string, CardInfo>} cards
 */
export function eventText(e, cards) {
  const ev = e.event;
  const sentence = SENTENCES[ev.kind];
  if (!sentence) return unknownEventText(e.text ?? plainWords(ev.kind));
  const card = ev.card ? (ev.card === "?" ? "a card" : cardName(cards, ev.card)) : "";
  const text = sentence(ev, sideName(ev.side), card);
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/** @param {string} text an engine sentence */
function unknownEventText(text) {
  return text.replace(/\b(ATTACKER|DEFENDER)\b/g, (side) => SIDES[side])
    .replace(/\b[a-z]+(?:[A-Z][a-z]+)+\b|\b\w+_\w+\b/g, (id) => plainWords(id).toLowerCase());
}

/**
 * An action in words, as an instruction ("move A7 to G4"): the replay's step line and the
 * hint say what was (or would be) played. Null for a type the table does not know (the caller
 * words it from its fields).
 * @param {import("./types.js").Action} a @param {Map<string, CardInfo>} cards
 * @returns {string|null}
 */
export function actionText(a, cards) {
  const units = (/** @type {unknown} */ list) => (Array.isArray(list) && list.length ? list.join(", ") : "");
  const on = (/** @type {unknown} */ list) => (units(list) ? ` on ${units(list)}` : "");
  switch (a.type) {
    case "MOVE_UNIT": return `move ${a.unit_id} to ${a.to}`;
    case "DECLARE_ATTACK": return `attack ${a.target_id} with ${a.attacker_id}`;
    case "WITHDRAW_ATTACK": return `withdraw ${a.attacker_id}'s attack`;
    case "DEPLOY_UNIT": return `deploy ${a.unit_id} at ${a.cell}`;
    case "AUTO_DEPLOY": return "deploy the rest automatically";
    case "CONFIRM_DEPLOYMENT": return "finish deploying";
    case "NEXT_PHASE": return "go on to the next phase";
    case "END_TURN": return "end the turn";
    case "DRAW_CARD": return "draw a card";
    case "PLAY_BONUS": return `play ${a.stored_index === null || a.stored_index === undefined ? "the bonus just drawn" : "a stored bonus"}${on(a.targets)}`;
    case "STORE_BONUS": return "store the card drawn";
    case "DISCARD_BONUS": return "discard the card drawn";
    case "ACCEPT_MALUS": return "accept the malus";
    case "CHOOSE_MALUS_TARGETS": return `choose the victims: ${units(a.unit_ids)}`;
    case "CANCEL_MALUS": return "cancel a malus with a stored bonus";
    case "ROLL_DICE": return "roll the die";
    case "RESOLVE_ATTACK": return "apply the result";
    case "PLAY_TACTIC": return `play ${cardName(cards, a.card_id)}${on(a.targets)}${a.params?.quadrant ? ` (${quadrantName(a.params.quadrant)})` : ""}`;
    case "PASS_REACTION": return "pass";
    default: return null;
  }
}

/** Event kinds worth naming when a turn is summed up in a line (the rest is bookkeeping). */
const HEADLINE = new Set(["bonus_played", "tactic_played", "malus_applied", "malus_victim", "malus_cancelled",
  "attack_hit", "attack_missed", "attack_cancelled", "unit_destroyed", "unit_returned", "point_captured", "points_scored",
  "time_ran_out"]);

/**
 * What a run of events comes to, in one line: "3 moves · A7 hit D9 · D9 destroyed · Defender played Dense Fog".
 * @param {Array<{event: GameEvent, text?: string}>} events @param {Map<string, CardInfo>} cards
 * @param {number} [most] how many sentences at most (the rest is counted)
 * @param {string[]} [also] more event kinds worth a word (the hot-seat curtain names passes too)
 */
export function summary(events, cards, most = 4, also = []) {
  const moves = events.filter((e) => e.event.kind === "unit_moved");
  const said = events.filter((e) => HEADLINE.has(e.event.kind) || also.includes(e.event.kind)).map((e) => eventText(e, cards)
    .replace(/ was destroyed at \S+$/, " destroyed"));
  // A move or two by name, more counted: "Attacker moved A7 from G2 to G4", "Attacker made 4 moves".
  const parts = moves.length <= 2 ? moves.map((e) => eventText(e, cards))
    : [`${sideName(moves[0].event.side)} made ${moves.length} moves`];
  parts.push(...said.slice(0, most));
  if (said.length > most) parts.push(`${said.length - most} more`);
  return parts.join(" · ");
}
