"""The grid finder's geometry: the canonical top-down image a candidate grid is warped into
(:data:`CELL` pixels a square, :data:`PAD` squares round it), corners' order, a square's size,
how far a grid is from another (:func:`corner_error`) and from square (:func:`squareness`)."""

from __future__ import annotations

import cv2
import numpy as np

CELL = 16  #: pixels a square when a candidate grid is refined and checked
QUICK_CELL = 8  #: pixels a square when every candidate grid is checked first, to rank them
PAD = 3  #: squares round the grid in the image it is refined and checked in


def _grid(rows: int, cols: int, cell: int = CELL) -> np.ndarray:
    """The grid's corners in the image it is refined and checked in, ``cell`` pixels a square."""
    return (np.array([[0, 0], [cols, 0], [cols, rows], [0, rows]], np.float32) + PAD) * cell


def drawn_grid(rows: int = 15, cols: int = 15) -> np.ndarray:
    """A plain grid drawn as the canonical image shows one (light paper, dark lines one pixel wide,
    :data:`PAD` squares round it): what the line finders' examples are checked on.

    >>> drawn_grid().shape, int(drawn_grid()[PAD * CELL, PAD * CELL + 5, 0])
    ((336, 336, 3), 40)
    """
    top = np.full(((rows + 2 * PAD) * CELL, (cols + 2 * PAD) * CELL, 3), 230, np.uint8)
    for k in range(cols + 1):
        cv2.line(top, ((k + PAD) * CELL, PAD * CELL), ((k + PAD) * CELL, (rows + PAD) * CELL), (40, 40, 40), 1)
    for k in range(rows + 1):
        cv2.line(top, (PAD * CELL, (k + PAD) * CELL), ((cols + PAD) * CELL, (k + PAD) * CELL), (40, 40, 40), 1)
    return top


def _canonical(corners: np.ndarray, rows: int, cols: int, cell: int = CELL) -> np.ndarray:
    grid = _grid(rows, cols, cell)
    return cv2.getPerspectiveTransform(corners.astype(np.float32), grid)


def _square_side(corners: np.ndarray, rows: int, cols: int) -> float:
    """The mean side of a square, in pixels, of the grid with outer ``corners`` (TL, TR, BR, BL).

    >>> _square_side(np.array([[0, 0], [150, 0], [150, 150], [0, 150]], float), 15, 15)
    10.0
    """
    c = np.asarray(corners, np.float64).reshape(4, 2)
    across = (np.linalg.norm(c[1] - c[0]) + np.linalg.norm(c[2] - c[3])) / (2 * cols)
    down = (np.linalg.norm(c[3] - c[0]) + np.linalg.norm(c[2] - c[1])) / (2 * rows)
    return float((across + down) / 2)


def _clockwise(corners: np.ndarray) -> np.ndarray:
    """Four corners clockwise as seen (y down), from the one nearest the photo's top-left."""
    return corners[_clockwise_order(corners)]


def _clockwise_order(corners: np.ndarray) -> np.ndarray:
    """The order that puts four corners clockwise as seen, from the one nearest the top-left."""
    middle = corners.mean(0)
    order = np.argsort(np.arctan2(corners[:, 1] - middle[1], corners[:, 0] - middle[0]))
    start = int(np.argmin(corners[order].sum(1)))
    return np.roll(order, -start)


def corner_error(found: np.ndarray, truth: np.ndarray, rows: int = 15, cols: int = 15) -> float:
    """The largest distance of a found corner from its true one, in squares (the square's size
    measured along the grid's sides next to that corner), whichever corner the finder starts at.

    >>> sq = np.array([[0, 0], [150, 0], [150, 150], [0, 150]], float)
    >>> corner_error(np.roll(sq, 1, axis=0) + [2.5, 0], sq)
    0.25
    """
    truth = np.asarray(truth, np.float64)
    side = np.array([np.linalg.norm(truth[(k + 1) % 4] - truth[k]) / (cols if k % 2 == 0 else rows) for k in range(4)])
    local = np.array([(side[k] + side[k - 1]) / 2 for k in range(4)])
    best = np.inf
    for order in (found, found[::-1]):
        for shift in range(4):
            d = np.linalg.norm(np.roll(order, shift, axis=0) - truth, axis=1) / local
            best = min(best, float(d.max()))
    return best


def squareness(corners: np.ndarray, shape: tuple[int, int], rows: int = 15, cols: int = 15) -> float:
    """How far from square the grid's squares are, seen by a phone camera (the longer side over
    the shorter, 1.0 square): the camera's focal length is the one that makes the grid's sides
    meet at right angles (Zhang's constraint, the photo's middle taken as the optical centre),
    or the photo's width where the view is too straight on to tell.

    >>> squareness(np.array([[100, 100], [400, 100], [400, 400], [100, 400]], float), (480, 640))
    1.0
    >>> round(squareness(np.array([[100, 100], [400, 100], [400, 300], [100, 300]], float), (480, 640)), 2)
    1.5
    """
    h, w = shape
    grid = np.array([[0, 0], [cols, 0], [cols, rows], [0, rows]], np.float32)
    centred = np.asarray(corners, np.float32) - np.array([w / 2, h / 2], np.float32)
    m = cv2.getPerspectiveTransform(grid, centred)
    h1, h2 = m[:, 0], m[:, 1]
    f2 = -(h1[0] * h2[0] + h1[1] * h2[1]) / (h1[2] * h2[2]) if abs(h1[2] * h2[2]) > 1e-12 else -1.0
    f = float(np.sqrt(f2)) if (0.3 * w) ** 2 < f2 < (4 * w) ** 2 else float(w)
    k = np.array([1 / f, 1 / f, 1.0])
    a, b = float(np.linalg.norm(k * h1)), float(np.linalg.norm(k * h2))
    return max(a, b) / max(min(a, b), 1e-12)
