"""Step 2, the lattice: a candidate plane's edge profiles folded over every spacing give the
evenly spaced lines that stand out most, as candidate grids; over the whole plane
(:func:`_lattice_guesses`) or in windows where lines run both ways (:func:`_window_guesses`)."""

from __future__ import annotations

import cv2
import numpy as np

from vision.gridfind.lines import _edges, _median0

#: with none convincing, each plane is searched again in windows this share of its shorter side
#: where lines run both ways (a small board on a busy table)
WINDOWS = (0.25, 0.4, 0.6)


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
