"""`new_game`: build the starting state from a `GameConfig` (rules §1.4, §1.5, §3)."""

from __future__ import annotations

from msgspec.structs import replace

from .board.info import board_info
from .board.terrain_map import Board, parse_terrain_map
from .board.zones import deployment_cells
from .cards.abilities import RETIRED_RULE_LISTS, config_abilities
from .cards.catalogue import DECK_SOURCES
from .cards.game import canonical_deck, card_changes, card_of, game_cards
from .config import GameConfig
from .flow.phases import decide_to_act, enter
from .flow.victory import initial_control
from .mapgen import GeneratedTerrain, generate_terrain
from .pages.deployment import auto_deploy
from .rng import DEFAULT_SEED, shuffle
from .state import GameState, PlayerState, Rules, Unit
from .tables import TERRAIN, TableOverrides, game_tables, unit_stats
from .types import Phase, Side, UnitType, unit_order

__all__ = ["game_terrain", "new_game"]

FORCE_LIMITS = {UnitType.LIGHT_INFANTRY: (6, 8), UnitType.MECHANIZED: (3, 5), UnitType.SPECIAL: (1, 2)}
FORCE_TOTALS = {Side.ATTACKER: 10, Side.DEFENDER: 15}
DEFAULT_WIDTH, DEFAULT_HEIGHT = 20, 30


def new_game(config: GameConfig) -> GameState:
    """The starting state of the game ``config`` describes.

    Deterministic: the same config gives the same state (and hash) on every machine. The
    rng stream is consumed in the documented order: deck shuffle, tactic hands (ATTACKER
    first), terrain generation, auto-deployment; each step is skipped when the config
    supplies that part. Raises ValueError naming the first problem of an invalid config.

    >>> state = new_game(GameConfig(seed=7))
    >>> state.phase.value, state.turn, state.active.value, len(state.units)
    ('CARD_DRAW', 1, 'ATTACKER', 25)
    """
    rng = DEFAULT_SEED if config.seed is None else config.seed
    rules = _rules(config)
    draw_pile, rng = _draw_pile(config, rules, rng)
    hands: list[tuple[str, ...]] = []
    for side in (Side.ATTACKER, Side.DEFENDER):
        hand, rng = _tactic_hand(config, rules, side, rng)
        hands.append(hand)
    board, rng = _board(config, rng)
    units = _units(config, board)
    stored = config.stored
    players = tuple(
        PlayerState(side=side, stored=stored.of(side) if stored else (), tactics=hand)
        for side, hand in zip((Side.ATTACKER, Side.DEFENDER), hands, strict=True)
    )
    manual = config.deployment == "manual"
    side = Side.ATTACKER if manual else config.start_side
    state = GameState(
        board=board,
        rules=rules,
        phase=Phase.DEPLOYMENT if manual else Phase.TURN_START,
        turn=1 if side is Side.ATTACKER else 2,
        active=side,
        to_act=None,
        units=units,
        players=(players[0], players[1]),
        draw_pile=draw_pile,
        discard_pile=(),
        rng=rng,
        deploying=Side.DEFENDER if manual else None,
    )
    _check_victory_config(config, state)
    state = replace(state, control=initial_control(state))
    if config.units is None and not manual:
        state = auto_deploy(state, [u.id for u in sorted(units, key=_deploy_order)])
    if not manual:
        start = config.start_phase_value
        state = enter(state, Phase.TURN_START) if start is Phase.CARD_DRAW else enter(state, start)
    return replace(state, to_act=decide_to_act(state), events=())


def _rules(config: GameConfig) -> Rules:
    """What of ``config`` the game carries into play; ValueError for a deck source or variant that does not load."""
    if config.cards not in DECK_SOURCES:
        raise ValueError(f"cards {config.cards!r} is not a deck source ({', '.join(DECK_SOURCES)})")
    for field in ("movement_rules", "combat_rules"):
        if getattr(config, field):
            raise ValueError(RETIRED_RULE_LISTS.format(field=field))
    overlay = config.rules
    return Rules(
        victory=config.victory,
        deck=config.deck,
        cards=config.cards,
        card_changes=card_changes(config),
        tables=_tables(config),
        truce_rounds=_truce_rounds(config),
        abilities=None if overlay is None else config_abilities(overlay.abilities, overlay.removed_abilities),
    )


