"""The table clock: seconds since the game started, the only time the rules ever see.

The session owns it. A :class:`TableClock` runs on ``time.monotonic`` from a starting offset
(0 for a new game, the last journaled time on resume), so a game resumed after a crash or a
power cut continues where its clock stopped; pausing freezes it. A :class:`SimClock` only moves
when told to: the simulated table and the tests drive it.

>>> clock = SimClock()
>>> clock.advance(2.5)
2.5
>>> clock.pause(); _ = clock.advance(1); clock.now(), clock.paused
(2.5, True)
"""

from __future__ import annotations

import threading
import time


class TableClock:
    """A monotonic clock in seconds since the game's start; ``start_at`` continues a resumed game."""

    def __init__(self, start_at: float = 0.0, *, source=time.monotonic):
        self._source = source
        self._lock = threading.Lock()
        self._base = float(start_at)
        self._since = source()
        self.paused = False

    def now(self) -> float:
        with self._lock:
            if self.paused:
                return round(self._base, 3)
            return round(self._base + self._source() - self._since, 3)

    def pause(self) -> None:
        with self._lock:
            if not self.paused:
                self._base += self._source() - self._since
                self.paused = True

    def resume(self) -> None:
        with self._lock:
            if self.paused:
                self._since = self._source()
                self.paused = False

    def set(self, t: float) -> None:
        """Jump to ``t`` (a resumed game's last known time)."""
        with self._lock:
            self._base = float(t)
            self._since = self._source()

    @property
    def simulated(self) -> bool:
        return False


class SimClock(TableClock):
    """A clock that moves only with :meth:`advance` (the simulated table, tests)."""

    def __init__(self, start_at: float = 0.0):
        self._lock = threading.Lock()
        self._base = float(start_at)
        self.paused = False

    def now(self) -> float:
        with self._lock:
            return round(self._base, 3)

    def advance(self, seconds: float) -> float:
        with self._lock:
            if not self.paused:
                self._base += seconds
            return round(self._base, 3)

    def pause(self) -> None:
        self.paused = True

    def resume(self) -> None:
        self.paused = False

    def set(self, t: float) -> None:
        with self._lock:
            self._base = float(t)

    @property
    def simulated(self) -> bool:
        return True
