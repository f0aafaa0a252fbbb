"""The MaskablePPO example of docs/rl.md, trained as written, plays a live match through `taktik join`.

Like tests/lab/test_rl_example.py (whose training it shares: the ``trained_maskable_ppo``
fixture) it needs torch and sb3-contrib (CI installs the CPU build, see .ci/run): without
them it skips, unless ``TAKTIK_REQUIRE_TORCH=1`` asks it to fail.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.conftest import rl_doc_example
from tests.server.conftest import REPO, LiveServer, http_json

from .conftest import finish, join, new_match


def test_the_live_match_section_saves_the_trained_model_and_loads_it_as_a_bot() -> None:
    save, agent = (rl_doc_example("## Playing a live match", index) for index in (0, 1))
    assert "model.save(" in save and "ModelBot(MaskablePPO.load(" in agent
    text = (REPO / "docs" / "rl.md").read_text(encoding="utf-8")
    assert "taktik join" in text.split("## Playing a live match", 1)[1]


@pytest.mark.slow
def test_the_trained_maskable_ppo_example_plays_a_live_match_with_legal_actions_only(
    live: LiveServer, trained_maskable_ppo: Path
) -> None:
    folder = trained_maskable_ppo
    (folder / "taktik_agent.py").write_text(rl_doc_example("## Playing a live match", 1))
    # The board it was trained on; the server's random bot plays the other seat, as in training.
    match_id, links = new_match(live, config={"width": 10, "height": 12, "seed": 99}, opponent="bot",
                                bot="random", bot_side="DEFENDER")
    code, out, err = finish(join(links["ATTACKER"], "--policy", "taktik_agent:bot", "--rate", "0", cwd=folder))
    assert code in (0, 1), err  # never 5: every action the model chose was legal
    assert "this seat (ATTACKER)" in out
    summary = http_json(live, "GET", f"/api/matches/{match_id}")
    assert summary[1]["status"] == "over" and summary[1]["version"] > 20
