"""Options shared by the game commands: how a `GameConfig` is given on the command line."""

from __future__ import annotations

import argparse
import math
import re
from collections.abc import Callable
from pathlib import Path

import msgspec

from engine import GameConfig, GameState, new_game
from engine.data import Variant, VariantError, apply_variant
from lab.variant import load_rules_file

from .errors import CommandError

__all__ = [
    "add_config_options",
    "add_rules_option",
    "config_from_args",
    "game_from_args",
    "parse_seed",
    "parse_size",
    "rules_from_args",
    "whole_number",
]


def parse_size(text: str) -> tuple[int, int]:
    """``"20x30"`` → ``(20, 30)``; argparse-friendly errors otherwise (the engine judges the range)."""
    match = re.fullmatch(r"\s*([0-9]{1,4})\s*[xX×]\s*([0-9]{1,4})\s*", text)
    if match is None:
        raise argparse.ArgumentTypeError(f"{text!r} is not a size like 20x30 (columns x rows)")
    return int(match.group(1)), int(match.group(2))


def whole_number(low: int, high: int) -> Callable[[str], int]:
    """An argparse type: an integer of ASCII digits in ``low..high``."""

    def parse(text: str) -> int:
        if re.fullmatch(r"-?[0-9]{1,12}", text.strip()) is None:
            raise argparse.ArgumentTypeError(f"{text!r} is not a whole number")
        value = int(text)
        if not low <= value <= high:
            raise argparse.ArgumentTypeError(f"{value} is outside {low}..{high}")
        return value

    return parse


def nonnegative_number(text: str) -> float:
    """An argparse type: a finite number, 0 or more."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number") from None
    if not math.isfinite(value) or value < 0:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number from 0 up")
    return value


def parse_seed(text: str) -> int:
    """A game seed: a whole number (decimal or ``0x`` hex) in ``0..2^32-1``."""
    try:
        value = int(text, 0) if re.fullmatch(r"\s*(0[xX][0-9a-fA-F]+|-?[0-9]+)\s*", text) else None
    except ValueError:
        value = None
    if value is None:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number")
    if not 0 <= value <= 0xFFFFFFFF:
        raise argparse.ArgumentTypeError(f"seed {value} is outside 0..4294967295")
    return value


def add_config_options(parser: argparse.ArgumentParser) -> None:
    """Add ``--seed``, ``--size`` and ``--config FILE`` to a sub-command."""
    parser.add_argument("--seed", type=parse_seed, default=None, help="game seed (0..2^32-1; default 1)")
    parser.add_argument("--size", type=parse_size, default=None, metavar="WxH", help="board size (default 20x30)")
    parser.add_argument(
        "--config",
        type=Path,
        default=None,
        metavar="FILE",
        help="a GameConfig as JSON; --seed and --size override its fields",
    )


def add_rules_option(parser: argparse.ArgumentParser) -> None:
    """Add ``--rules FILE``: a card file or a variant file to play with, from anywhere on disk."""
    parser.add_argument(
        "--rules",
        type=Path,
        default=None,
        metavar="FILE",
        help="play with a card file ({\"common\": [...], \"tactics\": [...]}: its cards join the deck) "
        "or a variant file (docs/cards.md, docs/lab.md)",
    )


def rules_from_args(args: argparse.Namespace) -> Variant | None:
    """The checked rules file of ``--rules``, if given; every problem, with its JSON path, as a `CommandError`."""
    path: Path | None = getattr(args, "rules", None)
    if path is None:
        return None
    try:
        return load_rules_file(path)
    except VariantError as err:
        problems = "\n".join(err.problems)
        count = len(err.problems)
        raise CommandError(
            f"--rules: {count} problem{'s' if count != 1 else ''} in the rules file:\n{problems}",
            hint="taktik cards check FILE checks a card file; docs/cards.md has the language",
        ) from None


def config_from_args(args: argparse.Namespace) -> GameConfig:
    """The `GameConfig` the options describe (not yet checked by the engine: see `game_from_args`);
    a ``--rules`` file is applied on top of it."""
    config = GameConfig()
    if args.config is not None:
        try:
            config = msgspec.json.decode(args.config.read_bytes(), type=GameConfig)
        except OSError as err:
            raise CommandError(f"cannot read config {args.config}: {err.strerror or err}") from None
        except msgspec.DecodeError as err:
            raise CommandError(f"invalid config {args.config}: {err}") from None
    if args.seed is not None:
        config = msgspec.structs.replace(config, seed=args.seed)
    if args.size is not None:
        config = msgspec.structs.replace(config, width=args.size[0], height=args.size[1])
    variant = rules_from_args(args)
    return config if variant is None else apply_variant(config, variant)


def game_from_args(args: argparse.Namespace) -> tuple[GameConfig, GameState]:
    """The config and its starting position; a config the engine refuses is a `CommandError`."""
    config = config_from_args(args)
    return config, start(config)


def start(config: GameConfig) -> GameState:
    """`new_game`, with the engine's reason for refusing a config as a `CommandError`."""
    try:
        return new_game(config)
    except ValueError as err:
        raise CommandError(f"invalid game: {err}", hint="see docs/engine.md for what a config may hold") from None
