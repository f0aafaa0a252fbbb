"""Docstring examples in the engine, the lab and the client run as tests.

The pages' examples run in tests/test_doc_examples.py.
"""

from __future__ import annotations

import doctest
import importlib
import pkgutil

import pytest

import client
import engine
import lab

MODULES = sorted(m.name for package, prefix in ((engine, "engine."), (lab, "lab."), (client, "client."))
                 for m in pkgutil.walk_packages(package.__path__, prefix) if ".rl" not in m.name)


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name: str) -> None:
    module = importlib.import_module(name)
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    assert result.failed == 0


def test_support_module_examples() -> None:
    import tests.support

    assert doctest.testmod(tests.support).failed == 0
