"""The lens: the radial distortion (:class:`vision.lens.Lens`) that straightens a grid's lines
(:func:`lens_of`), and the grid found again through it where it earns its place
(:func:`_through_lens`)."""

from __future__ import annotations

from dataclasses import replace

import cv2
import numpy as np

from vision.gridfind.check import _refine_and_check
from vision.gridfind.found import GridFound
from vision.gridfind.geometry import CELL, PAD, _canonical, _square_side
from vision.gridfind.lines import _edges, _line_points
from vision.gridfind.sureness import BENT_IN, bent_in
from vision.lens import Lens, warp

#: the lens distortions tried (:func:`lens_of`): none to a strong phone lens's, either way
LENS_TRIED = np.linspace(-0.16, 0.16, 33)
#: a lens is taken into account when it is at least this strong and its lines straighten this
#: much with it (their spread about straight lines, with it over without it)
LENS_LEAST, LENS_GAIN = 0.03, 0.99
#: ... and the straight grid's outer lines are found this many squares off at their ends at least
#: (:func:`bent_in`, either way), and at least LENS_BETTER squares less off through the lens
LENS_ENDS, LENS_BETTER = 0.03, 0.005
#: the lenses tried (either way, as the ends bend) when the lines are too hidden to measure one
LENS_GUESSES = (0.05, 0.1)
#: ... only when the lines, too hidden to measure a lens clearly, lean that way at least this much
#: (:func:`lens_of`'s ``k``: a photo drawn without a lens whose ends a tile's edge bent took 0.1)
LENS_LEAN = 0.02
#: a lens measured this clearly (the lines' spread through it over without it), where the straight
#: grid's ends are LENS_ENDS off at least, is taken when its grid is convincing and its outer lines'
#: ends are within BENT_IN, even if no nearer than the straight grid's (a pincushion whose straight
#: grid's ends were 0.043 square off, its corners 0.26)
LENS_CLEAR = 0.92
#: a line found further than this many squares off straight counts as this far (a tile's edge)
LENS_CAP = 0.1


def lens_of(image: np.ndarray, corners: np.ndarray, rows: int = 15, cols: int = 15,
            lens: Lens | None = None) -> tuple[float, float]:
    """The lens's radial distortion (:class:`vision.lens.Lens` ``k``, about ``image``'s middle)
    that makes the grid's lines straightest, and how much straighter (the lines' spread about
    straight with it over without it; 1.0 when nothing is gained). The lines are found square
    by square near the grid at ``corners`` (in ``lens``'s undistorted view, if given), and each
    ``k`` of :data:`LENS_TRIED` is tried on them: the one whose lines fit straight lines best.

    >>> from vision.gridfind.geometry import _grid, drawn_grid
    >>> top = drawn_grid()
    >>> k, gain = lens_of(top, _grid(15, 15).astype(np.float64))
    >>> abs(k) < LENS_LEAST
    True
    """
    h_img, w_img = image.shape[:2]
    size = ((cols + 2 * PAD) * CELL, (rows + 2 * PAD) * CELL)
    h = _canonical(corners, rows, cols)
    gx, gy = _edges(warp(image, h, size, lens))
    points, ids = [], []
    for g, lines, along, across in ((gx, cols + 1, rows, True), (gy.T, rows + 1, cols, False)):
        found, good = _line_points(g, lines, along)
        at = np.broadcast_to(((np.arange(along) + PAD + 0.5) * CELL)[:, None], found.shape)
        xy = np.stack([found, at] if across else [at, found], -1)
        points.append(xy[good])
        ids.append(np.broadcast_to(np.arange(lines) + (0 if across else cols + 1), found.shape)[good])
    xy, line = np.concatenate(points), np.concatenate(ids)
    seen = cv2.perspectiveTransform(xy.reshape(-1, 1, 2).astype(np.float64), np.linalg.inv(h)).reshape(-1, 2)
    if lens is not None:
        seen = lens.distort(seen)
        sighted = np.isfinite(seen).all(1)                    # beyond the lens's reach: not in the photo
        seen, line = seen[sighted], line[sighted]
    if len(seen) < 40:
        return 0.0, 1.0
    cap = (LENS_CAP * _square_side(corners, rows, cols)) ** 2
    count = np.bincount(line, minlength=rows + cols + 2).astype(np.float64)
    spread = []
    for k in LENS_TRIED:
        u = Lens(float(k), w_img, h_img).undistort(seen)
        mean = np.stack([np.bincount(line, u[:, i], len(count)) for i in (0, 1)], 1) / np.maximum(count, 1)[:, None]
        c = u - mean[line]
        sxx, syy, sxy = (np.bincount(line, a * b, len(count)) for a, b in ((c[:, 0], c[:, 0]), (c[:, 1], c[:, 1]),
                                                                             (c[:, 0], c[:, 1])))
        angle = 0.5 * np.arctan2(2 * sxy, sxx - syy)          # each line's direction; the normal across it
        normal = np.stack([-np.sin(angle), np.cos(angle)], 1)[line]
        off = (c * normal).sum(1)
        spread.append(float(np.minimum(off * off, cap)[count[line] >= 5].sum()))
    best = int(np.argmin(spread))
    k = float(LENS_TRIED[best])
    if 0 < best < len(spread) - 1:                            # between the tried values
        left, mid, right = spread[best - 1], spread[best], spread[best + 1]
        den = left - 2 * mid + right
        if den > 0:
            k += 0.5 * (left - right) / den * float(LENS_TRIED[1] - LENS_TRIED[0])
    straight = spread[int(np.argmin(np.abs(LENS_TRIED)))]
    return k, spread[best] / straight if straight > 0 else 1.0


