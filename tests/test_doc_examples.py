"""Every example in README.md and docs/*.md runs as written, each in a fresh process in an empty folder.

- A ```python block of plain code runs on its own, as a script.
- A ```python block written as an interactive session (``>>>``) is checked by doctest. It
  continues its page's session: the page's earlier session blocks run first, as a reader
  going down the page has typed them.
- A `taktik ...` line of a shell block (fenced without a language or as sh, bash, shell or
  console, or indented by four spaces) runs through bash with this environment's `taktik`;
  the lines of one block run in order in one folder (``play --out g.json`` then ``replay g.json``).

Every example may use `CPU_LIMIT` seconds of CPU time in each of its processes (``ulimit -S -t``:
the load of a shared machine does not count against it, as it would against the wall clock)
and must end within `WALL_LIMIT` seconds (a hang). One that cannot run here says so in the
page's source, in an HTML comment right above its block (blank lines between are fine):

- ``<!-- not run: why -->``: the block is not run;
- ``<!-- not run (`taktik serve`, `taktik db copy`): why -->``: its lines starting with those
  commands are not run;
- ``<!-- needs torch, sb3_contrib -->``: the block runs when those modules are installed and
  is skipped otherwise, unless ``TAKTIK_REQUIRE_TORCH=1`` (set by .ci/run) makes that a failure.

A marker that names no command of its block, or gives no reason, fails here too.
"""

from __future__ import annotations

import importlib.util
import os
import re
import signal
import subprocess
import sys
from dataclasses import dataclass, field
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
CPU_LIMIT = 120
"""CPU seconds each process of an example may use: a longer run is shown with smaller numbers."""
WALL_LIMIT = 600
"""Seconds an example may take on the clock, on however busy a machine: past this it hangs."""

SHELL_FENCES = {"", "sh", "bash", "shell", "console"}
COMMAND = re.compile(r"^(?:\$ )?(taktik [a-z][a-z-]*(?: .*)?)$")
MARKER = re.compile(r"^<!--\s*(not run|needs)\b(.*?)-->\s*$")


@dataclass
class Example:
    page: Path
    kind: str  # "python" or "shell"
    number: int  # per page and kind, from 1
    line: int  # the block's first line in the page
    lines: list[str]
    not_run: str | None = None  # why the whole block is not run
    skipped: dict[str, str] = field(default_factory=dict)  # command prefix -> why it is not run
    needs: tuple[str, ...] = ()

    @property
    def name(self) -> str:
        return f"{self.page.relative_to(ROOT)} {self.kind} block {self.number} (line {self.line})"

    @property
    def code(self) -> str:
        return "\n".join(self.lines) + "\n"

    def is_session(self) -> bool:
        return self.code.lstrip().startswith(">>>")

    def commands(self) -> list[tuple[str, str | None]]:
        """Each `taktik` command of a shell block (continuation lines joined), with why it is not run, if so."""
        joined: list[str] = []
        for raw in self.lines:
            text = raw.strip()
            if joined and joined[-1].endswith("\\"):
                joined[-1] = joined[-1][:-1].rstrip() + " " + text
            else:
                joined.append(text)
        found = []
        for text in joined:
            match = COMMAND.match(text)
            if match:
                command = match.group(1)
                why = next((reason for prefix, reason in self.skipped.items() if command.startswith(prefix)), None)
                found.append((command, self.not_run or why))
        return found


def _blocks(text: str) -> list[tuple[str, int, list[str], list[str]]]:
    """``(fence info or "indented", first line, lines, marker comments above)`` for each code block of a page."""
    lines = text.splitlines()
    blocks: list[tuple[str, int, list[str], list[str]]] = []
    markers: list[str] = []
    i = 0
    while i < len(lines):
        line = lines[i]
        fence = re.match(r"^(\s*)(```+)\s*([\w+-]*)\s*$", line)
        if fence:
            end = next((j for j in range(i + 1, len(lines)) if lines[j].strip().startswith(fence.group(2))), len(lines))
            indent = len(fence.group(1))
            blocks.append((fence.group(3), i + 2, [row[indent:] for row in lines[i + 1 : end]], markers))
            markers, i = [], end + 1
            continue
        if line.startswith("    ") and (i == 0 or not lines[i - 1].strip()):
            end = i
            while end < len(lines) and (lines[end].startswith("    ") or not lines[end].strip()):
                end += 1
            blocks.append(("indented", i + 1, [row[4:] for row in lines[i:end]], markers))
            markers, i = [], end
            continue
        if MARKER.match(line.strip()):
            markers = [*markers, line.strip()]
        elif line.strip():
            markers = []
        i += 1
    return blocks


def _apply_marker(example: Example, marker: str) -> None:
    match = MARKER.match(marker)
    assert match is not None
    word, rest = match.group(1), match.group(2).strip()
    if word == "needs":
        example.needs = tuple(name.strip() for name in rest.split(",") if name.strip())
        return
    prefixes = re.match(r"^\(([^)]*)\)", rest)
    reason = rest[prefixes.end() :] if prefixes else rest
    reason = reason.lstrip(":").strip()
    if prefixes:
        for prefix in re.findall(r"`([^`]+)`", prefixes.group(1)):
            example.skipped[prefix] = reason
    else:
        example.not_run = reason


def collect(page: Path) -> list[Example]:
    """The python blocks and the shell blocks with `taktik` commands of ``page``, with their markers."""
    examples: list[Example] = []
    counts = {"python": 0, "shell": 0}
    for info, line, lines, markers in _blocks(page.read_text(encoding="utf-8")):
        if info == "python":
            kind = "python"
        elif info in SHELL_FENCES or info == "indented":
            kind = "shell"
        else:
            continue
        counts[kind] += 1
        example = Example(page, kind, counts[kind], line, lines)
        for marker in markers:
            _apply_marker(example, marker)
        if kind == "shell" and not example.commands() and not markers:
            counts[kind] -= 1  # a shell block without a taktik command is not an example of ours
            continue
        examples.append(example)
    return examples


