"""Watching a board of letter tiles: a video stream in, moves out (the tiles a player put down,
and any taken up), once each, never from a frame with a hand over the board.

Every frame is compared, shrunk and blurred, with the one before (:class:`vision.motion.SteadyReads`):
a change anywhere restarts the wait. When the picture has been still long enough the tiles are
read; a second read a moment later must agree before the board is compared with the last one
committed. The first agreeing read is the baseline (unless one is given). A move whose squares
were read unsure says so (``unsure``): the table asks the host rather than guessing.

>>> from rules.squares import Square
>>> from tabletop.resources import load_board
>>> from vision.tiles import TileReader
>>> from vision.synth.tilescene import tile_scene
>>> board = load_board("questique", required=("marks",))
>>> watcher = TileWatcher(TileReader(board, "en"), baseline=["." * 19] * 19, still_seconds=0.5)
>>> word = {Square(4, 3): "H", Square(4, 4): "I"}
>>> frames = [tile_scene(board, {}, seed=1, hand=True).frame] * 2 + [tile_scene(board, word, seed=1).frame] * 5
>>> [(m.squares, m.letters) for t, f in enumerate(frames) for m in watcher.feed(f, t * 0.25)]
[((Square(row=4, col=3), Square(row=4, col=4)), ('H', 'I'))]
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from rules.squares import Square
from vision.motion import SteadyBoard
from vision.tiles import EMPTY, TileReader

#: a grey level change (0..255, on the shrunk picture) that counts as movement
MOTION_LEVEL = 14.0
#: more changed squares than this in one move is no move: a bumped board, a hand, a new game
MOST_CHANGED = 15


@dataclass(frozen=True)
class TileMove:
    """Tiles put down (``letters``: a capital, or ``?`` for a blank tile) on ``squares``, and the
    squares whose tiles were taken up (``taken``); ``unsure`` when any of them was read unsure."""

    squares: tuple[Square, ...]
    letters: tuple[str, ...]
    taken: tuple[Square, ...]
    unsure: bool
    t: float


class TileWatcher(SteadyBoard):
    """Frames (and their times, seconds) -> :class:`TileMove` s; ``status`` in words."""

    def __init__(self, reader: TileReader, *, baseline: list[str] | None = None, still_seconds: float = 0.6):
        super().__init__(reader, baseline=baseline, still_seconds=still_seconds, level=MOTION_LEVEL)

    def feed(self, frame: np.ndarray, t: float) -> list[TileMove]:
        """One frame taken at ``t``; the move this frame confirms (usually none)."""
        read = self.confirmed_read(frame, t)
        if read is None or self.committed is None:
            return []
        changed = [Square(r, c) for r, (old_row, new_row) in enumerate(zip(self.committed, read.rows))
                   for c, (old, new) in enumerate(zip(old_row, new_row)) if old != new]
        if not changed:
            self.status = "watching the board"
            return []
        if len(changed) > MOST_CHANGED:
            self.forget()
            self.status = f"{len(changed)} squares changed at once: is something lying on the board?"
            return []
        unsure = set(read.unsure)
        put = tuple(sq for sq in changed if read.rows[sq.row][sq.col] != EMPTY)
        move = TileMove(put, tuple(read.rows[sq.row][sq.col] for sq in put),
                        tuple(sq for sq in changed if read.rows[sq.row][sq.col] == EMPTY),
                        any(sq in unsure for sq in changed), t)
        self.committed = list(read.rows)
        self.status = "watching the board"
        return [move]
