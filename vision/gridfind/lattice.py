"""Step 2, the lattice: a candidate plane's edge profiles folded over every spacing give the
evenly spaced lines that stand out most, as candidate grids; over the whole plane
(:func:`_lattice_guesses`) or in windows where lines run both ways (:func:`_window_guesses`)."""

from __future__ import annotations

from functools import cached_property

import cv2
import numpy as np

from vision.gridfind.lines import _edges, _median0

#: with none convincing, each plane is searched again in windows this share of its shorter side
#: where lines run both ways (a small board on a busy table)
WINDOWS = (0.25, 0.4, 0.6)


def _comb(profile: np.ndarray, lines: int, most: int = 2) -> list[tuple[float, float, float]]:
    """The (first line, spacing, strength) of ``lines`` evenly spaced lines that stand out most
    in ``profile``: the best windows at the best spacing, and at two and three times it (a
    fraction of the grid's spacing folds well too where the squares' labels or points line up).
    Where only ``lines - 1`` fit, the windows with one line just beyond either end are taken (a
    plane cropped a little tight cut the grid's first or last line off).

    >>> profile = np.zeros(600)
    >>> profile[np.round(np.arange(16) * 37.5 + 10).astype(int)] = 10.0      # 16 lines, 37.5 apart
    >>> [(round(first), round(spacing, 1)) for first, spacing, _strength in _comb(profile, 16)]
    [(10, 37.5)]
    >>> [round(first) for first, _spacing, _strength in _comb(profile[20:], 16)]   # the first cut off
    [-11, 27]
    """
    n = len(profile)
    prof = _flattened(profile)
    widest = n / (lines - 1) * 1.02
    coarse = np.geomspace(n / (lines * 3.5), widest, 90)
    _total, spacing, _phase = _fold(prof, n, coarse, step=2.0)
    _total, spacing, phase = _fold(prof, n, spacing * np.linspace(0.98, 1.02, 21))
    out: list[tuple[float, float, float]] = []
    cut: list[tuple[float, float, float]] = []          # windows with a line beyond an end: extra, never instead
    for m in (1, 2, 3):
        if m * spacing > widest:
            break
        wide = m * spacing
        for r in range(m):                               # every m-th line, from the r-th
            ks = np.arange(int((n - phase - r * spacing) / wide) + 1)
            short = len(ks) == lines - 1                 # the plane's crop cut off the first or the last line
            if short:
                ks = np.arange(-1, len(ks) + 1)
            if len(ks) < lines:
                continue
            at = phase + r * spacing + ks * wide
            contrast = _sample(prof, at) - (_sample(prof, at - wide / 2) + _sample(prof, at + wide / 2)) / 2
            if short:
                contrast[(at < 0) | (at >= n)] = 0.0     # a line outside the plane adds nothing
            windows = np.convolve(contrast, np.ones(lines), "valid")
            for j in np.argsort(-windows)[:most]:
                (cut if short else out).append((phase + r * spacing + int(ks[j]) * wide, wide, float(windows[j]) / lines))
    out.sort(key=lambda o: -o[2])
    out = out[:most + 2]
    cut.sort(key=lambda o: -o[2])
    least = out[-1][2] if len(out) == most + 2 else -np.inf
    return out + [c for c in cut[:most] if c[2] >= least]


