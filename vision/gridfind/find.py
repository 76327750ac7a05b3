"""The public find: :func:`find_grid` searches the shrunk photo (:mod:`.search`), then polishes the
grid found, sees it through the lens that bends it (:mod:`.lensfit`) and checks it
(:mod:`.sureness`, its corners in the photo)."""

from __future__ import annotations

from dataclasses import replace
from typing import Callable

import cv2
import numpy as np

from vision.errors import BoardNotFound
from vision.gridfind.check import _refine_and_check
from vision.gridfind.found import PATTERN_CLEAR, SURE, GridFound, GridNotFound
from vision.gridfind.geometry import CELL, _clockwise_order, _square_side
from vision.gridfind.lensfit import _through_lens
from vision.gridfind.pattern import _layout_classes
from vision.gridfind.search import GRID_LIKE, _crossed, _first_search, _shifts, _windows
from vision.gridfind.sureness import BENT_IN, ENDS_SEEN, QUARTER_OFF, _bent_in, _line_offsets, _quarter_off, \
    bent_in_seen, hide_covered

WORK_SIDE = 960  #: the photo is searched shrunk to this many pixels on its longer side
#: the grid's corners may lie at most this share of a square outside the photo: a photo cropped to
#: the board (or warped top-down by another program) has its outer lines on the photo's edges, and
#: the corners found there fall a little either side of them; a board cut off by a square or more
#: is refused
OUTSIDE = 0.25
#: a grid found that spans fewer than this many times its refined size's pixels in the shrunk
#: photo is refined once more on the photo itself
POLISH_BELOW = 1.5
#: at most this many refinements of the grid found (each taken only while more lines stand out)
POLISH_STEPS = 3

#: which squares hold a piece (a (rows, cols) boolean mask), given the grid's four corners in the
#: photo: the tile reader's glance (:meth:`vision.tiles.TileReader.covered`)
Covered = Callable[[np.ndarray], np.ndarray]


def find_grid(frame: np.ndarray, rows: int, cols: int, premiums: tuple[str, ...] | None = None,
              covered: Covered | None = None) -> GridFound:
    """The grid of ``rows`` x ``cols`` squares in ``frame`` (BGR), or :class:`GridNotFound`.

    ``premiums`` is the board's premium layout (one string a row, ``.`` a plain square, any
    other character a class of premium square), used to tell candidate grids apart. ``covered``
    says which squares of a grid found hold pieces: a grid whose outer lines' ends look bent is
    then judged on the sides no piece hides (tiles on the corner squares), not refused outright.

    >>> from tabletop.resources import load_board
    >>> from vision.synth.tilescene import tile_scene
    >>> shot = tile_scene(load_board("examples/boards/boxed-15x15.toml", required=()), {}, seed=3,
    ...                   style="commercial")
    >>> found = find_grid(shot.frame, 15, 15)
    >>> bool(np.abs(found.corners - shot.corners).max() < 0.25 * 960 / 15)
    True
    """
    small, scale = _shrink(frame)
    gray = cv2.cvtColor(small, cv2.COLOR_BGR2GRAY)
    layout = _layout_classes(premiums, rows, cols)
    best, planes, seen, tried = _first_search(small, gray, rows, cols, layout)
    if best is None or not best.every_line_seen:                # an arm's or faint lines' grid: look on
        best = _crossed(small, planes, seen, best, rows, cols, layout, tried)
    if best is None or not best.every_line_seen:
        best = _shifts(small, tried, best, rows, cols, layout)
    windowed = best is None or not best.every_line_seen
    if windowed:
        windows: list[GridFound] = []
        best = _windows(small, planes, seen, best, rows, cols, layout, windows)
        if best is None or not best.every_line_seen:            # a window's lines, its first line wrong
            best = _shifts(small, windows, best, rows, cols, layout)
    if best is not None and not best.convincing and best.bounded and best.lines >= GRID_LIKE and \
            best.pattern is not None and best.pattern >= PATTERN_CLEAR:
        polished, corners = _polish(frame, small, scale, best, rows, cols, layout)   # nearly: refined once more
        best = replace(polished, corners=corners * scale)
    if best is None or not best.convincing:
        raise GridNotFound(f"no grid of {rows}x{cols} squares was found in the photo (give its corners with --corners)")
    try:
        return _finished(frame, small, scale, best, rows, cols, layout, covered)
    except GridNotFound:
        if windowed:
            raise
        other = _windows(small, planes, seen, None, rows, cols, layout)   # a small board under a grid-like table
        if other is None or not other.convincing or np.abs(other.corners - best.corners).max() < 2.0:
            raise
        return _finished(frame, small, scale, other, rows, cols, layout, covered)


