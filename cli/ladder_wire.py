"""Ladder games over the wire: an outside program plays its seat of a live match on a `taktik serve`.

For every ladder game with an outside entry (`lab.ladder.Entry.command`), the ladder asks the
server for a match of the game's config with two seat links (``"opponent": "outside_bot"``,
docs/protocol.md), then at once:

* starts each outside entry's command and writes its seat's link to the command's stdin, one
  line (never on its command line, where other users of the machine could read the token):
  ``taktik join - --bot greedy`` plays that way, and so does any program that reads the link
  from stdin (docs/client-api.md);
* plays each lab bot's seat itself with `client.play`, the bot seeded as in a local game
  (`lab.bots.seat_seed`).

When the match is over, the record is fetched (its seed checked against the commitment the
server published first, `client.fetch_record`), replayed, and rated like any ladder game. An
outside program that exits while its game still runs stops the ladder with its exit code and
the last line it wrote on stderr: a crash is not a result.

This lives in the command line, which may use both the lab and the client: the lab stays a
layer that does no I/O (tests/test_layers.py).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import urllib.error
import urllib.request
from dataclasses import dataclass

import msgspec

from client import BotPolicy, ClientError, JoinOptions, fetch_record, parse_seat_link, play
from client.links import SeatLink
from engine import GameRecord, Side
from lab.bots import seat_seed
from lab.ladder import LadderGame, result_from_record
from lab.selfplay import GameResult

from .errors import CommandError

__all__ = ["WireOptions", "create_match", "play_over_the_wire"]

_GRACE = 10.0  # seconds the other seat may still need once an outside program has exited


@dataclass(frozen=True)
class WireOptions:
    """How the ladder plays on a server."""

    server: str  # http(s)://host:port of a taktik serve
    action_rate: float | None = 2.0  # the lab bots' actions a second after a burst (None: no pacing)
    timeout: float = 30.0  # seconds for one HTTP request


def create_match(game: LadderGame, options: WireOptions) -> dict[Side, SeatLink]:
    """A match for ``game`` on the server, with a link for each seat."""
    body = msgspec.json.encode({"config": game.config, "opponent": "outside_bot"})
    request = urllib.request.Request(f"{options.server.rstrip('/')}/api/matches", data=body, method="POST",
                                     headers={"Content-Type": "application/json", "User-Agent": "taktik-ladder"})
    try:
        with urllib.request.urlopen(request, timeout=options.timeout) as response:
            answer = json.loads(response.read())
    except urllib.error.HTTPError as err:
        reason = _reason(err)
        raise CommandError(f"the server at {options.server} refused a match for game {game.index}: {reason}",
                           code=1) from None
    except (urllib.error.URLError, OSError) as err:
        raise CommandError(f"cannot reach the server at {options.server}: {getattr(err, 'reason', err)}",
                           hint="start one with taktik serve, and pass its address with --server", code=1) from None
    except ValueError:
        raise CommandError(f"{options.server} answered something that is not a taktik server's JSON", code=1) from None
    try:
        return {Side(seat["seat"]): parse_seat_link(seat["url"]) for seat in answer["seats"]}
    except (KeyError, TypeError, ValueError, ClientError):
        raise CommandError(f"{options.server} did not answer with two seat links; is it a taktik server?",
                           code=1) from None


def play_over_the_wire(game: LadderGame, options: WireOptions) -> GameResult:
    """Play ``game`` on the server (see the module doc) and return its result, from the verified record."""
    links = create_match(game, options)
    if set(links) != {Side.ATTACKER, Side.DEFENDER}:
        raise CommandError(f"the server gave no link for each seat of game {game.index}", code=1)
    try:
        commitment = asyncio.run(_play_seats(game, links, options))
        record: GameRecord = fetch_record(links[Side.ATTACKER], commitment)
    except ClientError as err:
        raise CommandError(f"game {game.index} on {options.server}: {err}", code=1) from None
    try:
        return result_from_record(game, record)
    except ValueError as err:
        raise CommandError(f"the record of game {game.index} does not replay: {err}", code=1) from None


async def _play_seats(game: LadderGame, links: dict[Side, SeatLink], options: WireOptions) -> str | None:
    """Both seats at once; the seed commitment a lab seat saw (None if both seats were outside programs)."""
    seed = game.config.seed if game.config.seed is not None else 1
    seats: list[asyncio.Task[str | None]] = []
    programs: list[asyncio.Task[None]] = []
    for side, entry in ((Side.ATTACKER, game.attacker), (Side.DEFENDER, game.defender)):
        if entry.command is not None:
            programs.append(asyncio.create_task(_run_program(entry.label, entry.command, links[side], game.index)))
        else:
            policy = BotPolicy(entry.build(), seat_seed(seed, side))
            join = JoinOptions(action_rate=options.action_rate, claim=False)
            seats.append(asyncio.create_task(_play_seat(links[side], policy, join)))
    try:
        if programs:
            await asyncio.gather(*programs)  # raises CommandError when a program fails
            if seats:
                done, _ = await asyncio.wait(seats, timeout=_GRACE)
                if len(done) < len(seats):
                    labels = ", ".join(e.label for e in (game.attacker, game.defender) if e.outside)
                    raise CommandError(f"game {game.index}: the outside program ({labels}) exited before the game "
                                       "was over", code=1)
        commitments = [await seat for seat in seats]
    finally:
        for task in seats + programs:
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError, CommandError, ClientError):
                await task
    return next((c for c in commitments if c is not None), None)


async def _play_seat(link: SeatLink, policy: BotPolicy, options: JoinOptions) -> str | None:
    result = await play(link, policy, options)
    return result.seed_commitment


async def _run_program(label: str, command: tuple[str, ...], link: SeatLink, index: int) -> None:
    """Run an outside entry's command with the seat link on stdin; CommandError when it fails."""
    try:
        process = await asyncio.create_subprocess_exec(*command, stdin=asyncio.subprocess.PIPE,
                                                       stdout=asyncio.subprocess.DEVNULL,
                                                       stderr=asyncio.subprocess.PIPE)
    except OSError as err:
        raise CommandError(f"--outside {label}: cannot start {command[0]!r}: {err.strerror or err}") from None
    assert process.stdin is not None and process.stderr is not None
    try:
        process.stdin.write(f"{link.base}/play/{link.match_id}#{link.token}\n".encode())
        await process.stdin.drain()
        process.stdin.close()
    except (BrokenPipeError, ConnectionResetError):
        pass  # it exited at once: its code and stderr say why
    try:
        errors = await process.stderr.read()
        code = await process.wait()
    except asyncio.CancelledError:
        with contextlib.suppress(ProcessLookupError):
            process.kill()
        await process.wait()
        raise
    # taktik join answers 0 (won) or 1 (lost); any other program may say 0 either way
    if code not in (0, 1):
        last = next((line for line in reversed(errors.decode(errors="replace").splitlines()) if line.strip()), "")
        raise CommandError(f"--outside {label} failed in game {index} (exit code {code})"
                           + (f": {last.strip()[:300]}" if last else ""), code=1)


def _reason(err: urllib.error.HTTPError) -> str:
    try:
        answer = json.loads(err.read())
        return f"{answer.get('code', err.code)}: {answer.get('reason', '')}"
    except (ValueError, OSError, AttributeError):
        return f"HTTP {err.code}"
