"""Compact builders for test scenarios: small maps, units in one line, a chosen phase.

>>> state = start(units=("A1 L B2", "D1 M B5"), phase="MOVEMENT")
>>> [u.id for u in state.units], state.phase.value
(['A1', 'D1'], 'MOVEMENT')
"""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Iterable
from pathlib import Path
from typing import Any

import msgspec

from engine import (
    Action,
    DiscardBonus,
    Effect,
    GameConfig,
    GameState,
    Hook,
    PerSide,
    Rules,
    Side,
    TacticHands,
    UnitSpec,
    UnitType,
    VictoryConfig,
    encode_state,
    legal_actions,
    reduce,
)
from engine.data import CARDS, CardDef, canonical_deck
from engine.state import Conditions

OPEN_10 = "\n".join(["." * 10] * 10)
"""A 10x10 all-PLAIN board: ATTACKER zone rows 1-3, DEFENDER rows 4-10."""

_TYPES = {"L": UnitType.LIGHT_INFANTRY, "M": UnitType.MECHANIZED, "S": UnitType.SPECIAL}


def units(*specs: str) -> tuple[UnitSpec, ...]:
    """Units from ``"A1 L B2"`` (id, type letter L/M/S, cell), optionally ``"D3 M C5 hp=1"``."""
    out = []
    for spec in specs:
        parts = spec.split()
        unit_id, kind, cell = parts[:3]
        hp = int(parts[3].removeprefix("hp=")) if len(parts) > 3 else None
        side = Side.ATTACKER if unit_id[0] == "A" else Side.DEFENDER
        out.append(UnitSpec(id=unit_id, side=side, type=_TYPES[kind], cell=cell, hp=hp))
    return tuple(out)


def config(
    *,
    terrain: str = OPEN_10,
    unit_specs: Iterable[str] = ("A1 L B2", "D1 L B8"),
    phase: str | None = None,
    side: Side = Side.ATTACKER,
    seed: int = 1,
    draw: Iterable[str] | None = None,
    stored: tuple[Iterable[str], Iterable[str]] | None = None,
    tactics: tuple[Iterable[str], Iterable[str]] = ((), ()),
    **overrides: Any,
) -> GameConfig:
    """A scenario config: explicit map, units, cards and tactic hands (empty unless given)."""
    return GameConfig(
        seed=seed,
        terrain=terrain,
        units=units(*unit_specs),
        start_phase=phase,  # type: ignore[arg-type]
        start_side=side,
        draw_pile=tuple(draw) if draw is not None else None,
        stored=PerSide(attacker=tuple(stored[0]), defender=tuple(stored[1])) if stored else None,
        tactics=TacticHands(attacker=tuple(tactics[0]), defender=tuple(tactics[1])),
        **overrides,
    )


def abilities(*rules: dict[str, Any]) -> Any:
    """A `RulesOverlay` that adds these standing abilities (card language) to the standard rules."""
    from engine import RulesOverlay

    return RulesOverlay(name="test", abilities=rules)


def start(*, units: Iterable[str] = ("A1 L B2", "D1 L B8"), **kwargs: Any) -> GameState:
    """`new_game` of a `config` scenario."""
    from engine import new_game

    return new_game(config(unit_specs=units, **kwargs))


def play(state: GameState, *actions: Action) -> GameState:
    """Apply ``actions`` in order, checking each is listed by `legal_actions` first."""
    for action in actions:
        assert action in legal_actions(state), f"{action} not in legal actions {legal_actions(state)}"
        state = reduce(state, action)
    return state


def unit(state: GameState, unit_id: str) -> Any:
    """The unit ``unit_id`` (asserting it is on the board)."""
    found = state.unit(unit_id)
    assert found is not None, f"{unit_id} is not in the game"
    return found


def snapshot(state: GameState) -> bytes:
    """Canonical bytes of a state, to prove that nothing changed."""
    return encode_state(state)


def replace(obj: Any, **changes: Any) -> Any:
    """``msgspec.structs.replace`` under a short name."""
    return msgspec.structs.replace(obj, **changes)


def seed_rolling(*naturals: int) -> int:
    """The smallest seed whose next d6 rolls are ``naturals``, in order.

    Use it with ``draw=[]``: a scenario with an explicit draw pile consumes no randomness
    at setup, so the state's rng is exactly the seed.
    """
    from engine.rng import roll_d6

    for seed in range(1, 1_000_000):
        rng, ok = seed, True
        for wanted in naturals:
            value, rng = roll_d6(rng)
            if value != wanted:
                ok = False
                break
        if ok:
            return seed
    raise AssertionError(f"no seed rolls {naturals}")


def pass_turns(state: GameState, turns: int) -> GameState:
    """End ``turns`` turns without doing anything (needs an empty draw pile, ``draw=[]``)."""
    from engine import EndTurn, NextPhase, Phase

    for _ in range(turns):
        while state.phase in (Phase.CARD_DRAW, Phase.CARD_RESOLUTION):
            state = play(state, NextPhase())
        state = play(state, EndTurn())
    return state