def _through_lens(small: np.ndarray, corners: np.ndarray, found: GridFound, rows: int, cols: int,
                  layout: np.ndarray | None, signed: float, framed: float | None = None) -> tuple[GridFound, Lens] | None:
    """The grid at ``corners`` (shrunk-photo pixels) seen through the lens that straightens its
    lines (:func:`lens_of`), refined again through it, and the lens; None when the lines are
    straight enough (no lens at least :data:`LENS_LEAST` strong straightens them by
    :data:`LENS_GAIN`, or their ends are where straight lines put them) or the grid through the
    lens is less convincing, or its outer lines' ends no nearer where the grid puts them
    (:func:`bent_in`). Where the lines are too hidden (tiles on them) for the lens to be measured
    but their ends are bent enough for the straight grid to be refused, the lenses of
    :data:`LENS_GUESSES` that bend them that way are tried. ``signed`` is :func:`bent_in` of the
    grid at ``corners``; ``framed`` (``signed`` if not given), the same with an outer line beside the
    board's frame measured one line in (the final check's: a frame's edge is no reason to guess a
    lens; held-out-5 plain 90088 took a guessed -0.1 and was found 0.43 square off)."""
    k, gain = lens_of(small, corners, rows, cols)
    ends = abs(signed)
    measured = LENS_LEAST <= abs(k) < LENS_TRIED[-1] - 0.5 * (LENS_TRIED[1] - LENS_TRIED[0]) and gain <= LENS_GAIN
    if not ends >= LENS_ENDS:
        return None                                    # the outer lines end where straight lines would
    if measured:
        tried = [k]
    elif abs(bend := signed if framed is None else framed) > BENT_IN and k * np.sign(bend) >= LENS_LEAN:
        tried = [float(np.sign(bend)) * guess for guess in LENS_GUESSES]   # ends in: a barrel (k > 0)
    else:
        return None
    chosen: tuple[float, GridFound, Lens] | None = None
    for each in tried:
        lens = Lens(each, small.shape[1], small.shape[0])
        bent = _refine_and_check(small, lens.undistort(corners), rows, cols, layout, found.method, lens=lens)
        if bent is None or not bent.convincing or bent.lines < found.lines - 0.05 or not _in_sight(bent, lens):
            continue
        off = abs(bent_in(small, bent.corners, rows, cols, lens))
        enough = ends - LENS_BETTER if not measured or gain > LENS_CLEAR else max(ends - LENS_BETTER, BENT_IN)
        if off < enough and off <= BENT_IN and (chosen is None or off < chosen[0]):
            chosen = off, bent, lens
    if chosen is None:
        return None                                    # the lines' ends fit no better through the lens
    off, bent, lens = chosen
    k2, _gain = lens_of(small, bent.corners, rows, cols, lens)   # once more, from the grid through the lens
    if abs(k2 - lens.k) > 0.005:
        again = Lens(k2, small.shape[1], small.shape[0])
        moved = _refine_and_check(small, again.undistort(lens.distort(bent.corners)), rows, cols, layout,
                                  found.method, refine=1, lens=again)
        if moved is not None and moved.convincing and moved.lines >= bent.lines - 0.02 and _in_sight(moved, again) and \
                abs(bent_in(small, moved.corners, rows, cols, again)) <= off + LENS_BETTER:
            bent, lens = moved, again
    return replace(bent, method=f"{found.method}+lens"), lens


def _in_sight(found: GridFound, lens: Lens) -> bool:
    """Whether the grid ``found`` through ``lens`` (its corners in the lens's undistorted view) has
    its corners within the lens's reach (:attr:`vision.lens.Lens.reach`): a lens that would send a
    corner to infinity is no lens of this photo.

    >>> lens = Lens(-0.1, 800, 600)
    >>> grid = GridFound(np.array([[100.0, 100], [700, 100], [700, 500], [100, 500]]), 0.9, 0.5, None, "test")
    >>> _in_sight(grid, lens), _in_sight(replace(grid, corners=grid.corners * 3), lens)
    (True, False)
    """
    return bool(np.isfinite(lens.distort(found.corners)).all())
