"""The opt-in compiled engine (setup.py, engine/compiled.py; docs/engine.md, "Compiled build").

The checks of the build's guards run everywhere. The compiled build itself takes about a
minute of CPU to make (mypyc and a C compiler), so the test that plays it against pure
Python runs when ``TAKTIK_REQUIRE_COMPILED=1`` (set by .ci/run, where it must not skip) or
when ``TAKTIK_COMPILED_BUILD`` names a build directory made earlier with
``TAKTIK_COMPILE=1 python setup.py build --build-base DIR``; otherwise it skips.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import shutil
import subprocess
import sys
import textwrap
from importlib.machinery import EXTENSION_SUFFIXES
from pathlib import Path

import pytest

from engine import ENGINE_BUILD, GameConfig, draw_index, legal_actions, new_game, random_legal_action, reduce, replay
from engine import state_hash as engine_state_hash
from engine.compiled import MANIFEST, StaleCompiledModule, check_compiled
from tests.engine.test_golden import GAMES, load

ROOT = Path(__file__).resolve().parents[1]
SUFFIX = EXTENSION_SUFFIXES[0]


def test_this_checkout_runs_the_pure_engine() -> None:
    assert ENGINE_BUILD == "pure"


# --- The guard against compiled modules that do not match their sources ------------------------


def _package(tmp_path: Path) -> Path:
    package = tmp_path / "engine"
    (package / "pages").mkdir(parents=True)
    (package / "movement.py").write_text("X = 1\n")
    (package / "pages" / "combat.py").write_text("Y = 2\n")
    return package


def _record(package: Path, *sources: str) -> None:
    modules = {s: hashlib.sha256((package / s).read_bytes()).hexdigest() for s in sources}
    (package / MANIFEST).write_text(json.dumps({"modules": modules}))


def test_a_package_without_compiled_modules_is_pure(tmp_path: Path) -> None:
    assert check_compiled(_package(tmp_path)) == "pure"


def test_compiled_modules_that_match_the_manifest_are_the_compiled_build(tmp_path: Path) -> None:
    package = _package(tmp_path)
    (package / f"movement{SUFFIX}").write_bytes(b"")
    (package / "pages" / f"combat{SUFFIX}").write_bytes(b"")
    _record(package, "movement.py", "pages/combat.py")
    assert check_compiled(package) == "compiled"


def test_a_compiled_module_whose_source_was_edited_is_refused(tmp_path: Path) -> None:
    package = _package(tmp_path)
    (package / "pages" / f"combat{SUFFIX}").write_bytes(b"")
    _record(package, "pages/combat.py")
    (package / "pages" / "combat.py").write_text("Y = 3\n")
    with pytest.raises(StaleCompiledModule, match=r"compiled from another version of .*combat\.py"):
        check_compiled(package)


def test_a_compiled_module_the_manifest_does_not_list_is_refused(tmp_path: Path) -> None:
    package = _package(tmp_path)
    (package / f"movement{SUFFIX}").write_bytes(b"")
    (package / "pages" / f"combat{SUFFIX}").write_bytes(b"")
    _record(package, "movement.py")
    with pytest.raises(StaleCompiledModule, match=re.escape(f"combat{SUFFIX} is not in")):
        check_compiled(package)


def test_compiled_modules_without_a_manifest_are_refused(tmp_path: Path) -> None:
    package = _package(tmp_path)
    (package / f"movement{SUFFIX}").write_bytes(b"")
    with pytest.raises(StaleCompiledModule, match=r"not built by setup\.py"):
        check_compiled(package)


# --- setup.py: pure unless asked, never compiled in place ---------------------------------------


def _project_copy(tmp_path: Path) -> Path:
    project = tmp_path / "project"
    project.mkdir()
    for name in ("setup.py", "pyproject.toml", "README.md"):
        shutil.copy(ROOT / name, project / name)
    shutil.copytree(ROOT / "engine", project / "engine", ignore=shutil.ignore_patterns("__pycache__"))
    return project


def _setup(project: Path, *args: str, compile_: bool) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if k != "TAKTIK_COMPILE"}
    if compile_:
        env["TAKTIK_COMPILE"] = "1"
    return subprocess.run(
        [sys.executable, "setup.py", *args], cwd=project, env=env, capture_output=True, text=True, timeout=120
    )


def test_without_taktik_compile_an_in_place_build_compiles_nothing(tmp_path: Path) -> None:
    project = _project_copy(tmp_path)
    done = _setup(project, "build_ext", "--inplace", compile_=False)
    assert done.returncode == 0, done.stderr
    assert not [p for p in project.rglob("*") if p.name.endswith(SUFFIX)]


def test_a_compiled_build_in_place_is_refused(tmp_path: Path) -> None:
    project = _project_copy(tmp_path)
    done = _setup(project, "build_ext", "--inplace", compile_=True)
    assert done.returncode != 0
    assert "never an editable or in-place one" in done.stderr
    assert not [p for p in project.rglob("*") if p.name.endswith(SUFFIX)]


# --- The compiled build plays exactly as pure Python does ---------------------------------------


PLAYOUT_SEEDS = (1, 2, 3)

_PLAY = """
import json, sys
sys.path.insert(0, sys.argv[1])
sys.path.insert(1, sys.argv[2])
import engine
from tests.test_compiled import play
print(json.dumps({"build": engine.ENGINE_BUILD, "module": engine.reducer.__file__, "played": play()}))
"""


def play() -> dict[str, list[str]]:
    """The hashes this engine gives: after every action of each golden record (replay checks them
    against the recorded ones), and at the end of random playouts, listing and drawing."""
    played: dict[str, list[str]] = {}
    for name in sorted(GAMES):
        record, counts = load(name)
        states = list(replay(record))
        assert [len(legal_actions(s)) for s in states] == counts, name
        played[name] = [engine_state_hash(states[-1])]
    for seed in PLAYOUT_SEEDS:
        for draw in (False, True):
            state, source, hashes = new_game(GameConfig(seed=seed)), _Source(seed), []
            while True:
                if draw:
                    action = random_legal_action(state, source)
                else:
                    legal = legal_actions(state)
                    action = legal[source.randrange(len(legal))] if legal else None
                if action is None:
                    break
                state = reduce(state, action)
                hashes.append(engine_state_hash(state))
            played[f"{'draw' if draw else 'list'}-{seed}"] = [hashlib.sha256("".join(hashes).encode()).hexdigest()]
    return played


class _Source:
    def __init__(self, seed: int) -> None:
        self.seed = seed

    def randrange(self, stop: int, /) -> int:
        index, self.seed = draw_index(stop, self.seed)
        return index


def _require_compiled() -> None:
    if os.environ.get("TAKTIK_REQUIRE_COMPILED") != "1":
        pytest.skip("the compiled build takes a minute of CPU: TAKTIK_REQUIRE_COMPILED=1 makes one (.ci/run does)")


def _build(base: Path, **env: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "setup.py", "build", "--build-base", str(base)],
        cwd=ROOT, env=dict(os.environ, TAKTIK_COMPILE="1", **env), capture_output=True, text=True, timeout=900,
    )


@pytest.fixture(scope="module")
def compiled_lib(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The build directory of a compiled build: TAKTIK_COMPILED_BUILD's, or one made now."""
    given = os.environ.get("TAKTIK_COMPILED_BUILD")
    base = Path(given) if given else tmp_path_factory.mktemp("compiled")
    if not given:
        _require_compiled()
        done = _build(base)
        assert done.returncode == 0, done.stderr[-3000:]
    libs = sorted(base.glob("lib.*"))
    assert libs, f"no lib.* directory in {base}: build it with TAKTIK_COMPILE=1 python setup.py build --build-base DIR"
    return libs[0]