EXAMPLES = [example for page in PAGES for example in collect(page)]


def test_the_pages_hold_examples_of_every_kind() -> None:
    kinds = {(e.kind, e.is_session()) for e in EXAMPLES}
    assert kinds == {("python", True), ("python", False), ("shell", False)}
    assert sum(len(e.commands()) for e in EXAMPLES) >= 10


@pytest.mark.parametrize("example", EXAMPLES, ids=[e.name for e in EXAMPLES])
def test_every_marker_gives_a_reason_and_names_commands_of_its_block(example: Example) -> None:
    reasons = [example.not_run] if example.not_run is not None else []
    assert all(reasons), f"{example.name}: a 'not run' marker without a reason"
    commands = [command for command, _ in example.commands()]
    for prefix, reason in example.skipped.items():
        assert reason, f"{example.name}: no reason given for not running `{prefix}`"
        assert any(c.startswith(prefix) for c in commands), f"{example.name}: no command starts with `{prefix}`"
    if example.needs:
        assert example.kind == "python", f"{example.name}: 'needs' is for python blocks"


def _require(example: Example) -> None:
    missing = [name for name in example.needs if importlib.util.find_spec(name) is None]
    if not missing:
        return
    if os.environ.get("TAKTIK_REQUIRE_TORCH") == "1":
        pytest.fail(f"{example.name} needs {', '.join(missing)}, and TAKTIK_REQUIRE_TORCH=1 (see .ci/run)")
    pytest.skip(f"{example.name} needs {', '.join(missing)}")


def _run(command: str, argv: list[str], cwd: Path, what: str) -> subprocess.CompletedProcess[str]:
    """``command`` run by bash (with ``argv`` as ``$@``) under the CPU limit, with this environment's `taktik`."""
    env = {**os.environ, "PATH": f"{Path(sys.executable).parent}{os.pathsep}{os.environ.get('PATH', '')}"}
    try:
        done = subprocess.run(["bash", "-c", f"ulimit -S -t {CPU_LIMIT} && {command}", "bash", *argv], cwd=cwd,
                              env=env, capture_output=True, text=True, timeout=WALL_LIMIT,
                              stdin=subprocess.DEVNULL, check=False)
    except subprocess.TimeoutExpired:
        pytest.fail(f"{what} did not end within {WALL_LIMIT} s")
    if done.returncode in (-signal.SIGXCPU, 128 + signal.SIGXCPU):
        pytest.fail(f"{what} used more than {CPU_LIMIT} s of CPU time: show it with smaller numbers and say how "
                    "long the full run takes, or mark it <!-- not run: why -->")
    return done


SESSION = """\
import doctest, pathlib, sys
earlier, block, name, line = sys.argv[1:]
parser = doctest.DocTestParser()
flags = doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE
runner = doctest.DocTestRunner(optionflags=flags)
globs = {"__name__": "__main__"}
setup = parser.get_doctest(pathlib.Path(earlier).read_text(), globs, "earlier blocks", name, 0)
doctest.DocTestRunner(optionflags=flags).run(setup, out=lambda text: None, clear_globs=False)
test = parser.get_doctest(pathlib.Path(block).read_text(), setup.globs, name, name, int(line) - 1)
result = runner.run(test, out=sys.stdout.write, clear_globs=False)
sys.exit(1 if result.failed or not result.attempted else 0)
"""


@pytest.mark.parametrize("example", [e for e in EXAMPLES if e.kind == "python"],
                         ids=[e.name for e in EXAMPLES if e.kind == "python"])
def test_python_example_runs_as_written(example: Example, tmp_path: Path) -> None:
    if example.not_run is not None:
        pytest.skip(f"not run: {example.not_run}")
    _require(example)
    if example.is_session():
        earlier = [e for e in EXAMPLES if e.page == example.page and e.kind == "python" and e.is_session()
                   and e.number < example.number]
        (tmp_path / "earlier.txt").write_text("".join(e.code for e in earlier))
        (tmp_path / "block.txt").write_text(example.code)
        argv = [sys.executable, "-c", SESSION, "earlier.txt", "block.txt", str(example.page.relative_to(ROOT)),
                str(example.line)]
    else:
        script = tmp_path / f"{example.page.stem}_block{example.number}.py"
        script.write_text("\n" * (example.line - 1) + example.code)  # tracebacks give the page's line numbers
        argv = [sys.executable, script.name]
    done = _run('exec "$@"', argv, tmp_path, example.name)
    assert done.returncode == 0, f"{example.name} fails:\n{done.stdout[-3000:]}{done.stderr[-3000:]}"


@pytest.mark.parametrize("example", [e for e in EXAMPLES if e.kind == "shell"],
                         ids=[e.name for e in EXAMPLES if e.kind == "shell"])
def test_shell_example_runs_as_written(example: Example, tmp_path: Path) -> None:
    commands = example.commands()
    if all(why is not None for _, why in commands):
        pytest.skip("not run: " + "; ".join(sorted({why or "" for _, why in commands})))
    for command, why in commands:
        if why is not None:
            continue
        done = _run(command, [], tmp_path, f"{example.name}: {command}")
        assert done.returncode == 0 and "Traceback" not in done.stderr, (
            f"{example.name}: `{command}` fails (exit {done.returncode}):\n{done.stderr[-3000:]}"
        )
