"""Docstring examples in the engine, the lab and the client, and the README's quick-start, run as tests."""

from __future__ import annotations

import doctest
import importlib
import pkgutil
from pathlib import Path

import pytest

import client
import engine
import lab

ROOT = Path(__file__).resolve().parent.parent
MODULES = sorted(m.name for package, prefix in ((engine, "engine."), (lab, "lab."), (client, "client."))
                 for m in pkgutil.walk_packages(package.__path__, prefix) if ".rl" not in m.name)


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name: str) -> None:
    module = importlib.import_module(name)
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    assert result.failed == 0


def test_readme_quick_start_runs() -> None:
    result = doctest.testfile(str(ROOT / "README.md"), module_relative=False,
                              optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    assert result.failed == 0
    assert result.attempted >= 5, "the README quick-start should show the engine in use"


def test_support_module_examples() -> None:
    import tests.support

    assert doctest.testmod(tests.support).failed == 0
