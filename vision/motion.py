"""Has anything moved since the last frame? Each frame is shrunk to 160x120 and blurred, and
compared with the one before: a grey-level change above ``level`` anywhere is movement (a hand,
a tumbling die). Cheap enough for every frame (a few milliseconds at 1280x720).

>>> import numpy as np
>>> check = MotionCheck(level=12.0)
>>> frame = np.full((120, 160), 100, np.uint8)
>>> check.moved(frame), check.moved(frame), check.moved(frame + 50)
(True, False, True)
"""

from __future__ import annotations

from typing import Any

import cv2
import numpy as np

from vision.errors import VisionError


class MotionCheck:
    """Remembers the last frame; :meth:`moved` says whether the next differs from it."""

    def __init__(self, level: float):
        self.level = level
        self._previous: np.ndarray | None = None

    def moved(self, frame: np.ndarray) -> bool:
        """Whether ``frame`` (grey or BGR) differs from the frame before (the first always does)."""
        grey = frame if frame.ndim == 2 else cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY)
        small = cv2.GaussianBlur(cv2.resize(grey, (160, 120), interpolation=cv2.INTER_AREA), (5, 5), 0)
        previous, self._previous = self._previous, small
        return previous is None or previous.shape != small.shape or float(cv2.absdiff(small, previous).max()) > self.level


class SteadyReads:
    """When a watcher reads, and when its reads count: the picture still for ``still_seconds``
    (any movement starts the wait again), then a read; another ``still_seconds`` later a second
    read, and only a second that agrees with the first is confirmed.

    >>> import numpy as np
    >>> steady, frame = SteadyReads(0.5, level=12.0), np.zeros((120, 160), np.uint8)
    >>> steady.moved(frame, 0.0), steady.due(0.25), steady.due(0.5)
    (True, False, True)
    >>> steady.agrees("CAT", 0.5), steady.due(0.75), steady.agrees("CAT", 1.0)
    (False, False, True)
    """

    def __init__(self, still_seconds: float, level: float):
        self.still_seconds = still_seconds
        self._motion = MotionCheck(level)
        self._still_since: float | None = None
        self._candidate: object | None = None
        self._candidate_t = 0.0

    def moved(self, frame: np.ndarray, t: float) -> bool:
        """Whether ``frame`` (taken at ``t``) moved; a move forgets the read waiting for agreement."""
        if self._motion.moved(frame):
            self._still_since, self._candidate = t, None
            return True
        return False

    def due(self, t: float) -> bool:
        """Whether to read now: still long enough, and long enough since the read waiting."""
        if self._still_since is None or t - self._still_since < self.still_seconds:
            return False
        return self._candidate is None or t - self._candidate_t >= self.still_seconds

    def forget(self) -> None:
        """The read could not be used (nothing seen, something covered): start agreeing afresh."""
        self._candidate = None

    def agrees(self, read: object, t: float, same=lambda a, b: a == b) -> bool:
        """Whether ``read`` (at ``t``) agrees with the read waiting; if not, it waits instead."""
        if self._candidate is None or not same(read, self._candidate):
            self._candidate, self._candidate_t = read, t
            return False
        self._candidate_t = t
        return True


class SteadyBoard:
    """What the chip and tile watchers share: a board ``reader`` (its reads have ``rows``), the
    rows last ``committed`` (the first agreeing read, unless a ``baseline`` is given), a
    ``status`` in words, and :meth:`confirmed_read`: the read a frame confirms, if any."""

    def __init__(self, reader: Any, *, baseline: list[str] | None = None, still_seconds: float = 0.6,
                 level: float = 14.0):
        self.reader = reader
        self.committed: list[str] | None = list(baseline) if baseline is not None else None
        self.status = "waiting for the board"
        self._steady = SteadyReads(still_seconds, level)

    def unusable(self, read: Any) -> str | None:
        """Why ``read`` cannot be used (a subclass's check, e.g. a hand over the board), or None."""
        return None

    def confirmed_read(self, frame: np.ndarray, t: float) -> Any | None:
        """The read ``frame`` (taken at ``t``) confirms: still long enough, read, usable, agreeing
        with the read before, and not the first (which only sets ``committed``); else None."""
        if self.moved(frame, t):
            return None
        if not self._steady.due(t):
            return None
        try:
            read = self.reader.read(frame)
        except VisionError as error:
            self._steady.forget()
            self.status = str(error)
            return None
        problem = self.unusable(read)
        if problem:
            self._steady.forget()
            self.status = problem
            return None
        if not self._steady.agrees(read.rows, t):
            return None
        if self.committed is None:
            self.committed, self.status = list(read.rows), "watching the board"
            return None
        return read

    def moved(self, frame: np.ndarray, t: float) -> bool:
        if self._steady.moved(frame, t):
            self.status = "something is moving over the board"
            return True
        return False

    def forget(self) -> None:
        """The confirmed read was not taken (too many changes): read afresh."""
        self._steady.forget()
