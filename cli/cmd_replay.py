"""`taktik replay FILE`: replay a game record, verify its hashes and print it.

``FILE`` is a bare `GameRecord` (what `taktik play`, `taktik selfplay` and `taktik balance`
write) or a match file: the answer of ``GET /api/matches/<id>/record``, which the end
screen's "Download record" saves. A match file whose seed is revealed (the game is over)
has the seed and salt checked against the commitment the server published when the match
was created, with the server's own function (`server.seeds.verify`), before the replay.
While a match runs the server withholds its seed, so its file cannot be replayed yet; a
match file that carries a seed without revealing it is replayed without that check.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import msgspec

from engine import (
    GameRecord,
    IllegalAction,
    ReplayMismatch,
    decode_record,
    encode_action,
    replay,
    state_hash,
)
from engine.analysis import encode_text
from server.records import RecordView
from server.seeds import verify

from .errors import CommandError


def add_parser(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = commands.add_parser("replay", help="replay and verify a game record or a downloaded match file")
    parser.add_argument("file", type=Path, help="a game record, or a match's record as the server sends it (JSON)")
    parser.add_argument("--quiet", action="store_true", help="print only the final position")
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    record, match = read_record_file(args.file)
    dice = dice_check(match) if match is not None else None
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
    if dice is not None:
        print(dice)
    return 0


def read_record_file(path: Path) -> tuple[GameRecord, RecordView | None]:
    """The record in ``path`` and, for a downloaded match file, the whole answer it came in."""
    try:
        raw = path.read_bytes()
    except OSError as err:
        raise CommandError(f"cannot read {path}: {err.strerror or err}") from None
    if not raw.strip():
        raise CommandError(f"{path} is empty: there is no game record in it")
    try:
        parsed = msgspec.json.decode(raw)
    except msgspec.DecodeError as err:
        raise CommandError(f"cannot read {path}: not JSON ({err})") from None
    if isinstance(parsed, dict) and "match_id" in parsed:
        try:
            match = msgspec.json.decode(raw, type=RecordView)
        except msgspec.ValidationError as err:
            raise CommandError(f"cannot read {path}: invalid match file: {err}") from None
        return match.record, match
    try:
        return decode_record(raw), None
    except ValueError as err:
        raise CommandError(f"cannot read {path}: {err}") from None


def dice_check(match: RecordView) -> str:
    """What a match file proves about its dice; a `CommandError` when it proves they were not fixed at the start.

    The revealed seed and salt must open the published commitment, and the record must be
    played from that seed. Without a revealed seed there is nothing to check: the record
    replays only if it carries its seed anyway.
    """
    seed, salt, published = match.seed, match.salt, match.seed_commitment
    if seed is None or salt is None:
        if match.record.config.seed is None:
            why = ("but this file does not reveal its seed" if match.status == "over" else
                   "and the server reveals its seed only once the game is over (download the record again then)")
            raise CommandError(f"match {match.match_id} is {match.status} {why}; without the seed the map, the "
                               "cards and the dice cannot be rebuilt", code=1)
        return (f"dice not verified: match {match.match_id} is {match.status}, so the server has not revealed "
                "the seed and salt that open its commitment")
    if not verify(seed, salt, published):
        raise CommandError(f"match {match.match_id}: seed {seed} and salt {salt} do not open the published "
                           f"commitment {published}: the dice cannot be trusted", code=1)
    if match.record.config.seed != seed:
        raise CommandError(f"match {match.match_id}: the record is played from seed {match.record.config.seed}, "
                           f"not from the revealed seed {seed}", code=1)
    return (f"dice verified: seed {seed} and salt {salt} open the commitment {published} published when match "
            f"{match.match_id} began: every die and shuffle came from a seed fixed before the first move")