def _finished(frame: np.ndarray, small: np.ndarray, scale: float, best: GridFound, rows: int, cols: int,
              layout: np.ndarray | None, covered: Covered | None = None) -> GridFound:
    """The grid ``best`` (shrunk-photo pixels) polished, seen through the lens that bends it, and
    checked (:func:`quarter_off`, :func:`bent_in`, its corners in the photo), in the photo's
    pixels; or :class:`GridNotFound`. Outer lines' ends that look bent are looked at again with
    the sides beside pieces left out (:func:`_bent_by_lens`) when ``covered`` is given."""
    h, w = frame.shape[:2]
    best, corners = _polish(frame, small, scale, best, rows, cols, layout)
    straight, lens = corners * scale, None                 # the grid in the shrunk photo's undistorted view
    offsets = _line_offsets(small, straight, rows, cols)  # its lines, found once for the lens and the checks
    bent = _through_lens(small, straight, best, rows, cols, layout, _bent_in(*offsets, rows, cols),
                         _bent_in(*offsets, rows, cols, frame=True))
    if bent is not None:
        best, lens = bent
        straight, corners = best.corners, lens.distort(best.corners) / scale
    margin = OUTSIDE * _square_side(corners, rows, cols)
    if (corners < -margin).any() or (corners[:, 0] > w + margin).any() or (corners[:, 1] > h + margin).any():
        raise GridNotFound("the grid runs out of the photo: take it again with the whole board in view")
    if lens is not None:
        offsets = _line_offsets(small, straight, rows, cols, lens)
    if _quarter_off(*offsets, rows, cols) > QUARTER_OFF:
        raise GridNotFound("the grid found does not fit the board's lines in one corner: take the photo again")
    if abs(_bent_in(*offsets, rows, cols, frame=True)) > BENT_IN and \
            _bent_by_lens(offsets, corners, rows, cols, covered):      # a frame's edge beside an outer line is no bend
        raise GridNotFound("the board's lines are bent by the lens: take the photo again from further away")
    order = _clockwise_order(corners)
    return replace(best, corners=corners[order], lens=0.0 if lens is None else lens.k,
                   straight=None if lens is None else straight[order] / scale)


def _bent_by_lens(offsets: tuple[np.ndarray, np.ndarray], corners: np.ndarray, rows: int, cols: int,
                  covered: Covered | None) -> bool:
    """Whether the grid at ``corners`` (the photo's pixels), whose outer lines' ends are found off
    where it puts them (``offsets``: :func:`_line_offsets`), is bent there by the lens rather than
    hidden: True unless ``covered`` says which squares hold pieces and, with the sides beside them
    left out (and those found at the search's end), at least :data:`ENDS_SEEN` sides are still seen
    and the ends are within :data:`BENT_IN` there."""
    if covered is None:
        return True
    try:
        mask = _covered_as_found(covered, corners, rows, cols)
    except BoardNotFound:                                 # the squares could not be looked at: bent, as before
        return True
    bend, seen = bent_in_seen(*hide_covered(*offsets, mask), rows, cols)
    return seen < ENDS_SEEN or not abs(bend) <= BENT_IN


def _covered_as_found(covered: Covered, corners: np.ndarray, rows: int, cols: int) -> np.ndarray:
    """``covered``'s mask for the grid at ``corners`` (the photo's pixels, in the order the grid was
    found: its first row and column where the lines were found) turned to that order: ``covered``
    is asked with the corners clockwise from the one nearest the top-left, as a reader takes them.

    >>> corners = np.array([[100.0, 0], [100, 100], [0, 100], [0, 0]])   # found from the top-right
    >>> top_left = np.zeros((3, 3), bool)
    >>> top_left[0, 0] = True                            # the photo's top-left square holds a piece
    >>> _covered_as_found(lambda c: top_left, corners, 3, 3).astype(int).tolist()   # found: its last row's first
    [[0, 0, 0], [0, 0, 0], [1, 0, 0]]
    """
    order = _clockwise_order(corners)
    seen = np.asarray(covered(corners[order]), bool).reshape(rows, cols)
    unit = np.array([[0, 0], [1, 0], [1, 1], [0, 1]], np.float32)
    to_seen = cv2.getPerspectiveTransform(unit[order], unit)     # the found grid's unit square to the asked one's
    u, v = np.meshgrid((np.arange(cols) + 0.5) / cols, (np.arange(rows) + 0.5) / rows)
    there = cv2.perspectiveTransform(np.stack([u, v], -1).reshape(-1, 1, 2), to_seen).reshape(rows, cols, 2)
    c = np.clip((there[..., 0] * cols).astype(int), 0, cols - 1)
    r = np.clip((there[..., 1] * rows).astype(int), 0, rows - 1)
    return seen[r, c]


def _polish(frame: np.ndarray, small: np.ndarray, scale: float, best: GridFound, rows: int, cols: int,
            layout: np.ndarray | None) -> tuple[GridFound, np.ndarray]:
    """The grid found, refined further, and its corners in the photo: a small grid on the photo
    itself (its squares have more pixels there), and one whose lines do not all stand out again
    and again while more of them do (a grid a little twisted by glare or a hand comes true)."""
    sides = np.linalg.norm(best.corners - np.roll(best.corners, 1, axis=0), axis=1)
    small_grid = scale < 1 and sides.mean() < POLISH_BELOW * CELL * max(rows, cols)
    image, k = (frame, 1 / scale) if small_grid else (small, 1.0)
    current = replace(best, corners=best.corners * k)
    for step in range(POLISH_STEPS):
        if not small_grid and current.lines >= SURE or small_grid and step > 0 and current.lines >= SURE:
            break
        polished = _refine_and_check(image, current.corners, rows, cols, layout, best.method, refine=1)
        if polished is None or not polished.convincing or (step > 0 or not small_grid) and \
                polished.lines <= current.lines:
            break
        current = polished
    return current, current.corners / (k * scale)


def _shrink(frame: np.ndarray) -> tuple[np.ndarray, float]:
    """The photo shrunk to about :data:`WORK_SIDE` pixels on its longer side, and the scale:
    first by a whole factor (pixels averaged in blocks, many times faster than any other
    factor), then, if still much larger, to the size."""
    h, w = frame.shape[:2]
    k = max(1, int(max(h, w) / WORK_SIDE))
    if k > 1:
        frame = cv2.resize(frame[:h - h % k, :w - w % k], (w // k, h // k), interpolation=cv2.INTER_AREA)
    scale = 1.0 / k
    if max(frame.shape[:2]) > 1.2 * WORK_SIDE:
        extra = WORK_SIDE / max(frame.shape[:2])
        frame = cv2.resize(frame, None, fx=extra, fy=extra, interpolation=cv2.INTER_AREA)
        scale *= extra
    return frame, scale
