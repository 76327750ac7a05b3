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

import cv2
import numpy as np


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
