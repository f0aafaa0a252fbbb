"""Which build of the engine runs: pure Python, or some modules compiled by mypyc.

``TAKTIK_COMPILE=1 pip install .`` (setup.py; docs/engine.md, "Compiled build") compiles
the engine's hot modules to C extensions and writes ``compiled.json`` beside them: the
SHA-256 of each compiled module's source. Python imports an extension module in
preference to the ``.py`` file of the same name in the same directory, so a compiled
module left beside an edited source would run the old code without a word. The engine
refuses that at import: every extension module in the package must be listed in the
manifest with the hash of the source beside it.

This module stays pure Python (setup.py never compiles it), as does ``engine/__init__``.
"""

from __future__ import annotations

import hashlib
import json
from importlib.machinery import EXTENSION_SUFFIXES
from pathlib import Path
from typing import Literal

__all__ = ["ENGINE_BUILD", "MANIFEST", "StaleCompiledModule", "check_compiled"]

MANIFEST = "compiled.json"
"""The file setup.py writes into the built ``engine`` package: ``{"modules": {relative .py path: sha256}}``."""


class StaleCompiledModule(ImportError):
    """A compiled engine module does not match its source (or no build recorded it)."""


def _extensions(package: Path) -> dict[str, Path]:
    """Extension modules in ``package`` and its subpackages, keyed by the path of the .py they stand for."""
    found: dict[str, Path] = {}
    folders = [package]
    while folders:
        for path in folders.pop().iterdir():
            name = path.name
            if "." not in name:  # a subpackage or data folder (every file here has a suffix): one stat, not one each
                if name != "__pycache__" and path.is_dir():
                    folders.append(path)
                continue
            # EXTENSION_SUFFIXES lists the most specific first (".cpython-311-x86_64-linux-gnu.so" before ".so").
            suffix = next((s for s in EXTENSION_SUFFIXES if name.endswith(s)), None)
            if suffix is not None:
                found[path.with_name(name[: -len(suffix)] + ".py").relative_to(package).as_posix()] = path
    return found


def check_compiled(package: Path) -> Literal["pure", "compiled"]:
    """The build kind of the engine package at ``package``; raise `StaleCompiledModule` when a compiled
    module may not match its source: one the manifest does not list, or whose source changed since."""
    extensions = _extensions(package)
    manifest = package / MANIFEST
    if not extensions:
        return "pure"
    if not manifest.exists():
        names = ", ".join(sorted(p.name for p in extensions.values())[:3])
        raise StaleCompiledModule(
            f"compiled engine modules with no {MANIFEST} beside them ({names} ...) in {package}: not built by "
            "setup.py, they may not match their sources. Delete them, or build with TAKTIK_COMPILE=1 pip install ."
        )
    recorded: dict[str, str] = json.loads(manifest.read_text(encoding="utf-8"))["modules"]
    for source, extension in sorted(extensions.items()):
        if source not in recorded:
            raise StaleCompiledModule(f"{extension} is not in {manifest}: left from another build; delete it")
        path = package / source
        if path.exists() and hashlib.sha256(path.read_bytes()).hexdigest() != recorded[source]:
            raise StaleCompiledModule(
                f"{extension} was compiled from another version of {path}: rebuild (TAKTIK_COMPILE=1 pip install .) "
                "or delete the compiled modules"
            )
    return "compiled"


ENGINE_BUILD: Literal["pure", "compiled"] = check_compiled(Path(__file__).resolve().parent)
"""``"compiled"`` when mypyc-compiled modules run (checked against their sources at import), else ``"pure"``."""
