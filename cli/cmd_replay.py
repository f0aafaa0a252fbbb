"""`taktik replay FILE`: replay a game record, verify its hashes and print it."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from engine import IllegalAction, ReplayMismatch, decode_record, encode_action, replay, state_hash
from engine.analysis import encode_text

from .errors import CommandError


def add_parser(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = commands.add_parser("replay", help="replay and verify a game record")
    parser.add_argument("file", type=Path, help="a game record (JSON)")
    parser.add_argument("--quiet", action="store_true", help="print only the final position")
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    try:
        record = decode_record(args.file.read_bytes())
    except (OSError, ValueError) as err:
        raise CommandError(f"cannot read {args.file}: {getattr(err, 'strerror', None) or err}") from None
    state = None
    try:
        for step, state in enumerate(replay(record)):
            if args.quiet:
                continue
            heading = "start" if step == 0 else f"step {step - 1}: {encode_action(record.actions[step - 1])}"
            print(f"== {heading}\n{encode_text(state)}\n")
    except ReplayMismatch as err:
        print(f"taktik replay: MISMATCH at step {err.step}: {err.action}\n"
              f"  the record stores hash {err.expected}, the replay gives {err.actual}", file=sys.stderr)
        return 1
    except (IllegalAction, ValueError) as err:
        raise CommandError(str(err), code=1) from None
    assert state is not None
    if args.quiet:
        print(encode_text(state))
    checked = "verified against stored hashes" if record.hashes is not None else "no stored hashes to verify"
    print(f"replayed {len(record.actions)} actions ({checked}); final hash {state_hash(state)}")
    return 0
