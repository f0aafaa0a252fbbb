"""No import cycles inside a package, counting the imports a function makes when it runs.

A cycle broken only by importing inside a function is still a cycle: the two modules still
need each other, and the first call decides which loads first. Every ``import`` and
``from ... import`` counts, at module level or in a function; only those under
``if TYPE_CHECKING:`` (never run) do not. A package's ``__init__`` importing its own modules to
re-export them is not a cycle by itself (docs/engine.md, "Layout").

`import_cycles` is the scanner; `PACKAGES` lists the packages held to it.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ["engine", "server", "client", "lab", "cli"]
"""The packages that must have no cycle."""


def _module_name(root: Path, path: Path) -> str:
    parts = list(path.relative_to(root.parent).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _type_checking_only(tree: ast.Module) -> set[int]:
    """The ids of the nodes under ``if TYPE_CHECKING:`` (its ``else`` runs, so it counts)."""
    skipped: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.If) and ast.unparse(node.test) in ("TYPE_CHECKING", "typing.TYPE_CHECKING"):
            skipped.update(id(inner) for branch in node.body for inner in ast.walk(branch))
    return skipped


def import_graph(package: Path) -> dict[str, set[str]]:
    """Module -> the modules of the same package it imports (module- and function-level, not TYPE_CHECKING)."""
    modules = {_module_name(package, path): path for path in sorted(package.rglob("*.py"))}
    graph: dict[str, set[str]] = {name: set() for name in modules}
    for name, path in modules.items():
        tree = ast.parse(path.read_text(), filename=str(path))
        skipped = _type_checking_only(tree)
        here = name if path.name == "__init__.py" else name.rpartition(".")[0]
        for node in ast.walk(tree):
            if id(node) in skipped:
                continue
            targets: list[str] = []
            if isinstance(node, ast.Import):
                targets = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom):
                base = node.module or ""
                if node.level:
                    up = here.split(".")[: len(here.split(".")) - node.level + 1]
                    base = ".".join([*up, base] if base else up)
                targets = [base, *(f"{base}.{alias.name}" for alias in node.names)]  # a name may be a module
            for target in targets:
                reexport = path.name == "__init__.py" and target.startswith(name + ".")
                if target in modules and target != name and not reexport:
                    graph[name].add(target)
    return graph


def import_cycles(package: Path) -> list[list[str]]:
    """Each import cycle among the modules of ``package`` (a directory), as a path ``[a, b, ..., a]``.

    One cycle per strongly connected group of modules, so a group of six prints once.
    """
    graph = import_graph(package)
    cycles = []
    for group in _strongly_connected(graph):
        cycles.append(_cycle_through(graph, group))
    return sorted(cycles)


def _strongly_connected(graph: dict[str, set[str]]) -> list[set[str]]:
    """Tarjan's algorithm without recursion; only groups of two or more modules (no module imports itself)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    groups: list[set[str]] = []
    for start in sorted(graph):
        if start in index:
            continue
        work = [(start, iter(sorted(graph[start])))]
        index[start] = low[start] = len(index)
        stack.append(start)
        on_stack.add(start)
        while work:
            node, edges = work[-1]
            nxt = next(edges, None)
            if nxt is None:
                work.pop()
                if work:
                    low[work[-1][0]] = min(low[work[-1][0]], low[node])
                if low[node] == index[node]:
                    group = set()
                    while True:
                        member = stack.pop()
                        on_stack.discard(member)
                        group.add(member)
                        if member == node:
                            break
                    if len(group) > 1:
                        groups.append(group)
            elif nxt not in index:
                index[nxt] = low[nxt] = len(index)
                stack.append(nxt)
                on_stack.add(nxt)
                work.append((nxt, iter(sorted(graph[nxt]))))
            elif nxt in on_stack:
                low[node] = min(low[node], index[nxt])
    return groups


def _cycle_through(graph: dict[str, set[str]], group: set[str]) -> list[str]:
    """A shortest cycle from the group's first module back to it, staying inside the group."""
    start = min(group)
    paths = {start: [start]}
    frontier = [start]
    while frontier:
        following = []
        for node in frontier:
            for nxt in sorted(graph[node] & group):
                if nxt == start:
                    return [*paths[node], start]
                if nxt not in paths:
                    paths[nxt] = [*paths[node], nxt]
                    following.append(nxt)
        frontier = following
    raise AssertionError(f"{sorted(group)} is not a cycle")  # cannot happen for a strongly connected group


@pytest.mark.parametrize("package", PACKAGES)
def test_a_package_has_no_import_cycle(package: str) -> None:
    cycles = import_cycles(ROOT / package)
    assert not cycles, "import cycles (break one by moving what both need into a module of its own):\n" + \
        "\n".join("  " + " -> ".join(cycle) for cycle in cycles)


def _package(tmp_path: Path, modules: dict[str, str]) -> Path:
    root = tmp_path / "pkg"
    root.mkdir()
    for name, text in {"__init__": "", **modules}.items():
        (root / f"{name}.py").write_text(text)
    return root


def test_the_scanner_counts_imports_made_inside_a_function(tmp_path: Path) -> None:
    package = _package(tmp_path, {
        "a": "from .b import thing\n",
        "b": "def late():\n    from . import c\n    return c\n",
        "c": "import pkg.a\n",
    })
    assert import_cycles(package) == [["pkg.a", "pkg.b", "pkg.c", "pkg.a"]]


def test_the_scanner_leaves_out_type_checking_imports_and_init_reexports(tmp_path: Path) -> None:
    package = _package(tmp_path, {
        "__init__": "from .a import A\nfrom .b import B\n",
        "a": "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from .b import B\nelse:\n    import os\n",
        "b": "from .a import A\nfrom pkg import __doc__\n",
    })
    assert import_graph(package) == {"pkg": set(), "pkg.a": set(), "pkg.b": {"pkg.a", "pkg"}}
    assert import_cycles(package) == []
    (package / "a.py").write_text("from typing import TYPE_CHECKING\nif not TYPE_CHECKING:\n    from .b import B\n")
    assert import_cycles(package) == [["pkg.a", "pkg.b", "pkg.a"]]
