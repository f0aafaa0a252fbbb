"""Shared fixtures for the whole test suite."""

from __future__ import annotations

import importlib.util
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def rl_doc_example(heading: str, index: int = 0) -> str:
    """The ``index``-th python example under ``heading`` in docs/rl.md."""
    section = (ROOT / "docs" / "rl.md").read_text(encoding="utf-8").split(heading, 1)[1]
    examples = re.findall(r"```python\n(.*?)```", section, re.S)
    assert len(examples) > index, f"docs/rl.md has no python example {index} under {heading!r}"
    return str(examples[index])


def require_torch() -> None:
    """Skip without torch and sb3-contrib, unless ``TAKTIK_REQUIRE_TORCH=1`` (.ci/run) makes that a failure."""
    missing = [name for name in ("torch", "sb3_contrib") if importlib.util.find_spec(name) is None]
    if missing:
        if os.environ.get("TAKTIK_REQUIRE_TORCH") == "1":
            pytest.fail(f"TAKTIK_REQUIRE_TORCH=1 but {', '.join(missing)} is not installed (see .ci/run)")
        pytest.skip(f"{', '.join(missing)} not installed (CPU torch and sb3-contrib: see docs/rl.md)")


@pytest.fixture(scope="session")
def trained_maskable_ppo(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The MaskablePPO example of docs/rl.md trained as written, then saved as its "Playing a live match"
    section says: the folder holding ``taktik_ppo.zip``. Trained once for every test that needs it."""
    require_torch()
    folder = tmp_path_factory.mktemp("maskable-ppo")
    code = rl_doc_example("## Training with MaskablePPO") + rl_doc_example("## Playing a live match")
    # A separate process: torch's threads and import-time state stay out of the test run.
    done = subprocess.run([sys.executable, "-c", code], cwd=folder, capture_output=True, text=True, timeout=900,
                          check=False, env={**os.environ, "PYTHONPATH": str(ROOT)})
    assert done.returncode == 0, done.stderr[-3000:]
    return folder
