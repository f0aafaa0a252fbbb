"""The client's JSDoc types hold: TypeScript's checker over web/static/js (config: web/tsconfig.json).

TypeScript comes from npm, pinned in web/package-lock.json (`npm ci --prefix web`). Without it
these tests skip, unless ``TAKTIK_REQUIRE_TSC=1`` (set by .ci/run) asks for them to fail instead.
"""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
WEB = REPO / "web"
TSC = WEB / "node_modules" / ".bin" / "tsc"


def _require_tsc() -> None:
    if not TSC.exists():
        reason = f"TypeScript not installed at {TSC.relative_to(REPO)} (run `npm ci --prefix web`)"
        if os.environ.get("TAKTIK_REQUIRE_TSC") == "1":
            pytest.fail(reason)
        pytest.skip(reason)


def _tsc(project: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([str(TSC), "-p", str(project), "--pretty", "false"], cwd=REPO, capture_output=True,
                          text=True, timeout=300)


def test_the_client_type_checks_under_strict_tsc() -> None:
    _require_tsc()
    result = _tsc(WEB / "tsconfig.json")
    assert result.returncode == 0, "tsc found type errors in web/static/js:\n" + result.stdout + result.stderr


def test_the_checker_catches_wrong_types_implicit_any_and_extensionless_imports(tmp_path: Path) -> None:
    """The config really checks JS: a module with three mistakes fails with each one named."""
    _require_tsc()
    (tmp_path / "package.json").write_text(json.dumps({"type": "module"}))
    (tmp_path / "other.js").write_text("// @ts-check\nexport const two = 2;\n")
    (tmp_path / "bad.js").write_text(
        "// @ts-check\n"
        'import { two } from "./other";\n'
        "/** @param {number} n */\n"
        "export function shout(n) { return n.toUpperCase() + two; }\n"
        "export function untyped(x) { return x; }\n"
    )
    config = {"extends": str(WEB / "tsconfig.json"), "include": [str(tmp_path / "*.js")]}
    (tmp_path / "tsconfig.json").write_text(json.dumps(config))
    result = _tsc(tmp_path / "tsconfig.json")
    output = result.stdout + result.stderr
    assert result.returncode != 0, output
    assert "TS2835" in output, output  # a relative import without its .js, which a browser cannot load
    assert "TS2339" in output, output  # toUpperCase does not exist on type 'number'
    assert "TS7006" in output, output  # parameter 'x' implicitly has an 'any' type
