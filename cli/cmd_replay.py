"""`taktik replay FILE`: replay a game record, verify its hashes and print it."""

from __future__ import annotations

import argparse
from pathlib import Path

from engine import IllegalAction, ReplayMismatch, decode_record, encode_action, encode_text, replay, state_hash


def add_parser(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = commands.add_parser("replay", help="replay and verify a game record")
    parser.add_argument("file", type=Path, help="a game record (JSON)")
    parser.add_argument("--quiet", action="store_true", help="print only the final position")
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    try:
        record = decode_record(args.file.read_bytes())
    except (OSError, ValueError) as err:
        print(f"taktik replay: cannot read {args.file}: {err}")
        return 2
    state = None
    try:
        for step, state in enumerate(replay(record)):
            if args.quiet:
                continue
            heading = "start" if step == 0 else f"step {step - 1}: {encode_action(record.actions[step - 1])}"
            print(f"== {heading}\n{encode_text(state)}\n")
    except ReplayMismatch as err:
        print(
            f"taktik replay: MISMATCH at step {err.step}: {err.action}\n  stored {err.expected}\n  replay {err.actual}"
        )
        return 1
    except (IllegalAction, ValueError) as err:
        print(f"taktik replay: {err}")
        return 1
    assert state is not None
    if args.quiet:
        print(encode_text(state))
    checked = "verified against stored hashes" if record.hashes is not None else "no stored hashes to verify"
    print(f"replayed {len(record.actions)} actions ({checked}); final hash {state_hash(state)}")
    return 0
