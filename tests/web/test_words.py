"""Player words everywhere, from one table (js/words.js): no engine identifier reaches the screen."""

from __future__ import annotations

import re
from typing import Any

import pytest

from engine import EventKind

from .conftest import WebServer, scenario
from .driver import Board, play_out

pytestmark = pytest.mark.browser

# What the engine names things with, and a player should never read.
IDENTIFIERS = re.compile(
    r"\b(ATTACKER|DEFENDER)\b"  # side values
    r"|\b[A-Z]{2,}_[A-Z0-9_]+\b"  # LIGHT_INFANTRY, PLAY_TACTIC, DICE_RESOLUTION
    r"|\b[a-z]+_[a-z0-9_]+\b"  # victory_points, terrain_cover, natural_cover
    r"|\b(?:before|after)(?:Move|AttackRoll|Damage)\b"  # window names
    r"|\w:[A-Z]{3,}\b"  # terrain_cover:URBAN
    r"|\b[a-z]+#\d+\b"  # card instances: air_cover#1
)

# Every text a player can read on the page: what is shown, titles and labels. The full rules
# (docs/rules.md, the game's specification) are exempt: the rules in brief are the player's page.
VISIBLE = """() => {
  const out = [];
  const skip = (el) => el.closest("[data-help-pane='rules'], code, script, style");
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let n = walker.nextNode(); n; n = walker.nextNode()) {
    const el = n.parentElement;
    if (!el || skip(el) || !el.getClientRects().length || getComputedStyle(el).visibility === "hidden") continue;
    if (n.textContent.trim()) out.push(n.textContent.trim());
  }
  for (const el of document.querySelectorAll("[title], [aria-label]")) {
    if (skip(el)) continue;
    for (const a of ["title", "aria-label"]) if (el.getAttribute(a)) out.push(el.getAttribute(a));
  }
  out.push(document.title);
  return out;
}"""


def leaks(page: Any) -> list[str]:
    texts: list[str] = page.evaluate(VISIBLE)
    return sorted({m.group(0) + " ← " + t[:90] for t in texts for m in IDENTIFIERS.finditer(t)})


def test_every_event_kind_has_player_words(web: WebServer, new_page: Any) -> None:
    page = new_page()
    page.goto(web.base + "/static/index.html")
    out = page.evaluate("""async (kinds) => {
      const w = await import('/static/js/words.js');
      const cards = new Map([['air_cover', {id: 'air_cover', name: 'Air Cover'}]]);
      const event = (kind) => ({kind, side: 'DEFENDER', unit: 'D9', target: 'A7', card: 'air_cover#1', cell: 'C5',
        from_cell: 'C4', value: 2, detail: kind === 'victory' ? 'victory_points' : kind === 'reaction_passed'
          ? 'beforeAttackRoll' : kind === 'phase_entered' ? 'DICE_RESOLUTION' : kind === 'dice_rolled' ? 'HIT' : null});
      return {known: w.EVENT_KINDS, said: kinds.map((k) => w.eventText({event: event(k), text: 'ENGINE TEXT'}, cards)),
              unknown: w.eventText({event: {kind: 'new_kind', side: 'ATTACKER'},
                                    text: 'ATTACKER did new_kind (beforeMove)'}, cards)};
    }""", [k.value for k in EventKind])
    assert set(out["known"]) == {k.value for k in EventKind}
    for sentence in out["said"]:
        assert not IDENTIFIERS.search(sentence) and "ENGINE TEXT" not in sentence, sentence
    said = dict(zip([k.value for k in EventKind], out["said"], strict=True))
    assert said["reaction_passed"] == "Defender passed (before the attack roll)"
    assert said["victory"] == "Defender reached the victory points needed to win."
    assert out["unknown"] == "Attacker did new kind (before move)"  # a kind the table has never heard of still reads


SIZES = [{"width": 1280, "height": 800}, {"width": 360, "height": 740}]


@pytest.mark.parametrize("size", SIZES, ids=["desktop", "phone"])
def test_no_engine_identifier_on_any_screen(web: WebServer, new_page: Any, size: dict[str, int]) -> None:
    phone = size["width"] < 400
    options = {"has_touch": True, "is_mobile": True} if phone else {}
    seen: dict[str, list[str]] = {}
    # A turn with a card, a move, an attack (cover, the odds, the roll), its recap and the log.
    config = scenario(seed=1, draw_pile=["artillery_support#1", "supply_interruption#1"])
    created = web.create(config)
    att = Board(new_page(size["width"], size["height"], **options)).open(web.base + created["seats"][0]["path"])
    dfn = Board(new_page(size["width"], size["height"], **options)).open(web.base + created["seats"][1]["path"])
    att.press("Draw a card")
    seen["drawn card"] = leaks(att.page)
    att.press("Store it")
    att.press("Next: Move")
    dfn.wait_legal("PASS_REACTION")
    seen["reaction window"] = leaks(dfn.page)
    dfn.press("Pass")
    att.move("A7", "G4")
    att.press("Next: Attack")
    att.declare("A7", "D9")
    att.press("Next: Dice")
    dfn.wait_legal("PASS_REACTION")
    dfn.press("Pass")
    att.wait_legal("ROLL_DICE")
    att.page.locator(".decision .odds-slot .odds").wait_for()
    seen["pre-roll odds"] = leaks(att.page)
    att.press("Roll the die")
    att.wait_legal("RESOLVE_ATTACK")
    for tab in ("Dice", "Log"):
        if phone:  # the open sheet lies over the tabs: fold it by its handle first
            if "collapsed" not in (att.page.locator(".decision").get_attribute("class") or ""):
                att.page.locator(".decision .sheetbar").click()
            att.page.locator(".tabs").get_by_role("button", name=tab).click()
        seen[f"after the roll, {tab}"] = leaks(att.page)
    if "collapsed" in (att.page.locator(".decision").get_attribute("class") or ""):
        att.page.locator(".decision .sheetbar").click()
    att.press("Apply the result")
    att.end_turn()
    dfn.wait_legal("DRAW_CARD")
    dfn.page.get_by_role("button", name="What happened").click()
    dfn.page.wait_for_function("window.taktik.recap().open")
    seen["recap"] = leaks(dfn.page)
    dfn.page.locator("[data-help]").click()
    dfn.page.get_by_role("button", name="Rules in brief").click()
    dfn.page.locator("[data-help-pane='brief'] table").first.wait_for()
    seen["rules in brief"] = leaks(dfn.page)

    # The end screen and the replay of a finished game, and the lobby.
    over = web.create(scenario(victory={"round_limit": {"max_rounds": 2}}))
    play_out(web.base, over, seed=3)
    end = Board(new_page(size["width"], size["height"], **options)).open(web.base + over["seats"][0]["path"])
    end.page.locator(".overlay.victory .turns").wait_for()
    seen["end screen"] = leaks(end.page)
    end.page.goto(f"{web.base}/replay/{over['match_id']}")
    end.page.locator(".replay-check:not([hidden])").wait_for()
    end.page.get_by_role("button", name="More").click()
    end.page.keyboard.press("End")
    end.page.wait_for_function("window.taktik.replay.index() > 0")
    seen["replay"] = leaks(end.page)
    end.page.goto(web.base + "/")
    end.page.locator(".recent table").wait_for()
    seen["lobby"] = leaks(end.page)

    assert {screen: found for screen, found in seen.items() if found} == {}
    end.page.goto(web.base + "/rules")  # the game's specification names things as the engine does: the scan sees them
    assert any("LIGHT_INFANTRY" in leak for leak in leaks(end.page))
    assert att.page.errors == [] and dfn.page.errors == [] and end.page.errors == []
