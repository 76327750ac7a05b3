"""Finding a boxed board's grid in a photo without markers and without corners typed by hand.

A boxed crossword board has no markers, but its grid is plain to see: two families of evenly
spaced lines (``rows + 1`` and ``cols + 1`` of them) and, on most boards, a pattern of coloured
premium squares. :func:`find_grid` looks for it in five steps, on the photo shrunk to
:data:`WORK_SIDE` pixels:

1. **Candidate planes.** The photo's line segments (OpenCV's LSD, on a contrast-evened copy)
   are grouped by their strongest vanishing points (RANSAC over pairs of segments); two points
   give a homography under which both families of lines are parallel and axis-aligned (the
   board's plane seen from straight above, up to a stretch). The two strongest families come
   first, then the board's outline where it stands out from the table as a four-sided shape,
   then a third family with either of the first two (stripes on the table can outshine a grid).
2. **The lattice.** Each candidate plane is warped top-down; the columns' and rows' edge
   profiles (the median along each: a grid line runs the whole way, labels do not) are folded
   over every spacing; at the best spacing, and two and three times it, the ``cols + 1``
   (``rows + 1``) consecutive lines that stand out most from the middles between them, and
   the runner-up windows, make candidate grids.
3. **Refinement.** Each candidate grid is warped at :data:`CELL` pixels a square and checked
   once; the likeliest few have each grid line found again side by side, fitted straight, and
   the lines' crossings fit a homography that takes out the first guess's small errors.
4. **Verification.** A grid is taken (:attr:`GridFound.convincing`) when it stops at its outer
   lines and its lines stand out from the squares' middles beside them along their length,
   and, where the board file has a premium layout, the squares' colours are grouped the way the
   layout groups them (any palette, best of four turns, tiles on some squares tolerated). With
   none convincing, the likeliest grids are moved by up to :data:`SHIFT` squares each way and
   checked again; still none (or the one taken refused by step 5's checks), each plane is
   searched again in windows where lines run both ways (:data:`WINDOWS`: a small board on a
   busy table). The best is kept; a photo where no candidate is convincing, or where the
   grid's corners leave the photo, is refused (:class:`GridNotFound`), never guessed.
5. **The lens.** A grid whose lines straighten through a lens's radial distortion
   (:func:`lens_of`, :class:`vision.lens.Lens`) and whose outer lines' ends then fit better is
   refined again through that lens; its corners are reported where they are seen
   (:attr:`GridFound.lens`, :attr:`GridFound.straight`). A grid found that its lines do not
   bear out everywhere is refused: one quarter's lines found off where the grid puts them
   (:func:`quarter_off`: a corner pulled off), or the outer lines bent in or out at their ends
   (:func:`bent_in`: a lens the grid could not follow).

>>> import numpy as np
>>> try:
...     find_grid(np.full((480, 640, 3), 200, np.uint8), 15, 15)
... except GridNotFound as e:
...     print(e)
board not found: no grid of 15x15 squares was found in the photo (give its corners with --corners)
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from vision.errors import BoardNotFound
from vision.lens import Lens, warp

WORK_SIDE = 960  #: the photo is searched shrunk to this many pixels on its longer side
SEGMENT_SIDE = 720  #: line segments are looked for at this size
PLANE_SIDE = 640  #: the candidate plane is warped to at most this many pixels
CELL = 16  #: pixels a square when a candidate grid is refined and checked
QUICK_CELL = 8  #: pixels a square when every candidate grid is checked first, to rank them
PAD = 3  #: squares round the grid in the image it is refined and checked in
#: a grid line stands out along a square's side when its edge strength is this much above the
#: squares' middles beside it (times, plus grey levels)
STANDS_OUT, STANDS_OUT_ABS = 1.25, 12.0
#: a grid is taken on its lines when this share of the lines' sides stand out, and every line
#: stands out along at least WEAKEST_LINE of its length
ACCEPT, WEAKEST_LINE = 0.55, 0.1
#: premium squares that follow the layout this closely also say where the grid ends
PATTERN_SURE = 0.75
#: a grid whose premium squares follow the layout this clearly needs only this share of its lines
PATTERN_CLEAR, ACCEPT_WITH_PATTERN = 0.65, 0.45
#: with a premium layout, at least this share of the premium squares must have their class's colour
PATTERN = 0.5
#: the pattern is measured on the premium squares not covered by tiles, as if at most this share were
COVERED_AT_MOST = 0.5
#: a grid found that spans fewer than this many times its refined size's pixels in the shrunk
#: photo is refined once more on the photo itself
POLISH_BELOW = 1.5
#: at most this many refinements of the grid found (each taken only while more lines stand out)
POLISH_STEPS = 3
#: a refinement that moves a corner by more than this many squares is not taken
MOST_MOVED = 0.6
#: the candidates of a plane refined (the best by their first check)
REFINED = 3
#: how many squares a likely grid is moved each way when none is convincing, if its lines'
#: share is this much at least (else nothing there looks like a grid)
SHIFT, GRID_LIKE = 2, 0.35
#: with none convincing, each plane is searched again in windows this share of its shorter side
#: where lines run both ways (a small board on a busy table)
WINDOWS = (0.25, 0.4, 0.6)
#: a candidate this sure ends the search (lines, pattern)
SURE, SURE_PATTERN = 0.8, 0.6
#: a convincing candidate whose premium squares follow the layout this closely ends it too
SURE_BY_PATTERN = 0.85
#: of the lines one and two squares beyond an outer line, one stands out along less than this
#: share of its length (a board's edge may be the other)
BEYOND = 0.5
#: a candidate grid whose squares are this far from square (:func:`squareness`) is no grid (a photo
#: cropped off its middle, or a camera whose optical centre is not the middle, looks up to ~1.4)
SQUARENESS = 1.8
#: the grid's corners may lie at most this share of a square outside the photo: a photo cropped to
#: the board (or warped top-down by another program) has its outer lines on the photo's edges, and
#: the corners found there fall a little either side of them; a board cut off by a square or more
#: is refused
OUTSIDE = 0.25
#: a grid found is refused when, in one of its four quarters, its lines are found on average this
#: many squares off where the grid puts them (a corner pulled a square or more off by the
#: homography: the lines there are found at the edge of the search, or not at all)
QUARTER_OFF = 0.15
#: a grid found is refused when its outer lines are found this many squares inside or outside it
#: at their ends (:func:`bent_in`: a lens's barrel or pincushion it could not follow)
BENT_IN = 0.075
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
        if self.pattern is not None and self.pattern >= SURE_BY_PATTERN and self.convincing:
            return True                                  # tiles hide many lines, the layout shows plainly
        return self.bounded and self.lines >= SURE and (self.pattern is None or self.pattern >= SURE_PATTERN)

    @property
    def convincing(self) -> bool:
        """Whether this grid is taken: it ends at its outer lines, and either the premium
        squares' colours follow the layout clearly and most lines stand out, or the lines stand
        out on their own (every one along part of its length at least)."""
        if not self.bounded:
            return False
        if self.pattern is not None and self.pattern >= PATTERN_CLEAR and self.lines >= ACCEPT_WITH_PATTERN and \
                self.weakest > 0:
            return True
        return self.lines >= ACCEPT and self.weakest >= WEAKEST_LINE and (self.pattern is None or self.pattern >= PATTERN)


def find_grid(frame: np.ndarray, rows: int, cols: int, premiums: tuple[str, ...] | None = None) -> GridFound:
    """The grid of ``rows`` x ``cols`` squares in ``frame`` (BGR), or :class:`GridNotFound`.

    ``premiums`` is the board's premium layout (one string a row, ``.`` a plain square, any
    other character a class of premium square), used to tell candidate grids apart.

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
    best: GridFound | None = None
    seen: list[np.ndarray] = []
    tried: list[GridFound] = []
    planes = []
    for method, plane, size in _planes(gray):
        planes.append((method, plane, size))
        quick = []
        for guess in _lattice_guesses(small, plane, size, rows, cols):
            if any(np.abs(guess - other).max() < 2.0 for other in seen):
                continue
            seen.append(guess)
            first = _refine_and_check(small, guess, rows, cols, layout, method, refine=0)
            if first is not None:
                quick.append(first)
        quick.sort(key=lambda f: -f.score)
        tried.extend(quick[:1])
        for first in quick[:REFINED]:                   # the likeliest few refined and checked again
            found = _refine_and_check(small, first.corners, rows, cols, layout, method)
            if found is not None and found.bounded and (best is None or found.score > best.score):
                best = found
            if best is not None and best.sure:
                break                                    # a clear grid: the others need not be looked at
        if best is not None and best.sure:
            break
    if best is None or not best.convincing:
        best = _shifts(small, tried, best, rows, cols, layout)
    windowed = best is None or not best.convincing
    if windowed:
        best = _windows(small, planes, seen, best, rows, cols, layout)
    if best is None or not best.convincing:
        raise GridNotFound(f"no grid of {rows}x{cols} squares was found in the photo (give its corners with --corners)")
    try:
        return _finished(frame, small, scale, best, rows, cols, layout)
    except GridNotFound:
        if windowed:
            raise
        other = _windows(small, planes, seen, None, rows, cols, layout)   # a small board under a grid-like table
        if other is None or not other.convincing or np.abs(other.corners - best.corners).max() < 2.0:
            raise
        return _finished(frame, small, scale, other, rows, cols, layout)


