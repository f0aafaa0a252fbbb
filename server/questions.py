"""Questions about a match's position over the socket: explain, previews, threat maps, hints.

A question changes nothing and gets one answer carrying its ``id`` (docs/protocol.md).
Refusals that depend on who asks and on the moment (a spectator asking for a hint, the
other seat's turn, a match action the clock or presence allows now) cost nothing and are
worked out for each asker. Everything else is the same for every asker of one version:
it is worked out once per match version, viewer seat and question (`Match.answers`,
server/answers.py) and shared. A question no kept answer covers is charged to the asking
address (server/costs.py) and refused with ``rate_limited`` while that address is in debt.

Explanations and previews take well under a millisecond even on the largest board and are
worked out on the event loop, their CPU measured; a threat map (tens of milliseconds) and a
hint (the host's bot, up to tens of milliseconds) go to the analysts (server/analysts.py).
Previews and threat maps read the asking seat's `player_view` only, so they are built from
what it may see; `explain` needs the real position, so only the seat to act gets the
engine's answer, about its own action; a hint is the bot's choice on the seat's own view.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Hashable

import msgspec

from engine import MATCH_ACTION_ORDER, Action, Attack, GameState, Side, encode_action, mix_seed, player_view
from engine.analysis import attack_preview, explain, move_preview

from .analysts import Analysts
from .answers import with_id
from .bots import BotRoster, HintPolicy
from .costs import CpuBudget, billed, metered
from .jobs import threat_answer
from .match import Match
from .protocol import (
    AttackPreviewAnswer,
    Explain,
    Explanation,
    Hint,
    HintAnswer,
    MovePreviewAnswer,
    PreviewAttack,
    PreviewMove,
    ThreatAnswer,
    Threats,
    encode,
)
from .senders import sender_problem

__all__ = ["HINT_SALT", "Question", "Questions", "hint_answer"]

log = logging.getLogger("taktik.questions")

Question = Explain | PreviewMove | PreviewAttack | Threats | Hint

Refusal = ThreatAnswer | HintAnswer | Explanation

HINT_SALT = 0x4817  # a hint's seed: mix_seed(version, HINT_SALT), the same for every asker of a version

_PACK = msgspec.msgpack.Encoder()
_VIEW = msgspec.msgpack.Decoder(GameState)
_LEGAL = msgspec.msgpack.Decoder(tuple[Action, ...])


class Questions:
    """Answers questions for the sockets, charging ``budget`` and sending costly work to ``analysts``."""

    def __init__(self, budget: CpuBudget, analysts: Analysts, bots: BotRoster) -> None:
        self.budget = budget
        self.analysts = analysts
        self.bots = bots

    async def answer(self, match: Match, seat: Side | None, question: Question, address: str) -> str:
        """The encoded answer to ``question`` from ``seat`` (None: a spectator) at ``address``.

        Raises `OverBudget` (the address is in debt) or `Busy` (the analysts are full)
        when it would have to be worked out; any other failure is the caller's to report.
        """
        refusal = self._refusal(match, seat, question)
        if refusal is not None:
            return encode(refusal)
        key = _key(seat, question)
        version = match.version
        found = match.answers.get(version, key)
        if found is None:
            with billed(self.budget, address):  # raises OverBudget before any work
                found = self._work_out(match, seat, question)
            match.answers.keep(version, key, found)
        try:
            text = await asyncio.shield(found)
        except Exception:
            if not isinstance(question, Hint):
                raise
            log.exception("the hint failed in match %s", match.id)
            text = encode(HintAnswer(id=0, version=version, action=None, problem="the hint failed; try again"))
        return with_id(text, question.id)

    # -- what every asker gets alike -------------------------------------------------

    def _work_out(self, match: Match, seat: Side | None, question: Question) -> asyncio.Future[str]:
        """Start working out ``question`` for ``seat`` at the match's current version (in a billed block)."""
        state, version = match.state, match.version
        if isinstance(question, Threats):
            side = question.side or seat
            assert side is not None  # a spectator naming no side was refused
            return self.analysts.submit(threat_answer, _PACK.encode(player_view(state, seat)), side.value, version)
        if isinstance(question, Hint):
            assert seat is not None and self.bots.hint is not None  # refused otherwise
            return self.analysts.submit(hint_answer, self.bots.hint, _PACK.encode(player_view(state, seat)),
                                        _PACK.encode(match.legal()), mix_seed(version, HINT_SALT), version)
        done: asyncio.Future[str] = asyncio.get_running_loop().create_future()
        with metered():
            done.set_result(_on_the_loop(state, version, seat, question))
        return done

    # -- what depends on who asks and when --------------------------------------------

    def _refusal(self, match: Match, seat: Side | None, question: Question) -> Refusal | None:
        """The answer for this asker when it is a refusal (or decided by the moment), else None."""
        version = match.version
        if isinstance(question, Threats) and (question.side or seat) is None:
            return ThreatAnswer(id=question.id, version=version, threats=None, problem="a spectator must name a side")
        if isinstance(question, Hint):
            problem = self._hint_problem(match, seat, self.bots.hint)
            if problem is not None:
                return HintAnswer(id=question.id, version=version, action=None, problem=problem)
        if isinstance(question, Explain):
            return _explain_refusal(match, seat, question)
        return None

    @staticmethod
    def _hint_problem(match: Match, seat: Side | None, advise: HintPolicy | None) -> str | None:
        """Why ``seat`` gets no hint now (None: it gets one). Only the seat that must decide does."""
        to_act = match.state.to_act
        if seat is None:
            return "spectators get no hints"
        if match.status != "live" or to_act is None:
            return "the match is not being played"
        if to_act is not seat:
            return f"{to_act.value} must decide now, not {seat.value}"
        if advise is None:
            return "this server gives no hints"
        return None