def _truce_rounds(config: GameConfig) -> int:
    """The opening truce (rules §6.1): the config's, else one round when the rules deploy the armies."""
    if config.truce_rounds is not None:
        return config.truce_rounds
    return 0 if config.units is not None else 1


def _tables(config: GameConfig) -> TableOverrides | None:
    """The variant's tables the game plays with; None (left out of the state) for the standard ones."""
    if config.rules is None or config.rules.tables == TableOverrides():
        return None
    return config.rules.tables


def _draw_pile(config: GameConfig, rules: Rules, rng: int) -> tuple[tuple[str, ...], int]:
    deck = canonical_deck(rules)
    known = set(deck)
    stored: list[str] = []
    if config.stored is not None:
        limit = game_tables(_tables(config)).storage_limit
        for side in (Side.ATTACKER, Side.DEFENDER):
            cards = config.stored.of(side)
            if len(cards) > limit:
                bonuses = "bonus" if len(cards) == 1 else "bonuses"
                raise ValueError(f"{side.value} stores {len(cards)} {bonuses}; the limit is {limit}")
            for card in cards:
                if card not in known or card_of(rules, card).kind != "bonus":
                    raise ValueError(f"stored card {card!r} is not a bonus card of the {config.deck}-card deck")
            stored.extend(cards)
    if len(set(stored)) != len(stored):
        raise ValueError("a stored card instance is given twice")
    if config.draw_pile is not None:
        for card in config.draw_pile:
            if card not in known:
                raise ValueError(f"draw_pile card {card!r} is not a card instance of the {config.deck}-card deck")
            if card in stored:
                raise ValueError(f"draw_pile card {card!r} is also stored")
        if len(set(config.draw_pile)) != len(config.draw_pile):
            raise ValueError("draw_pile names a card instance twice")
        return tuple(config.draw_pile), rng
    taken = set(stored)
    return shuffle([c for c in deck if c not in taken], rng)


def _tactic_hand(config: GameConfig, rules: Rules, side: Side, rng: int) -> tuple[tuple[str, ...], int]:
    explicit = config.tactics.of(side)
    order = [card.id for card in game_cards(rules)[1]]
    if explicit is not None:
        for card_id in explicit:
            if card_id not in order:
                raise ValueError(f"{side.value} tactic {card_id!r} is not a tactic card of this game")
        if len(set(explicit)) != len(explicit):
            raise ValueError(f"{side.value} tactic hand names a card twice")
        return tuple(sorted(explicit, key=order.index)), rng
    pool, rng = shuffle(order, rng)
    return tuple(sorted(pool[: game_tables(_tables(config)).tactic_hand_size], key=order.index)), rng


def _board(config: GameConfig, rng: int) -> tuple[Board, int]:
    if config.terrain is not None:
        board = parse_terrain_map(config.terrain)
        for name, given, actual in (("width", config.width, board.width), ("height", config.height, board.height)):
            if given is not None and given != actual:
                raise ValueError(f"config {name} {given} does not match the terrain map's {name} {actual}")
        return board, rng
    generated, rng = _generate(config, rng)
    return generated.board, rng


def _generate(config: GameConfig, rng: int) -> tuple[GeneratedTerrain, int]:
    width = DEFAULT_WIDTH if config.width is None else config.width
    height = DEFAULT_HEIGHT if config.height is None else config.height
    return generate_terrain(rng, width, height, config.terrain_params)


def game_terrain(config: GameConfig) -> tuple[GeneratedTerrain, int]:
    """The generated terrain the game ``config`` is played on, and the seed after it: ``(terrain, next seed)``.

    Generated exactly as `new_game` does (after the deck shuffle and the tactic hands, rules
    §1.4), so ``taktik map --seed 7`` shows the map of game seed 7. Raises ValueError for a
    config that supplies its own terrain map, or whose size is outside the generator's range.

    >>> terrain, _ = game_terrain(GameConfig(seed=7))
    >>> terrain.board == new_game(GameConfig(seed=7)).board
    True
    """
    if config.terrain is not None:
        raise ValueError("this config supplies its own terrain map; nothing is generated")
    rng = DEFAULT_SEED if config.seed is None else config.seed
    rules = _rules(config)
    _, rng = _draw_pile(config, rules, rng)
    for side in (Side.ATTACKER, Side.DEFENDER):
        _, rng = _tactic_hand(config, rules, side, rng)
    return _generate(config, rng)


