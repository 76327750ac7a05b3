"""Steps 3-4, refinement and verification: a candidate grid's lines found again and fitted (a
homography that takes out the guess's small errors), then its lines' support, whether it ends
at its outer lines and its premium pattern scored (:class:`GridFound`)."""

from __future__ import annotations

from typing import NamedTuple

import cv2
import numpy as np

from vision.gridfind.found import WEAKEST_LINE, GridFound
from vision.gridfind.geometry import CELL, PAD, QUICK_CELL, _canonical, _grid, squareness
from vision.gridfind.lines import STANDS_OUT, STANDS_OUT_ABS, _edges, _fit_lines, _side_values
from vision.gridfind.pattern import _pattern
from vision.lens import Lens, warp

#: a refinement that moves a corner by more than this many squares is not taken
MOST_MOVED = 0.6
#: of the lines one and two squares beyond an outer line, one stands out along less than this
#: share of its length (a board's edge may be the other)
BEYOND = 0.5
#: a candidate grid whose squares are this far from square (:func:`squareness`) is no grid (a photo
#: cropped off its middle, or a camera whose optical centre is not the middle, looks up to ~1.4)
SQUARENESS = 1.8


def _refine_and_check(small: np.ndarray, corners: np.ndarray, rows: int, cols: int,
                      layout: np.ndarray | None, method: str, refine: int = 2, lens: Lens | None = None) -> GridFound | None:
    """The candidate grid at ``corners`` refined ``refine`` times, then scored; None when it is
    no grid. With a ``lens``, ``corners`` are in its undistorted view, and the grid is seen
    through it."""
    area = cv2.contourArea(corners.astype(np.float32))
    if not np.isfinite(corners).all() or area < 0.02 * small.shape[0] * small.shape[1] or \
            not cv2.isContourConvex(corners.astype(np.float32)) or \
            squareness(corners, small.shape[:2], rows, cols) > SQUARENESS:
        return None
    cell = CELL if refine else QUICK_CELL
    size = ((cols + 2 * PAD) * cell, (rows + 2 * PAD) * cell)
    top: np.ndarray | None = None                         # the canonical image of ``corners``, if warped already
    for _ in range(refine):
        h = _canonical(corners, rows, cols)
        top = warp(small, h, size, lens)
        gx, gy = _edges(top)
        fix = _line_fit(gx, gy, rows, cols)
        if fix is None:
            break
        grid = _grid(rows, cols).reshape(-1, 1, 2).astype(np.float64)
        shift = cv2.perspectiveTransform(grid, np.linalg.inv(fix)) - grid
        moved = cv2.perspectiveTransform(grid, np.linalg.inv(fix @ h)).reshape(4, 2)
        if not np.isfinite(moved).all() or np.abs(shift).max() > MOST_MOVED * CELL:
            break                                        # lines found again far off: glare, a hand, tiles
        corners, top = moved, None
    if top is None:                                      # refined (or not at all): warped again where it is now
        h = _canonical(corners, rows, cols, cell)
        top = warp(small, h, size, lens)
        gx, gy = _edges(top)
    seen = _support(gx, gy, rows, cols, cell)
    pattern = None if layout is None else _pattern(top, layout)
    return GridFound(corners, seen.lines, seen.weakest, pattern, method, seen.ends, outer=seen.outer, unseen=seen.unseen)


def _line_fit(gx: np.ndarray, gy: np.ndarray, rows: int, cols: int) -> np.ndarray | None:
    """The homography that moves the canonical image's grid lines, found again square by
    square and fitted straight, onto their right places; None when too few are found."""
    verticals = _fit_lines(gx, cols + 1, rows)               # x = a + b*y
    horizontals = _fit_lines(gy.T, rows + 1, cols)           # y = c + d*x
    src, dst = _crossings(verticals, horizontals)
    if len(src) < 12:
        return None
    fix, _ = cv2.findHomography(src, dst, cv2.RANSAC, 0.15 * CELL)
    return fix


