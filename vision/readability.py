"""Whether a frame of the board can be read at all: the reader never invents letters from a
board too small in the picture or too blurred, it says why instead ("move the camera closer",
"hold the camera still").

Two measures, taken on the board's grid in the frame:

* **pixels a square**: the grid's shorter side in frame pixels over its squares. Below about
  12 pixels a handwritten letter is a few strokes of a pixel each, and printed lines, noise and
  glare start to read as letters.
* **blur**: the no-reference blur estimate of Crété-Roffet et al., "The blur effect: perception
  and estimation with a new no-reference perceptual blur metric" (SPIE 2007): the picture is
  blurred again, and the share of its neighbour-to-neighbour variation that the re-blur does not
  remove says how sharp it was (0 sharp, 1 all blur). It does not depend on the light's contrast.

* **light**: the paper's brightness (the 90th percentile of the grid's grey levels). Under
  :data:`MIN_PAPER_LEVEL` a marker stroke is a few grey levels darker than the paper round it,
  the sensor's noise as much.

* **glare over the words**: a square whose picture, its printed border lines included, spans
  fewer than :data:`WASHED_CONTRAST` grey levels shows nothing of what is printed or written
  there (glare). When such a square was judged empty in a gap of a word or carrying one on, a
  letter of that word may be under the glare, and the whole read is refused
  (:func:`hidden_by_glare`). On 30
  word scenes of the tuning writers, the three written squares judged empty spanned 14-39 grey
  levels, the written squares read as written at least 60 (one in a thousand), the empty squares
  157 (median; 2.4 % under 48).

The size and blur limits were chosen by ``scripts/fit_readable.py`` on far, tilted, soft camera
scenes (:func:`tabletop.benchmarks.scenes.far_scene`: 9-20 pixels a square, tilt 15-40 degrees,
blur 0.5-2 px, JPEG 55-90) written by the tuning writers: on 229 such scenes (its sweep, run
twice with other seeds than its default, before it was a script) the reader wrote
letters on empty squares of two read at 13.5 and 13.8 pixels a square and of none at 14 or more
(blur at most 0.27); the size limit keeps a pixel to spare.

>>> import numpy as np
>>> sharp = np.zeros((60, 60), np.uint8); sharp[:, ::6] = 255
>>> blur_estimate(sharp) < blur_estimate(__import__("cv2").GaussianBlur(sharp, (0, 0), 2))
True
"""

from __future__ import annotations

from typing import Any

import cv2
import numpy as np

from vision.layout import grid_squares

#: fewer frame pixels than this a square: too small to read (scripts/fit_readable.py)
MIN_SQUARE_PX = 15.0
#: more blur than this (0..1): too blurred to read
MAX_BLUR = 0.27
#: paper darker than this (grey level, 0-255): too dark to read
MIN_PAPER_LEVEL = 60
#: a square (with its border lines) spanning fewer grey levels than this is washed out by glare
WASHED_CONTRAST = 50


def square_pixels(corners: Any, rows: int, cols: int) -> float:
    """The smaller side of a square, in frame pixels, from the grid's four corners (TL, TR, BR, BL).

    >>> square_pixels([[0, 0], [150, 0], [150, 150], [0, 150]], 15, 15)
    10.0
    """
    c = np.asarray(corners, np.float64)
    across = min(np.linalg.norm(c[1] - c[0]), np.linalg.norm(c[2] - c[3])) / cols
    down = min(np.linalg.norm(c[3] - c[0]), np.linalg.norm(c[2] - c[1])) / rows
    return float(min(across, down))


def blur_estimate(gray: np.ndarray) -> float:
    """How blurred a grey picture is, 0 (sharp) to 1 (all blur): the re-blur measure above."""
    picture = gray.astype(np.float32)
    worst = 0.0
    for axis, size in ((0, (1, 9)), (1, (9, 1))):
        again = cv2.blur(picture, size)
        variation = _steps(picture, axis)
        steps = _steps(again, axis)
        kept = cv2.max(cv2.subtract(variation, steps, dst=steps), 0.0, dst=steps)  # type: ignore[call-overload]
        total = float(variation.sum())
        if total > 0:
            worst = max(worst, (total - float(kept.sum())) / total)
    return worst


def _steps(picture: np.ndarray, axis: int) -> np.ndarray:
    """``np.abs(np.diff(picture, axis=axis))``: each pixel's step to the next down (0) or across (1).

    >>> _steps(np.array([[1, 4], [3, 0]], np.float32), 1).tolist()
    [[3.0], [3.0]]
    """
    if axis == 0:
        return cv2.absdiff(picture[1:], picture[:-1])
    return cv2.absdiff(picture[:, 1:], picture[:, :-1])