def _units(config: GameConfig, board: Board) -> tuple[Unit, ...]:
    info = board_info(board)
    if config.units is not None:
        if config.deployment == "manual":
            raise ValueError("manual deployment places the configured forces; do not also give units")
        units: list[Unit] = []
        seen_ids: set[str] = set()
        seen_cells: dict[str, str] = {}
        for spec in config.units:
            if spec.id[0] != spec.side.prefix:
                raise ValueError(
                    f"unit {spec.id} of {spec.side.value} must have an id starting with {spec.side.prefix}"
                )
            if spec.id in seen_ids:
                raise ValueError(f"unit id {spec.id} is used twice")
            try:
                x, y = board.cell_of(spec.cell)
            except ValueError as err:
                raise ValueError(f"unit {spec.id}: {err}") from None
            if TERRAIN[board.terrain_at(x, y)].blocks:
                raise ValueError(f"unit {spec.id} stands on {spec.cell}, whose terrain blocks units")
            if spec.cell in seen_cells:
                raise ValueError(f"units {seen_cells[spec.cell]} and {spec.id} share cell {spec.cell}")
            max_hp = unit_stats(spec.type, _tables(config)).hp
            hp = max_hp if spec.hp is None else spec.hp
            if hp > max_hp:
                raise ValueError(f"unit {spec.id} has {hp} HP; a {spec.type.value} has at most {max_hp}")
            seen_ids.add(spec.id)
            seen_cells[spec.cell] = spec.id
            units.append(Unit(id=spec.id, side=spec.side, type=spec.type, cell=spec.cell, hp=hp))
        for side in (Side.ATTACKER, Side.DEFENDER):
            if not any(u.side is side for u in units):
                raise ValueError(f"{side.value} has no units")
        return tuple(sorted(units, key=lambda u: unit_order(u.id)))
    units = []
    for side in (Side.ATTACKER, Side.DEFENDER):
        forces = config.forces.of(side)
        total = 0
        for unit_type in (UnitType.LIGHT_INFANTRY, UnitType.MECHANIZED, UnitType.SPECIAL):
            count = forces.count(unit_type)
            low, high = FORCE_LIMITS[unit_type]
            if not low <= count <= high:
                raise ValueError(f"{side.value} fields {count} {unit_type.value}; the rules allow {low}-{high}")
            for _ in range(count):
                total += 1
                units.append(
                    Unit(
                        id=f"{side.prefix}{total}",
                        side=side,
                        type=unit_type,
                        cell=None,
                        hp=unit_stats(unit_type, _tables(config)).hp,
                    )
                )
        if total != FORCE_TOTALS[side]:
            raise ValueError(f"{side.value} fields {total} units; the rules require {FORCE_TOTALS[side]}")
        room = len(deployment_cells(info, side, frozenset()))
        if room < total:
            raise ValueError(f"{side.value} has {total} units but only {room} legal deployment cells")
    return tuple(units)


def _deploy_order(unit: Unit) -> tuple[int, int]:
    # DEFENDER deploys first (D1..D15), then ATTACKER (A1..A10).
    return (0 if unit.side is Side.DEFENDER else 1, int(unit.id[1:]))


def _check_victory_config(config: GameConfig, state: GameState) -> None:
    info = board_info(state.board)
    victory = config.victory
    groups = {
        "victory_points.points": victory.victory_points.points if victory.victory_points else (),
        "capture_and_hold.objectives": victory.capture_and_hold.objectives if victory.capture_and_hold else (),
        "territorial_control.points": victory.territorial_control.points if victory.territorial_control else (),
    }
    for name, cells in groups.items():
        for cell in cells:
            if cell not in info.index:
                raise ValueError(f"victory.{name}: {cell} is not a cell of the {info.width}x{info.height} board")
    if victory.leaders is not None:
        ids = {u.id for u in state.units}
        for side in (Side.ATTACKER, Side.DEFENDER):
            leader = victory.leaders.of(side)
            if leader not in ids or leader[0] != side.prefix:
                raise ValueError(f"victory.leaders.{side.value.lower()}: {leader} is not a {side.value} unit")
