"""Error types: malformed input, illegal actions, bad card data, failed replays.

Each is a ``ValueError`` so callers that only care about "bad input" can catch one type;
each carries a human-readable message naming what was wrong.
"""

from __future__ import annotations

__all__ = ["ILLEGAL_ACTION_CODES", "CardDataError", "IllegalAction", "InvalidAction", "InvalidState", "ReplayMismatch"]

ILLEGAL_ACTION_CODES = (
    "already_moved",
    "attack_limit",
    "bad_cell",
    "bad_index",
    "bad_target",
    "cannot_attack",
    "cannot_cancel",
    "cannot_move",
    "cannot_play_tactic",
    "card_blocked",
    "game_over",
    "illegal",
    "move_limit",
    "no_priority",
    "not_declared",
    "not_playable",
    "not_to_act",
    "not_your_unit",
    "off_board",
    "precondition",
    "redeploy_limit",
    "truce",
    "unknown_action",
    "unknown_unit",
    "unreachable",
    "withdraw_limit",
    "wrong_phase",
)
"""Every `IllegalAction.code` the engine raises (the fuzzer's coverage universe; a test keeps it complete)."""


class IllegalAction(ValueError):
    """`reduce` refused a well-formed action: it is not in `legal_actions` now.

    ``code`` is a stable machine-readable reason (``wrong_phase``, ``not_your_unit``,
    ``unreachable`` ...); ``reason`` is the sentence for people.
    """

    def __init__(self, reason: str, code: str = "illegal") -> None:
        super().__init__(reason)
        self.reason = reason
        self.code = code


class InvalidAction(ValueError):
    """`decode_action` refused input that is not a well-formed action.

    The message names the field by its JSON path (``$.to``) and the problem.
    """


class InvalidState(ValueError):
    """`decode_state` refused input that is not a state this engine can play on.

    The message names the field by its JSON path (``$.rules.card_changes.cards[0].op``) and the problem.
    """


class CardDataError(ValueError):
    """The card data file is invalid; the message names the card and the field."""


class ReplayMismatch(ValueError):
    """A replayed state's hash differs from the one stored in the record."""

    def __init__(self, step: int, expected: str, actual: str, action: str) -> None:
        super().__init__(f"step {step} ({action}): stored hash {expected[:16]}… but replay gives {actual[:16]}…")
        self.step = step
        self.expected = expected
        self.actual = actual
        self.action = action