def _finished(frame: np.ndarray, small: np.ndarray, scale: float, best: GridFound, rows: int, cols: int,
              layout: np.ndarray | None) -> GridFound:
    """The grid ``best`` (shrunk-photo pixels) polished, seen through the lens that bends it, and
    checked (:func:`quarter_off`, :func:`bent_in`, its corners in the photo), in the photo's
    pixels; or :class:`GridNotFound`."""
    h, w = frame.shape[:2]
    best, corners = _polish(frame, small, scale, best, rows, cols, layout)
    straight, lens = corners * scale, None                 # the grid in the shrunk photo's undistorted view
    offsets = _line_offsets(small, straight, rows, cols)  # its lines, found once for the lens and the checks
    bent = _through_lens(small, straight, best, rows, cols, layout, _bent_in(*offsets, rows, cols))
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
    if abs(_bent_in(*offsets, rows, cols)) > BENT_IN:
        raise GridNotFound("the board's lines are bent by the lens: take the photo again from further away")
    order = _clockwise_order(corners)
    return GridFound(corners[order], best.lines, best.weakest, best.pattern, best.method,
                     lens=0.0 if lens is None else lens.k, straight=None if lens is None else straight[order] / scale)


def _through_lens(small: np.ndarray, corners: np.ndarray, found: GridFound, rows: int, cols: int,
                  layout: np.ndarray | None, signed: float) -> tuple[GridFound, Lens] | None:
    """The grid at ``corners`` (shrunk-photo pixels) seen through the lens that straightens its
    lines (:func:`lens_of`), refined again through it, and the lens; None when the lines are
    straight enough (no lens at least :data:`LENS_LEAST` strong straightens them by
    :data:`LENS_GAIN`, or their ends are where straight lines put them) or the grid through the
    lens is less convincing, or its outer lines' ends no nearer where the grid puts them
    (:func:`bent_in`). Where the lines are too hidden (tiles on them) for the lens to be measured
    but their ends are bent enough for the straight grid to be refused, the lenses of
    :data:`LENS_GUESSES` that bend them that way are tried. ``signed`` is :func:`bent_in` of the
    grid at ``corners``."""
    k, gain = lens_of(small, corners, rows, cols)
    ends = abs(signed)
    measured = LENS_LEAST <= abs(k) < LENS_TRIED[-1] - 0.5 * (LENS_TRIED[1] - LENS_TRIED[0]) and gain <= LENS_GAIN
    if not ends >= LENS_ENDS:
        return None                                    # the outer lines end where straight lines would
    if measured:
        tried = [k]
    elif ends > BENT_IN and k * np.sign(signed) >= LENS_LEAN:
        tried = [float(np.sign(signed)) * guess for guess in LENS_GUESSES]   # ends in: a barrel (k > 0)
    else:
        return None
    chosen: tuple[float, GridFound, Lens] | None = None
    for each in tried:
        lens = Lens(each, small.shape[1], small.shape[0])
        bent = _refine_and_check(small, lens.undistort(corners), rows, cols, layout, found.method, lens=lens)
        if bent is None or not bent.convincing or bent.lines < found.lines - 0.05:
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
        if moved is not None and moved.convincing and moved.lines >= bent.lines - 0.02 and \
                abs(bent_in(small, moved.corners, rows, cols, again)) <= off + LENS_BETTER:
            bent, lens = moved, again
    return GridFound(bent.corners, bent.lines, bent.weakest, bent.pattern, f"{found.method}+lens", bent.ends), lens


