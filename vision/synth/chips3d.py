"""Photos of chips on the printed Sequence Letters board as solid things (tests and benchmarks
only): a second renderer, made unlike :mod:`vision.synth.chipscene` on purpose, to measure the
chip reader on pictures it was not tuned on.

The page (as ``tabletop print-board`` prints it) lies on a table; chips are short cylinders (3 mm
thick, 60 to 72 % of a square across), each off its square's centre by up to a third of a
square, with a darker side band, a rim and a highlight on top, and a shadow from a light's
direction. A pinhole camera (a field of view of 55 to 75 degrees, tilted up to 40 degrees,
turned any way about its axis) sees the page filling 80 to 100 % of the frame; then defocus,
camera shake, light falling off, noise and JPEG (:func:`vision.synth.lens.lens_finish`).

>>> from tabletop.resources import load_board
>>> from rules.squares import Square
>>> board = load_board("sequence-letters", required=("letters", "colors"))
>>> shot = chips_photo(board, {Square(0, 0): "r"}, seed=1, family="tilted")
>>> shot.image.shape, shot.tilt_deg >= 30
((960, 1280, 3), True)
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from rules.board import Board
from rules.squares import Square
from vision.synth.dice3d import PinholeCamera, pinhole_camera, table_picture
from vision.synth.lens import lens_finish

#: the kinds of photos (what is hard in each), as :func:`chips_photo` draws them
FAMILIES = ("level", "tilted", "off-centre", "soft", "shaken", "mixed")
#: chip colours (BGR, plastic under a white light) by code, a little unlike the reader's
CHIP_BGR = {"r": (40, 50, 195), "b": (180, 100, 40), "g": (75, 150, 45)}
#: a chip's thickness (mm)
THICK_MM = 3.0


@dataclass(frozen=True)
class ChipsPhoto:
    """A rendered photo and its parameters (the chips are what was asked)."""

    image: np.ndarray
    family: str
    tilt_deg: float
    off_centre: float          #: the largest chip's offset, as a share of a square
    defocus_px: float
    shake_px: float


_PAGES: dict[tuple, tuple[np.ndarray, dict]] = {}


def _page(board: Board, dpi: int) -> tuple[np.ndarray, dict]:
    from vision.picture_board import print_picture_board

    key = (board.name, tuple(board.layers["letters"]), dpi)
    if key not in _PAGES:
        _PAGES[key] = print_picture_board(board, dpi=dpi)
    return _PAGES[key]


def _chip_top(colour: np.ndarray, px: int, rng: np.random.Generator) -> np.ndarray:
    """The top of a chip, ``px`` square (the disc touching the edges): its colour, a raised rim,
    a highlight."""
    top = np.empty((px, px, 3), np.float32)
    top[:] = colour
    c = px / 2
    yy, xx = np.mgrid[0:px, 0:px].astype(np.float32)
    r = np.hypot(xx - c, yy - c) / c
    top *= (1 - 0.22 * np.exp(-((r - 0.8) / 0.05) ** 2))[..., None]
    a = rng.uniform(0, 2 * np.pi)
    hx, hy = c + 0.4 * c * np.cos(a), c + 0.4 * c * np.sin(a)
    top += 60 * np.exp(-((xx - hx) ** 2 + (yy - hy) ** 2) / (2 * (0.15 * c) ** 2))[..., None]
    return top


def _circle(centre: np.ndarray, radius: float, z: float, n: int = 48) -> np.ndarray:
    a = np.linspace(0, 2 * np.pi, n, endpoint=False)
    return np.stack([centre[0] + radius * np.cos(a), centre[1] + radius * np.sin(a), np.full(n, z)], 1)


def _fill(image: np.ndarray, points: np.ndarray, value: np.ndarray | float, alpha: float = 1.0) -> None:
    hull = cv2.convexHull(points.astype(np.float32)).reshape(-1, 2)
    x0, y0 = np.maximum(np.floor(hull.min(0)).astype(int) - 2, 0)
    x1, y1 = np.ceil(hull.max(0)).astype(int) + 3
    window = image[y0:y1, x0:x1]
    mask = np.zeros(window.shape[:2], np.float32)
    cv2.fillConvexPoly(mask, np.round((hull - (x0, y0)) * 16).astype(np.int32), 1.0, cv2.LINE_AA, 4)
    m = mask[..., None] * alpha
    window[:] = window * (1 - m) + np.asarray(value, np.float32) * m


def _draw_chip(image: np.ndarray, camera: PinholeCamera, centre: np.ndarray, radius: float, colour: np.ndarray,
               light: np.ndarray, rng: np.random.Generator) -> None:
    bottom, top = _circle(centre, radius, 0.0), _circle(centre, radius, THICK_MM)
    shadow = np.vstack([bottom, top - (THICK_MM / light[2]) * light])
    _fill(image, camera.project(shadow), 0.0, 0.4)
    _fill(image, camera.project(np.vstack([bottom, top])), colour * rng.uniform(0.55, 0.7))
    px = 96
    face = _chip_top(colour * (0.8 + 0.3 * light[2]), px, rng)
    corners = np.array([(centre[0] - radius, centre[1] - radius, THICK_MM), (centre[0] + radius, centre[1] - radius, THICK_MM),
                        (centre[0] + radius, centre[1] + radius, THICK_MM), (centre[0] - radius, centre[1] + radius, THICK_MM)])
    quad = camera.project(corners).astype(np.float32)
    x0, y0 = np.maximum(np.floor(quad.min(0)).astype(int) - 2, 0)
    x1, y1 = np.ceil(quad.max(0)).astype(int) + 3
    H = cv2.getPerspectiveTransform(np.array([(0, 0), (px, 0), (px, px), (0, px)], np.float32), (quad - (x0, y0)).astype(np.float32))
    size = (x1 - x0, y1 - y0)
    layer = cv2.warpPerspective(face, H, size)
    disc = np.zeros((px * 4, px * 4), np.float32)
    cv2.circle(disc, (px * 2, px * 2), px * 2, 1.0, -1, cv2.LINE_AA)
    mask = cv2.warpPerspective(cv2.resize(disc, (px, px), interpolation=cv2.INTER_AREA), H, size)[..., None]
    window = image[y0:y1, x0:x1]
    window[:] = window * (1 - mask) + layer * mask


def chips_photo(board: Board, chips: dict[Square, str], *, seed: int, family: str = "mixed",
                size: tuple[int, int] = (1280, 960), dpi: int = 110) -> ChipsPhoto:
    """A photo of the printed ``board`` with ``chips`` (square -> colour code), of one of
    :data:`FAMILIES`."""
    if family not in FAMILIES:
        raise ValueError(f"the photo family must be one of {', '.join(FAMILIES)}, not {family!r}")
    rng = np.random.default_rng(seed)
    w, h = size
    page, side = _page(board, dpi)
    mm = 25.4 / dpi
    tilt = {"level": rng.uniform(0, 15), "tilted": rng.uniform(30, 40)}.get(family, rng.uniform(0, 40))
    most_off = rng.uniform(0.15, 1 / 3) if family in ("off-centre", "mixed") else rng.uniform(0, 0.1)
    fov = rng.uniform(55, 75)
    f = (w / 2) / np.tan(np.radians(fov) / 2)
    page_h, page_w = page.shape[0] * mm, page.shape[1] * mm
    fill = rng.uniform(0.8, 1.0)
    distance = f * max(page_w / w, page_h / h) / fill
    camera = pinhole_camera(rng, size, tilt, fov, distance, roll_deg=180.0)
    for _ in range(4):                               # the page to fill about ``fill`` of the frame
        corners = np.array([(-page_w / 2, -page_h / 2, 0), (page_w / 2, -page_h / 2, 0), (page_w / 2, page_h / 2, 0),
                            (-page_w / 2, page_h / 2, 0)])
        span = np.ptp(camera.project(corners), axis=0)
        camera.C = camera.C * max(span[0] / (w * fill), span[1] / (h * fill))
    shift = rng.uniform(-0.08, 0.08, 2) * (page_w, page_h)
    camera.C = camera.C + (*shift, 0.0)
    image = table_picture(camera, size, rng)
    to_mm = np.array([[mm, 0, -page_w / 2], [0, -mm, page_h / 2], [0, 0, 1]])      # the page's y runs the table's -y
    H = camera.table_homography() @ to_mm
    paper = cv2.warpPerspective(page.astype(np.float32) * rng.uniform(0.9, 1.0), H, size, flags=cv2.INTER_LINEAR)
    inside = cv2.warpPerspective(np.ones(page.shape[:2], np.float32), H, size)[..., None]
    image = image * (1 - inside) + paper * inside
    light = np.array([np.cos(a := rng.uniform(0, 2 * np.pi)), np.sin(a), 0.0]) * np.cos(e := np.radians(rng.uniform(40, 75)))
    light[2] = np.sin(e)
    cell_mm = side["cell_px"] * mm
    order = sorted(chips.items(), key=lambda item: -float(np.linalg.norm(
        camera.C[:2] - _square_centre(side, item[0], board.cols, mm, page_w, page_h))))
    for sq, code in order:
        angle = rng.uniform(0, 2 * np.pi)
        off = rng.uniform(0.4, 1.0) * most_off * cell_mm
        centre = _square_centre(side, sq, board.cols, mm, page_w, page_h) + off * np.array([np.cos(angle), np.sin(angle)])
        radius = cell_mm * rng.uniform(0.3, 0.36)
        colour = np.array(CHIP_BGR[code], np.float32) * rng.uniform(0.85, 1.1) + rng.normal(0, 8, 3).astype(np.float32)
        _draw_chip(image, camera, centre, radius, colour, light, rng)
    defocus = rng.uniform(0.6, 2.0) if family == "soft" else rng.uniform(0, 2.0) if family == "mixed" else rng.uniform(0, 0.8)
    shake = rng.uniform(1.5, 4.0) if family == "shaken" else rng.uniform(0, 4.0) if family == "mixed" else rng.uniform(0, 1.0)
    return ChipsPhoto(lens_finish(image, rng, defocus, shake), family, float(tilt), float(most_off), float(defocus),
                      float(shake))


def _square_centre(side: dict, sq: Square, cols: int, mm: float, page_w: float, page_h: float) -> np.ndarray:
    x0, y0, x1, y1 = side["cells"][sq.row * cols + sq.col]
    return np.array([(x0 + x1) / 2 * mm - page_w / 2, page_h / 2 - (y0 + y1) / 2 * mm])
