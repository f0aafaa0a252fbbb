"""The opt-in compiled engine: ``TAKTIK_COMPILE=1 pip install .`` (docs/engine.md, "Compiled build").

Everything else about the package is in pyproject.toml. Without ``TAKTIK_COMPILE=1`` this file
adds nothing: the package is pure Python, editable or not. With it, the engine's modules are
compiled by mypyc (part of mypy, fetched into pip's build environment for this build only) to
C extensions, except those listed in `KEPT_PURE` or that `mypyc_drops_their_class_options`.
Where no C compiler works the build says so and installs pure Python. An editable or in-place
build is refused: compiled modules beside the sources would shadow every later edit of them.
"""

from __future__ import annotations

import ast
import hashlib
import json
import os
import sys
from importlib.machinery import EXTENSION_SUFFIXES
from pathlib import Path

from setuptools import Distribution, setup
from setuptools.command.build_ext import build_ext

COMPILE = os.environ.get("TAKTIK_COMPILE", "") == "1"
ROOT = Path(__file__).resolve().parent

KEPT_PURE = {
    "engine/__init__.py": "checks the compiled modules against their sources at import (engine/compiled.py)",
    "engine/compiled.py": "the check itself, which must run whatever else is compiled",
    "engine/card_checks.py": "mypyc fails on a starred tuple display in `in`; card files are checked once, at load",
    "engine/mapgen/": "mypyc fails on a bytearray used as a sequence; runs once per new_game, not per action",
}
"""Engine modules never compiled, and why."""


def mypyc_drops_their_class_options(path: Path) -> bool:
    """A class statement with keywords (``frozen=True``, ``tag=...`` of a msgspec Struct): mypyc builds
    such classes without their keywords, which would change what they are. Those modules stay pure."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    return any(isinstance(node, ast.ClassDef) and node.keywords for node in ast.walk(tree))


def compiled_modules() -> list[str]:
    """The engine modules to compile, as paths relative to the project root."""
    modules = []
    for path in sorted((ROOT / "engine").rglob("*.py")):
        name = path.relative_to(ROOT).as_posix()
        if any(name == kept or (kept.endswith("/") and name.startswith(kept)) for kept in KEPT_PURE):
            continue
        if not mypyc_drops_their_class_options(path):
            modules.append(name)
    return modules


METADATA_ONLY = {"egg_info", "dist_info", "sdist"}
"""Commands that build no extension (pip asks them for the package's metadata): mypyc need not run."""

REFUSED = (
    "TAKTIK_COMPILE=1 builds a regular install (pip install .), never an editable or in-place one: "
    "compiled modules beside the sources would shadow every later edit of them. "
    "Unset TAKTIK_COMPILE for pip install -e ."
)


class BuildCompiled(build_ext):
    """Compiles the engine with mypyc when TAKTIK_COMPILE=1; pure Python where no C compiler works."""

    def finalize_options(self) -> None:
        commands = set(self.distribution.commands)
        building = not commands <= METADATA_ONLY and "editable_wheel" not in commands and not self.inplace
        if COMPILE and building and not self.distribution.ext_modules:
            try:
                from mypyc.build import mypycify
            except ImportError:
                sys.exit("TAKTIK_COMPILE=1 needs mypy (mypyc) to build: pip installs it into its build environment; "
                         "with --no-build-isolation install mypy and msgspec first (the test extra has both)")
            self.set_undefined_options("build", ("build_temp", "build_temp"))
            os.chdir(ROOT)  # mypyc names modules by their paths relative to the working directory
            self.distribution.ext_modules = mypycify(
                compiled_modules(), opt_level="3", group_name="taktik_engine",
                target_dir=os.path.join(self.build_temp, "mypyc"),
            )
        super().finalize_options()

    def run(self) -> None:
        if COMPILE and (self.inplace or self.editable_mode):
            sys.exit(REFUSED)
        if not self.extensions:
            return
        package = Path(self.build_lib) / "engine"
        outputs = {Path(output).resolve() for output in self.get_outputs()}
        (package / "compiled.json").unlink(missing_ok=True)
        for old in package.rglob("*"):  # compiled by an earlier build of other modules: never install them
            if old.name.endswith(tuple(EXTENSION_SUFFIXES)) and old.resolve() not in outputs:
                old.unlink()
        try:
            super().run()
        except Exception as error:  # distutils reports a missing or failing compiler in several classes
            for output in outputs:
                output.unlink(missing_ok=True)
            print(f"\nTAKTIK_COMPILE=1: could not compile the engine ({type(error).__name__}: {error}); "
                  "installing the pure-Python engine instead. A C compiler and Python's headers are needed.\n",
                  file=sys.stderr)
            return
        manifest = {
            name.removeprefix("engine/"): hashlib.sha256((ROOT / name).read_bytes()).hexdigest()
            for name in compiled_modules()
        }
        (package / "compiled.json").write_text(json.dumps({"modules": manifest}, indent=1, sort_keys=True) + "\n")


class MaybeCompiled(Distribution):
    """Has extension modules (so a platform wheel, and build_ext runs) exactly when TAKTIK_COMPILE=1."""

    def has_ext_modules(self) -> bool:
        return COMPILE or super().has_ext_modules()


setup(
    distclass=MaybeCompiled,
    cmdclass={"build_ext": BuildCompiled},
    # pip installs these into its isolated build environment only for a compiled build:
    # mypy compiles; it type-checks the engine first, so it needs msgspec's types too.
    setup_requires=["mypy>=1.10", "msgspec>=0.18"] if COMPILE else [],
)
