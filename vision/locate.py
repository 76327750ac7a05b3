"""Finding the board in a camera frame: ArUco markers first, the grid's outline second.

The result is a homography from frame pixels to the *canonical* top-down image, in which the
grid's top-left corner sits at ``(margin * cell, margin * cell)`` and each square is ``cell``
pixels. When the board cannot be found reliably :class:`~vision.errors.BoardNotFound` says why
("2 of 4 markers visible") instead of returning a wrong read.

>>> import numpy as np
>>> from vision.errors import BoardNotFound
>>> try:
...     locate(np.full((480, 640, 3), 200, np.uint8), rows=13, cols=13)
... except BoardNotFound as e:
...     print(e)
board not found: no markers and no grid outline visible
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import cv2
import numpy as np

from vision.errors import BadImage, BoardNotFound
from vision.layout import MARKER_IDS, Layout
from vision.printing import aruco_dictionary

MARGIN = 0.5  #: canonical image margin round the grid, in cells


class NoMarkers(BoardNotFound):
    """None of the board's markers is in the frame (``locate(..., outline=False)``)."""


@dataclass
class Located:
    """Where the board is: ``homography`` maps frame pixels to canonical pixels."""

    homography: np.ndarray
    method: str  #: 'markers', 'outline', 'corners' (given), 'grid' (found by :mod:`vision.gridfind`)
    markers_seen: tuple[int, ...] = ()  #: the markers the homography rests on (one that disagrees is left out)
    cell: int = 36
    rows: int = 0
    cols: int = 0
    corners: Any = field(default=None, repr=False)  #: grid corners in the frame (TL, TR, BR, BL), an (4, 2) array
    #: the lens's radial distortion (:class:`vision.lens.Lens` ``k``; 0: none): with one,
    #: ``homography`` maps the frame as the lens would have shown it without distortion
    lens: float = 0.0

    @property
    def canonical_size(self) -> tuple[int, int]:
        """(width, height) of the canonical image."""
        return (int(round((self.cols + 2 * MARGIN) * self.cell)), int(round((self.rows + 2 * MARGIN) * self.cell)))

    def warp(self, frame: np.ndarray, interpolation: int = cv2.INTER_LINEAR) -> np.ndarray:
        """The canonical top-down image of the board (through the lens, if any), each pixel
        resampled from the frame by ``interpolation`` (an OpenCV ``INTER_*`` flag)."""
        if self.lens:
            from vision.lens import Lens, warp

            h, w = frame.shape[:2]
            return warp(frame, self.homography, self.canonical_size, Lens(self.lens, w, h), border=cv2.BORDER_REPLICATE,
                        interpolation=interpolation)
        return cv2.warpPerspective(frame, self.homography, self.canonical_size, flags=interpolation,
                                   borderMode=cv2.BORDER_REPLICATE)


_DETECTOR = None


def _detector():
    global _DETECTOR
    if _DETECTOR is None:
        params = cv2.aruco.DetectorParameters()
        params.cornerRefinementMethod = cv2.aruco.CORNER_REFINE_SUBPIX
        _DETECTOR = cv2.aruco.ArucoDetector(aruco_dictionary(), params)
    return _DETECTOR


def check_frame(frame) -> np.ndarray:
    """The frame as a BGR uint8 array, or :class:`BadImage` saying what is wrong with it."""
    if not isinstance(frame, np.ndarray):
        raise BadImage(f"expected an image array, got {type(frame).__name__}")
    if frame.dtype != np.uint8:
        raise BadImage(f"expected 8-bit pixels, got {frame.dtype}")
    if frame.ndim in (2, 3) and min(frame.shape[:2]) < 32:
        raise BadImage(f"image too small ({frame.shape[1] if frame.ndim > 1 else 0}x{frame.shape[0]})")
    if frame.ndim == 2:
        frame = cv2.cvtColor(frame, cv2.COLOR_GRAY2BGR)
    if frame.ndim != 3 or frame.shape[2] not in (3, 4):
        raise BadImage(f"expected a colour or grey image, got an array of shape {frame.shape}")
    if frame.shape[2] == 4:
        frame = cv2.cvtColor(frame, cv2.COLOR_BGRA2BGR)
    if min(frame.shape[:2]) < 32:
        raise BadImage(f"image too small ({frame.shape[1]}x{frame.shape[0]})")
    return frame


