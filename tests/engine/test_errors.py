"""Every IllegalAction reason code the engine can raise is exercised by a test."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from engine import IllegalAction, PassReaction, PlayTactic, reduce
from tests.support import replace, start

ROOT = Path(__file__).resolve().parents[2]


def raised_codes() -> set[str]:
    """Codes passed to ``IllegalAction(reason, code)`` anywhere in the engine."""
    codes: set[str] = set()
    for path in (ROOT / "engine").rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text())):
            if (isinstance(node, ast.Call) and getattr(node.func, "id", None) == "IllegalAction"
                    and len(node.args) == 2 and isinstance(node.args[1], ast.Constant)):
                codes.add(node.args[1].value)
    return codes


def test_every_reason_code_is_asserted_by_some_test() -> None:
    tests = "\n".join(p.read_text() for p in (ROOT / "tests").rglob("test_*.py"))
    codes = raised_codes()
    assert len(codes) >= 20
    missing = sorted(code for code in codes if f'"{code}"' not in tests)
    assert missing == []


def test_an_object_that_is_not_an_action_is_rejected() -> None:
    with pytest.raises(IllegalAction, match="is not a Taktik action") as caught:
        reduce(start(), "MOVE_UNIT")  # type: ignore[arg-type]
    assert caught.value.code == "unknown_action"


def test_pass_reaction_without_priority_is_rejected() -> None:
    # A state whose stored to_act claims the reacting side but where no window is open.
    state = start(phase="DICE_RESOLUTION")
    forged = replace(state, to_act=state.active.other)
    with pytest.raises(IllegalAction, match="only for the reacting player holding priority") as caught:
        reduce(forged, PassReaction())
    assert caught.value.code == "no_priority"


def test_a_tactic_not_in_hand_is_named() -> None:
    state = start(phase="MOVEMENT", tactics=([], ["suppressive_fire"]))
    with pytest.raises(IllegalAction, match="Dense Fog is not in your hand") as caught:
        reduce(state, PlayTactic(card_id="dense_fog"))
    assert caught.value.code == "cannot_play_tactic"