def _windows(small: np.ndarray, planes: list, seen: list[np.ndarray], best: GridFound | None,
             rows: int, cols: int, layout: np.ndarray | None) -> GridFound | None:
    """With no convincing grid yet: each plane's windows where lines run both ways
    (:func:`_window_guesses`: a small board on a busy table), their grids checked, and the
    likeliest refined."""
    for method, plane, size in planes:
        quick = []
        for guess in _window_guesses(small, plane, size, rows, cols):
            if any(np.abs(guess - other).max() < 2.0 for other in seen):
                continue
            seen.append(guess)
            first = _refine_and_check(small, guess, rows, cols, layout, method + "+window", refine=0)
            if first is not None:
                quick.append(first)
        quick.sort(key=lambda f: -f.score)
        for first in quick[:REFINED]:
            found = _refine_and_check(small, first.corners, rows, cols, layout, first.method)
            if found is not None and found.bounded and (best is None or found.score > best.score):
                best = found
        if best is not None and best.sure:
            break
    return best


def _square_side(corners: np.ndarray, rows: int, cols: int) -> float:
    """The mean side of a square, in pixels, of the grid with outer ``corners`` (TL, TR, BR, BL).

    >>> _square_side(np.array([[0, 0], [150, 0], [150, 150], [0, 150]], float), 15, 15)
    10.0
    """
    c = np.asarray(corners, np.float64).reshape(4, 2)
    across = (np.linalg.norm(c[1] - c[0]) + np.linalg.norm(c[2] - c[3])) / (2 * cols)
    down = (np.linalg.norm(c[3] - c[0]) + np.linalg.norm(c[2] - c[1])) / (2 * rows)
    return float((across + down) / 2)


def _polish(frame: np.ndarray, small: np.ndarray, scale: float, best: GridFound, rows: int, cols: int,
            layout: np.ndarray | None) -> tuple[GridFound, np.ndarray]:
    """The grid found, refined further, and its corners in the photo: a small grid on the photo
    itself (its squares have more pixels there), and one whose lines do not all stand out again
    and again while more of them do (a grid a little twisted by glare or a hand comes true)."""
    sides = np.linalg.norm(best.corners - np.roll(best.corners, 1, axis=0), axis=1)
    small_grid = scale < 1 and sides.mean() < POLISH_BELOW * CELL * max(rows, cols)
    image, k = (frame, 1 / scale) if small_grid else (small, 1.0)
    current = GridFound(best.corners * k, best.lines, best.weakest, best.pattern, best.method, best.ends)
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


def _shifts(small: np.ndarray, tried: list[GridFound], best: GridFound | None, rows: int, cols: int,
            layout: np.ndarray | None) -> GridFound | None:
    """With no convincing grid yet: each plane's likeliest grid moved by up to two squares each
    way (the right spacing, the wrong first line: a board's edge or a row of tiles looked like
    the grid's end), checked, and the likeliest refined."""
    moved = []
    for first in sorted((f for f in tried if f.lines >= GRID_LIKE), key=lambda f: -f.score)[:2]:
        inv = np.linalg.inv(_canonical(first.corners, rows, cols))
        for dy in range(-SHIFT, SHIFT + 1):
            for dx in range(-SHIFT, SHIFT + 1):
                if dx or dy:
                    grid = _grid(rows, cols).astype(np.float64) + np.array([dx, dy]) * CELL
                    corners = cv2.perspectiveTransform(grid.reshape(-1, 1, 2), inv).reshape(4, 2)
                    found = _refine_and_check(small, corners, rows, cols, layout, first.method, refine=0)
                    if found is not None and found.bounded:
                        moved.append(found)
    for first in sorted(moved, key=lambda f: -f.score)[:REFINED]:
        found = _refine_and_check(small, first.corners, rows, cols, layout, first.method)
        if found is not None and found.bounded and (best is None or found.score > best.score):
            best = found
    return best


def quarter_off(image: np.ndarray, corners: np.ndarray, rows: int = 15, cols: int = 15, lens: Lens | None = None) -> float:
    """How far off (squares) the grid at ``corners`` is from the lines seen in ``image``, in its
    worst quarter: each line is looked for up to 0.3 square either side of where the grid puts
    it, along each square's side, and the distances are averaged over each quarter's sides
    where a line stands out (tiles hide some; a quarter where none does counts 0.3 square). With
    ``lens``, ``corners`` are in its undistorted view and the grid is seen through it.

    A grid that fits its lines everywhere stays under ~0.12; one whose corner the homography has
    pulled a square or more off (seen under a hand and glare, and on a small board) is found
    0.17 or more off in that quarter.

    >>> top = np.full((21 * CELL, 21 * CELL, 3), 230, np.uint8)
    >>> for k in range(16):
    ...     _ = cv2.line(top, ((k + PAD) * CELL, PAD * CELL), ((k + PAD) * CELL, 18 * CELL), (40, 40, 40), 1)
    ...     _ = cv2.line(top, (PAD * CELL, (k + PAD) * CELL), (18 * CELL, (k + PAD) * CELL), (40, 40, 40), 1)
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

    >>> top = np.full((21 * CELL, 21 * CELL, 3), 230, np.uint8)
    >>> for k in range(16):
    ...     _ = cv2.line(top, ((k + PAD) * CELL, PAD * CELL), ((k + PAD) * CELL, 18 * CELL), (40, 40, 40), 1)
    ...     _ = cv2.line(top, (PAD * CELL, (k + PAD) * CELL), (18 * CELL, (k + PAD) * CELL), (40, 40, 40), 1)
    >>> grid = _grid(15, 15).astype(np.float64)
    >>> abs(bent_in(top, grid)) < 0.05
    True
    >>> bent_in(top, grid + np.array([[-3, -3], [3, -3], [3, 3], [-3, 3]])) > BENT_IN
    True
    """
    return _bent_in(*_line_offsets(image, corners, rows, cols, lens), rows, cols)


