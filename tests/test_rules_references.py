"""The rulebook lives in the repository: every `§` resolves in docs/rules.md.

docs/engine.md maps each rule to the files that implement it, and names what in each file does.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
RULES = ROOT / "docs" / "rules.md"
SECTION = re.compile(r"^#{2,3} (\d+(?:\.\d+)?)\.? ", re.M)
REFERENCE = re.compile(r"§\s?(\d+(?:\.\d+)?)")
SEARCHED = ("engine", "lab", "server", "cli", "scripts", "web/static", "docs", "tests", "README.md")
TEXT_SUFFIXES = {".py", ".md", ".js", ".html", ".css", ".json"}


def sections() -> set[str]:
    return set(SECTION.findall(RULES.read_text()))


def references() -> list[tuple[str, int, str]]:
    """Every ``§N`` / ``§N.M`` in the project's code and docs, as ``(file, line, section)``."""
    found = []
    for entry in SEARCHED:
        top = ROOT / entry
        files = [top] if top.is_file() else sorted(p for p in top.rglob("*") if p.suffix in TEXT_SUFFIXES)
        for path in files:
            for number, line in enumerate(path.read_text(errors="replace").splitlines(), 1):
                found += [(str(path.relative_to(ROOT)), number, ref) for ref in REFERENCE.findall(line)]
    return found


def test_the_rulebook_is_in_the_repository_with_its_sections() -> None:
    numbered = sections()
    assert {"1.3", "5.3", "9.1", "10", "13"} <= numbered
    assert len(numbered) >= 50


def test_every_section_reference_resolves_in_the_rulebook() -> None:
    numbered = sections()
    refs = references()
    assert len(refs) > 200  # the code cites the rules everywhere; a broken scan would find none
    dangling = [f"{file}:{line}: §{ref}" for file, line, ref in refs if ref not in numbered]
    assert dangling == []


def test_the_engine_doc_maps_every_rule_to_files_that_exist() -> None:
    text = (ROOT / "docs" / "engine.md").read_text()
    table = text.split("## Where each rule lives", 1)[1].split("\n## ", 1)[0]
    rows = re.findall(r"^\| §(\d+(?:\.\d+)?) [^|]*\| (.*) \|$", table, re.M)
    mapped = {section for section, _ in rows}
    numbered = sections()
    leaves = {s for s in numbered if not any(other.startswith(s + ".") for other in numbered)}
    assert mapped == leaves, f"unmapped: {sorted(leaves - mapped)}; not in the rules: {sorted(mapped - leaves)}"
    for section, where in rows:
        for path, names in re.findall(r"`([\w.-]*/[\w./-]*|[\w.-]+\.(?:py|md|json|js))`(?: \(([^)]*)\))?", where):
            assert (ROOT / path).exists(), f"§{section} names {path}, which does not exist"
            for name in re.findall(r"`(\w+)`", names):
                defined = defined_names(ROOT / path)
                assert name in defined, f"§{section} names {name} in {path}, which defines no such name"


def defined_names(path: Path) -> set[str]:
    """The module-level functions, classes and assignments of a Python file."""
    tree = ast.parse(path.read_text())
    names = set()
    for node in tree.body:
        if isinstance(node, (ast.FunctionDef, ast.ClassDef)):
            names.add(node.name)
        elif isinstance(node, ast.Assign):
            names.update(t.id for t in node.targets if isinstance(t, ast.Name))
        elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
            names.add(node.target.id)
    return names


def test_the_map_check_catches_a_name_a_file_does_not_define() -> None:
    assert "reduce" in defined_names(ROOT / "engine" / "reducer.py")
    assert "reduce_twice" not in defined_names(ROOT / "engine" / "reducer.py")
