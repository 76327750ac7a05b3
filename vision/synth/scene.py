"""Synthetic camera scenes: the printed board with handwriting, seen in perspective under
uneven light and glare, blurred and noisy, optionally with a hand over part of it.

>>> from rules.board import parse_board
>>> from rules.squares import Square
>>> b = parse_board('rows = 5\\ncols = 5\\n[layers]\\nvalues = ["11111"]*5\\nzones = ["....."]*5'.replace('["11111"]*5', str(["11111"]*5)).replace('["....."]*5', str(["....."]*5)).replace("'", '"'))
>>> frame = render_scene(b, {Square(2, 1): "C", Square(2, 2): "A", Square(2, 3): "T"}, seed=1)
>>> frame.shape, frame.dtype
((720, 1280, 3), dtype('uint8'))
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable

import cv2
import numpy as np

from rules.board import Board
from rules.squares import Square
from vision.synth.handwriting import render_letter
from vision.layout import Layout
from vision.printing import draw_board

INKS = {"black": (35, 30, 30), "blue": (150, 60, 20), "red": (40, 40, 190), "green": (60, 120, 30)}
#: renders one letter as an ink map: (letter, size_px, rng) -> float32 (size, size)
InkRenderer = Callable[[str, int, np.random.Generator], np.ndarray]


@dataclass
class Scene:
    """A rendered frame and its ground truth."""

    frame: np.ndarray
    board_to_frame: np.ndarray  #: homography from printed-image pixels to frame pixels
    print_cell: float
    print_origin: tuple[float, float]
    hand_cover: dict = field(default_factory=dict)  #: square -> share of it under the hand or pen (0..1]
    hand: bool = False

    @property
    def hand_squares(self) -> set:
        """The squares the hand (or pen) covers at least partly."""
        return set(self.hand_cover)


def printed_with_letters(board: Board, letters: dict, cell: float, rng: np.random.Generator,
                         ink_renderer: InkRenderer | None = None, ink: str | None = None, seed: int | None = None):
    """The printed board (1-cell paper border) with ``letters`` written in marker.

    With ``seed``, each letter's shape depends only on (seed, square, letter): writing more
    letters never changes the ones already there."""
    lay = Layout(board.rows, board.cols)
    border = cell
    w, h = int(round(lay.width * cell + 2 * border)), int(round(lay.height * cell + 2 * border))
    canvas = np.full((h, w, 3), 250, np.uint8)
    origin = (border + lay.outer * cell, border + lay.outer * cell)
    draw_board(board, cell, origin=origin, canvas=canvas)
    colour = np.array(INKS[ink or rng.choice(list(INKS))], np.float32)
    render = ink_renderer or (lambda letter, size, r: render_letter(letter, size, r))
    img = canvas.astype(np.float32)
    size = int(round(cell))
    for sq, letter in letters.items():
        r, c = sq
        x0, y0 = int(round(origin[0] + c * cell)), int(round(origin[1] + r * cell))
        r_letter = rng if seed is None else np.random.default_rng([seed, 1, r, c, ord(letter)])
        m = render(letter, size, r_letter)[:, :, None] * r_letter.uniform(0.8, 0.97)
        patch = img[y0:y0 + size, x0:x0 + size]
        patch[:] = patch * (1 - m) + colour * m
    return img, origin


def camera_homography(src_w: float, src_h: float, size: tuple[int, int], tilt_deg: float,
                      rng: np.random.Generator, fill: float = 0.9) -> np.ndarray:
    """A homography that shows a ``src_w`` x ``src_h`` flat page to a pinhole camera tilted by
    ``tilt_deg`` (in a random direction), turned a little, filling about ``fill`` of the frame."""
    fw, fh = size
    f = 1.1 * fw
    direction = rng.uniform(0, 2 * np.pi)
    tilt = np.radians(tilt_deg)
    axis = np.array([np.cos(direction), np.sin(direction), 0.0])
    rot_tilt, _ = cv2.Rodrigues(axis * tilt)
    rot_yaw, _ = cv2.Rodrigues(np.array([0, 0, np.radians(rng.uniform(-8, 8))]))
    rot = rot_tilt @ rot_yaw
    corners = np.array([[0, 0], [src_w, 0], [src_w, src_h], [0, src_h]], np.float64)
    pts3 = np.hstack([corners - [src_w / 2, src_h / 2], np.zeros((4, 1))]) @ rot.T
    dist = f * max(src_w / fw, src_h / fh) / fill
    for _ in range(3):
        proj = f * pts3[:, :2] / (pts3[:, 2:] + dist)
        span = proj.max(0) - proj.min(0)
        dist *= max(span[0] / (fw * fill), span[1] / (fh * fill))
    proj = f * pts3[:, :2] / (pts3[:, 2:] + dist)
    proj += np.array([fw / 2, fh / 2]) - (proj.max(0) + proj.min(0)) / 2
    proj += rng.uniform(-0.03, 0.03, 2) * [fw, fh]
    return cv2.getPerspectiveTransform(corners.astype(np.float32), proj.astype(np.float32))


def _background(size, rng):
    fw, fh = size
    base = np.array(rng.choice([(60, 90, 130), (40, 60, 80), (120, 120, 120), (90, 110, 140)]), np.float32)
    noise = cv2.resize(rng.normal(0, 12, (fh // 16 + 1, fw // 16 + 1)).astype(np.float32), (fw, fh))
    return np.clip(base + noise[:, :, None], 0, 255)


def _hand_mask(size, quad: np.ndarray, rng: np.random.Generator, coverage: float) -> np.ndarray:
    """A hand (palm and fingers) entering from the nearest frame edge over about ``coverage``
    of the board's area."""
    fw, fh = size
    mask = np.zeros((fh, fw), np.uint8)
    centre = quad.mean(0)
    side = np.sqrt(cv2.contourArea(quad.astype(np.float32)))
    target = quad[rng.integers(4)] * 0.45 + centre * 0.55 + rng.normal(0, 0.08 * side, 2)
    palm_r = side * np.sqrt(coverage) * 0.42
    edges = [(target[0], 0), (target[0], fh), (0, target[1]), (fw, target[1])]
    start = np.array(min(edges, key=lambda e: np.hypot(e[0] - target[0], e[1] - target[1])), np.float64)
    direction = (target - start) / (np.linalg.norm(target - start) + 1e-6)
    ang = np.degrees(np.arctan2(direction[1], direction[0]))
    cv2.line(mask, tuple(map(int, start)), tuple(map(int, target)), 255, int(palm_r * 1.2))
    cv2.ellipse(mask, tuple(map(int, target)), (int(palm_r), int(palm_r * 0.85)), ang, 0, 360, 255, -1)
    normal = np.array([-direction[1], direction[0]])
    for k, spread in enumerate(np.linspace(-0.7, 0.7, 4)):
        base = target + direction * palm_r * 0.6 + normal * spread * palm_r
        tip = base + (direction * np.cos(spread * 0.5) + normal * np.sin(spread * 0.5)) * palm_r * rng.uniform(0.9, 1.4)
        cv2.line(mask, tuple(map(int, base)), tuple(map(int, tip)), 255, max(3, int(palm_r * 0.32)))
    thumb_base = target - direction * palm_r * 0.2 + normal * palm_r * 0.8
    cv2.line(mask, tuple(map(int, thumb_base)), tuple(map(int, thumb_base + normal * palm_r * 0.8 + direction * palm_r * 0.5)),
             255, max(3, int(palm_r * 0.35)))
    return mask


