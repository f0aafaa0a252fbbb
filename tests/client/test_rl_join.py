"""The MaskablePPO example of docs/rl.md, trained as written, plays a live match through `taktik join`.

Like tests/lab/test_rl_example.py it needs torch and sb3-contrib (CI installs the CPU build,
see .ci/run): without them it skips, unless ``TAKTIK_REQUIRE_TORCH=1`` asks it to fail.
"""

from __future__ import annotations

import importlib.util
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from tests.server.conftest import REPO, LiveServer, http_json

from .conftest import finish, join, new_match


def examples() -> tuple[str, str, str]:
    """The training example, the lines that save the model, and the agent module of docs/rl.md."""
    text = (REPO / "docs" / "rl.md").read_text(encoding="utf-8")
    training = text.split("## Training with MaskablePPO", 1)[1]
    live = text.split("## Playing a live match", 1)[1]
    train = re.search(r"```python\n(.*?)```", training, re.S)
    save, agent = re.findall(r"```python\n(.*?)```", live, re.S)[:2]
    assert train, "docs/rl.md's MaskablePPO section has no python example"
    return train.group(1), save, agent


def test_the_live_match_section_saves_the_trained_model_and_loads_it_as_a_bot() -> None:
    _, save, agent = examples()
    assert "model.save(" in save and "ModelBot(MaskablePPO.load(" in agent
    text = (REPO / "docs" / "rl.md").read_text(encoding="utf-8")
    assert "taktik join" in text.split("## Playing a live match", 1)[1]


@pytest.mark.slow
def test_the_trained_maskable_ppo_example_plays_a_live_match_with_legal_actions_only(
    live: LiveServer, tmp_path: Path
) -> None:
    missing = [name for name in ("torch", "sb3_contrib") if importlib.util.find_spec(name) is None]
    if missing:
        if os.environ.get("TAKTIK_REQUIRE_TORCH") == "1":
            pytest.fail(f"TAKTIK_REQUIRE_TORCH=1 but {', '.join(missing)} is not installed (see .ci/run)")
        pytest.skip(f"{', '.join(missing)} not installed (CPU torch and sb3-contrib: see docs/rl.md)")
    train, save, agent = examples()
    trained = subprocess.run([sys.executable, "-c", train + save], cwd=tmp_path, capture_output=True, text=True,
                             timeout=900, check=False, env={**os.environ, "PYTHONPATH": str(REPO)})
    assert trained.returncode == 0, trained.stderr[-3000:]
    (tmp_path / "taktik_agent.py").write_text(agent)
    # The board it was trained on; the server's random bot plays the other seat, as in training.
    match_id, links = new_match(live, config={"width": 10, "height": 12, "seed": 99}, opponent="bot",
                                bot="random", bot_side="DEFENDER")
    code, out, err = finish(join(links["ATTACKER"], "--policy", "taktik_agent:bot", "--rate", "0", cwd=tmp_path))
    assert code in (0, 1), err  # never 5: every action the model chose was legal
    assert "this seat (ATTACKER)" in out
    summary = http_json(live, "GET", f"/api/matches/{match_id}")[1]
    assert summary["status"] == "over" and summary["version"] > 20
