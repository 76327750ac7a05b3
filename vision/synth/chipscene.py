"""Synthetic photos of the printed Sequence Letters board with chips on it (tests and the
benchmark only): the page as printed, round chips (a rim, a highlight, a shadow) on some
pictures, a little off centre, then the page photographed in perspective with light falling
off to one side, a glare spot, blur, noise and JPEG; optionally a hand over part of the board.

>>> from tabletop.resources import load_board
>>> from rules.squares import Square
>>> board = load_board("sequence-letters", required=("letters", "colors"))
>>> chip_scene(board, {Square(0, 0): "r"}, seed=1).shape
(960, 1280, 3)
"""

from __future__ import annotations

import cv2
import numpy as np

from rules.board import Board
from rules.squares import Square
from vision.synth.camera import camera_finish

#: chip colours as they look (BGR), by code: red, blue, green
CHIP_BGR = {"r": (45, 45, 205), "b": (190, 95, 35), "g": (70, 160, 40)}


_PAGES: dict[tuple, tuple[np.ndarray, list[list[int]]]] = {}


def _page(board: Board, dpi: int) -> tuple[np.ndarray, list[list[int]]]:
    """The printed page of ``board`` and its squares' boxes (remembered: printing takes a while)."""
    from vision.picture_board import print_picture_board

    key = (board.name, tuple(board.layers["letters"]), tuple(board.layers["colors"]), dpi)
    if key not in _PAGES:
        page, side = print_picture_board(board, dpi=dpi)
        _PAGES[key] = (page, side["cells"])
    return _PAGES[key]


def chip_scene(board: Board, chips: dict[Square, str], *, seed: int = 0, size: tuple[int, int] = (1280, 960),
               tilt_deg: float = 35.0, hand: bool = False, dpi: int = 110) -> np.ndarray:
    """A BGR photo of the printed ``board`` with ``chips`` (square -> colour code) on it."""
    from vision.synth.scene import camera_homography

    rng = np.random.default_rng(seed)
    printed, cells = _page(board, dpi)
    page = printed.astype(np.float32)
    for sq, code in chips.items():
        x0, y0, x1, y1 = cells[sq.row * board.cols + sq.col]
        cell = x1 - x0
        cx = x0 + cell / 2 + rng.uniform(-0.08, 0.08) * cell
        cy = y0 + cell / 2 + rng.uniform(-0.08, 0.08) * cell
        radius = cell * rng.uniform(0.3, 0.36)
        colour = np.array(CHIP_BGR[code], np.float32) * rng.uniform(0.85, 1.1) + rng.normal(0, 8, 3)
        # drawn in a window round the chip only
        wx0, wy0 = max(0, int(cx - 2 * radius)), max(0, int(cy - 2 * radius))
        window = page[wy0:int(cy + 2 * radius), wx0:int(cx + 2 * radius)]
        at = (int(cx) - wx0, int(cy) - wy0)
        disc = np.zeros(window.shape[:2], np.float32)
        cv2.circle(disc, (at[0] + 3, at[1] + 3), int(radius), 1.0, -1, cv2.LINE_AA)      # its shadow
        window *= (1 - 0.35 * cv2.GaussianBlur(disc, (0, 0), 3))[..., None]
        disc[:] = 0
        cv2.circle(disc, at, int(radius), 1.0, -1, cv2.LINE_AA)
        rim = np.zeros_like(disc)
        cv2.circle(rim, at, int(radius * 0.8), 1.0, max(1, int(radius * 0.08)), cv2.LINE_AA)
        shine = np.zeros_like(disc)
        cv2.circle(shine, (int(at[0] - radius * 0.35), int(at[1] - radius * 0.35)), int(radius * 0.2), 1.0, -1, cv2.LINE_AA)
        chip = colour * (1 - 0.25 * rim[..., None]) + 70 * cv2.GaussianBlur(shine, (0, 0), 2)[..., None]
        window[:] = window * (1 - disc[..., None]) + chip * disc[..., None]
    w, h = size
    homography = camera_homography(page.shape[1], page.shape[0], size, tilt_deg * rng.uniform(0.4, 1.0), rng, fill=0.95)
    table = np.array([70, 95, 120], np.float32) + rng.normal(0, 6, 3).astype(np.float32)
    photo = cv2.warpPerspective(page, homography, size, borderValue=tuple(float(v) for v in table))
    if hand:
        blob = np.zeros((h, w), np.float32)
        hx, hy = rng.uniform(0.3, 0.7) * w, rng.uniform(0.3, 0.7) * h
        cv2.ellipse(blob, (int(hx), int(hy)), (int(w * 0.12), int(h * 0.09)), float(rng.uniform(0, 180)), 0, 360, 1.0, -1)
        cv2.rectangle(blob, (int(hx), int(hy - h * 0.05)), (w, int(hy + h * 0.05)), 1.0, -1)
        blob = np.asarray(cv2.GaussianBlur(blob, (0, 0), 5), np.float32)
        photo = photo * (1 - blob[..., None]) + np.array([120, 150, 205], np.float32) * blob[..., None]
    return camera_finish(photo, rng, dim=0.35, glare_radius=(0.04, 0.1), glare=(40, 90), blur=(0.5, 1.2), jpeg=(60, 92))
