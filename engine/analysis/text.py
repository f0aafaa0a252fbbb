"""`encode_text`: a readable picture of a position, and `describe_event` for logs."""

from __future__ import annotations

from collections.abc import Callable
from typing import Final

from ..board.grid import column_letters
from ..board.terrain_map import TERRAIN_CHARS
from ..cards.game import card_of
from ..flow.victory import total_vp
from ..flow.windows import reaction_windows
from ..state import HIDDEN, Event, GameState, Rules
from ..tables import unit_stats
from ..types import EventKind, Phase, Side

__all__ = ["describe_event", "encode_text"]


def encode_text(state: GameState) -> str:
    """The position as text: header, board with units, units, cards, effects and whose decision.

    Works on real states and on player views (hidden cards show as ``?``).
    """
    lines = [_header(state), ""]
    lines += _board_lines(state)
    lines.append("")
    lines += _unit_lines(state)
    lines += _card_lines(state)
    lines += _combat_lines(state)
    if state.effects:
        lines.append(
            "effects: "
            + "; ".join(
                f"{e.source_card}({e.controller.value[0]}) {e.hook.value} {e.op} {e.value}"
                + (f" on {','.join(e.targets)}" if e.targets else "")
                for e in state.effects
            )
        )
    return "\n".join(lines)


def _header(state: GameState) -> str:
    if state.phase is Phase.VICTORY:
        winner = state.winner.value if state.winner else "nobody"
        return f"turn {state.turn} (round {state.round}): VICTORY — {winner} wins by {state.victory_reason}"
    decision = state.to_act.value if state.to_act else "nobody"
    why = ""
    windows = reaction_windows(state)
    if state.to_act is not state.active and state.phase is not Phase.DEPLOYMENT:
        why = " (malus victims)" if state.pending_card else f" (reaction window {windows[0].window.value})"
    return (
        f"turn {state.turn} (round {state.round}), {state.active.value} active, phase {state.phase.value}; "
        f"to act: {decision}{why}; actions {state.actions_taken}"
    )


def _board_lines(state: GameState) -> list[str]:
    board = state.board
    at = {u.cell: u.id for u in state.units if u.cell is not None}
    width = max(3, max((len(u) for u in at.values()), default=0) + 1)
    header = "     " + "".join(column_letters(x).ljust(width) for x in range(board.width))
    lines = [header.rstrip()]
    for y, row in enumerate(board.rows):
        cells = []
        for x, ch in enumerate(row):
            cell = f"{column_letters(x)}{y + 1}"
            cells.append((at.get(cell) or ch).ljust(width))
        lines.append(f"{y + 1:>4} " + "".join(cells).rstrip())
    legend = ", ".join(
        f"{ch} {kind.value.lower()}" for ch, (kind, road, river) in TERRAIN_CHARS.items() if not road and not river
    )
    lines.append(f"     legend: {legend}, = road, ~ river, # bridge")
    return lines


def _unit_lines(state: GameState) -> list[str]:
    lines = []
    for side in (Side.ATTACKER, Side.DEFENDER):
        parts = []
        for u in state.units:
            if u.side is side:
                flags = ("m" if u.has_moved else "") + ("a" if u.has_attacked else "")
                parts.append(
                    f"{u.id}:{u.type.value[0]}@{u.cell or '-'} {u.hp}/{unit_stats(u.type, state.rules.tables).hp}"
                    + (f" [{flags}]" if flags else "")
                )
        lines.append(f"{side.value}: " + ", ".join(parts))
    return lines


def _card_lines(state: GameState) -> list[str]:
    top = state.discard_pile[-1] if state.discard_pile else "-"
    lines = [f"cards: draw pile {len(state.draw_pile)}, discard pile {len(state.discard_pile)} (top {top})"]
    for player in state.players:
        destroyed = ",".join(u.id for u in player.destroyed) or "-"
        lines.append(
            f"{player.side.value}: stored [{', '.join(player.stored)}] tactics [{', '.join(player.tactics)}] "
            f"destroyed [{destroyed}] VP {total_vp(state, player.side)}"
        )
    if state.pending_card is not None:
        pending = state.pending_card
        name = "hidden card" if pending.card == HIDDEN else card_of(state.rules, pending.card).name
        status = "accepted, awaiting victims" if pending.accepted else "pending"
        lines.append(f"drawn: {pending.card} ({name}) by {pending.drawer.value}, {status}")
    return lines


def _combat_lines(state: GameState) -> list[str]:
    lines = []
    if state.attack_queue:
        lines.append("queued attacks: " + ", ".join(f"{a.attacker}->{a.target}" for a in state.attack_queue))
    if state.pending_attack is not None:
        lines.append(
            f"pending attack #{state.attack_seq}: {state.pending_attack.attacker}->{state.pending_attack.target}"
        )
    if state.last_roll is not None:
        roll = state.last_roll
        mods = " ".join(f"{m.value:+d} {m.source}" for m in roll.modifiers)
        lines.append(
            f"roll: {roll.natural} {mods} = {roll.modified} vs {roll.required}+ at distance "
            f"{roll.distance}: {roll.outcome}"
        )
    return lines