def _flattened(profile: np.ndarray) -> np.ndarray:
    """``profile`` smoothed, less its local mean, and followed by as many zeros (past the end:
    nothing)."""
    n = len(profile)
    prof = cv2.GaussianBlur(profile.reshape(1, -1).astype(np.float32), (0, 0), 1.0).ravel()
    prof = prof - cv2.blur(prof.reshape(1, -1), (max(3, n // 10), 1)).ravel()
    return np.append(prof, np.zeros(n))


def _comb_at(profile: np.ndarray, lines: int, spacing: float) -> list[tuple[float, float, float]]:
    """The best window of ``lines`` lines in ``profile`` at about ``spacing`` (within 2%), as
    :func:`_comb` gives them; none when they do not fit. The other axis's spacing: tiles in rows
    or a table's pattern can make one axis fold best at a spacing that is not the grid's.

    >>> profile = np.zeros(600)
    >>> profile[np.round(np.arange(16) * 37.5 + 10).astype(int)] = 10.0
    >>> profile[::13] += 12.0                                  # something finer that folds better
    >>> round(_comb(profile, 16)[0][1], 1), [round(f) for f, _s, _w in _comb_at(profile, 16, 37.0)]
    (13.0, [10])
    """
    n = len(profile)
    if spacing * (lines - 1) > n * 1.02:
        return []
    prof = _flattened(profile)
    _total, spacing, phase = _fold(prof, n, spacing * np.linspace(0.98, 1.02, 21))
    ks = np.arange(int((n - phase) / spacing) + 1)
    if len(ks) < lines:
        return []
    at = phase + ks * spacing
    contrast = _sample(prof, at) - (_sample(prof, at - spacing / 2) + _sample(prof, at + spacing / 2)) / 2
    windows = np.convolve(contrast, np.ones(lines), "valid")
    j = int(np.argmax(windows))
    return [(phase + int(ks[j]) * spacing, spacing, float(windows[j]) / lines)]


def _sample(prof: np.ndarray, at: np.ndarray) -> np.ndarray:
    i = np.clip(at, 0, len(prof) - 2)
    j = i.astype(np.int64)
    t = i - j
    return prof[j] * (1 - t) + prof[j + 1] * t


def _fold(prof: np.ndarray, n: int, spacings: np.ndarray, step: float = 1.0) -> tuple[float, float, float]:
    """(contrast, spacing, phase) of the best of ``spacings`` and phases (``step`` pixels
    apart, each below its spacing): lines every ``spacing`` against the middles between them.

    >>> prof = np.zeros(200)
    >>> prof[10::20] = 1.0                                     # a line every 20 pixels from 10
    >>> _fold(np.append(prof, np.zeros(200)), 200, np.array([15.0, 20.0, 25.0]))
    (10.0, 20.0, 10.0)
    """
    phases = np.arange(0.0, np.ceil(spacings.max()), step)
    ks = np.arange(int(n / spacings.min()) + 1, dtype=np.float64)
    si, pi = np.nonzero(phases[None, :] < spacings[:, None])   # only the phases within a spacing are folded
    wide = spacings[si][:, None]
    at = phases[pi][:, None] + ks[None, :] * wide
    used = ks[None, :] <= np.floor(n / spacings)[si][:, None]
    contrast = np.full((len(spacings), len(phases)), -np.inf)
    contrast[si, pi] = np.where(used, _sample(prof, at) - _sample(prof, at + wide / 2), 0.0).sum(1)
    i, k = np.unravel_index(int(np.argmax(contrast)), contrast.shape)
    return float(contrast[i, k]), float(spacings[i]), float(phases[k])


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


class PlaneView:
    """A candidate plane of the shrunk photo (``method``: how it was found; ``homography`` from the
    shrunk photo to it; ``size``, width and height), its edges (:func:`_plane_edges`), their
    profiles across the whole plane (:func:`_along`) and their best evenly spaced lines
    (:func:`_comb`) worked out the first time a search asks and kept: the first search, the other
    spacing's (:func:`_lattice_guesses` ``cross``) and the windows' (:func:`_window_guesses`) all
    look at the same planes, and a photo without a board is searched by all three.

    >>> view = PlaneView(np.zeros((60, 80, 3), np.uint8), "lines", np.eye(3), (80, 60))
    >>> view.edges is view.edges, view.edges[0].shape
    (True, (60, 80))
    """

    def __init__(self, small: np.ndarray, method: str, homography: np.ndarray, size: tuple[int, int]) -> None:
        self.small, self.method, self.homography, self.size = small, method, homography, size
        self._combs: dict[tuple[int, int], tuple[list[tuple[float, float, float]], ...]] = {}

    @cached_property
    def edges(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """The plane's edge strengths across x and y, and where it shows the photo (:func:`_plane_edges`)."""
        return _plane_edges(self.small, self.homography, self.size)

    @cached_property
    def profiles(self) -> tuple[np.ndarray, np.ndarray]:
        """The edge profiles across x and across y of the whole plane (:func:`_along`)."""
        gx, gy, valid = self.edges
        return _along(gx, valid, 0), _along(gy, valid, 1)

    def combs(self, rows: int, cols: int) -> tuple[list[tuple[float, float, float]], list[tuple[float, float, float]]]:
        """The best ``cols + 1`` evenly spaced lines across x and ``rows + 1`` across y of the
        whole plane (:func:`_comb`)."""
        if (rows, cols) not in self._combs:
            across, down = self.profiles
            self._combs[rows, cols] = (_comb(across, cols + 1, 2), _comb(down, rows + 1, 2))
        xs, ys = self._combs[rows, cols]
        return xs, ys


def _lattice_guesses(view: PlaneView, rows: int, cols: int, cross: bool = False) -> list[np.ndarray]:
    """Candidate grids' corners (shrunk-photo pixels) in the candidate plane ``view``; with
    ``cross``, only those with an axis's lines at the other axis's spacing (:func:`_comb_at`)."""
    across, down = view.profiles
    return _combed(across, down, view.homography, (0, 0), rows, cols, cross, view.combs(rows, cols))


def _combed(across: np.ndarray, down: np.ndarray, plane: np.ndarray, at: tuple[int, int], rows: int, cols: int,
            cross: bool = False, combs: tuple[list, list] | None = None) -> list[np.ndarray]:
    """The grids' corners (shrunk-photo pixels) that the best evenly spaced lines of the plane's
    edge profiles ``across`` x and ``down`` y (:func:`_along`; of a window of it from ``at``, x and
    y) make (``combs``: those lines, if worked out already); with ``cross``, instead, those
    where one axis's lines are at the spacing the other's fold best at (an outline's plane has
    square squares, a plane of lines often nearly: rows of tiles can make one axis fold best at a
    spacing that is not the grid's)."""
    inv = np.linalg.inv(plane)
    out = []
    xs, ys = combs if combs is not None else (_comb(across, cols + 1, 2), _comb(down, rows + 1, 2))
    pairs = [(x, y) for x in xs for y in ys]
    if cross:
        pairs = []
        if xs and ys and abs(xs[0][1] / ys[0][1] - 1) > 0.03:
            x_at, y_at = _comb_at(across, cols + 1, ys[0][1]), _comb_at(down, rows + 1, xs[0][1])
            pairs = [(x, y) for x in xs + x_at for y in ys + y_at if x in x_at or y in y_at]
    for (x0, sx, _), (y0, sy, _) in pairs:
        quad = np.array([[x0, y0], [x0 + cols * sx, y0], [x0 + cols * sx, y0 + rows * sy],
                         [x0, y0 + rows * sy]], np.float64) + np.array(at, np.float64)
        out.append(cv2.perspectiveTransform(quad.reshape(-1, 1, 2), inv).reshape(4, 2))
    return out


def _window_guesses(view: PlaneView, rows: int, cols: int) -> list[np.ndarray]:
    """Candidate grids' corners in windows of the plane ``view`` (shrunk-photo pixels): where a small
    board's lines run along a fifth of the plane, the median edge along its whole columns is the
    table's, and the grid does not show in them. Each window (:data:`WINDOWS` of the plane's
    shorter side) is put where the edges across x and y are both dense."""
    gx, gy, valid = view.edges
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
        across, down = _along(gx[window], valid[window], 0), _along(gy[window], valid[window], 1)
        out.extend(_combed(across, down, view.homography, (x0, y0), rows, cols))
    return out
