"""Imports point downwards only (architecture.md), and the engine stays pure.

engine/ imports nothing from server/, web/, scripts/ or tests/, and no module that brings
time, randomness or I/O into the rules; server/ uses the engine only through its public
package and the documented tool packages (bots, fuzzer, self-play series, rng).
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
FORBIDDEN_IN_ENGINE = {"server", "web", "scripts", "tests", "random", "time", "uuid", "datetime", "secrets",
                       "os", "socket", "sqlite3", "asyncio", "threading", "subprocess", "PIL"}
ENGINE_FOR_SERVER = {"engine", "engine.bots", "engine.fuzz", "engine.rng", "engine.selfplay"}


def imports(path: Path) -> list[str]:
    """Absolute module names imported by ``path`` (relative imports resolved)."""
    tree = ast.parse(path.read_text(), filename=str(path))
    package = ".".join(path.relative_to(ROOT).with_suffix("").parts[:-1])
    names: list[str] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names += [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")[: len(package.split(".")) - node.level + 1]
                names.append(".".join([*base, node.module] if node.module else base))
            elif node.module:
                names.append(node.module)
    return names


def sources(folder: str) -> list[Path]:
    return sorted((ROOT / folder).rglob("*.py"))


@pytest.mark.parametrize("path", sources("engine"), ids=lambda p: str(p.relative_to(ROOT)))
def test_engine_imports_nothing_above_it_and_nothing_impure(path: Path) -> None:
    for name in imports(path):
        top = name.split(".")[0]
        if top == "numpy" and "engine/rl" in path.as_posix():
            continue  # the optional RL extra may use numpy, never the rules
        assert top not in FORBIDDEN_IN_ENGINE, f"{path.relative_to(ROOT)} imports {name}"


@pytest.mark.parametrize("path", sources("server"), ids=lambda p: str(p.relative_to(ROOT)))
def test_server_uses_only_the_public_engine(path: Path) -> None:
    for name in imports(path):
        if name.split(".")[0] == "engine":
            assert name in ENGINE_FOR_SERVER, f"{path.relative_to(ROOT)} reaches into {name}; use a public package"
        assert name.split(".")[0] not in {"web", "scripts", "tests"}


def test_engine_init_only_reexports() -> None:
    tree = ast.parse((ROOT / "engine" / "__init__.py").read_text())
    for node in tree.body:
        assert isinstance(node, (ast.ImportFrom, ast.Assign, ast.Expr)), f"engine/__init__.py defines {ast.dump(node)}"
