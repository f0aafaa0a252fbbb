"""Odds before you commit: the engine's attack_preview on hover and in the pre-roll panel, tactics included."""

from __future__ import annotations

from typing import Any

import msgspec
import pytest

from engine import Attack, DeclareAttack, GameConfig, NextPhase, Side, new_game, player_view, reduce
from engine.analysis import attack_preview
from tests.support import shipped_card

from .conftest import SCENARIO, WebServer, scenario, shot
from .driver import Board

pytestmark = pytest.mark.browser

UNITS = [dict(u, cell="G4") if u["id"] == "A7" else u for u in SCENARIO["units"]]
ATTACKING = scenario(start_phase="ATTACK", draw_pile=[], units=UNITS,
                     tactics={"attacker": ["precision_shot", "favorable_weather", "expert_aim"], "defender": []})


def percent(p: float) -> str:
    return f"{round(p * 100)} %"


def test_hovering_a_target_shows_the_roll_it_needs_its_modifiers_chance_and_damage(web: WebServer,
                                                                                     new_page: Any) -> None:
    created = web.create(config=ATTACKING)
    att = Board(new_page()).open(web.base + created["seats"][0]["path"])
    att.wait_legal("DECLARE_ATTACK")
    att.select("A7")
    att.page.mouse.move(*att.point("H7"))
    att.page.wait_for_function("window.taktik.tip().includes('to hit')", timeout=10_000)
    text = att.page.evaluate("window.taktik.tip()")
    state = new_game(msgspec.convert(ATTACKING, GameConfig))
    odds = attack_preview(player_view(state, Side.ATTACKER), DeclareAttack(attacker_id="A7", target_id="D9")).odds
    assert f"needs {odds.required}+ on the die" in text
    assert f"{percent(odds.hit_chance)} to hit" in text and f"damage {odds.damage}" in text
    assert f"distance {odds.distance}" in text
    shot(att, "odds-hover")
    assert att.page.errors == []


def test_the_pre_roll_panel_shows_the_declared_attacks_odds_and_each_tactic(web: WebServer, new_page: Any) -> None:
    created = web.create(config=ATTACKING)
    att = Board(new_page()).open(web.base + created["seats"][0]["path"])
    att.wait_legal("DECLARE_ATTACK")
    att.declare("A7", "D9")
    att.press("Next: Dice")
    att.wait_legal("ROLL_DICE")
    panel = att.page.locator(".decision .odds-slot .odds")
    panel.wait_for(timeout=10_000)
    text = panel.inner_text()
    state = reduce(reduce(new_game(msgspec.convert(ATTACKING, GameConfig)),
                          DeclareAttack(attacker_id="A7", target_id="D9")), NextPhase())
    preview = attack_preview(player_view(state, Side.ATTACKER), Attack(attacker="A7", target="D9"))
    assert preview.tactics, "the scenario's hand must hold a tactic that changes this attack"
    assert f"{percent(preview.odds.hit_chance)} to hit" in text
    before = percent(preview.odds.hit_chance)
    for tactic in preview.tactics:
        assert f"{shipped_card(tactic.play.card_id).name}: {before} → {percent(tactic.odds.hit_chance)}" in text
        if tactic.odds.damage != preview.odds.damage:
            assert f"damage {preview.odds.damage} → {tactic.odds.damage}" in text
    assert "Precision Shot" in text and "damage 1 → 2" in text
    shot(att, "odds-pre-roll")
    assert att.page.errors == []
