"""The `taktik` command line: one sub-command per ``cli/cmd_*.py`` module.

Each command module provides ``add_parser(subparsers)``, which registers its sub-command
and sets ``run`` (a function taking the parsed arguments and returning an exit code) as
the parser's default ``handler``. Modules are found by name, so adding a command is
adding a file.
"""

from __future__ import annotations

import argparse
import importlib
import pkgutil
import sys
from collections.abc import Sequence

import cli
from server import __version__

__all__ = ["build_parser", "main"]


def build_parser() -> argparse.ArgumentParser:
    """The argument parser with every sub-command registered."""
    parser = argparse.ArgumentParser(prog="taktik", description="Taktik: engine, tools and game server.")
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
    try:
        code: int = args.handler(args)
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:  # e.g. `taktik play ... | head`
        sys.stderr.close()
        return 0
    return code

