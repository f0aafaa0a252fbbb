"""`taktik cards schema` and `taktik cards check FILE`: help a designer write card files.

``schema`` prints the JSON Schema of a card file (generated from the engine's msgspec
definitions), for an editor to validate and complete with. ``check`` loads a card file
exactly as the engine would and reports every card that would be refused, each with
its path in the file; it exits 1 when there is any.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from engine.data import card_file_problems, card_file_schema

from .errors import CommandError


def add_parser(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = commands.add_parser("cards", help="card files: print their JSON Schema, check one")
    actions = parser.add_subparsers(dest="cards_command", metavar="ACTION")
    schema = actions.add_parser("schema", help="print the JSON Schema of a card file")
    schema.set_defaults(handler=run_schema)
    check = actions.add_parser("check", help="check a card file; every problem with its path in the file")
    check.add_argument("file", type=Path, help="a card file ({\"common\": [...], \"tactics\": [...]})")
    check.set_defaults(handler=run_check)
    parser.set_defaults(handler=_need_action)


def _need_action(args: argparse.Namespace) -> int:
    raise CommandError("say what to do: 'schema' or 'check FILE'", hint="see 'taktik cards --help'")


def run_schema(args: argparse.Namespace) -> int:
    print(json.dumps(card_file_schema(), indent=2, sort_keys=True))
    return 0


def run_check(args: argparse.Namespace) -> int:
    path: Path = args.file
    try:
        raw = path.read_bytes()
    except OSError as err:
        raise CommandError(f"{path}: cannot be read: {err.strerror or err}") from None
    problems = card_file_problems(raw)
    if problems:
        for problem in problems:
            print(f"{path}: {problem}", file=sys.stderr)
        count = len(problems)
        print(f"{path}: {count} card{'s' if count != 1 else ''} refused", file=sys.stderr)
        return 1
    cards = json.loads(raw)
    total = len(cards.get("common", ())) + len(cards.get("tactics", ()))
    print(f"{path}: {total} cards, all valid")
    return 0
