"""Watching the Sequence Letters board: a video stream in, chip changes out (a chip put down, a
chip taken off), once each, never from a frame with a hand over the board.

Every frame is compared, shrunk and blurred, with the one before: a change anywhere restarts
the wait. When the picture has been still for ``still_seconds`` the chips are read; a second
read ``still_seconds`` later must agree, and no square may be covered by something that is no
chip, before the board is compared with the last one committed. The first agreeing read is the
baseline (unless one is given).

>>> from rules.squares import Square
>>> from tabletop.resources import load_board
>>> from vision.chips import ChipReader
>>> from vision.synth.chipscene import chip_scene
>>> board = load_board("sequence-letters", required=("letters", "colors"))
>>> watcher = ChipWatcher(ChipReader(board), baseline=["." * 8] * 6, still_seconds=0.5)
>>> frames = [chip_scene(board, {}, seed=1, hand=True), chip_scene(board, {Square(0, 1): "b"}, seed=1)]
>>> [c for t, f in enumerate(frames[:1] * 3 + frames[1:] * 6) for c in watcher.feed(f, t * 0.25)]
[ChipChange(square=Square(row=0, col=1), before=None, after='b', t=1.75)]
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from rules.squares import Square
from vision.chips import ChipReader
from vision.motion import SteadyBoard

#: a grey level change (0..255, on the shrunk picture) that counts as movement
MOTION_LEVEL = 14.0


@dataclass(frozen=True)
class ChipChange:
    """A chip put on ``square`` (``before`` None) or taken off it (``after`` None)."""

    square: Square
    before: str | None
    after: str | None
    t: float


class ChipWatcher(SteadyBoard):
    """Frames (and their times, seconds) -> :class:`ChipChange` s; ``status`` in words."""

    def __init__(self, reader: ChipReader, *, baseline: list[str] | None = None, still_seconds: float = 0.6):
        super().__init__(reader, baseline=baseline, still_seconds=still_seconds, level=MOTION_LEVEL)

    def unusable(self, read) -> str | None:
        return f"{len(read.occluded)} pictures covered (a hand over the board?)" if read.occluded else None

    def feed(self, frame: np.ndarray, t: float) -> list[ChipChange]:
        """One frame taken at ``t``; the changes this frame confirms (usually none)."""
        read = self.confirmed_read(frame, t)
        if read is None or self.committed is None:
            return []
        changes = [ChipChange(Square(r, c), None if old == "." else old, None if new == "." else new, t)
                   for r, (old_row, new_row) in enumerate(zip(self.committed, read.rows))
                   for c, (old, new) in enumerate(zip(old_row, new_row)) if old != new]
        self.committed = list(read.rows)
        self.status = "watching the board"
        return changes
