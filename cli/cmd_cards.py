"""`taktik cards list`, `taktik cards schema` and `taktik cards check FILE`: help a designer write card files.

``list`` prints every shipped card: its id (what a variant's ``cards.change`` and
``cards.remove`` name), kind, class, the deck source that brings it (``standard``, or the
variant deck of ``engine/data/variants/``), its copies in a 60- and a 90-card deck and its
name. ``schema`` prints the JSON Schema of a card file (generated from the engine's msgspec
definitions), for an editor to validate and complete with. ``check`` loads a card file
exactly as the engine would and reports every card that would be refused, each with
its path in the file; it exits 1 when there is any.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from engine.data import DECK_SOURCES, CardDef, card_file_problems, card_file_schema

from .errors import CommandError


def add_parser(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = commands.add_parser("cards", help="cards: list them, print a card file's JSON Schema, check a file")
    actions = parser.add_subparsers(dest="cards_command", metavar="ACTION")
    listing = actions.add_parser("list", help="every shipped card: id, kind, class, deck source, copies, name")
    listing.set_defaults(handler=run_list)
    schema = actions.add_parser("schema", help="print the JSON Schema of a card file")
    schema.set_defaults(handler=run_schema)
    check = actions.add_parser("check", help="check a card file; every problem with its path in the file")
    check.add_argument("file", type=Path, help="a card file ({\"common\": [...], \"tactics\": [...]})")
    check.set_defaults(handler=run_check)
    parser.set_defaults(handler=_need_action)


def _need_action(args: argparse.Namespace) -> int:
    raise CommandError("say what to do: 'list', 'schema' or 'check FILE'", hint="see 'taktik cards --help'")


def run_list(args: argparse.Namespace) -> int:
    rows = [("id", "kind", "class", "deck", "copies 60/90", "name")]
    rows += [(card.id, card.kind, card.card_class, source, _copies(card), card.name) for card, source in _shipped()]
    widths = [max(len(row[i]) for row in rows) for i in range(len(rows[0]) - 1)]
    for row in rows:
        print("  ".join(cell.ljust(width) for cell, width in zip(row, widths, strict=False)) + "  " + row[-1])
    return 0


def _shipped() -> list[tuple[CardDef, str]]:
    """Every shipped card once, with the deck source that brings it, in each source's canonical order."""
    seen: set[str] = set()
    found: list[tuple[CardDef, str]] = []
    for source in DECK_SOURCES:
        common, tactics = DECK_SOURCES[source]
        for card in (*common, *tactics):
            if card.id not in seen:
                seen.add(card.id)
                found.append((card, source))
    return found


def _copies(card: CardDef) -> str:
    return "in the pool" if card.kind == "tactic" else f"{card.copies_60}/{card.copies_90}"


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
