"""Sureness: a grid found, looked at once more square by square, is refused when one quarter's
lines are found off where it puts them (:func:`quarter_off`) or its outer lines are bent in or
out at their ends (:func:`bent_in`)."""

from __future__ import annotations

import numpy as np

from vision.gridfind.geometry import CELL, PAD, _canonical
from vision.gridfind.lines import REACH, _both_edges, _edges, _line_peaks
from vision.lens import Lens, warp

#: a grid found is refused when, in one of its four quarters, its lines are found on average this
#: many squares off where the grid puts them (a corner pulled a square or more off by the
#: homography: the lines there are found at the edge of the search, or not at all)
QUARTER_OFF = 0.15
#: a grid found is refused when its outer lines are found this many squares inside or outside it
#: at their ends (:func:`bent_in`: a lens's barrel or pincushion it could not follow)
BENT_IN = 0.075
#: an outer line found this many squares or more outside its place along most of its middle squares
#: lies beside something that outshines it (:func:`_beside_frame`): a frame's edge, or a margin's
#: line just outside the grid (a Hasbro board's black line round its white outer line, 0.12 square
#: out; a deluxe board's dark frame, 0.19 square out on one side and at the search's end on the
#: others: declan-tune 001 and 003, issue 24's seventh round)
FRAMED_OUT = 0.125
#: the outer lines' ends are judged with the sides next to pieces left out (:func:`hide_covered`)
#: only while at least this many of the sixteen sides beside the four corners' squares stay seen
ENDS_SEEN = 4


def quarter_off(image: np.ndarray, corners: np.ndarray, rows: int = 15, cols: int = 15, lens: Lens | None = None) -> float:
    """How far off (squares) the grid at ``corners`` is from the lines seen in ``image``, in its
    worst quarter: each line is looked for up to 0.3 square either side of where the grid puts
    it, along each square's side, and the distances are averaged over each quarter's sides
    where a line stands out (tiles hide some; a quarter where none does counts 0.3 square). With
    ``lens``, ``corners`` are in its undistorted view and the grid is seen through it.

    A grid that fits its lines everywhere stays under ~0.12; one whose corner the homography has
    pulled a square or more off (seen under a hand and glare, and on a small board) is found
    0.17 or more off in that quarter.

    >>> from vision.gridfind.geometry import _grid, drawn_grid
    >>> top = drawn_grid()
    >>> fits = _grid(15, 15).astype(np.float64)
    >>> quarter_off(top, fits) < 0.1
    True
    >>> quarter_off(top, fits + np.array([[0, 0], [0, 0], [0, 0], [-1.5 * CELL, 0]])) > QUARTER_OFF
    True
    """
    return _quarter_off(*_line_offsets(image, corners, rows, cols, lens), rows, cols)


def _quarter_off(across: np.ndarray, down: np.ndarray, rows: int, cols: int) -> float:
    """:func:`quarter_off` from the lines found (:func:`_line_offsets`)."""
    across, down = np.abs(across), np.abs(down)
    worst = 0.0
    for r_squares, r_lines in _halves(rows):
        for c_squares, c_lines in _halves(cols):
            found = np.concatenate([across[r_squares, c_lines].ravel(), down[c_squares, r_lines].ravel()])
            found = found[np.isfinite(found)]
            worst = max(worst, float(found.mean()) if len(found) else 0.3 * CELL)
    return worst / CELL