def detect_markers(gray: np.ndarray) -> dict[int, np.ndarray]:
    """ArUco markers in a grey frame: id -> 4x2 corner pixels (TL, TR, BR, BL of the printed marker).

    Large frames are searched at half size first (markers are big), corners then refined at
    full size; the full-size search is the fallback."""
    found: dict[int, np.ndarray] = {}
    if max(gray.shape) >= 1000:
        half = cv2.resize(gray, (gray.shape[1] // 2, gray.shape[0] // 2), interpolation=cv2.INTER_AREA)
        found = _detect(half, 2.0)
        if len(found) >= 4:
            pts = np.vstack([c for c in found.values()]).astype(np.float32).reshape(-1, 1, 2)
            pts = cv2.cornerSubPix(gray, pts, (5, 5), (-1, -1),  # type: ignore[assignment]  # OpenCV's stub widens the dtype
                                   (cv2.TERM_CRITERIA_EPS + cv2.TERM_CRITERIA_COUNT, 20, 0.01))
            return {i: pts[4 * k:4 * k + 4].reshape(4, 2).astype(np.float64) for k, i in enumerate(found)}
    full = _detect(gray, 1.0)
    return full if len(full) >= len(found) else found


def _detect(gray: np.ndarray, scale: float) -> dict[int, np.ndarray]:
    corners, ids, _rejected = _detector().detectMarkers(gray)
    found: dict[int, np.ndarray] = {}
    if ids is not None:
        for c, i in zip(corners, ids.reshape(-1)):
            found.setdefault(int(i), c.reshape(4, 2).astype(np.float64) * scale + (scale - 1) / 2)
    return found


def locate(frame: np.ndarray, rows: int, cols: int, *, cell: int = 36,
           marker_corners: dict[int, np.ndarray] | None = None, min_markers: int = 3,
           outline: bool = True) -> Located:
    """Find a ``rows`` x ``cols`` board in ``frame``.

    ``marker_corners`` gives each marker's corners in cell units relative to the grid (default:
    the printed layout's; a calibration gives those of stick-on markers). ``outline=False``: by
    the markers only (:class:`NoMarkers` when none is seen; the caller looks for the grid itself).
    """
    frame = check_frame(frame)
    gray = cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY)
    expected = marker_corners if marker_corners is not None else {
        i: Layout(rows, cols).marker_corners(i) for i in MARKER_IDS}
    found = {i: c for i, c in detect_markers(gray).items() if i in expected}
    to_canon = lambda uv: (np.asarray(uv) + MARGIN) * cell  # noqa: E731
    if len(found) >= min_markers:
        fitted = _fit_markers(found, {i: to_canon(expected[i]) for i in found}, 0.15 * cell, min_markers)
        if fitted is None:
            raise BoardNotFound(f"{len(found)} of {len(expected)} markers visible but they do not fit the board")
        h, used = fitted
        return _checked(Located(h, "markers", used, cell, rows, cols), frame, gray, lines=False)
    if found:
        raise BoardNotFound(f"{len(found)} of {len(expected)} markers visible")
    if not outline:
        raise NoMarkers("no markers visible")
    target = to_canon(Layout(rows, cols).grid_corners()).astype(np.float32)
    for quad in outline_candidates(gray):  # largest first: the paper's edge may come before the grid's
        h = cv2.getPerspectiveTransform(quad.astype(np.float32), target)
        try:
            return _checked(Located(h, "outline", (), cell, rows, cols), frame, gray)
        except BoardNotFound:
            continue
    raise BoardNotFound("no markers and no grid outline visible")


def _fit_markers(found: dict[int, np.ndarray], canon: dict[int, np.ndarray], tolerance: float,
                 min_markers: int) -> tuple[np.ndarray, tuple[int, ...]] | None:
    """The homography from the markers' frame corners to their canonical places, and the markers
    it rests on: all of them if they agree within ``tolerance`` pixels, else all but the one
    that disagrees (a marker half hidden by a sleeve or a glint can be found with a corner out
    of place) when at least ``min_markers`` remain; None when no such set agrees."""
    ids = tuple(sorted(found))
    sets = [ids] + ([tuple(i for i in ids if i != left_out) for left_out in ids] if len(ids) > min_markers else [])
    best = None
    for used in sets:
        src = np.vstack([found[i] for i in used])
        dst = np.vstack([canon[i] for i in used])
        h, _ = cv2.findHomography(src, dst, 0)
        if h is None:
            continue
        error = _reprojection(h, src, dst)
        if error <= tolerance and used == ids:
            return h, used
        if error <= tolerance and (best is None or error < best[0]):
            best = (error, h, used)
    return (best[1], best[2]) if best else None


def _reprojection(h: np.ndarray, src: np.ndarray, dst: np.ndarray) -> float:
    mapped = cv2.perspectiveTransform(src.reshape(-1, 1, 2), h).reshape(-1, 2)
    return float(np.sqrt(((mapped - dst) ** 2).sum(1).max()))


def _checked(loc: Located, frame: np.ndarray, gray: np.ndarray, lines: bool = True) -> Located:
    """Refuse a homography that is degenerate or (``lines``) puts the grid where no grid lines are.

    Markers that agree with each other need no grid-line check (glare may wash the lines out)."""
    inv = np.linalg.inv(loc.homography)
    grid = (Layout(loc.rows, loc.cols).grid_corners() + MARGIN) * loc.cell
    pts = cv2.perspectiveTransform(grid.reshape(-1, 1, 2), inv).reshape(-1, 2)
    loc.corners = pts
    area = cv2.contourArea(pts.astype(np.float32))
    if not np.isfinite(pts).all() or area < 0.01 * gray.size or not cv2.isContourConvex(pts.astype(np.float32)):
        raise BoardNotFound("the markers found do not frame a plausible board")
    if lines and grid_line_score(FrameSampler(gray, inv), loc.rows, loc.cols, loc.cell) < 0.02:
        raise BoardNotFound(f"found by {loc.method} but the grid lines do not line up")
    return loc


class FrameSampler:
    """Reads a frame at canonical coordinates (through the inverse homography) without warping it all."""

    def __init__(self, gray: np.ndarray, inv: np.ndarray):
        self.gray, self.inv = gray, inv

    def __call__(self, xs: np.ndarray, ys: np.ndarray) -> np.ndarray:
        pts = np.stack(np.broadcast_arrays(xs, ys), -1).astype(np.float64)
        shape = pts.shape[:-1]
        mapped = cv2.perspectiveTransform(pts.reshape(-1, 1, 2), self.inv).reshape(-1, 2).astype(np.float32)
        out = cv2.remap(self.gray, mapped[:, 0].reshape(1, -1), mapped[:, 1].reshape(1, -1), cv2.INTER_LINEAR,
                        borderMode=cv2.BORDER_CONSTANT, borderValue=0)
        return out.reshape(shape).astype(np.float32) / 255.0


def grid_line_score(sample, rows: int, cols: int, cell: int) -> float:
    """How much darker the expected grid lines are than the squares' centres (0..1, median).

    ``sample(xs, ys)`` reads grey levels (0..1) at canonical coordinates."""
    m = MARGIN * cell
    line_x = m + np.arange(cols + 1) * cell
    mid_x = m + (np.arange(cols) + 0.5) * cell
    ys = (m + (np.arange(rows) + 0.5) * cell)[:, None]
    lines = np.min([sample(line_x[None, :] + d, ys) for d in (-1, 0, 1)], axis=0)
    mids = sample(mid_x[None, :], ys)
    contrast = (mids[:, :-1] + mids[:, 1:]) / 2 - lines[:, 1:-1]
    return float(np.median(contrast))


def find_outline(gray: np.ndarray) -> np.ndarray | None:
    """The largest convex quadrilateral outline (TL, TR, BR, BL), or None."""
    found = outline_candidates(gray)
    return found[0] if found else None


def outline_candidates(gray: np.ndarray, limit: int = 6) -> list[np.ndarray]:
    """Convex quadrilateral outlines (the grid's thick border among them), largest first."""
    small_scale = 640.0 / max(gray.shape)
    small = cv2.resize(gray, None, fx=small_scale, fy=small_scale, interpolation=cv2.INTER_AREA) if small_scale < 1 else gray
    scale = small_scale if small_scale < 1 else 1.0
    binary = cv2.adaptiveThreshold(small, 255, cv2.ADAPTIVE_THRESH_MEAN_C, cv2.THRESH_BINARY_INV, 31, 10)
    contours, _ = cv2.findContours(binary, cv2.RETR_LIST, cv2.CHAIN_APPROX_SIMPLE)
    quads = []
    for c in contours:
        area = cv2.contourArea(c)
        if area <= 0.04 * small.size:
            continue
        approx = cv2.approxPolyDP(c, 0.02 * cv2.arcLength(c, True), True)
        if len(approx) == 4 and cv2.isContourConvex(approx):
            quads.append((area, order_corners(approx.reshape(4, 2).astype(np.float64) / scale)))
    quads.sort(key=lambda q: -q[0])
    return [q for _a, q in quads[:limit]]


def order_corners(pts: np.ndarray) -> np.ndarray:
    """Four points as TL, TR, BR, BL (assuming the board is roughly upright in the frame)."""
    pts = np.asarray(pts, np.float64)
    s, d = pts.sum(1), pts[:, 0] - pts[:, 1]
    return np.array([pts[s.argmin()], pts[d.argmax()], pts[s.argmax()], pts[d.argmin()]])