def _key(seat: Side | None, question: Question) -> Hashable:
    match question:
        case Explain():
            return "explain", question.action  # the engine's answer is the position's, whoever may send it
        case PreviewMove():
            return "move", seat, question.unit_id
        case PreviewAttack():
            return "attack", seat, question.attacker_id, question.target_id
        case Threats():
            return "threats", seat, question.side or seat
        case Hint():
            return "hint", seat


def _explain_refusal(match: Match, seat: Side | None, question: Explain) -> Explanation | None:
    """`explain`'s answer when it is not the engine's: a spectator, a read-only match, a seat that may not send
    this action now (server/senders.py), or a match action, which the server allows by the clock and presence."""
    version, to_act = match.version, match.state.to_act
    refused: tuple[str, str] | None = None
    if seat is None:
        refused = ("forbidden", "spectators do not act")
    elif match.status == "broken":
        refused = ("forbidden", "this match is read-only")
    elif type(question.action) in MATCH_ACTION_ORDER and match.status == "live":
        if question.action in match.seat_match_actions(seat, match.timer.now()):
            return Explanation(id=question.id, version=version, legal=True)
        refused = ("forbidden", f"{seat.value} may not send {encode_action(question.action)} now "
                                "(see match_actions in your latest state)")
    elif to_act is not None and (wrong := sender_problem(match.state, seat, question.action)):
        refused = wrong
    if refused is None:
        return None
    return Explanation(id=question.id, version=version, legal=False, code=refused[0], reason=refused[1])


def _on_the_loop(state: GameState, version: int, seat: Side | None, question: Question) -> str:
    """The encoded answer (id 0) to an explanation or a preview."""
    match question:
        case Explain():
            problem = explain(state, question.action)
            if problem is None:
                return encode(Explanation(id=0, version=version, legal=True))
            return encode(Explanation(id=0, version=version, legal=False, code=problem.code, reason=problem.reason))
        case PreviewMove():
            try:
                moves = move_preview(player_view(state, seat), question.unit_id)
            except ValueError as err:  # no such unit
                return encode(MovePreviewAnswer(id=0, version=version, preview=None, problem=str(err)))
            return encode(MovePreviewAnswer(id=0, version=version, preview=moves))
        case PreviewAttack():
            attack = Attack(attacker=question.attacker_id, target=question.target_id)
            try:
                odds = attack_preview(player_view(state, seat), attack)
            except ValueError as err:  # a unit unknown or off the board
                return encode(AttackPreviewAnswer(id=0, version=version, preview=None, problem=str(err)))
            return encode(AttackPreviewAnswer(id=0, version=version, preview=odds))
    raise TypeError(f"not answered on the loop: {type(question).__name__}")


def hint_answer(advise: HintPolicy, view: bytes, legal: bytes, seed: int, version: int) -> str:
    """The encoded `HintAnswer` (id 0) of ``advise`` for a seat's view and legal actions (msgpack), as an
    analyst works it out: engine values cross processes encoded, never pickled (server/creation.py says why)."""
    action, reason = advise(_VIEW.decode(view), _LEGAL.decode(legal), seed)
    return encode(HintAnswer(id=0, version=version, action=action, reason=reason))