def _crossings(verticals: np.ndarray, horizontals: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Where the fitted ``verticals`` (x = a + b*y, a row each, NaN: not found) cross the fitted
    ``horizontals`` (y = c + d*x), and where those crossings belong in the canonical image: (n, 2)
    each, row by row (horizontal line ``i``, then vertical ``k``), lines not found and nearly
    parallel pairs left out.

    >>> v = np.array([[48.0, 0.0], [np.nan, np.nan], [80.0, 0.01]])
    >>> h = np.array([[48.0, 0.0], [64.0, -0.02]])
    >>> src, dst = _crossings(v, h)
    >>> src.round(2).tolist(), dst.tolist()
    ([[48.0, 48.0], [80.48, 48.0], [48.0, 63.04], [80.62, 62.39]], [[48.0, 48.0], [80.0, 48.0], [48.0, 64.0], [80.0, 64.0]])
    """
    a, b = verticals[None, :, 0], verticals[None, :, 1]
    c, d = horizontals[:, None, 0], horizontals[:, None, 1]
    den = 1 - b * d
    with np.errstate(divide="ignore", invalid="ignore"):
        x = (a + b * c) / den
        y = c + d * x
    use = np.isfinite(a) & np.isfinite(c) & ~(np.abs(den) < 1e-6)
    i, k = np.nonzero(use)
    place = np.stack([(k + PAD) * CELL, (i + PAD) * CELL], 1).astype(np.float64)
    return np.stack([x[use], y[use]], 1), place


class Support(NamedTuple):
    """How a grid's lines stand out (:func:`_support`)."""

    lines: float  #: the share of the grid lines' square sides that stand out
    weakest: float  #: the least share of any one line
    ends: bool  #: the grid ends at its outer lines (no line goes on beyond them)
    outer: float  #: the least share of the four outer lines
    unseen: int  #: the inner lines that stand out along less than WEAKEST_LINE of their length


def _support(gx: np.ndarray, gy: np.ndarray, rows: int, cols: int, cell: int = CELL) -> Support:
    """The share of the grid lines' square sides that stand out from the squares' middles
    beside them, the least share of any one line, and whether the grid ends where it should
    (of the two lines one and two squares beyond each outer line, one at least stands out along
    less than half its length: the grid does not go on; a board's edge may be one of them); the
    outer lines' least share, and how many inner lines hardly stand out."""
    shares, ends, outer, unseen = [], True, 1.0, 0
    for g, lines, along in ((gx, cols + 1, rows), (gy.T, rows + 1, cols)):
        xs = (np.arange(-2, lines + 2) + PAD) * cell
        line_max = _widened(g, np.concatenate([xs, xs - cell // 2, xs + cell // 2]))   # the lines, the middles beside
        on, before, after = np.split(_side_values(line_max, np.arange(line_max.shape[1]), along, cell), 3, axis=1)
        before[:, 2] = 0.0                            # the outer lines: only the squares inside
        after[:, -3] = 0.0
        share = (on > STANDS_OUT * np.maximum(before, after) + STANDS_OUT_ABS).mean(0)
        shares.extend(share[2:-2].tolist())
        outer = min(outer, float(share[2]), float(share[-3]))
        unseen += int((share[3:-3] < WEAKEST_LINE).sum())
        for beyond in ((share[1], share[0]), (share[-2], share[-1])):   # a board's edge may stand out; two lines do not
            ends = ends and min(beyond) < BEYOND
    return Support(float(np.mean(shares)), float(np.min(shares)), ends, outer, unseen)


def _widened(g: np.ndarray, xs: np.ndarray) -> np.ndarray:
    """The columns ``xs`` of ``g`` (clipped to it), each pixel the largest of itself and its
    neighbours left and right (the first and last columns each other's neighbours): a line a pixel
    off its place still counts.

    >>> g = np.array([[1, 5, 2, 0, 3]], np.float32)
    >>> _widened(g, np.array([0, 2, 3, 4, 9])).tolist()
    [[5.0, 5.0, 3.0, 3.0, 3.0]]
    """
    w = g.shape[1]
    xs = np.clip(xs, 0, w - 1)
    return np.maximum(np.maximum(g[:, (xs - 1) % w], g[:, xs]), g[:, (xs + 1) % w])
