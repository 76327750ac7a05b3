"""Step 1, candidate planes: homographies under which two families of the photo's line segments
(grouped by their vanishing points) run along the axes, and four-sided outlines that stand out
from the table."""

from __future__ import annotations

import cv2
import numpy as np

from vision.gridfind.geometry import _clockwise

SEGMENT_SIDE = 720  #: line segments are looked for at this size
PLANE_SIDE = 640  #: the candidate plane is warped to at most this many pixels
#: the two strongest families of lines are looked for among this many line segments (the longest),
#: the next ones among up to SEGMENTS (a checked cloth's edges can fill the first FIRST_SEGMENTS: a
#: small board's lines are shorter)
FIRST_SEGMENTS, SEGMENTS = 500, 1000
#: the second family of lines (vanishing point) is looked for among the segments at least FIRST_APART
#: degrees off the first's, the next ones among those at least APART off each found before (a board's
#: lines can run a few degrees off a table's stronger ones)
FIRST_APART, APART = 15.0, 5.0


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
    return seg[order[:SEGMENTS]]


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
    first = np.arange(len(seg)) < FIRST_SEGMENTS         # the two strongest families: the longest segments,
    later = np.ones(len(seg), bool)                       # the next: all those pointing elsewhere
    pairs = ((0, 1), (0, 2), (1, 2), (0, 3), (1, 3), (2, 3))
    for a, b in pairs:
        while len(families) <= b:
            found = _ransac_vp(lines, mid, d, weight, first if len(families) < 2 else later, rng)
            if found is None:
                return
            families.append(found)
            first &= _sin_to(found[0], mid, d) > np.sin(np.radians(FIRST_APART))
            later &= _sin_to(found[0], mid, d) > np.sin(np.radians(APART))
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
