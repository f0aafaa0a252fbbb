"""The command line's one error type: a problem the user can fix, said in a line or two on stderr."""

from __future__ import annotations

from pathlib import Path

__all__ = ["CommandError", "output_dir", "output_file"]


class CommandError(Exception):
    """Raised by a command for bad input or an unusable environment.

    `cli.main` prints ``taktik COMMAND: message`` and, when given, an indented ``hint``
    saying what to do next, both on stderr, and exits with ``code`` (2: bad arguments or
    input, 1: the work itself failed). Never a traceback.
    """

    def __init__(self, message: str, *, hint: str | None = None, code: int = 2) -> None:
        super().__init__(message)
        self.hint = hint
        self.code = code


def output_file(path: Path) -> Path:
    """Check, before any work starts, that a result can be written to ``path``."""
    if path.is_dir():
        raise CommandError(f"--out {path} is a directory; give a file name", hint="for example --out game.json")
    parent = path.parent if str(path.parent) else Path(".")
    if not parent.is_dir():
        raise CommandError(f"--out {path}: the folder {parent} does not exist",
                           hint="create it first, or choose another path")
    existed = path.exists()
    try:
        with path.open("ab"):
            pass
        if not existed:
            path.unlink()
    except OSError as err:
        raise CommandError(f"--out {path} cannot be written: {err.strerror or err}") from None
    return path


def output_dir(path: Path, *, keep: bool = True) -> Path:
    """Check, before any work starts, that files can be written into the folder ``path``.

    The folder and its missing parents are created; with ``keep=False`` the ones created
    only for the check are removed again (for a command that writes there only on failure).
    """
    missing = [folder for folder in (path, *path.parents) if not folder.exists()]
    try:
        path.mkdir(parents=True, exist_ok=True)
        probe = path / ".taktik-write-test"
        probe.write_bytes(b"")
        probe.unlink()
    except OSError as err:
        raise CommandError(f"--out {path} cannot be used as a folder: {err.strerror or err}") from None
    if not keep:
        for folder in missing:
            folder.rmdir()
    return path
