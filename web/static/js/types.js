// @ts-check
/**
 * JSDoc vocabulary of the client: the server's messages (server/protocol.py), the engine's
 * data as it arrives (engine/state.py, engine/actions.py), the tile manifest, and the
 * client's own view model. No code lives here.
 */

/** @typedef {"ATTACKER" | "DEFENDER"} Side */
/** @typedef {"DEPLOYMENT"|"TURN_START"|"CARD_DRAW"|"CARD_RESOLUTION"|"MOVEMENT"|"ATTACK"|"DICE_RESOLUTION"|"END_TURN"|"VICTORY"} Phase */

/**
 * An action exactly as the engine spells it: `type` plus fields. The client never builds
 * one; it only sends back an action it was offered in `legal_actions`.
 * @typedef {{type: string, [field: string]: any}} Action
 */

/** @typedef {{id: string, side: Side, type: string, cell: string|null, hp: number, has_moved: boolean, has_attacked: boolean}} Unit */
/** @typedef {{side: Side, stored: string[], tactics: string[], played_tactics: string[], destroyed: Unit[], point_vp: number}} PlayerState */
/** @typedef {{card: string, drawer: Side, accepted: boolean}} PendingCard */
/** @typedef {{attacker: string, target: string}} Attack */
/** @typedef {{source: string, value: number, clause?: string}} Modifier */
/** @typedef {{natural: number, modified: number, required: number, distance: number, outcome: "HIT"|"MISS", modifiers: Modifier[]}} Roll */
/** @typedef {{effect_id: number, play_id: number, source_card: string, source_kind: string, controller: Side, hook: string, op: string, value: number, scope: string, targets: string[], expires: string, remaining_turn_ends: number|null}} Effect */
/** @typedef {{kind: string, side?: Side, unit?: string, target?: string, card?: string, cell?: string, from_cell?: string, value?: number, detail?: string}} GameEvent */
/** @typedef {{event: GameEvent, text: string}} EventText */
/** @typedef {{width: number, height: number, rows: string[]}} Board */
/** One map character of the board legend (engine TERRAIN_LEGEND). @typedef {{char: string, terrain: string, road: boolean, river: boolean}} LegendEntry */
/** @typedef {{phase: Phase, name: string}} PhaseStep */
/** @typedef {"beforeMove"|"afterMove"|"beforeAttackRoll"|"afterAttackRoll"|"beforeDamage"} Window */
/**
 * Who decides and why (engine `decision`, docs/protocol.md): the deciding side, the kind of
 * decision, the open reaction windows, the card or attack concerned, and the phase ruler.
 * @typedef {{side: Side|null, kind: "deploy"|"draw_card"|"resolve_bonus"|"resolve_malus"|"choose_victims"|"play_stored"
 *   |"move"|"declare_attacks"|"roll"|"apply_roll"|"finish_turn"|"react"|"game_over", phase: Phase, phase_name: string,
 *   windows: Window[], card: string|null, attack: Attack|null, ruler: PhaseStep[], at: number|null,
 *   next_phase: PhaseStep|null, useful?: boolean}} Decision
 */

/**
 * A `player_view` of the game state (hidden cards are "?").
 * @typedef {{board: Board, phase: Phase, turn: number, active: Side, to_act: Side|null,
 *   units: Unit[], players: [PlayerState, PlayerState], draw_pile: string[], discard_pile: string[],
 *   deploying: Side|null, pending_card: PendingCard|null, drawn_this_turn: boolean, moves_this_turn: number,
 *   attack_queue: Attack[], pending_attack: Attack|null, attack_seq: number, last_roll: Roll|null,
 *   effects: Effect[], winner: Side|null, victory_reason: string|null, events: GameEvent[],
 *   actions_taken: number}} View
 */

/**
 * The score as the server counts it (server/score.py): victory points per side, the points that
 * win at once, the round and the last one, and the victory conditions (rules §10) in play.
 * @typedef {{vp: Record<string, number>, goal: number|null, round: number, rounds: number|null, conditions: string[]}} Score
 */
/** @typedef {{type: "welcome", match_id: string, seat: Side|null, mode: string, bot_side: Side|null, seed_commitment: string, rules_version: string, server_version: string, cards?: CardInfo[]}} Welcome */
/**
 * @typedef {{type: "state", match_id: string, version: number, status: "live"|"over"|"broken"|"other_rules", seat: Side|null, to_act: Side|null, legal_actions: Action[], last_seq: number, view: View, events: EventText[], move_limit: number, attack_limit: number, decision: Decision, legend: LegendEntry[], broken_reason: string|null,
 *   clock?: ClockState|null, presence?: Presence|null, match_actions?: Action[], rematch?: Rematch|null,
 *   score?: Score|null, open_seat?: Side|null}} StateMsg */
/*
 * Issue 17: clocks, presence, match actions and rematch (docs/protocol.md "Clocks, presence, …").
 * A match action (RESIGN, CLAIM_VICTORY; TIMEOUT only from the server) names its `side`.
 */