def _bent_in(across: np.ndarray, down: np.ndarray, rows: int, cols: int) -> float:
    """:func:`bent_in` from the lines found (:func:`_line_offsets`)."""
    ends = [0, 1, rows - 2, rows - 1], [0, 1, cols - 2, cols - 1]
    inward = np.concatenate([across[ends[0], 0], -across[ends[0], cols], down[ends[1], 0], -down[ends[1], rows]])
    inward = inward[np.isfinite(inward)]
    return float(inward.mean()) / CELL if len(inward) else float("nan")


def lens_of(image: np.ndarray, corners: np.ndarray, rows: int = 15, cols: int = 15,
            lens: Lens | None = None) -> tuple[float, float]:
    """The lens's radial distortion (:class:`vision.lens.Lens` ``k``, about ``image``'s middle)
    that makes the grid's lines straightest, and how much straighter (the lines' spread about
    straight with it over without it; 1.0 when nothing is gained). The lines are found square
    by square near the grid at ``corners`` (in ``lens``'s undistorted view, if given), and each
    ``k`` of :data:`LENS_TRIED` is tried on them: the one whose lines fit straight lines best.

    >>> top = np.full((21 * CELL, 21 * CELL, 3), 230, np.uint8)
    >>> for k in range(16):
    ...     _ = cv2.line(top, ((k + PAD) * CELL, PAD * CELL), ((k + PAD) * CELL, 18 * CELL), (40, 40, 40), 1)
    ...     _ = cv2.line(top, (PAD * CELL, (k + PAD) * CELL), (18 * CELL, (k + PAD) * CELL), (40, 40, 40), 1)
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
    NaN on a side where none stands out)."""
    offsets, _xs, _prof, j, _peak, good = _line_peaks(g, lines, along)
    return np.where(good, offsets[j].astype(np.float64), np.nan)


def _line_peaks(g: np.ndarray, lines: int, along: int):
    """Where each of ``lines`` canonical grid lines stands out most beside each of ``along``
    squares, up to 0.3 square either side: (offsets tried, their x for each line, the profile
    (along, lines, offsets), the peak's index and value, whether the peak stands out)."""
    reach = int(0.3 * CELL)
    offsets = np.arange(-reach, reach + 1)
    xs = ((np.arange(lines) + PAD) * CELL)[:, None] + offsets[None, :]
    prof = _side_values(g, xs.ravel(), along).reshape(along, lines, len(offsets))
    j = prof.argmax(2)
    peak = np.take_along_axis(prof, j[..., None], 2)[..., 0]
    good = peak > STANDS_OUT * np.median(prof, axis=2) + STANDS_OUT_ABS
    return offsets, xs, prof, j, peak, good


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


# ---- 1. candidate planes -------------------------------------------------------------------

def _planes(gray: np.ndarray):
    """(method, homography from the shrunk photo to a plane, plane size) candidates."""
    planes = _vanishing_planes(gray)
    first = next(planes, None)
    if first is not None:
        yield "lines", *first
    for quad in _outlines(gray):
        side = PLANE_SIDE
        target = np.array([[0, 0], [side, 0], [side, side], [0, side]], np.float32) * 0.9 + 0.05 * side
        yield "outline", cv2.getPerspectiveTransform(quad.astype(np.float32), target), (side, side)
    for plane in planes:                                # a third family of lines with either of the first two
        yield "lines", *plane


_LSD = None
_CLAHE = cv2.createCLAHE(clipLimit=3.0, tileGridSize=(8, 8))


def _segments(gray: np.ndarray) -> np.ndarray:
    """The photo's line segments (n, 4) longer than 1.2% of its side, longest first."""
    global _LSD
    if _LSD is None:
        _LSD = cv2.createLineSegmentDetector(cv2.LSD_REFINE_NONE)
    shrink = SEGMENT_SIDE / max(gray.shape)
    looked = cv2.resize(gray, None, fx=shrink, fy=shrink, interpolation=cv2.INTER_AREA)
    found = _LSD.detect(_CLAHE.apply(looked))[0]     # faint lines (a dark board, dim light) evened up
    if found is None:
        return np.zeros((0, 4))
    seg = found.reshape(-1, 4).astype(np.float64) / shrink
    length = np.hypot(seg[:, 2] - seg[:, 0], seg[:, 3] - seg[:, 1])
    seg = seg[length > 0.012 * max(gray.shape)]
    order = np.argsort(-np.hypot(seg[:, 2] - seg[:, 0], seg[:, 3] - seg[:, 1]))
    return seg[order[:500]]


def _vanishing_planes(gray: np.ndarray):
    """Homographies that make two families of the photo's lines parallel to the axes, and the
    planes' sizes: the two strongest families first, then the pairs with a third and a fourth
    (stripes, ruled paper or a table's edges may be stronger than a faint grid)."""
    seg = _segments(gray)
    if len(seg) < 20:
        return
    h, w = gray.shape
    norm = np.array([[2 / max(h, w), 0, -w / max(h, w)], [0, 2 / max(h, w), -h / max(h, w)], [0, 0, 1]])
    p = np.hstack([seg[:, :2], np.ones((len(seg), 1))]) @ norm.T
    q = np.hstack([seg[:, 2:], np.ones((len(seg), 1))]) @ norm.T
    lines = np.cross(p, q)
    lines /= np.linalg.norm(lines[:, :2], axis=1, keepdims=True)
    mid = (p[:, :2] + q[:, :2]) / 2
    d = q[:, :2] - p[:, :2]
    weight = np.linalg.norm(d, axis=1)
    d /= weight[:, None]
    rng = np.random.default_rng(0)
    families: list[tuple[np.ndarray, np.ndarray]] = []
    usable = np.ones(len(seg), bool)
    pairs = ((0, 1), (0, 2), (1, 2), (0, 3), (1, 3), (2, 3))
    for a, b in pairs:
        while len(families) <= b:
            found = _ransac_vp(lines, mid, d, weight, usable, rng)
            if found is None:
                return
            families.append(found)
            usable &= _sin_to(found[0], mid, d) > np.sin(np.radians(15))   # the next family points elsewhere
        plane = _plane_of(families[a], families[b], seg, p, q, norm)
        if plane is not None:
            yield plane


