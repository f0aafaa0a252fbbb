"""The `taktik` command line: one sub-command per ``cli/cmd_*.py`` module.

Each command module provides ``add_parser(subparsers)``, which registers its sub-command
and sets ``run`` (a function taking the parsed arguments and returning an exit code) as
the parser's default ``handler``. Modules are found by name, so adding a command is
adding a file.
"""

from __future__ import annotations

import argparse
import importlib
import os
import pkgutil
import sys
import traceback
from collections.abc import Sequence
from typing import NoReturn

import cli
from server import __version__

from .errors import CommandError

__all__ = ["build_parser", "main"]


class _Parser(argparse.ArgumentParser):
    """argparse with short errors: the problem and where to look, not the whole usage block."""

    def error(self, message: str) -> NoReturn:
        self.exit(2, f"{self.prog}: {message}\n  see '{self.prog} --help'\n")


def build_parser() -> argparse.ArgumentParser:
    """The argument parser with every sub-command registered."""
    parser = _Parser(prog="taktik", description="Taktik: engine, tools and game server.")
    parser.add_argument("--version", action="version", version=f"taktik {__version__}")
    commands = parser.add_subparsers(dest="command", metavar="COMMAND")
    names = sorted(m.name for m in pkgutil.iter_modules(cli.__path__) if m.name.startswith("cmd_"))
    for name in names:
        importlib.import_module(f"cli.{name}").add_parser(commands)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit code."""
    parser = build_parser()
    args = parser.parse_args(argv)
    if getattr(args, "handler", None) is None:
        parser.print_help()
        return 2
    name = f"taktik {args.command}"
    try:
        code: int = args.handler(args)
    except CommandError as err:
        print(f"{name}: {err}" + (f"\n  {err.hint}" if err.hint else ""), file=sys.stderr)
        return err.code
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:  # e.g. `taktik play ... | head`
        sys.stderr.close()
        return 0
    except Exception as err:  # a bug, not the user's doing: one line, the traceback only on request
        if os.environ.get("TAKTIK_DEBUG"):
            traceback.print_exc()
        print(f"{name}: internal error ({type(err).__name__}: {err})\n"
              "  please report it with the command line; TAKTIK_DEBUG=1 shows the traceback", file=sys.stderr)
        return 70
    return code

