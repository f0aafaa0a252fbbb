"""Imports point downwards only (architecture.md), and the engine stays pure.

    engine  <-  lab     <-  cli
    engine  <-  server  <-  cli
    engine  <-  client  <-  cli

client/ speaks the server's wire protocol from its documented JSON with its own types, so it
never imports the server (docs/client-api.md says why).

engine/ imports nothing of the project above it and no module that brings time, randomness
or I/O into the rules. Everything outside engine/ uses it only through its public faces:
the game contract (``from engine import ...``), the answers for players and tools
(``engine.analysis``) and the rules' data (``engine.data``); an import of any other
``engine.<module>`` fails here.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("engine", "lab", "server", "client", "cli")
ALLOWED = {
    "engine": set(),
    "lab": {"engine"},
    "server": {"engine"},
    "client": {"engine"},
    "cli": {"engine", "lab", "server", "client"},
    "scripts": {"engine", "lab", "server", "client", "cli"},
}
"""Which project packages each package (and the benchmark scripts) may import."""
PROJECT = {*PACKAGES, "web", "scripts", "tests"}
PUBLIC_ENGINE = {"engine", "engine.analysis", "engine.data"}
"""The engine's public faces: the contract, the answers for players and tools, the rules' data."""
IMPURE = {"random", "time", "uuid", "datetime", "secrets", "os", "socket", "sqlite3", "asyncio", "threading",
          "subprocess", "PIL"}


def imports(path: Path, text: str | None = None) -> list[str]:
    """Absolute module names imported by ``path`` (or by ``text`` as if it stood there)."""
    tree = ast.parse(path.read_text() if text is None else text, filename=str(path))
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


def sources(*folders: str) -> list[Path]:
    return sorted(path for folder in folders for path in (ROOT / folder).rglob("*.py"))


def layer_of(path: Path) -> str:
    return path.relative_to(ROOT).parts[0]


def project_edges() -> set[tuple[str, str]]:
    """The import graph between the project's packages: ``(importer, imported)``."""
    edges = set()
    for path in sources(*PACKAGES):
        for name in imports(path):
            top = name.split(".")[0]
            if top in PROJECT and top != layer_of(path):
                edges.add((layer_of(path), top))
    return edges


def test_the_import_graph_is_engine_lab_cli_and_engine_server_cli_and_engine_client_cli() -> None:
    assert project_edges() == {("lab", "engine"), ("server", "engine"), ("client", "engine"), ("cli", "engine"),
                               ("cli", "lab"), ("cli", "server"), ("cli", "client")}


def problems(path: Path, layer: str, text: str | None = None) -> list[str]:
    """Each import of ``path`` (a module of ``layer``) that points upwards or into the engine's insides."""
    found = []
    for name in imports(path, text):
        top = name.split(".")[0]
        if top in PROJECT and top != layer and top not in ALLOWED[layer]:
            found.append(f"{name}: {layer} may not use {top}")
        if layer != "engine" and top == "engine" and name not in PUBLIC_ENGINE:
            found.append(f"{name}: reaches into the engine; use `engine`, `engine.analysis` or `engine.data`")
    return found


@pytest.mark.parametrize("path", sources(*PACKAGES, "scripts"), ids=lambda p: str(p.relative_to(ROOT)))
def test_each_module_imports_only_downwards_and_only_the_public_engine(path: Path) -> None:
    assert problems(path, layer_of(path)) == []


@pytest.mark.parametrize("path", sources("engine"), ids=lambda p: str(p.relative_to(ROOT)))
def test_the_engine_imports_nothing_impure(path: Path) -> None:
    for name in imports(path):
        assert name.split(".")[0] not in IMPURE, f"{path.relative_to(ROOT)} imports {name}"


def test_the_check_catches_a_client_that_imports_the_server_or_the_lab() -> None:
    text = "from server.protocol import StateUpdate\nfrom lab.bots import get_bot\nfrom engine import Action\n"
    assert problems(ROOT / "client" / "probe.py", "client", text) == [
        "server.protocol: client may not use server",
        "lab.bots: client may not use lab",
    ]


def test_the_check_catches_a_reach_into_the_engine_and_an_upward_import() -> None:
    text = "from engine.rng import roll_d6\nfrom engine import reduce\nfrom engine.analysis import explain\n"
    text += "from server import app\n"
    assert problems(ROOT / "lab" / "bots" / "probe.py", "lab", text) == [
        "engine.rng: reaches into the engine; use `engine`, `engine.analysis` or `engine.data`",
        "server: lab may not use server",
    ]


@pytest.mark.parametrize("face", ["engine/__init__.py", "engine/analysis/__init__.py", "engine/data/__init__.py"])
def test_the_public_faces_only_reexport(face: str) -> None:
    tree = ast.parse((ROOT / face).read_text())
    for node in tree.body:
        assert isinstance(node, (ast.ImportFrom, ast.Assign, ast.Expr)), f"{face} defines {ast.dump(node)}"
