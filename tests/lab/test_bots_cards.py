"""Every card a bot may choose to play: a position where playing it is clearly right, and both bots play it.

One position per bonus of the default deck and per tactic. Each test first shows the
position is one where the card helps (the engine's own figures: `attack_preview`, the reach
of a unit, the effect the card would leave), then asks the greedy and the MCTS bot. The
maluses of the deck are not chosen but drawn; what a bot chooses about them is cancelling
one with a stored bonus, tested with Electronic Countermeasures.
"""

from __future__ import annotations

from collections.abc import Callable

import pytest
from msgspec.structs import replace

from engine import (
    Action,
    CancelMalus,
    DeclareAttack,
    DrawCard,
    GameState,
    MoveUnit,
    NextPhase,
    PassReaction,
    PlayBonus,
    PlayTactic,
    RollDice,
    Side,
    legal_actions,
    new_game,
    player_view,
    reduce,
)
from engine.analysis import attack_preview
from engine.data import CARDS
from lab.bots import Bot, GreedyBot, MCTSBot
from tests.support import config, shipped_deck, terrain_with

BOTS: dict[str, Callable[[], Bot]] = {"greedy": GreedyBot, "mcts": lambda: MCTSBot(iterations=12)}
NO_CARDS: tuple[tuple[str, ...], tuple[str, ...]] = ((), ())


def start(units: tuple[str, ...], phase: str, *, stored: tuple[tuple[str, ...], tuple[str, ...]] = NO_CARDS,
          tactics: tuple[tuple[str, ...], tuple[str, ...]] = NO_CARDS, draw: tuple[str, ...] = (),
          **overrides: object) -> GameState:
    return new_game(config(unit_specs=units, phase=phase, stored=stored, tactics=tactics, draw=draw,
                           **overrides))  # type: ignore[arg-type]


def play(state: GameState, *actions: Action) -> GameState:
    for action in actions:
        assert action in legal_actions(state), f"{action} is not legal here: {legal_actions(state)}"
        state = reduce(state, action)
    return state


def decide(state: GameState, bot: str) -> Action:
    side = state.to_act
    assert side is not None
    action, _ = BOTS[bot]().choose(player_view(state, side), legal_actions(state), 1)
    return action


def card_of_action(state: GameState, action: Action) -> str | None:
    """The card an action plays (or spends), else None."""
    side = state.to_act
    assert side is not None
    if isinstance(action, PlayTactic):
        return action.card_id
    if isinstance(action, PlayBonus):
        if action.stored_index is None:
            assert state.pending_card is not None
            return state.pending_card.card.split("#")[0]
        return state.player(side).stored[action.stored_index].split("#")[0]
    if isinstance(action, CancelMalus):
        return state.player(side).stored[action.stored_index].split("#")[0]
    return None


def plays(state: GameState, bot: str, card: str) -> None:
    """The bot's choice in ``state`` plays ``card`` (it may first have to move or declare, then it must play it)."""
    action = decide(state, bot)
    assert card_of_action(state, action) == card, f"{bot} chose {action}, not {card}"


# -- positions -------------------------------------------------------------------------------

def precision_shot() -> GameState:
    # A mechanized target survives one hit but not a doubled one.
    return pending(("A7 M B3", "D9 M B4", "D1 L J9"), "A7", "D9", ("precision_shot",))


def clear_line_of_fire() -> GameState:
    # A light unit in a city: 2/6 to hit, 4/6 once the terrain is ignored.
    return pending(("A1 L B3", "D1 L B4", "D2 L J9"), "A1", "D1", ("clear_line_of_fire",), terrain=terrain_with(B4="u"))


def coordinated_maneuver() -> GameState:
    # A second mechanized unit in range: +1 to the roll and +1 damage kill the mechanized target.
    return pending(("A7 M B3", "A8 M C3", "D9 M B4", "D1 L J9"), "A7", "D9", ("coordinated_maneuver",))


def favorable_weather() -> GameState:
    # A wounded special unit (3 VP) at distance 3 needs a 5: +1 makes it 3/6 instead of 2/6.
    return pending(("A10 S B3", "D14 S B6 hp=1", "D1 L J9"), "A10", "D14", ("favorable_weather",))


def expert_aim() -> GameState:
    return pending(("A10 S B3", "D14 S B6 hp=1", "D1 L J9"), "A10", "D14", ("expert_aim",))


def enemy_recon_detection() -> GameState:
    return pending(("A10 S B3", "D14 S B6 hp=1", "D1 L J9"), "A10", "D14", ("enemy_recon_detection",))


def commanders_luck() -> GameState:
    # The attack on a special unit missed: throw the die again.
    state = pending(("A10 S B3", "D14 S B4 hp=1", "D1 L J9"), "A10", "D14", ("commanders_luck",))
    return roll_until(state, "MISS")