def _run_in(lib: Path) -> dict[str, object]:
    done = subprocess.run(
        [sys.executable, "-I", "-c", _PLAY, str(lib), str(ROOT)], capture_output=True, text=True, timeout=600
    )
    assert done.returncode == 0, done.stderr[-3000:]
    result: dict[str, object] = json.loads(done.stdout)
    return result


def test_the_compiled_build_gives_the_hashes_of_pure_python(compiled_lib: Path) -> None:
    compiled = _run_in(compiled_lib)
    assert compiled["build"] == "compiled"
    assert str(compiled["module"]).endswith(SUFFIX)
    assert compiled["played"] == play()


def test_the_compiled_build_refuses_a_source_edited_after_it(compiled_lib: Path, tmp_path: Path) -> None:
    lib = tmp_path / "lib"
    shutil.copytree(compiled_lib, lib)
    with (lib / "engine" / "movement.py").open("a") as source:
        source.write("# edited after the build\n")
    probe = textwrap.dedent("""
        import sys
        sys.path.insert(0, sys.argv[1])
        import engine
    """)
    done = subprocess.run([sys.executable, "-I", "-c", probe, str(lib)], capture_output=True, text=True, timeout=120)
    assert done.returncode != 0
    assert "StaleCompiledModule" in done.stderr and "movement.py" in done.stderr