def terrain_with(**cells: str) -> str:
    """`OPEN_10` with some cells changed, e.g. ``terrain_with(B4="u")``."""
    rows = [list(row) for row in OPEN_10.split("\n")]
    for cell, char in cells.items():
        rows[int(cell[1:]) - 1][ord(cell[0]) - 65] = char
    return "\n".join("".join(row) for row in rows)


def step(state: GameState, *, end: bool = True) -> GameState:
    """One unremarkable action: end the turn, draw, discard, accept, pass, choose the first victims, go on."""
    from engine import (
        AcceptMalus,
        ChooseMalusTargets,
        DiscardBonus,
        DrawCard,
        EndTurn,
        NextPhase,
        PassReaction,
        ResolveAttack,
    )

    actions = legal_actions(state)
    preferred = (EndTurn(),) if end else ()
    for action in (*preferred, ResolveAttack(), DrawCard(), DiscardBonus(), AcceptMalus(), PassReaction(), NextPhase()):
        if action in actions:
            return play(state, action)
    return play(state, next(a for a in actions if isinstance(a, ChooseMalusTargets)))


def finish_turn(state: GameState) -> GameState:
    """Play unremarkable actions until the next turn rests in CARD_DRAW."""
    turn = state.turn
    while state.turn == turn:
        state = step(state)
    return state


def to_phase(state: GameState, phase: Any) -> GameState:
    """Play unremarkable actions (never END_TURN) until ``phase``."""
    while state.phase is not phase:
        state = step(state, end=False)
    return state


def mover_ids(state: GameState) -> set[str]:
    """Units that may move now."""
    from engine import MoveUnit

    return {a.unit_id for a in legal_actions(state) if isinstance(a, MoveUnit)}


def attackers(state: GameState) -> set[str]:
    """Units that may declare an attack now."""
    from engine import DeclareAttack

    return {a.attacker_id for a in legal_actions(state) if isinstance(a, DeclareAttack)}


def plant_card_loss(monkeypatch: Any) -> None:
    """Plant a rules bug for the fuzzer to find: discarding a bonus loses the card from the game."""
    from engine.pages import APPLY

    original = APPLY[DiscardBonus]

    def discard_loses_the_card(state: GameState, action: DiscardBonus) -> GameState:
        new = original(state, action)
        return msgspec.structs.replace(new, discard_pile=new.discard_pile[:-1])

    monkeypatch.setitem(APPLY, DiscardBonus, discard_loses_the_card)


def fresh_listing(state: GameState) -> list[Action]:
    """`legal_actions` with every cache of the listing emptied first: what the kept results must equal."""
    import engine.movement.listing as move_lists
    import engine.movement.search as movement_module
    import engine.pages.bonuses as bonuses
    import engine.pages.maluses as maluses
    import engine.reducer as reducer

    bonuses._last_stored = None
    maluses._last_cancels = None
    movement_module._MEMO.clear()
    movement_module._last_occupancy = None
    move_lists._KEPT.clear()
    move_lists._MADE.clear()
    move_lists._last_basis = move_lists._last_effects = None
    reducer._LEGAL_CACHE.clear()
    return legal_actions(state)


def effect(
    hook: Hook,
    op: str,
    value: int = 0,
    *,
    scope: str,
    controller: Side = Side.ATTACKER,
    targets: tuple[str, ...] = (),
    conditions: Conditions | None = None,
    **fields: object,
) -> Effect:
    """A hand-built effect record, ids 0 (a test that needs them numbers them, as test_effects.with_effects does)."""
    return Effect(
        effect_id=0,
        play_id=0,
        source_card="test_card",
        source_kind="bonus",
        controller=controller,
        hook=hook,
        op=op,
        value=value,
        scope=scope,
        conditions=conditions or Conditions(),
        targets=targets,
        expires=fields.pop("expires", "permanent"),  # type: ignore[arg-type]
        **fields,  # type: ignore[arg-type]
    )


def shipped_deck(deck: int = 60, cards: str = "standard") -> tuple[str, ...]:
    """The canonical deck of a shipped deck source, as a game of those rules (no variant) plays it."""
    return canonical_deck(Rules(victory=VictoryConfig(), deck=deck, cards=cards))


def shipped_card(instance_id: str) -> CardDef:
    """The shipped card of an instance id such as ``"air_cover#2"`` (a game of the standard rules plays it)."""
    return CARDS[instance_id.partition("#")[0]]


def run_script(name: str, *args: str) -> subprocess.CompletedProcess[str]:
    """``python scripts/NAME ARGS`` as a user runs it: its output, errors and exit status (ten minutes at most)."""
    script = Path(__file__).resolve().parents[1] / "scripts" / name
    return subprocess.run(
        [sys.executable, str(script), *args], capture_output=True, text=True, timeout=600, check=False
    )
