"""The MaskablePPO example of docs/rl.md trains as written.

It needs torch and sb3-contrib, which no extra installs (PyPI's default torch is a CUDA
build of about 2 GB): without them the test skips, unless ``TAKTIK_REQUIRE_TORCH=1``
(set by .ci/run, which installs CPU-only torch) asks for it to fail instead. The training
runs once per session (the ``trained_maskable_ppo`` fixture of tests/conftest.py), shared
with tests/client/test_rl_join.py, which plays a live match with the saved model.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.conftest import rl_doc_example


def test_the_example_is_the_one_described() -> None:
    code = rl_doc_example("## Training with MaskablePPO")
    assert "MaskablePPO" in code and "mask_in_observation=False" in code and "learn(total_timesteps=2048)" in code


@pytest.mark.slow
def test_the_maskable_ppo_example_trains_a_few_thousand_steps(trained_maskable_ppo: Path) -> None:
    assert (trained_maskable_ppo / "taktik_ppo.zip").stat().st_size > 0  # trained, and saved as the docs say