def pending(units: tuple[str, ...], attacker: str, target: str, tactics: tuple[str, ...],
            defender: tuple[str, ...] = (), **overrides: object) -> GameState:
    """The ATTACKER's declared attack, at the dice, with ``tactics`` in its hand and ``defender``'s in the other."""
    state = start(units, "ATTACK", tactics=(tactics, defender), **overrides)
    state = play(state, DeclareAttack(attacker_id=attacker, target_id=target), NextPhase())
    while state.to_act is Side.DEFENDER and PassReaction() in legal_actions(state) and not defender:
        state = play(state, PassReaction())
    return state


def roll_until(state: GameState, outcome: str) -> GameState:
    """Roll the pending attack in the first world (by rng seed) where the die comes up ``outcome``."""
    for seed in range(1, 200):
        rolled = play(replace(state, rng=seed), RollDice())
        if rolled.last_roll is not None and rolled.last_roll.outcome == outcome:
            return rolled
    raise AssertionError(f"no seed rolls a {outcome}")


def defending(tactic: str) -> GameState:
    """The ATTACKER's likely kill of the DEFENDER's special unit (3 VP) is declared; the DEFENDER may react."""
    return pending(("A10 S B3", "A7 M C3", "D14 S B5 hp=1", "D1 L J9"), "A7", "D14", (), defender=(tactic,))


def natural_cover() -> GameState:
    # The attack hit with the least roll that hits: +1 defense turns it into a miss.
    state = defending("natural_cover")
    for seed in range(1, 200):
        rolled = play(replace(state, rng=seed), RollDice())
        roll = rolled.last_roll
        if roll is not None and roll.outcome == "HIT" and roll.modified == roll.required:
            while rolled.to_act is Side.ATTACKER and PassReaction() in legal_actions(rolled):
                rolled = play(rolled, PassReaction())
            assert rolled.to_act is Side.DEFENDER
            return rolled
    raise AssertionError("no seed rolls a bare hit")


def suppressive_fire() -> GameState:
    # The ATTACKER's mechanized units are about to close in on a special unit (3 VP); halving
    # their movement keeps them out of range this turn.
    state = start(("A7 M B2", "A8 M C2", "D14 S B9 hp=1", "D1 L J9"), "MOVEMENT",
                  tactics=((), ("suppressive_fire",)))
    return state


def rapid_supply_convoy() -> GameState:
    # A light unit 5 cells from a special unit (3 VP, 1 HP left): 2 MP take it to 3 cells, out of
    # range; 3 MP bring it into range.
    return start(("A1 L B2", "D14 S B7 hp=1", "D1 L J10"), "MOVEMENT", stored=(("rapid_supply_convoy#1",), ()))


def forward_supply_depot() -> GameState:
    return start(("A1 L B2", "D14 S B7 hp=1", "D1 L J10"), "MOVEMENT", stored=(("forward_supply_depot#1",), ()))


def special_supplies() -> GameState:
    # The special unit (3 VP) has 1 HP left and an enemy in range of it: heal it before the enemy's turn.
    return start(("A10 S B2 hp=1", "D7 M B6", "D1 L J10"), "ATTACK", stored=(("special_supplies#1",), ()))


def artillery_support() -> GameState:
    # The attack on a special unit (3 VP, 1 HP) at distance 3 needs a 5: +2 makes it 4/6.
    state = start(("A7 M B3", "D14 S B6 hp=1", "D1 L J9"), "ATTACK", stored=(("artillery_support#1",), ()))
    return play(state, DeclareAttack(attacker_id="A7", target_id="D14"))


def troop_motivation() -> GameState:
    state = start(("A7 M B3", "D14 S B6 hp=1", "D1 L J9"), "ATTACK", stored=(("troop_motivation#1",), ()))
    return play(state, DeclareAttack(attacker_id="A7", target_id="D14"))


def extra_supplies() -> GameState:
    # The special unit moved next to a wounded special unit (3 VP): only the card lets it fire now.
    state = start(("A10 S B2", "D14 S B6 hp=1", "D1 L J10"), "MOVEMENT", stored=(("extra_supplies#1",), ()))
    return play(state, MoveUnit(unit_id="A10", to="B3"), NextPhase())


def advanced_recon() -> GameState:
    # Five units have moved (the limit); the sixth can only reach its kill with one more move.
    units = ("A1 L A1", "A2 L C1", "A3 L E1", "A4 L G1", "A5 L I1", "A6 L B2", "D14 S B6 hp=1", "D1 L J10")
    state = start(units, "MOVEMENT", stored=(("advanced_recon#1",), ()))
    return play(state, *(MoveUnit(unit_id=u, to=to) for u, to in
                         (("A1", "A2"), ("A2", "C2"), ("A3", "E2"), ("A4", "G2"), ("A5", "I2"))))