_SENTENCES: Final[dict[EventKind, Callable[[Event, str, str], str]]] = {
    EventKind.TURN_STARTED: lambda e, who, card: f"turn {e.value}: {who} to play",
    EventKind.PHASE_ENTERED: lambda e, who, card: f"phase {e.detail}",
    EventKind.CARD_DRAWN: lambda e, who, card: f"{who} drew {card}",
    EventKind.DECK_RECYCLED: lambda e, who, card: (
        f"the discard pile was shuffled into a new draw pile ({e.value} cards)"
    ),
    EventKind.BONUS_PLAYED: lambda e, who, card: (
        f"{who} played {card}" + (f" on {e.unit}" if e.unit else "") + (f" at {e.cell}" if e.cell else "")
    ),
    EventKind.BONUS_STORED: lambda e, who, card: f"{who} stored {card}",
    EventKind.BONUS_DISCARDED: lambda e, who, card: f"{who} discarded {card}",
    EventKind.MALUS_ACCEPTED: lambda e, who, card: f"{who} accepted {card}; the opponent picks the victims",
    EventKind.MALUS_APPLIED: lambda e, who, card: f"{card} hits {who}",
    EventKind.MALUS_VICTIM: lambda e, who, card: f"{card} hits {e.unit}",
    EventKind.MALUS_FIZZLED: lambda e, who, card: f"{card} fizzled: {who} has no eligible unit",
    EventKind.MALUS_CANCELLED: lambda e, who, card: f"{who} cancelled {card}",
    EventKind.UNIT_MOVED: lambda e, who, card: f"{who} moved {e.unit} from {e.from_cell} to {e.cell}",
    EventKind.ATTACK_DECLARED: lambda e, who, card: f"{who} declared {e.unit} → {e.target}",
    EventKind.ATTACK_WITHDRAWN: lambda e, who, card: f"{who} withdrew {e.unit}'s attack on {e.target}",
    EventKind.ATTACK_PENDING: lambda e, who, card: f"attack #{e.value}: {e.unit} → {e.target}",
    EventKind.ATTACK_SKIPPED: lambda e, who, card: f"{e.unit} → {e.target} skipped (no longer possible)",
    EventKind.ATTACK_CANCELLED: lambda e, who, card: f"{e.unit} → {e.target} cancelled: {e.detail}",
    EventKind.ATTACK_DROPPED: lambda e, who, card: f"{e.unit} → {e.target} dropped at the end of the turn",
    EventKind.DICE_ROLLED: lambda e, who, card: f"{e.unit} rolled {e.value} against {e.target}: {e.detail}",
    EventKind.DICE_REROLLED: lambda e, who, card: f"{who} re-rolled: {e.value}",
    EventKind.ROLL_CHANGED: lambda e, who, card: f"the roll is now {e.value}: {e.detail}",
    EventKind.CARD_RULE: lambda e, who, card: f"{e.detail}",
    EventKind.ATTACK_HIT: lambda e, who, card: f"{e.unit} hit {e.target}",
    EventKind.ATTACK_MISSED: lambda e, who, card: f"{e.unit} missed {e.target}",
    EventKind.UNIT_DAMAGED: lambda e, who, card: f"{e.unit} was damaged ({e.value} HP)",
    EventKind.UNIT_DESTROYED: lambda e, who, card: f"{e.unit} was destroyed at {e.cell}",
    EventKind.UNIT_RETURNED: lambda e, who, card: f"{e.unit} returned at {e.cell}",
    EventKind.UNIT_RESTORED: lambda e, who, card: f"{e.unit} was restored to full strength",
    EventKind.TACTIC_PLAYED: lambda e, who, card: (
        f"{who} played {card}" + (f" on {e.unit}" if e.unit else "") + (f" ({e.detail})" if e.detail else "")
    ),
    EventKind.REACTION_PASSED: lambda e, who, card: f"{who} passed ({e.detail})",
    EventKind.EFFECT_EXPIRED: lambda e, who, card: f"{card} expired",
    EventKind.POINTS_SCORED: lambda e, who, card: f"{who} scored {e.value} VP from points",
    EventKind.POINT_CAPTURED: lambda e, who, card: f"{who} took {e.cell}",
    EventKind.UNIT_DEPLOYED: lambda e, who, card: f"{who} deployed {e.unit} at {e.cell}",
    EventKind.DEPLOYMENT_CONFIRMED: lambda e, who, card: f"{who} finished deploying",
    EventKind.TIME_RAN_OUT: lambda e, who, card: (
        f"{who} ran out of time" + (f"; {card} is discarded" if e.card else "")
    ),
    EventKind.VICTORY: lambda e, who, card: f"{who} wins ({e.detail})",
}
"""Each event kind's sentence, from the event, its side's name and its card's name (`describe_event`)."""


def describe_event(event: Event, rules: Rules) -> str:
    """One event of a game with ``rules`` in words, for logs: ``"ATTACKER moved A7 from C3 to C5"``.

    Every `EventKind` has its sentence in `_SENTENCES`, so a new kind without words fails its test.
    """
    who = event.side.value if event.side else ""
    card = ("a card" if event.card == HIDDEN else card_of(rules, event.card).name) if event.card else ""
    return _SENTENCES[event.kind](event, who, card)  # tests/engine/test_text.py checks every EventKind
