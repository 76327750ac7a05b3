"""Grid lines found square by square in the canonical top-down image (:mod:`.geometry`): edge
strengths, where each line stands out beside each square, and lines fitted straight through
those places."""

from __future__ import annotations

import threading

import cv2
import numpy as np

from vision.gridfind.geometry import CELL, PAD

#: a grid line stands out along a square's side when its edge strength is this much above the
#: squares' middles beside it (times, plus grey levels)
STANDS_OUT, STANDS_OUT_ABS = 1.25, 12.0
#: each line is looked for up to this many pixels either side of its place (:func:`_line_peaks`)
REACH = int(0.3 * CELL)


#: each thread's colour Sobel buffers, by image shape (:func:`_sobel_buffers`)
_BUFFERS = threading.local()
#: at most this many image shapes' buffers are kept a thread (the canonical images' two sizes, a plane's)
BUFFER_SHAPES = 4
_THIRD = np.full((1, 3), 1 / 3, np.float32)


def _edges(image: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """|d/dx| and |d/dy| of ``image`` (the colour channels' mean), float32.

    A colour image's per-channel derivatives are worked out in buffers kept for the next image of
    its shape (:func:`_sobel_buffers`); the two arrays returned are always new.

    >>> image = np.zeros((4, 5, 3), np.uint8)
    >>> image[:, 2:] = (30, 60, 90)
    >>> gx, gy = _edges(image)
    >>> gx[1].tolist(), float(gy.max())
    ([0.0, 240.0, 240.0, 0.0, 0.0], 0.0)
    """
    if image.ndim == 3 and image.shape[2] == 3:
        bx, by = _sobel_buffers(image.shape)
        gx = cv2.Sobel(image, cv2.CV_32F, 1, 0, dst=bx, ksize=3)
        gy = cv2.Sobel(image, cv2.CV_32F, 0, 1, dst=by, ksize=3)
        np.abs(gx, out=gx)
        np.abs(gy, out=gy)
        return cv2.transform(gx, _THIRD), cv2.transform(gy, _THIRD)   # summed over the channels, a third of it
    gx = np.abs(cv2.Sobel(image, cv2.CV_32F, 1, 0, ksize=3))
    gy = np.abs(cv2.Sobel(image, cv2.CV_32F, 0, 1, ksize=3))
    if gx.ndim == 3:
        gx, gy = cv2.transform(gx, _THIRD), cv2.transform(gy, _THIRD)
    return gx, gy


def _sobel_buffers(shape: tuple[int, ...]) -> tuple[np.ndarray, np.ndarray]:
    """Two float32 arrays of ``shape``, the same ones each time this thread asks for that shape
    (up to :data:`BUFFER_SHAPES` shapes): a canonical image's colour derivatives fill 1.4 MB, and
    a new array of that size each time cost more in page faults than the Sobel filter itself.

    >>> a, _ = _sobel_buffers((3, 4, 3))
    >>> _sobel_buffers((3, 4, 3))[0] is a, a.dtype.name
    (True, 'float32')
    """
    kept: dict[tuple[int, ...], tuple[np.ndarray, np.ndarray]] | None = getattr(_BUFFERS, "kept", None)
    if kept is None:
        kept = _BUFFERS.kept = {}
    if shape not in kept:
        if len(kept) >= BUFFER_SHAPES:
            kept.clear()
        kept[shape] = (np.empty(shape, np.float32), np.empty(shape, np.float32))
    return kept[shape]


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


def _side_values(g: np.ndarray, xs: np.ndarray, along: int, cell: int = CELL) -> np.ndarray:
    """Median of ``g`` along each square's side at columns ``xs``: (along, len(xs)); the
    side's ends, where lines cross, left out."""
    rows = np.arange(int(0.15 * cell), int(0.85 * cell))
    ys = ((np.arange(along) + PAD) * cell)[:, None] + rows[None, :]
    xs = np.clip(xs, 0, g.shape[1] - 1)
    ordered = np.sort(g[ys[:, None, :], xs[None, :, None]], axis=2)   # (along, len(xs), side's rows)
    half = len(rows) // 2
    return ordered[..., half] if len(rows) % 2 else (ordered[..., half - 1] + ordered[..., half]) / 2


def _line_peaks(g: np.ndarray, lines: int, along: int):
    """Where each of ``lines`` canonical grid lines stands out most beside each of ``along``
    squares, up to 0.3 square either side: (offsets tried, their x for each line, the profile
    (along, lines, offsets), the peak's index and value, whether the peak stands out)."""
    offsets = np.arange(-REACH, REACH + 1)
    xs = ((np.arange(lines) + PAD) * CELL)[:, None] + offsets[None, :]
    prof = _side_values(g, xs.ravel(), along).reshape(along, lines, len(offsets))
    j = prof.argmax(2)
    peak = np.take_along_axis(prof, j[..., None], 2)[..., 0]
    middle = np.partition(prof, REACH, axis=2)[..., REACH]             # the median of the 2 * REACH + 1
    good = peak > STANDS_OUT * middle + STANDS_OUT_ABS
    return offsets, xs, prof, j, peak, good


def _both_edges(prof: np.ndarray) -> np.ndarray:
    """``prof`` (its last axis: the offsets tried) summed three at a time along the offsets (each end
    counted twice at the end):
    a line a pixel or two wide shows as its two edges, and its middle is where they add up most
    (the stronger edge alone put a thin dark line a pixel to one side or the other, square by
    square, as tiles and premium squares beside it lit its edges: a deluxe board's grid found 0.27
    square off, declan-tune 002).

    >>> _both_edges(np.array([0.0, 8.0, 1.0, 8.0, 0.0])).tolist()     # edges either side of a line at 2
    [8.0, 9.0, 17.0, 9.0, 8.0]
    """
    wide = np.concatenate([prof[..., :1], prof, prof[..., -1:]], axis=-1)
    return wide[..., :-2] + wide[..., 1:-1] + wide[..., 2:]


def _line_points(g: np.ndarray, lines: int, along: int) -> tuple[np.ndarray, np.ndarray]:
    """Where each of ``lines`` canonical grid lines is found beside each of ``along`` squares
    (x in ``g``'s axes, to a tenth of a pixel: (along, lines)), and whether it stands out there
    (not at the search's edge)."""
    offsets, xs, prof, j, _peak, stands_out = _line_peaks(g, lines, along)
    both = _both_edges(prof)
    k = both.argmax(2)
    good = stands_out & (j > 0) & (j < len(offsets) - 1) & (k > 0) & (k < len(offsets) - 1)
    kk = np.clip(k, 1, len(offsets) - 2)
    peak = np.take_along_axis(both, kk[..., None], 2)[..., 0]
    left = np.take_along_axis(both, (kk - 1)[..., None], 2)[..., 0]
    right = np.take_along_axis(both, (kk + 1)[..., None], 2)[..., 0]
    den = left - 2 * peak + right
    sub = np.where(den < 0, 0.5 * (left - right) / np.where(den < 0, den, -1), 0.0)
    return xs[None, :, 0] + k + sub, good


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


def _fit_lines(g: np.ndarray, lines: int, along: int) -> np.ndarray:
    """Each line ``k`` (x = a + b*y in ``g``'s axes) fitted through its peaks side by side: (lines, 2),
    a row of NaN for a line not found (too few peaks).

    >>> from vision.gridfind.geometry import drawn_grid
    >>> top = drawn_grid()
    >>> top[:, :60] = 230                        # the first vertical line (at x 48) rubbed out
    >>> edge_x, _edge_y = _edges(top)
    >>> _fit_lines(edge_x, 16, 15)[:3].tolist()  # a line a pixel wide: the middle of its two edges
    [[nan, nan], [64.0, 0.0], [80.0, 0.0]]
    """
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
    return np.where(usable[:, None], np.stack([a, b], 1), np.nan)
