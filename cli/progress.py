"""A one-line progress bar on stderr for the long commands (selfplay, fuzz).

``[####..........] 12/100 games 3.1 s/each ETA 4m31s · 48,210 decisions  last: mcts (round_limit)``

Games finish in whole steps, and one MCTS game takes a minute or more, so the bar also
keeps a moving count of decisions played: a run that sits at ``0/1`` is visibly working.
"""

from __future__ import annotations

import sys
import time
from typing import TextIO

__all__ = ["Progress", "duration"]


class Progress:
    """Redraws one line in place (``\\r``); plain text, no terminal control codes."""

    def __init__(self, total: int, what: str, stream: TextIO | None = None, width: int = 30,
                 every: float = 0.2) -> None:
        self.total = max(1, total)
        self.what = what
        self.stream = stream if stream is not None else sys.stderr
        self.width = width
        self.every = every  # seconds between redraws caused by decisions alone
        self.started = time.monotonic()
        self.done = 0
        self.decided = 0
        self.note = ""
        self._drawn = 0.0

    def update(self, done: int, note: str | None = None) -> None:
        """``done`` items are finished; redraw at once."""
        self.done = done
        if note is not None:
            self.note = note
        self._draw()

    def decisions(self, count: int) -> None:
        """``count`` decisions have been played so far; redraw now and then."""
        self.decided = count
        if time.monotonic() - self._drawn >= self.every:
            self._draw()

    def finish(self) -> None:
        """Clear the bar and end the line with the totals."""
        played = f", {self.decided:,} decisions" if self.decided else ""
        self.stream.write(f"\r{' ' * 119}\r{self.done}/{self.total} {self.what}{played} in "
                          f"{duration(time.monotonic() - self.started)}\n")
        self.stream.flush()

    def _draw(self) -> None:
        self._drawn = time.monotonic()
        elapsed = self._drawn - self.started
        done = self.done
        bar = "#" * (self.width * done // self.total) + "." * (self.width - self.width * done // self.total)
        rate = f"{elapsed / done:.1f} s/each" if done else "-"
        eta = duration(elapsed / done * (self.total - done)) if done else "?"
        decided = f" · {self.decided:,} decisions" if self.decided else ""
        line = f"\r[{bar}] {done}/{self.total} {self.what} {rate} ETA {eta}{decided} {self.note}"
        self.stream.write(line.ljust(119)[:120])
        self.stream.flush()


def duration(seconds: float) -> str:
    """``4m31s``, or ``1h05m`` past an hour."""
    minutes, secs = divmod(int(seconds), 60)
    hours, minutes = divmod(minutes, 60)
    return f"{hours}h{minutes:02d}m" if hours else f"{minutes}m{secs:02d}s"
