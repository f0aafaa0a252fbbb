"""The MaskablePPO example of docs/rl.md trains as written.

It needs torch and sb3-contrib, which no extra installs (PyPI's default torch is a CUDA
build of about 2 GB): without them the test skips, unless ``TAKTIK_REQUIRE_TORCH=1``
(set by .ci/run, which installs CPU-only torch) asks for it to fail instead.
"""

from __future__ import annotations

import importlib.util
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def example() -> str:
    text = (ROOT / "docs" / "rl.md").read_text(encoding="utf-8")
    section = text.split("## Training with MaskablePPO", 1)[1]
    match = re.search(r"```python\n(.*?)```", section, re.S)
    assert match, "docs/rl.md's MaskablePPO section has no python example"
    return match.group(1)


def test_the_example_is_the_one_described() -> None:
    code = example()
    assert "MaskablePPO" in code and "mask_in_observation=False" in code and "learn(total_timesteps=2048)" in code


@pytest.mark.slow
def test_the_maskable_ppo_example_trains_a_few_thousand_steps() -> None:
    missing = [name for name in ("torch", "sb3_contrib") if importlib.util.find_spec(name) is None]
    if missing:
        if os.environ.get("TAKTIK_REQUIRE_TORCH") == "1":
            pytest.fail(f"TAKTIK_REQUIRE_TORCH=1 but {', '.join(missing)} is not installed (see .ci/run)")
        pytest.skip(f"{', '.join(missing)} not installed (CPU torch and sb3-contrib: see docs/rl.md)")
    # A separate process: torch's threads and import-time state stay out of the test run.
    done = subprocess.run(
        [sys.executable, "-c", example()], cwd=ROOT, capture_output=True, text=True, timeout=900, check=False
    )
    assert done.returncode == 0, done.stderr[-3000:]
