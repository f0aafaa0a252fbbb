"""`taktik hint RECORD --step N`: what the bot would do at one step of a game, and why.

``RECORD`` is a game record or a downloaded match file (as `taktik replay` reads them). The
game is replayed to the position before action ``N`` (``--step 0`` is the start; the last
step is the finished game, which has no decision), and the seat that must decide there gets
the hint the client's **Hint** button shows (`lab.bots.hint`): the greedy bot's choice on that
seat's own view, with the engine's figures and the bot's estimate of its chance to win. The
action the record played there is printed beside it.
"""

from __future__ import annotations

import argparse
from pathlib import Path

from engine import IllegalAction, ReplayMismatch, encode_action, legal_actions, player_view, replay
from engine.analysis import decision
from lab.bots import hint

from .cmd_replay import read_record_file
from .errors import CommandError
from .game_options import parse_seed, whole_number

__all__ = ["add_parser", "run"]


def add_parser(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = commands.add_parser("hint", help="the bot's advice at one step of a recorded game")
    parser.add_argument("record", type=Path, metavar="RECORD",
                        help="a game record, or a match's record as the server sends it (JSON)")
    parser.add_argument("--step", type=whole_number(0, 10_000_000), required=True, metavar="N",
                        help="the position before the record's action N (0: the start)")
    parser.add_argument("--bot-seed", type=parse_seed, default=0, metavar="N",
                        help="the seed the hint samples hidden cards with (default 0)")
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    record, _ = read_record_file(args.record)
    if args.step > len(record.actions):
        raise CommandError(f"--step {args.step} is past the end: the record has {len(record.actions)} actions "
                           f"(steps 0..{len(record.actions)})")
    state = None
    try:
        for step, reached in enumerate(replay(record)):
            if step == args.step:
                state = reached
                break
    except ReplayMismatch as err:
        raise CommandError(f"the record does not replay: step {err.step} gives another state than it stores",
                           code=1) from None
    except (IllegalAction, ValueError) as err:
        raise CommandError(f"the record does not replay: {err}", code=1) from None
    assert state is not None
    side = state.to_act
    if side is None:
        winner = state.winner.value if state.winner is not None else "nobody"
        raise CommandError(f"at step {args.step} the game is over ({winner} won by {state.victory_reason}): "
                           "there is no decision to hint", hint=f"try a step below {args.step}")
    action, reason = hint(player_view(state, side), legal_actions(state), args.bot_seed)
    what = decision(state)
    print(f"step {args.step}: turn {state.turn}, {state.phase.value}, {side.value} decides ({what.kind.value})")
    print(f"hint: {encode_action(action)}")
    print(f"why: {reason}")
    if args.step < len(record.actions):
        played = record.actions[args.step]
        same = " (the same)" if played == action else ""
        print(f"played: {encode_action(played)}{same}")
    return 0
