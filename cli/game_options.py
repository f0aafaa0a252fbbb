"""Options shared by the game commands: how a `GameConfig` is given on the command line."""

from __future__ import annotations

import argparse
import re
from pathlib import Path

import msgspec

from engine import GameConfig

__all__ = ["add_config_options", "config_from_args", "parse_size"]


def parse_size(text: str) -> tuple[int, int]:
    """``"20x30"`` → ``(20, 30)``; argparse-friendly errors otherwise."""
    match = re.fullmatch(r"\s*(\d{1,4})\s*[xX×]\s*(\d{1,4})\s*", text)
    if match is None:
        raise argparse.ArgumentTypeError(f"{text!r} is not a size like 20x30 (columns x rows)")
    return int(match.group(1)), int(match.group(2))


def _seed(text: str) -> int:
    try:
        value = int(text, 0)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None
    if not 0 <= value <= 0xFFFFFFFF:
        raise argparse.ArgumentTypeError(f"seed {value} is outside 0..4294967295")
    return value


def add_config_options(parser: argparse.ArgumentParser) -> None:
    """Add ``--seed``, ``--size`` and ``--config FILE`` to a sub-command."""
    parser.add_argument("--seed", type=_seed, default=None, help="game seed (0..2^32-1; default 1)")
    parser.add_argument("--size", type=parse_size, default=None, metavar="WxH", help="board size (default 20x30)")
    parser.add_argument(
        "--config",
        type=Path,
        default=None,
        metavar="FILE",
        help="a GameConfig as JSON; --seed and --size override its fields",
    )


def config_from_args(args: argparse.Namespace) -> GameConfig:
    """Build the `GameConfig` the options describe; exits with a message when invalid."""
    config = GameConfig()
    if args.config is not None:
        try:
            config = msgspec.json.decode(args.config.read_bytes(), type=GameConfig)
        except (OSError, msgspec.DecodeError) as err:
            raise SystemExit(f"taktik: cannot read config {args.config}: {err}") from None
    if args.seed is not None:
        config = msgspec.structs.replace(config, seed=args.seed)
    if args.size is not None:
        config = msgspec.structs.replace(config, width=args.size[0], height=args.size[1])
    return config