/** The clock asked for at creation (`POST /api/matches` `clock`). @typedef {{initial?: number, increment?: number, per_turn?: number}} ClockSpec */
/** A match's clock settings in its summary. @typedef {{initial: number|null, increment: number|null, per_turn: number|null}} ClockSettings */
/**
 * Both clocks as the server sent them: each seat's time at `server_time` (seconds since the epoch).
 * @typedef {{initial_ms: number|null, increment_ms: number|null, per_turn_ms: number|null,
 *   remaining_ms: {attacker: number, defender: number}, running: Side|null, server_time: number}} ClockState
 */
/** Who has a socket open, and when the other seat may claim the win (server time). @typedef {{attacker: boolean, defender: boolean, claim_at: number|null}} Presence */
/** A rematch offer and its outcome. @typedef {{offered_by: Side|null, declined_by: Side|null, match_id: string|null, seat: Side|null}} Rematch */
/** @typedef {{type: "clock", clock: ClockState|null}} ClockMsg */
/** @typedef {{type: "presence", presence: Presence}} PresenceMsg */
/** @typedef {{type: "rematch", rematch: Rematch}} RematchMsg */
/** @typedef {{type: "ack", seq: number, version: number}} Ack */
/** @typedef {{type: "reject", code: string, reason: string, seq: number|null, id?: number, retry_after?: number}} Reject */

/** @typedef {{id: string, name: string, kind: "bonus"|"malus"|"tactic", class: string, category: string, text: string, timing: string, cancel_power: string, window: string|null, side: string|null, options?: string[], warning?: string|null}} CardInfo */

/**
 * The tile manifest (assets/tiles/manifest.json, see docs/tiles.md), the parts the client reads.
 * @typedef {{tile_w: number, tile_h: number, step_y: number, image_w: number, image_h: number, face_centre: [number, number], display_scale: number}} TileGeometry
 * @typedef {{file: string, size: [number, number], anchor: [number, number], group: string, ground?: [number, number], badge?: [number, number],
 *   rect?: [number, number, number, number]}} ImageEntry  rect: where the image is in the atlas (x, y, w, h)
 * @typedef {{type_scale: number, tweak: {off_x: number, off_y: number, scale: number}, images: Record<Side, string>}} UnitTypeEntry
 * @typedef {{tile: TileGeometry, image_scale: number, images: Record<string, ImageEntry>, terrain: Record<string, string>,
 *   masks: {names: string[]}, highlights: Record<string, string>, connectors: Record<string, string>, badges: Record<string, string>,
 *   units: {width_factor: number, bottom_factor: number, types: Record<string, UnitTypeEntry>},
 *   atlas?: {file: string, size: [number, number], half?: {file: string, size: [number, number]}}}} Manifest
 */

/** @typedef {{x: number, y: number}} Point */
/** @typedef {{cx: number, cy: number, zoom: number}} Camera */

/**
 * What the player pointed at: a cell label and the unit there (by sprite or by cell), if any.
 * @typedef {{cell: string|null, unit: string|null}} Hit
 */

/**
 * One logged event: the event itself and the engine's sentence for it (shown in player words,
 * js/words.js `eventText`).
 * @typedef {{event: GameEvent, text: string, kind: string, version: number, side: Side|null}} LogEntry
 */
/** @typedef {{unit: string, from: string, to: string, version: number}} MoveTrace */
/**
 * The last attack and its result: `turn` it was made in, `at` (performance.now()) when its
 * outcome arrived (0: no time, in a replay).
 * @typedef {{unit: string, target: string, outcome: string|null, version: number, turn: number, at: number}} AttackTrace
 */

/**
 * Local choices that are not game state: the selected unit, a card being aimed, picks so far,
 * and `armed`: the board choice a first touch (or the keyboard's cursor) previews, sent by a
 * second touch on it, its button or Enter.
 * @typedef {{unit: string|null, group: string|null, picks: string[], armed: Armed|null}} Selection
 * @typedef {{cell: string, unit: string|null}} Armed the previewed cell and the unit there (a target)
 */

/**
 * The client's view model (js/state.js): everything the screen shows, as plain data.
 * @typedef {{
 *   kind: "play"|"watch"|"replay", matchId: string, seat: Side|null, mode: string, botSide: Side|null,
 *   commitment: string, version: number, status: string, toAct: Side|null, view: View|null,
 *   decision: Decision|null, legend: LegendEntry[], legal: Action[], log: LogEntry[], conn: string, connDetail: string, busy: boolean,
 *   notice: {text: string, level: string, at: number}|null, sel: Selection, hover: string|null,
 *   lastMove: MoveTrace|null, lastAttack: AttackTrace|null,
 *   lastRoll: (Roll & {unit: string, target: string, version: number, key: string})|null,
 *   fresh: EventText[], prevUnits: Unit[], brokenReason: string|null,
 *   received: number, limits: {moves: number, attacks: number}|null,
 *   clock: ClockState|null, presence: Presence|null, matchActions: Action[], rematch: Rematch|null,
 *   score: Score|null, openSeat: Side|null, public?: boolean
 * }} Model
 *   `public`: hot-seat shows this seat's decision with both hands hidden (js/hotseat.js)
 */

export {};