def air_cover() -> GameState:
    # Enemy Disinformation pinned the light unit that could reach a wounded special unit (3 VP).
    state = start(("A1 L B3", "D14 S B6 hp=1", "D1 L J10"), "CARD_DRAW", stored=(("air_cover#1",), ()),
                  draw=("enemy_disinformation#1",))
    state = play(state, DrawCard())
    state = play(state, *(a for a in legal_actions(state) if type(a).__name__ == "AcceptMalus"))
    state = play(state, *(a for a in legal_actions(state) if getattr(a, "unit_ids", None) == ("A1",)))
    while state.phase.name != "MOVEMENT":
        state = play(state, NextPhase() if NextPhase() in legal_actions(state) else PassReaction())
    return state


def international_aid() -> GameState:
    # A special unit (3 VP) was destroyed: bring it back.
    state = start(("A1 L B2", "A10 S D2", "D1 L J10"), "ATTACK", stored=(("international_aid#1",), ()))
    lost = state.unit("A10")
    assert lost is not None
    attacker = replace(state.players[0], destroyed=(replace(lost, cell=None, hp=0),))
    return replace(state, units=tuple(u for u in state.units if u.id != "A10"), players=(attacker, state.players[1]))


def electronic_countermeasures() -> GameState:
    # International Pressure would forbid a sure kill of a special unit this turn: cancel it.
    state = start(("A7 M B3", "A8 M C3", "D14 S B4 hp=1", "D1 L J10"), "CARD_DRAW",
                  stored=(("electronic_countermeasures#1",), ()), draw=("international_pressure#1",))
    return play(state, DrawCard())


def internal_discipline() -> GameState:
    # The store is full when Internal Discipline is drawn: storing it would cost another card,
    # playing it costs nothing and leaves room for one more bonus for the rest of the game.
    full = ("artillery_support#1", "troop_motivation#1", "rapid_supply_convoy#1", "advanced_recon#1", "air_cover#1",
            "special_supplies#1")
    state = start(("A1 L B2", "D1 L J10"), "CARD_DRAW", stored=(full, ()), draw=("internal_discipline#1",))
    return play(state, DrawCard())


def dense_fog() -> GameState:
    return defending("dense_fog")


def tactical_block() -> GameState:
    return defending("tactical_block")


POSITIONS: dict[str, Callable[[], GameState]] = {
    f.__name__: f
    for f in (
        precision_shot, clear_line_of_fire, coordinated_maneuver, favorable_weather, expert_aim,
        enemy_recon_detection, commanders_luck, natural_cover, suppressive_fire, dense_fog, tactical_block,
        rapid_supply_convoy, forward_supply_depot, special_supplies, artillery_support, troop_motivation,
        extra_supplies, advanced_recon, air_cover, international_aid, electronic_countermeasures,
        internal_discipline,
    )
}


def test_every_choosable_card_of_the_default_game_has_a_position() -> None:
    bonuses = {c.split("#")[0] for c in shipped_deck(new_game(config()).rules.deck)
               if CARDS[c.split("#")[0]].kind == "bonus"}
    tactics = {c.id for c in CARDS.values() if c.kind == "tactic"}
    assert bonuses | tactics == set(POSITIONS)


ATTACK_TACTICS = ("clear_line_of_fire", "coordinated_maneuver", "enemy_recon_detection", "expert_aim",
                  "favorable_weather", "precision_shot")


@pytest.mark.parametrize("card", ATTACK_TACTICS)
def test_the_engine_says_each_attack_tactic_raises_the_chance_to_destroy(card: str) -> None:
    state = POSITIONS[card]()
    assert state.pending_attack is not None
    preview = attack_preview(state, state.pending_attack)
    with_it = [t.odds for t in preview.tactics if t.play.card_id == card]
    assert with_it and with_it[0].destroy_chance > preview.odds.destroy_chance


def test_a_bot_leaves_a_card_in_hand_where_it_does_not_help() -> None:
    # One hit already destroys the light unit: doubling the damage gains nothing.
    state = pending(("A7 M B3", "D1 L B4", "D2 L J9"), "A7", "D1", ("precision_shot",))
    for bot in BOTS:
        assert isinstance(decide(state, bot), RollDice)


@pytest.mark.parametrize("bot", sorted(BOTS))
@pytest.mark.parametrize("card", sorted(POSITIONS))
def test_the_bot_plays_the_card_where_it_clearly_helps(card: str, bot: str) -> None:
    state = POSITIONS[card]()
    plays(state, bot, card)
