"""Geometry of a printed board, in *cell units* (1.0 = one square's side; origin = grid's top-left).

Everything printed is placed relative to the grid, so the same layout serves the A4 and A3
prints, the canonical top-down image and the synthetic scenes.

>>> lay = Layout(rows=13, cols=13)
>>> lay.marker_corners(0)[0].tolist(), lay.width
([-3.0, -3.0], 19.0)
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

#: ArUco dictionary used on printed boards (ids 0..3 = top-left, top-right, bottom-right, bottom-left).
ARUCO_DICT = "DICT_4X4_50"
MARKER_IDS = (0, 1, 2, 3)


@dataclass(frozen=True)
class Layout:
    rows: int
    cols: int
    marker: float = 2.0  #: marker side, cells
    gap: float = 1.0  #: distance between grid and marker (labels live here), cells

    @property
    def outer(self) -> float:
        """Distance from the grid edge to the printed area's edge."""
        return self.gap + self.marker

    @property
    def width(self) -> float:
        return self.cols + 2 * self.outer

    @property
    def height(self) -> float:
        return self.rows + 2 * self.outer

    def marker_corners(self, marker_id: int) -> np.ndarray:
        """The 4 corners (TL, TR, BR, BL order, as ArUco reports them) of marker ``marker_id``."""
        o, m = self.outer, self.marker
        x0 = -o if marker_id in (0, 3) else self.cols + self.gap
        y0 = -o if marker_id in (0, 1) else self.rows + self.gap
        return np.array([(x0, y0), (x0 + m, y0), (x0 + m, y0 + m), (x0, y0 + m)], dtype=np.float64)

    def grid_corners(self) -> np.ndarray:
        """The grid's outline corners TL, TR, BR, BL."""
        return np.array([(0, 0), (self.cols, 0), (self.cols, self.rows), (0, self.rows)], dtype=np.float64)


def grid_squares(image: np.ndarray, cell: int, rows: int, cols: int, offset: int) -> np.ndarray:
    """A view of ``image``'s grid squares as (rows, cols, cell, cell, ...channels): the grid of
    ``cell``-pixel squares whose top-left corner is ``offset`` pixels from the image's (a canonical
    image's margin). Writing into the view writes into ``image``.

    >>> image = np.arange(36).reshape(6, 6)
    >>> grid_squares(image, 2, 2, 2, 1)[1, 0].tolist()
    [[19, 20], [25, 26]]
    """
    grid = image[offset:offset + rows * cell, offset:offset + cols * cell]
    return grid.reshape(rows, cell, cols, cell, *grid.shape[2:]).swapaxes(1, 2)