def _halves(n: int) -> tuple[tuple[slice, slice], tuple[slice, slice]]:
    """The first and last half of ``n`` squares (the middle one left out when ``n`` is odd) and of
    their ``n + 1`` lines."""
    return ((slice(0, n // 2), slice(0, (n + 1) // 2 + (n + 1) % 2)),
            (slice(n - n // 2, n), slice((n + 1) // 2, n + 1)))


def bent_in(image: np.ndarray, corners: np.ndarray, rows: int = 15, cols: int = 15, lens: Lens | None = None) -> float:
    """How far (squares) the grid's four outer lines are found inside where the grid at
    ``corners`` puts them at their ends (the two sides next to each corner), on average; NaN
    where none is seen there (negative: outside). A lens's barrel bends a board's outer lines in
    at their ends, past what one homography fits (the corners found then lie outside the real
    ones), a pincushion out. With ``lens``, ``corners`` are in its undistorted view and the grid
    is seen through it.

    >>> from vision.gridfind.geometry import _grid, drawn_grid
    >>> top = drawn_grid()
    >>> grid = _grid(15, 15).astype(np.float64)
    >>> abs(bent_in(top, grid)) < 0.05
    True
    >>> bent_in(top, grid + np.array([[-3, -3], [3, -3], [3, 3], [-3, 3]])) > BENT_IN
    True
    """
    return _bent_in(*_line_offsets(image, corners, rows, cols, lens), rows, cols)


def _bent_in(across: np.ndarray, down: np.ndarray, rows: int, cols: int, frame: bool = False) -> float:
    """:func:`bent_in` from the lines found (:func:`_line_offsets`). With ``frame``, an outer line
    beside the board's frame (:func:`_framed`) is measured on the line next to it inside instead."""
    found = _outer_ends(across, down, rows, cols, frame)
    return float(found.mean()) / CELL if len(found) else float("nan")


def _outer_ends(across: np.ndarray, down: np.ndarray, rows: int, cols: int, frame: bool = False) -> np.ndarray:
    """How far (pixels) inside its place each outer line is found beside the two squares at each of
    its ends, where it is found (:func:`_bent_in`'s measures, at most sixteen)."""
    inward = []
    framed = _framed(across, down, rows, cols) if frame else set()
    for offsets, n, lines, first in ((across, rows, cols, 0), (down, cols, rows, cols + 1)):
        ends = [0, 1, n - 2, n - 1]
        for line, sign in ((0, 1), (lines, -1)):
            if first + line in framed:
                line += sign                             # the board's frame outshines it: the next line
            inward.append(sign * offsets[ends, line])
    found = np.concatenate(inward)
    return found[np.isfinite(found)]


def bent_in_seen(across: np.ndarray, down: np.ndarray, rows: int, cols: int) -> tuple[float, int]:
    """:func:`bent_in` from the lines found (:func:`_line_offsets`, an outer line beside the
    board's frame measured one line in), and on how many sides (of sixteen) it was measured.

    >>> across, down = np.zeros((15, 16)), np.full((15, 16), np.nan)
    >>> across[[0, 1, 13, 14], 0] = 4.0                 # the left line's ends found a quarter square in
    >>> bent_in_seen(across, down, 15, 15)
    (0.125, 8)
    """
    found = _outer_ends(across, down, rows, cols, frame=True)
    return (float(found.mean()) / CELL if len(found) else float("nan")), len(found)


def hide_covered(across: np.ndarray, down: np.ndarray, covered: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The lines found (:func:`_line_offsets`) with every side beside a square ``covered`` (a
    (rows, cols) mask: a piece lies there) left out, and every side found at the search's end
    (its peak where the search stops: something beyond outshines it): a tile standing on a
    corner square hides the outer lines' ends, and its own edges, found in their place, would
    read as a lens's bend.

    >>> across, down = np.zeros((3, 4)), np.full((3, 4), float(REACH))
    >>> covered = np.zeros((3, 3), bool)
    >>> covered[0, 0] = True
    >>> a, d = hide_covered(across, down, covered)
    >>> np.isnan(a[0]).tolist(), bool(np.isnan(d).all())
    ([True, True, False, False], True)
    """
    rows, cols = covered.shape
    beside_v = np.zeros((rows, cols + 1), bool)            # the vertical lines' sides, row by row
    beside_v[:, :cols] |= covered
    beside_v[:, 1:] |= covered
    beside_h = np.zeros((cols, rows + 1), bool)            # the horizontal lines' sides, column by column
    beside_h[:, :rows] |= covered.T
    beside_h[:, 1:] |= covered.T
    return (np.where(beside_v | (np.abs(across) >= REACH), np.nan, across),
            np.where(beside_h | (np.abs(down) >= REACH), np.nan, down))


def _framed(across: np.ndarray, down: np.ndarray, rows: int, cols: int) -> set[int]:
    """The outer lines (vertical ``0`` and ``cols``, horizontal ``cols + 1`` and ``cols + 1 +
    rows``) that lie beside something outshining them just outside (:func:`_beside_frame`), from
    the lines found (:func:`_line_offsets`)."""
    out = set()
    for offsets, n, lines, first in ((across, rows, cols, 0), (down, cols, rows, cols + 1)):
        for line, sign in ((0, 1), (lines, -1)):
            if _beside_frame(sign * offsets[2:n - 2, line], sign * offsets[2:n - 2, line + sign]):
                out.add(first + line)
    return out


def _beside_frame(inward: np.ndarray, next_in: np.ndarray | None = None) -> bool:
    """Whether an outer line, found at ``inward`` pixels inside its place along its middle squares
    (NaN: not found there), lies beside something that outshines it just outside (the board's
    frame, a light line's dark edge): it is found :data:`FRAMED_OUT` of a square or more outside
    (up to the outer end of the search) along more than half of them, and the next line in
    (``next_in``, the same measure) is not found that far inside its place along most of them (a
    grid too large has its outer line on the frame and its next line in found inside). A lens
    bends a line's ends, not its middle; a grid too small is found off along its next line too.

    >>> _beside_frame(np.array([-4.0, -4.0, -4.0, 0.0, np.nan]))
    True
    >>> _beside_frame(np.array([-2.0, -3.0, -2.0, 0.0, -1.0]), np.array([1.0, 0.0, 1.0, 0.0, 1.0]))
    True
    >>> _beside_frame(np.array([-2.0, -2.0, -2.0, -2.0]), np.array([2.0, 2.0, 2.0, 2.0]))   # a grid too large
    False
    >>> _beside_frame(np.array([-4.0, 1.0, 0.0, 0.0, -2.0]))
    False
    """
    out = min(REACH, FRAMED_OUT * CELL)
    if next_in is not None and (next_in >= out).sum() > 0.5 * len(next_in):
        return False
    return bool((inward <= -out).sum() > 0.5 * len(inward))


def _line_offsets(image: np.ndarray, corners: np.ndarray, rows: int, cols: int,
                  lens: Lens | None = None) -> tuple[np.ndarray, np.ndarray]:
    """The grid at ``corners`` seen square by square (:data:`CELL` pixels a square): how many
    pixels from its place each grid line is found standing out along each square's side (up to
    0.3 square either side, + right or down; NaN on a side where none stands out), for the
    vertical lines (rows' squares, ``cols + 1`` lines) and the horizontal ones (cols' squares,
    ``rows + 1`` lines)."""
    size = ((cols + 2 * PAD) * CELL, (rows + 2 * PAD) * CELL)
    top = warp(image, _canonical(corners, rows, cols), size, lens)
    gx, gy = _edges(top)
    return _offsets(gx, cols + 1, rows), _offsets(gy.T, rows + 1, cols)


def _offsets(g: np.ndarray, lines: int, along: int) -> np.ndarray:
    """For each square's side (along, lines) of the canonical image's grid lines in ``g``, how
    many pixels from its place the line is found standing out (up to 0.3 square either side;
    NaN on a side where none stands out): the middle of its two edges (:func:`_both_edges`), as
    the refinement finds it."""
    offsets, _xs, prof, _j, _peak, good = _line_peaks(g, lines, along)
    return np.where(good, offsets[_both_edges(prof).argmax(2)].astype(np.float64), np.nan)