def _plane_of(first, second, seg, p, q, norm):
    """The plane in which the lines of the ``first`` and ``second`` families (vanishing point,
    inliers) run along x and y, and its size; None when they cannot be one plane's."""
    (v1, in1), (v2, in2) = first, second
    horizon = np.cross(v1, v2)
    if abs(horizon[2]) < 1e-9:
        return None
    horizon = horizon / horizon[2]
    points = np.vstack([p[in1 | in2], q[in1 | in2]])
    side = points @ horizon
    if (side > 0).mean() < 0.9:
        return None                                   # segments on both sides of the horizon: not one plane
    hp = np.array([[1, 0, 0], [0, 1, 0], horizon])
    d1, d2 = (hp @ v1)[:2], (hp @ v2)[:2]
    basis = np.array([d1 / np.linalg.norm(d1), d2 / np.linalg.norm(d2)]).T
    if abs(np.linalg.det(basis)) < 0.2:
        return None                                   # the two families nearly parallel
    affine = np.eye(3)
    affine[:2, :2] = np.linalg.inv(basis)
    m = affine @ hp @ norm                         # lines through v1 now run along x
    ends = np.vstack([seg[in1 | in2, :2], seg[in1 | in2, 2:]])
    mapped = cv2.perspectiveTransform(ends.reshape(-1, 1, 2), m).reshape(-1, 2)
    lo, hi = np.percentile(mapped, 1, axis=0), np.percentile(mapped, 99, axis=0)
    extent = hi - lo
    if not np.isfinite(extent).all() or (extent <= 0).any():
        return None
    lo, extent = lo - 0.06 * extent, extent * 1.12
    k = PLANE_SIDE / extent.max()
    fit = np.array([[k, 0, -lo[0] * k], [0, k, -lo[1] * k], [0, 0, 1]])
    size = (int(np.ceil(extent[0] * k)), int(np.ceil(extent[1] * k)))
    if min(size) < 100 or max(extent) / min(extent) > 4:
        return None
    return fit @ m, size


def _sin_to(v: np.ndarray, mid: np.ndarray, d: np.ndarray) -> np.ndarray:
    """|sin| of the angle between each segment and the direction from its middle to ``v``."""
    to = v[None, :2] - mid * v[2]
    norm = np.linalg.norm(to, axis=1)
    return np.abs(d[:, 0] * to[:, 1] - d[:, 1] * to[:, 0]) / np.maximum(norm, 1e-12)


def _ransac_vp(lines, mid, d, weight, usable, rng, tries: int = 300):
    """The vanishing point most of the ``usable`` segments' length points at, and its inliers."""
    idx = np.nonzero(usable)[0]
    if len(idx) < 8:
        return None
    pw = weight[idx] / weight[idx].sum()
    a = rng.choice(idx, tries, p=pw)
    b = rng.choice(idx, tries, p=pw)
    keep = a != b
    hyp = np.cross(lines[a[keep]], lines[b[keep]])
    hyp /= np.maximum(np.linalg.norm(hyp, axis=1, keepdims=True), 1e-12)
    limit = np.sin(np.radians(1.5))
    to = hyp[:, None, :2] - mid[None, idx] * hyp[:, None, 2:3]
    cross = np.abs(d[None, idx, 0] * to[..., 1] - d[None, idx, 1] * to[..., 0])
    inside = cross <= limit * np.hypot(to[..., 0], to[..., 1])
    score = inside.astype(np.float64) @ weight[idx]
    best = int(np.argmax(score))
    inliers = np.zeros(len(lines), bool)
    inliers[idx[inside[best]]] = True
    if inliers.sum() < 6:
        return None
    for _ in range(2):                                 # refine: the point nearest all inliers' lines
        l_in = lines[inliers] * np.sqrt(weight[inliers])[:, None]
        v = np.linalg.eigh(l_in.T @ l_in)[1][:, 0]
        now = usable & (_sin_to(v, mid, d) <= limit * 1.3)
        if now.sum() < 6:
            break
        inliers = now
    return v, inliers


def _outlines(gray: np.ndarray, limit: int = 3) -> list[np.ndarray]:
    """Large four-sided outlines (a board that stands out from the table), largest first."""
    small = cv2.resize(gray, None, fx=0.5, fy=0.5, interpolation=cv2.INTER_AREA)
    quads = []
    edges = cv2.dilate(cv2.Canny(cv2.GaussianBlur(small, (5, 5), 0), 30, 90), np.ones((3, 3), np.uint8))
    for binary in (edges, cv2.adaptiveThreshold(small, 255, cv2.ADAPTIVE_THRESH_MEAN_C, cv2.THRESH_BINARY_INV, 31, 8)):
        contours, _ = cv2.findContours(binary, cv2.RETR_LIST, cv2.CHAIN_APPROX_SIMPLE)
        for c in contours:
            if cv2.contourArea(c) < 0.04 * small.size:
                continue
            hull = cv2.convexHull(c)
            approx = cv2.approxPolyDP(hull, 0.03 * cv2.arcLength(hull, True), True)
            if len(approx) == 4:
                quads.append((cv2.contourArea(approx), approx.reshape(4, 2).astype(np.float64) * 2))
    quads.sort(key=lambda q: -q[0])
    out: list[np.ndarray] = []
    for _area, quad in quads:
        quad = _clockwise(quad)
        if all(np.abs(quad - other).max() > 8 for other in out):
            out.append(quad)
    return out[:limit]


# ---- 2. the lattice ------------------------------------------------------------------------

