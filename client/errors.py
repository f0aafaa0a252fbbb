"""Why a seat could not be played to the end: one exception type per cause, each said in one line.

Every error of the client library is a `ClientError` whose message is one sentence for a
person (never a traceback, never the seat token) and whose `exit_code` is what
``taktik join`` exits with (docs/client-api.md, "Exit codes").
"""

from __future__ import annotations

from typing import ClassVar

__all__ = ["ClientError", "LinkError", "PolicyError", "ProtocolError", "SeatUnavailable", "ServerGone"]


class ClientError(Exception):
    """The seat could not be played to the end; ``str(error)`` says why in one line."""

    exit_code: ClassVar[int]  # set by each cause below


class LinkError(ClientError):
    """The seat link is wrong: malformed, no such match, or a token that opens no seat."""

    exit_code = 2


class SeatUnavailable(ClientError):
    """The link is right but the seat cannot be played: the match is over or read-only, or another
    client plays this seat."""

    exit_code = 3


class ServerGone(ClientError):
    """The server cannot be reached, or went away and did not come back in time."""

    exit_code = 4


class PolicyError(ClientError):
    """The policy raised, or returned something that is not one of the seat's actions now.

    Such an action is never sent: the server would refuse it, and asking the policy again
    about the same position would only repeat it.
    """

    exit_code = 5


class ProtocolError(ClientError):
    """The server said something this client cannot follow (another protocol or rules version)."""

    exit_code = 6