def _pen_mask(size, quad: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """A dry-erase marker lying on the board: on an A4 print it is about as long as the grid and
    one to two squares thick."""
    fw, fh = size
    mask = np.zeros((fh, fw), np.uint8)
    side = np.sqrt(cv2.contourArea(quad.astype(np.float32)))
    centre = quad.mean(0) + rng.uniform(-0.3, 0.3, 2) * side
    angle = rng.uniform(0, np.pi)
    half = np.array([np.cos(angle), np.sin(angle)]) * side * rng.uniform(0.3, 0.45)
    width = max(4, int(side * rng.uniform(0.08, 0.12)))
    cv2.line(mask, tuple(map(int, centre - half)), tuple(map(int, centre + half)), 255, width)
    return mask


def make_scene(board: Board, letters: dict[Square, str] | None = None, *, seed: int = 0, hand: bool = False,
               tilt_deg: float | None = None, size: tuple[int, int] = (1280, 720), glare: bool = True,
               blur: float | None = None, noise: float | None = None, hand_coverage: float | None = None,
               ink_renderer: InkRenderer | None = None, print_cell: float = 48, ink: str | None = None,
               fill: float | None = None, pen: bool = False, hand_seed: int = 0, frame_no: int = 0) -> Scene:
    """Render a frame and keep its ground truth; see :func:`render_scene`."""
    letters = letters or {}
    img, origin = printed_with_letters(board, letters, print_cell, np.random.default_rng([seed, 0]), ink_renderer, ink,
                                       seed=seed)
    ph, pw = img.shape[:2]
    rng = np.random.default_rng([seed, 2])  # the camera: fixed for a seed
    tilt = rng.uniform(0, 35) if tilt_deg is None else tilt_deg
    h = camera_homography(pw, ph, size, tilt, rng, fill if fill is not None else rng.uniform(0.88, 0.98))
    fw, fh = size
    frame = _background(size, rng)
    warped = cv2.warpPerspective(img, h, size, flags=cv2.INTER_AREA if False else cv2.INTER_LINEAR)
    paper = cv2.warpPerspective(np.ones((ph, pw), np.float32), h, size)
    frame = frame * (1 - paper[:, :, None]) + warped * paper[:, :, None]
    # light: a smooth gradient and soft shading
    rng = np.random.default_rng([seed, 3])
    yy, xx = np.mgrid[0:fh, 0:fw].astype(np.float32)
    gx, gy = rng.uniform(-0.35, 0.35, 2)
    light = 1.0 + gx * (xx / fw - 0.5) + gy * (yy / fh - 0.5)
    light *= rng.uniform(0.7, 1.05)
    frame *= light[:, :, None]
    hand_cover: dict = {}
    glare_rng, rng = rng, np.random.default_rng([seed, 4, hand_seed])
    if hand or pen:
        quad = cv2.perspectiveTransform(np.array([[[origin[0], origin[1]]],
                                                  [[origin[0] + board.cols * print_cell, origin[1]]],
                                                  [[origin[0] + board.cols * print_cell, origin[1] + board.rows * print_cell]],
                                                  [[origin[0], origin[1] + board.rows * print_cell]]], np.float64), h).reshape(4, 2)
        mask = np.zeros((fh, fw), np.uint8)
        if hand:
            mask |= _hand_mask(size, quad, rng, hand_coverage if hand_coverage is not None else rng.uniform(0.05, 0.25))
        pen_mask = _pen_mask(size, quad, rng) if pen else np.zeros_like(mask)
        soft = cv2.GaussianBlur(mask.astype(np.float32) / 255, (0, 0), 2.0)
        shadow = cv2.GaussianBlur(np.roll(mask, (18, 14), (0, 1)).astype(np.float32) / 255, (0, 0), 12)
        frame *= (1 - 0.35 * shadow)[:, :, None]
        skin = np.array(rng.choice([(120, 150, 200), (90, 120, 170), (60, 85, 120), (150, 175, 215)]), np.float32)
        shade = 0.8 + 0.3 * cv2.resize(rng.random((8, 8)).astype(np.float32), size)
        frame = frame * (1 - soft[:, :, None]) + (skin * shade[:, :, None]) * soft[:, :, None]
        if pen:
            body = cv2.GaussianBlur(pen_mask.astype(np.float32) / 255, (0, 0), 1.2)[:, :, None]
            colour = np.array(rng.choice([(40, 40, 40), (150, 60, 20), (40, 40, 190), (110, 110, 110)]), np.float32)
            frame = frame * (1 - body) + colour * body
            mask |= pen_mask
        inv = np.linalg.inv(h)
        back = cv2.warpPerspective(mask, inv, (pw, ph), flags=cv2.INTER_NEAREST)
        for sq in board.squares():
            x0, y0 = int(origin[0] + sq.col * print_cell), int(origin[1] + sq.row * print_cell)
            share = float(np.count_nonzero(back[y0:y0 + int(print_cell), x0:x0 + int(print_cell)])) / int(print_cell) ** 2
            if share > 0:
                hand_cover[sq] = share
    rng = glare_rng
    if glare:
        for _ in range(rng.integers(1, 3)):
            cx, cy = rng.uniform(0.15, 0.85) * fw, rng.uniform(0.15, 0.85) * fh
            r = rng.uniform(0.04, 0.12) * fw
            blob = np.exp(-((xx - cx) ** 2 + (yy - cy) ** 2) / (2 * r * r))
            frame += (rng.uniform(60, 140) * blob)[:, :, None]
    sigma = rng.uniform(0.3, 1.3) if blur is None else blur
    if sigma > 0:
        frame = cv2.GaussianBlur(frame, (0, 0), sigma)
    level = rng.uniform(1.5, 5) if noise is None else noise
    frame += np.random.default_rng([seed, 5, frame_no]).normal(0, level, frame.shape).astype(np.float32)
    frame = np.clip(frame, 0, 255).astype(np.uint8)
    return Scene(frame, h, print_cell, origin, hand_cover, hand or pen)


def render_scene(board: Board, letters: dict[Square, str] | None = None, *, seed: int = 0, hand: bool = False,
                 tilt_deg: float | None = None, size: tuple[int, int] = (1280, 720), **options) -> np.ndarray:
    """A BGR camera frame of ``board`` with ``letters`` (square -> letter) handwritten on it.

    ``tilt_deg`` (default: random 0-35) tilts the camera; ``hand=True`` puts a hand over up to a
    quarter of the board, ``pen=True`` a marker pen. Other options: ``glare``, ``blur``,
    ``noise``, ``ink`` ('black', 'blue', 'red', 'green'), ``ink_renderer(letter, size, rng) ->
    ink map``.

    The ``seed`` fixes the camera, the light and each letter's shape, so a video of one table is
    a series of calls with the same seed and growing ``letters``; ``frame_no`` changes only the
    sensor noise, ``hand_seed`` where the hand (or pen) is. Same arguments, same frame.
    """
    return make_scene(board, letters, seed=seed, hand=hand, tilt_deg=tilt_deg, size=size, **options).frame


def harsh_light(frame: np.ndarray, seed: int) -> np.ndarray:
    """``frame`` under harsher light than :func:`make_scene` gives: one side of the picture falls
    to 25-40 % of the brightness of the other (a lamp to one side, the board's far edge in shadow)
    and one to three saturated, elongated glare spots (a ceiling light on a glossy print). The
    scenes the reader must never read ink from.

    >>> from tabletop.resources import load_board
    >>> frame = make_scene(load_board("extradiction"), {}, seed=1).frame
    >>> harsh = harsh_light(frame, 3)
    >>> harsh.shape == frame.shape, harsh.dtype.name, int(harsh.max()), bool(harsh.mean() < frame.mean() + 40)
    (True, 'uint8', 255, True)
    """
    rng = np.random.default_rng([seed, 17])
    f = frame.astype(np.float32)
    h, w = f.shape[:2]
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    angle = rng.uniform(0, 2 * np.pi)
    along = np.cos(angle) * (xx / w - 0.5) + np.sin(angle) * (yy / h - 0.5)
    low = rng.uniform(0.25, 0.4)
    f *= np.clip(1 - (1 - low) * (along + 0.5), low, 1.0)[:, :, None]
    for _ in range(int(rng.integers(1, 4))):
        cx, cy = rng.uniform(0.2, 0.8) * w, rng.uniform(0.2, 0.8) * h
        long_axis, short_axis, turn = rng.uniform(20, 120), rng.uniform(10, 50), rng.uniform(0, np.pi)
        u = ((xx - cx) * np.cos(turn) + (yy - cy) * np.sin(turn)) / long_axis
        v = (-(xx - cx) * np.sin(turn) + (yy - cy) * np.cos(turn)) / short_axis
        f += (np.exp(-(u * u + v * v)) * rng.uniform(150, 300))[:, :, None]
    return np.clip(f, 0, 255).astype(np.uint8)