def unreadable_reason(frame: np.ndarray, corners: Any, rows: int, cols: int) -> str | None:
    """Why the board in ``frame`` (grid ``corners``) cannot be read, in words for the table, or
    ``None`` when it can."""
    pixels = square_pixels(corners, rows, cols)
    if pixels < MIN_SQUARE_PX:
        return (f"the board is too small in the picture (about {pixels:.0f} pixels a square; at least "
                f"{MIN_SQUARE_PX:.0f} are needed): move the camera closer")
    c = np.asarray(corners, np.float64)
    height, width = frame.shape[:2]
    x0, y0 = (max(0, int(v)) for v in c.min(axis=0))
    x1, y1 = (min(limit, int(v) + 1) for v, limit in zip(c.max(axis=0), (width, height)))
    if x1 - x0 < 8 or y1 - y0 < 8:
        return "the board is not in the picture: point the camera at it"
    crop = frame[y0:y1, x0:x1]
    gray = cv2.cvtColor(crop, cv2.COLOR_BGR2GRAY) if crop.ndim == 3 else crop
    paper = float(np.percentile(gray, 90))
    if paper < MIN_PAPER_LEVEL:
        level = f"{paper:.0f}"
        return f"the board is too dark to read (its paper at {level} of 255): turn a light on over the table"
    blur = blur_estimate(gray)
    if blur > MAX_BLUR:
        return f"the picture is too blurred to read ({blur:.2f}; at most {MAX_BLUR} reads): hold the camera still and let it focus"
    return None


def washed_out(canon: np.ndarray, cell: int, rows: int, cols: int, margin: float) -> np.ndarray:
    """(rows, cols) bool: the squares of the canonical image ``canon`` (grid ``margin`` cells from
    its corner, ``cell`` pixels a square) that glare washes out: each with two pixels round it
    (its printed border lines) spans fewer than :data:`WASHED_CONTRAST` grey levels.

    >>> canon = np.full((40, 40, 3), 200, np.uint8); canon[::10] = 60; canon[:, ::10] = 60  # paper, grid lines
    >>> canon[8:22, 18:32] = 250  # glare over the square of row 0, column 1 and its lines
    >>> washed_out(canon, 10, 2, 2, 1.0).tolist()
    [[False, True], [False, False]]
    """
    gray = cv2.cvtColor(canon, cv2.COLOR_BGR2GRAY) if canon.ndim == 3 else canon
    m, pad = int(round(margin * cell)), 2
    height, width = gray.shape[:2]
    if m + rows * cell > height or m + cols * cell > width:  # the grid runs off the image: square by square
        return _washed_out_squares(gray, cell, rows, cols, m, pad)
    # a square's spread with ``pad`` pixels round it, for all squares at once: the grey levels
    # spread over a square of the picture widened by ``pad`` pixels each way (outside the picture
    # the widening takes nothing, as the cut-off patch did)
    around = np.ones((2 * pad + 1, 2 * pad + 1), np.uint8)
    high = grid_squares(cv2.dilate(gray, around), cell, rows, cols, m).max(axis=(2, 3)).astype(int)
    low = grid_squares(cv2.erode(gray, around), cell, rows, cols, m).min(axis=(2, 3)).astype(int)
    return high - low < WASHED_CONTRAST


def _washed_out_squares(gray: np.ndarray, cell: int, rows: int, cols: int, m: int, pad: int) -> np.ndarray:
    """:func:`washed_out` one square at a time, for a grid that runs off the picture."""
    out = np.zeros((rows, cols), bool)
    for r in range(rows):
        for c in range(cols):
            y0, x0 = m + r * cell - pad, m + c * cell - pad
            patch = gray[max(0, y0):y0 + cell + 2 * pad, max(0, x0):x0 + cell + 2 * pad]
            out[r, c] = patch.size > 0 and int(patch.max()) - int(patch.min()) < WASHED_CONTRAST
    return out


def hidden_by_glare(washed: np.ndarray, written: np.ndarray) -> list[tuple[int, int]]:
    """The squares judged empty but washed out (``washed``) where a word's letter may be hidden:
    in a gap of a row or column of ``written`` squares, or carrying on a run of two or more of
    them (beside a word, across its line, a letter would make no word with it). In row order.

    >>> washed = np.array([[False, False, True, False], [False, True, False, False], [False, False, False, True]])
    >>> written = np.array([[True, True, False, False], [False, False, False, False], [False, False, True, False]])
    >>> hidden_by_glare(washed, written)   # (0, 2) carries on AB; (1, 1) is only beside B; (2, 3) beside a lone mark
    [(0, 2)]
    """
    rows, cols = written.shape
    out = []
    for r, c in zip(*np.nonzero(washed & ~written)):
        for dr, dc in ((0, 1), (1, 0)):
            def at(k: int) -> bool:
                y, x = r + k * dr, c + k * dc
                return bool(0 <= y < rows and 0 <= x < cols and written[y, x])

            if (at(1) and at(-1)) or (at(1) and at(2)) or (at(-1) and at(-2)):
                out.append((int(r), int(c)))
                break
    return out


def glare_reason(labels: list[str]) -> str:
    """The reason given for a read refused because glare may hide letters at the squares ``labels``.

    >>> glare_reason(["C4", "D4"])
    'glare may hide letters of a word (C4, D4): tilt the camera or move the light'
    """
    squares = ", ".join(labels)
    return f"glare may hide letters of a word ({squares}): tilt the camera or move the light"