def test_without_a_working_c_compiler_the_build_says_so_and_is_pure(tmp_path: Path) -> None:
    _require_compiled()
    done = _build(tmp_path, CC="false")  # distutils compiles with $CC: a compiler that always fails
    assert done.returncode == 0, done.stderr[-3000:]
    assert "could not compile the engine" in done.stderr and "installing the pure-Python engine" in done.stderr
    (lib,) = tmp_path.glob("lib.*")
    assert not [p for p in lib.rglob("*") if p.name.endswith(SUFFIX)]
    probe = "import sys; sys.path.insert(0, sys.argv[1]); import engine; print(engine.ENGINE_BUILD)"
    ran = subprocess.run([sys.executable, "-I", "-c", probe, str(lib)], capture_output=True, text=True, timeout=120)
    assert ran.stdout.strip() == "pure", ran.stderr


# --- What runs at every action is compiled ------------------------------------------------------

PER_ACTION = {
    "window_plays": ("has_marked", "priority_holder", "reaction_windows", "tactic_plays", "tactic_rank"),
    "table_lookup": ("game_tables", "required_roll", "unit_stats"),
    "card_lookup": ("card_of",),
    "attack_checks": ("advance_queue", "attack_problem", "attack_valid", "cancel_pending", "placed_unit"),
    "state_reads": ("player_of", "unit_by_id"),
}
"""Functions asked at every action that used to live in a module with a msgspec Struct (pure in the
compiled build), by the plain module that holds them now."""

REEXPORTED_FROM = {
    "window_plays": "windows", "table_lookup": "tables", "card_lookup": "cards", "attack_checks": "attacks",
}


def test_the_per_action_functions_stay_importable_from_their_old_modules() -> None:
    import importlib

    for module, names in PER_ACTION.items():
        holder = importlib.import_module(f"engine.{module}")
        old = REEXPORTED_FROM.get(module)
        for name in names:
            assert getattr(holder, name).__module__ == f"engine.{module}"
            if old is not None:
                assert getattr(importlib.import_module(f"engine.{old}"), name) is getattr(holder, name)


def test_the_modules_of_the_per_action_functions_are_ones_the_build_compiles() -> None:
    # setup.py's rule (mypyc_drops_their_class_options): a class statement with keywords keeps a module pure.
    import ast

    for module in PER_ACTION:
        tree = ast.parse((ROOT / "engine" / f"{module}.py").read_text(encoding="utf-8"))
        assert not [n.name for n in ast.walk(tree) if isinstance(n, ast.ClassDef) and n.keywords], module


_KINDS = """
import importlib, json, sys
sys.path.insert(0, sys.argv[1])
names = json.loads(sys.argv[2])
print(json.dumps({f"{m}.{n}": type(getattr(importlib.import_module("engine." + m), n)).__name__
                  for m, ns in names.items() for n in ns}))
"""


def test_the_compiled_build_compiles_the_per_action_functions(compiled_lib: Path) -> None:
    done = subprocess.run(
        [sys.executable, "-I", "-c", _KINDS, str(compiled_lib), json.dumps(PER_ACTION)],
        capture_output=True, text=True, timeout=120,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    kinds = json.loads(done.stdout)
    assert kinds == dict.fromkeys(kinds, "builtin_function_or_method")  # a mypyc function; pure ones are "function"
    assert len(kinds) == sum(len(names) for names in PER_ACTION.values())
