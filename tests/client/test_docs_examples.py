"""The examples of docs/client-api.md run as written against a real server."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

from tests.server.conftest import REPO, LiveServer, http_json

from .conftest import finish, join, new_match

DOC = (REPO / "docs" / "client-api.md").read_text(encoding="utf-8")


def example(after: str, index: int = 0) -> str:
    section = DOC.split(after, 1)[1]
    return re.findall(r"```python\n(.*?)```", section, re.S)[index]


def test_the_bot_from_scratch_is_20_lines_and_plays_a_whole_game(live: LiveServer, tmp_path: Path) -> None:
    code = example("## A bot from scratch")
    assert len([line for line in code.splitlines() if line.strip()]) <= 20
    (tmp_path / "random_bot.py").write_text(code)
    match_id, links = new_match(live, seed=17)
    scratch = subprocess.Popen([sys.executable, "random_bot.py", links["DEFENDER"]], cwd=tmp_path, text=True,
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    ours = join(links["ATTACKER"], "--bot", "greedy", "--rate", "0")
    (mine, _, err), (theirs, out, scratch_err) = finish(ours), finish(scratch)
    assert mine in (0, 1) and theirs == 0, err + scratch_err
    summary = http_json(live, "GET", f"/api/matches/{match_id}")[1]
    assert out.strip() == f"{summary['winner']} won by {summary['victory_reason']}"


def test_the_cautious_policy_plays_through_taktik_join(live: LiveServer, tmp_path: Path) -> None:
    (tmp_path / "cautious.py").write_text(example("## Your policy with the client library"))
    _, links = new_match(live, seed=18)
    cautious = join(links["DEFENDER"], "--policy", "cautious:policy", "--rate", "0", cwd=tmp_path)
    greedy = join(links["ATTACKER"], "--bot", "greedy", "--rate", "0")
    (code, out, err), (other, _, _) = finish(cautious), finish(greedy)
    assert code in (0, 1) and other == 1 - code, err
    assert "this seat (DEFENDER)" in out