def _edges(image: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """|d/dx| and |d/dy| of ``image`` (the colour channels' mean), float32."""
    gx = np.abs(cv2.Sobel(image, cv2.CV_32F, 1, 0, ksize=3))
    gy = np.abs(cv2.Sobel(image, cv2.CV_32F, 0, 1, ksize=3))
    if gx.ndim == 3:                                   # summed over the colour channels, a third of it
        third = np.full((1, 3), 1 / 3, np.float32)
        gx, gy = cv2.transform(gx, third), cv2.transform(gy, third)
    return gx, gy


def _comb(profile: np.ndarray, lines: int, most: int = 2) -> list[tuple[float, float, float]]:
    """The (first line, spacing, strength) of ``lines`` evenly spaced lines that stand out most
    in ``profile``: the best windows at the best spacing, and at two and three times it (a
    fraction of the grid's spacing folds well too where the squares' labels or points line up)."""
    n = len(profile)
    prof = cv2.GaussianBlur(profile.reshape(1, -1).astype(np.float32), (0, 0), 1.0).ravel()
    prof = prof - cv2.blur(prof.reshape(1, -1), (max(3, n // 10), 1)).ravel()
    prof = np.append(prof, np.zeros(n))                  # past the end: nothing
    widest = n / (lines - 1) * 1.02
    coarse = np.geomspace(n / (lines * 3.5), widest, 90)
    _total, spacing, _phase = _fold(prof, n, coarse, step=2.0)
    _total, spacing, phase = _fold(prof, n, spacing * np.linspace(0.98, 1.02, 21))
    out: list[tuple[float, float, float]] = []
    for m in (1, 2, 3):
        if m * spacing > widest:
            break
        wide = m * spacing
        for r in range(m):                               # every m-th line, from the r-th
            ks = np.arange(int((n - phase - r * spacing) / wide) + 1)
            if len(ks) < lines:
                continue
            at = phase + r * spacing + ks * wide
            contrast = _sample(prof, at) - (_sample(prof, at - wide / 2) + _sample(prof, at + wide / 2)) / 2
            windows = np.convolve(contrast, np.ones(lines), "valid")
            for j in np.argsort(-windows)[:most]:
                out.append((phase + r * spacing + int(j) * wide, wide, float(windows[j]) / lines))
    out.sort(key=lambda o: -o[2])
    return out[:most + 2]


def _sample(prof: np.ndarray, at: np.ndarray) -> np.ndarray:
    i = np.clip(at, 0, len(prof) - 2)
    j = i.astype(np.int64)
    t = i - j
    return prof[j] * (1 - t) + prof[j + 1] * t


def _fold(prof: np.ndarray, n: int, spacings: np.ndarray, step: float = 1.0) -> tuple[float, float, float]:
    """(contrast, spacing, phase) of the best of ``spacings`` and phases (``step`` pixels
    apart): lines every ``spacing`` against the middles between them."""
    phases = np.arange(0.0, np.ceil(spacings.max()), step)
    ks = np.arange(int(n / spacings.min()) + 1, dtype=np.float64)
    at = phases[None, :, None] + ks[None, None, :] * spacings[:, None, None]
    used = (ks[None, None, :] <= np.floor(n / spacings)[:, None, None]) & (phases[None, :, None] < spacings[:, None, None])
    contrast = np.where(used, _sample(prof, at) - _sample(prof, at + spacings[:, None, None] / 2), 0.0).sum(2)
    contrast[phases[None, :] >= spacings[:, None]] = -np.inf
    i, k = np.unravel_index(int(np.argmax(contrast)), contrast.shape)
    return float(contrast[i, k]), float(spacings[i]), float(phases[k])


def _median0(values: np.ndarray, valid: np.ndarray) -> np.ndarray:
    """The median of each column's ``valid`` values (0 where it has none).

    >>> _median0(np.array([[1.0, 5.0], [3.0, 7.0], [9.0, 0.0]]), np.array([[1, 1], [1, 0], [0, 1]], bool)).tolist()
    [2.0, 2.5]
    """
    ordered = np.sort(np.where(valid, values, np.inf), axis=0)          # the values left out last
    count = valid.sum(0)
    cols = np.arange(ordered.shape[1])
    low = ordered[np.maximum(count - 1, 0) // 2, cols]
    high = ordered[np.minimum(count // 2, len(ordered) - 1), cols]
    return np.where(count > 0, (low + high) / 2, 0.0)


def _along(g: np.ndarray, valid: np.ndarray, axis: int) -> np.ndarray:
    """The edge profile across ``axis``: the median edge strength along each line of pixels
    (a grid line runs the whole way; letters and labels in the squares' middles do not)."""
    step = max(1, g.shape[axis] // 200)
    g = g[::step] if axis == 0 else g[:, ::step].T
    v = valid[::step] if axis == 0 else valid[:, ::step].T
    return _median0(g, v)                                       # the pixels outside the photo left out


def _plane_edges(small: np.ndarray, plane: np.ndarray, size: tuple[int, int]) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The candidate ``plane`` warped top-down: its edge strengths across x and y (capped at
    their 97th percentile: a few strong edges do not outweigh a grid) and where it shows the
    photo."""
    top = cv2.warpPerspective(small, plane, size, flags=cv2.INTER_LINEAR)
    valid = cv2.warpPerspective(np.full(small.shape[:2], 255, np.uint8), plane, size) > 0
    valid = cv2.erode(valid.astype(np.uint8), np.ones((5, 5), np.uint8)) > 0
    gx, gy = _edges(top)
    gx *= valid
    gy *= valid
    cap = float(np.percentile(gx[::3, ::3][valid[::3, ::3]], 97)) if valid[::3, ::3].any() else 1.0
    return np.minimum(gx, cap), np.minimum(gy, cap), valid


def _lattice_guesses(small: np.ndarray, plane: np.ndarray, size: tuple[int, int], rows: int, cols: int):
    """Candidate grids' corners (shrunk-photo pixels) in the candidate ``plane``."""
    gx, gy, valid = _plane_edges(small, plane, size)
    return _combed(gx, gy, valid, plane, (0, 0), rows, cols)


def _combed(gx: np.ndarray, gy: np.ndarray, valid: np.ndarray, plane: np.ndarray, at: tuple[int, int],
            rows: int, cols: int) -> list[np.ndarray]:
    """The grids' corners (shrunk-photo pixels) that the best evenly spaced lines of the plane's
    edges ``gx``, ``gy`` (a window of it from ``at``, x and y) make."""
    inv = np.linalg.inv(plane)
    out = []
    xs = _comb(_along(gx, valid, 0), cols + 1, 2)
    ys = _comb(_along(gy, valid, 1), rows + 1, 2)
    for x0, sx, _ in xs:
        for y0, sy, _ in ys:
            quad = np.array([[x0, y0], [x0 + cols * sx, y0], [x0 + cols * sx, y0 + rows * sy],
                             [x0, y0 + rows * sy]], np.float64) + np.array(at, np.float64)
            out.append(cv2.perspectiveTransform(quad.reshape(-1, 1, 2), inv).reshape(4, 2))
    return out


def _window_guesses(small: np.ndarray, plane: np.ndarray, size: tuple[int, int], rows: int, cols: int):
    """Candidate grids' corners in windows of the ``plane`` (shrunk-photo pixels): where a small
    board's lines run along a fifth of the plane, the median edge along its whole columns is the
    table's, and the grid does not show in them. Each window (:data:`WINDOWS` of the plane's
    shorter side) is put where the edges across x and y are both dense."""
    gx, gy, valid = _plane_edges(small, plane, size)
    h, w = gx.shape
    both = np.minimum(cv2.blur(gx, (9, 9)), cv2.blur(gy, (9, 9)))       # lines both ways: a grid, not planks
    out = []
    for share in WINDOWS:
        side = int(share * min(h, w))
        if side < 8 * (max(rows, cols) + 1):
            continue
        dense = cv2.boxFilter(both, -1, (side, side), normalize=True, borderType=cv2.BORDER_CONSTANT)
        margin = side // 2
        inner = dense[margin:h - margin + 1, margin:w - margin + 1] if h > side and w > side else dense
        y, x = (int(v) for v in np.unravel_index(int(np.argmax(inner)), inner.shape))
        y0, x0 = (y, x) if inner is not dense else (max(0, y - margin), max(0, x - margin))
        window = np.s_[y0:y0 + side, x0:x0 + side]
        out.extend(_combed(gx[window], gy[window], valid[window], plane, (x0, y0), rows, cols))
    return out


# ---- 3. refinement and 4. verification -----------------------------------------------------

def _grid(rows: int, cols: int, cell: int = CELL) -> np.ndarray:
    """The grid's corners in the image it is refined and checked in, ``cell`` pixels a square."""
    return (np.array([[0, 0], [cols, 0], [cols, rows], [0, rows]], np.float32) + PAD) * cell


def _canonical(corners: np.ndarray, rows: int, cols: int, cell: int = CELL) -> np.ndarray:
    grid = _grid(rows, cols, cell)
    return cv2.getPerspectiveTransform(corners.astype(np.float32), grid)


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
        corners = moved
    h = _canonical(corners, rows, cols, cell)
    top = warp(small, h, size, lens)
    gx, gy = _edges(top)
    share, weakest, ends = _support(gx, gy, rows, cols, cell)
    pattern = None if layout is None else _pattern(top, layout)
    return GridFound(corners, share, weakest, pattern, method, ends)


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


def _line_fit(gx: np.ndarray, gy: np.ndarray, rows: int, cols: int) -> np.ndarray | None:
    """The homography that moves the canonical image's grid lines, found again square by
    square and fitted straight, onto their right places; None when too few are found."""
    verticals = _fit_lines(gx, cols + 1, rows)
    horizontals = _fit_lines(gy.T, rows + 1, cols)
    src, dst = [], []
    for i, hl in enumerate(horizontals):
        for k, vl in enumerate(verticals):
            if hl is None or vl is None:
                continue
            (a, b), (c, d) = vl, hl                      # x = a + b*y, y = c + d*x
            den = 1 - b * d
            if abs(den) < 1e-6:
                continue
            x = (a + b * c) / den
            src.append((x, c + d * x))
            dst.append(((k + PAD) * CELL, (i + PAD) * CELL))
    if len(src) < 12:
        return None
    fix, _ = cv2.findHomography(np.array(src, np.float64), np.array(dst, np.float64), cv2.RANSAC, 0.15 * CELL)
    return fix


def _side_values(g: np.ndarray, xs: np.ndarray, along: int, cell: int = CELL) -> np.ndarray:
    """Median of ``g`` along each square's side at columns ``xs``: (along, len(xs)); the
    side's ends, where lines cross, left out."""
    rows = np.arange(int(0.15 * cell), int(0.85 * cell))
    ys = ((np.arange(along) + PAD) * cell)[:, None] + rows[None, :]
    xs = np.clip(xs, 0, g.shape[1] - 1)
    ordered = np.sort(g[ys[:, None, :], xs[None, :, None]], axis=2)   # (along, len(xs), side's rows)
    half = len(rows) // 2
    return ordered[..., half] if len(rows) % 2 else (ordered[..., half - 1] + ordered[..., half]) / 2


def _fit_lines(g: np.ndarray, lines: int, along: int) -> list[tuple[float, float] | None]:
    """Each line ``k`` (x = a + b*y in ``g``'s axes) fitted through its peaks side by side."""
    found_x, good = _line_points(g, lines, along)
    ys = ((np.arange(along) + PAD + 0.5) * CELL)[:, None]
    keep = good.copy()
    for _ in range(2):                                       # fitted, the far-off peaks left out, fitted again
        a, b = _straight(ys, found_x, keep)
        resid = np.abs(found_x - (a + b * ys))
        typical = _median0(resid, good & np.isfinite(resid))
        keep = good & (resid < np.maximum(1.5, 2.5 * typical))
    a, b = _straight(ys, found_x, keep)
    usable = (good.sum(0) >= max(3, along // 3)) & (keep.sum(0) >= 3) & np.isfinite(a) & np.isfinite(b)
    return [(float(a[k]), float(b[k])) if usable[k] else None for k in range(lines)]


def _line_points(g: np.ndarray, lines: int, along: int) -> tuple[np.ndarray, np.ndarray]:
    """Where each of ``lines`` canonical grid lines is found beside each of ``along`` squares
    (x in ``g``'s axes, to a tenth of a pixel: (along, lines)), and whether it stands out there
    (not at the search's edge)."""
    offsets, xs, prof, j, peak, stands_out = _line_peaks(g, lines, along)
    good = stands_out & (j > 0) & (j < len(offsets) - 1)
    jj = np.clip(j, 1, len(offsets) - 2)
    left = np.take_along_axis(prof, (jj - 1)[..., None], 2)[..., 0]
    right = np.take_along_axis(prof, (jj + 1)[..., None], 2)[..., 0]
    den = left - 2 * peak + right
    sub = np.where(den < 0, 0.5 * (left - right) / np.where(den < 0, den, -1), 0.0)
    return xs[None, :, 0] + j + sub, good


def _straight(ys: np.ndarray, xs: np.ndarray, use: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Least-squares ``x = a + b*y`` through the ``use`` d points of each column of ``xs``."""
    w = use.astype(np.float64)
    n, sy, sx = w.sum(0), (w * ys).sum(0), (w * xs).sum(0)
    syy, sxy = (w * ys * ys).sum(0), (w * ys * xs).sum(0)
    den = n * syy - sy * sy
    with np.errstate(divide="ignore", invalid="ignore"):
        b = np.where(den > 1e-9, (n * sxy - sy * sx) / den, np.nan)
        a = (sx - b * sy) / n
    return a, b


def _support(gx: np.ndarray, gy: np.ndarray, rows: int, cols: int, cell: int = CELL) -> tuple[float, float, bool]:
    """The share of the grid lines' square sides that stand out from the squares' middles
    beside them, the least share of any one line, and whether the grid ends where it should
    (of the two lines one and two squares beyond each outer line, one at least stands out along
    less than half its length: the grid does not go on; a board's edge may be one of them)."""
    shares, ends = [], True
    for g, lines, along in ((gx, cols + 1, rows), (gy.T, rows + 1, cols)):
        line_max = np.maximum(np.maximum(np.roll(g, 1, 1), g), np.roll(g, -1, 1))
        xs = (np.arange(-2, lines + 2) + PAD) * cell
        on = _side_values(line_max, xs, along, cell)
        before = _side_values(line_max, xs - cell // 2, along, cell)
        after = _side_values(line_max, xs + cell // 2, along, cell)
        before[:, 2] = 0.0                            # the outer lines: only the squares inside
        after[:, -3] = 0.0
        share = (on > STANDS_OUT * np.maximum(before, after) + STANDS_OUT_ABS).mean(0)
        shares.extend(share[2:-2].tolist())
        for beyond in ((share[1], share[0]), (share[-2], share[-1])):   # a board's edge may stand out; two lines do not
            ends = ends and min(beyond) < BEYOND
    return float(np.mean(shares)), float(np.min(shares)), ends


def _layout_classes(premiums: tuple[str, ...] | None, rows: int, cols: int) -> np.ndarray | None:
    """The premium layout as class numbers (0 plain), or None when it has no premium squares."""
    if not premiums or len(premiums) != rows or any(len(r) != cols for r in premiums):
        return None
    kinds = sorted({ch for row in premiums for ch in row} - {"."})
    if not kinds:
        return None
    return np.array([[0 if ch == "." else 1 + kinds.index(ch) for ch in row] for row in premiums])


def _pattern(top: np.ndarray, layout: np.ndarray) -> float:
    """How well the squares' colours follow ``layout`` (best of its four turns): the share of
    premium squares whose colour is nearer their own class's typical colour than any other's,
    the squares that look covered by a tile left out (:func:`_tile_like`)."""
    rows, cols = layout.shape
    means = cv2.resize(top, (cols + 2 * PAD, rows + 2 * PAD), interpolation=cv2.INTER_AREA)[PAD:-PAD, PAD:-PAD]
    b, g, r = (means.reshape(-1, 3).astype(np.float32) / 255.0).T
    # brightness (weighed down: light and shade vary it) and two colour-opponent axes
    small = np.stack([0.5 * (b + g + r) / 3, r - g, (r + g) / 2 - b], 1)
    squared = (small * small).sum(1)
    apart = np.sqrt(np.maximum(squared[:, None] + squared[None] - 2 * small @ small.T, 0))
    best = 0.0
    turns: list[np.ndarray] = []
    for turn in range(4 if rows == cols else 1):                 # a symmetric layout's turns once each
        turned = np.rot90(layout, turn)
        if not any(np.array_equal(turned, t) for t in turns):
            turns.append(turned)
    for turned in turns:
        classes = turned.ravel()
        kinds = np.unique(classes)
        premium = classes > 0
        typical = np.array([np.median(small[classes == k], axis=0) for k in kinds])
        use = ~_tile_like(apart, classes, typical)
        if (use & premium).sum() < max(4, 0.25 * premium.sum()):
            use[:] = True                                        # no colour of a class's own: all squares
        typical = np.array([np.median(small[(classes == k) & use], axis=0) if ((classes == k) & use).any()
                            else typical[i] for i, k in enumerate(kinds)])
        dist = np.linalg.norm(small[:, None, :] - typical[None], axis=2)
        nearest = kinds[dist.argmin(1)]
        scored = premium & use
        right = float((nearest[scored] == classes[scored]).sum())
        best = max(best, right / max(scored.sum(), (1 - COVERED_AT_MOST) * premium.sum()))
    return best


def _tile_like(apart: np.ndarray, classes: np.ndarray, typical: np.ndarray) -> np.ndarray:
    """The squares whose colour is found as often in every class as chance has it: a tile's
    colour (tiles lie on plain and premium squares alike), where a square's own colour is
    shared with its class only. ``apart``: the squares' colour distances; ``typical``: the
    classes' typical colours (the first the plain squares')."""
    gaps = np.linalg.norm(typical[1:] - typical[0], axis=1)
    radius = max(0.03, 0.4 * float(np.median(gaps))) if len(gaps) else 0.03
    near = apart < radius
    np.fill_diagonal(near, False)
    same = classes[:, None] == classes[None, :]
    count = near.sum(1)
    other = (near & ~same).sum(1) / np.maximum(count, 1)
    share = (np.bincount(classes) / len(classes))[classes]
    return (count >= 3) & (other > 0.5 * (1 - share))


__all__ = ["find_grid", "GridFound", "GridNotFound", "bent_in", "corner_error", "lens_of", "quarter_off", "squareness"]
