"""Synthetic phone photos of boxed crossword boards for the grid finder's benchmark (tests and
benchmarks only): harder and more varied than :mod:`vision.synth.tilescene`'s, one difficulty
pushed at a time.

Each photo belongs to a *family* that pushes one thing to its limit and draws the rest from a
mild range: ``plain`` (the mild range only), ``small`` (the board spans 30-55% of the photo's
shorter side, anywhere in it), ``oblique`` (the camera tilted 35-50°), ``turned`` (the board at
any angle in the photo, 90° and 180° included), ``covered`` (tiles on 30-60% of the squares),
``dark`` (a dark board, or dark tiles with light letters), ``busy`` (a textured table, things
round the board, a hand over it, strong glare) and ``lens`` (a phone lens's barrel or pincushion
distortion). Boards come in six palettes: ``classic`` (beige squares, red and blue premiums,
light lines), ``green``, ``maroon`` (a raised plastic grid), ``wood``, ``dark`` and ``light``.

Photos to refuse: ``none`` (the table and its things, no board), ``cut`` (the grid runs out of
the photo) and ``other`` (a 13x13, 19x19 or 21x21 board).

>>> shot = grid_scene(7, "turned", size=(640, 480))
>>> shot.frame.shape, shot.corners.shape, shot.family
((480, 640, 3), (4, 2), 'turned')
>>> grid_scene(7, "none", size=(640, 480)).corners is None
True
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from vision.synth import tilefonts
from vision.synth.camera import camera_finish
from vision.synth.tilescene import BoardCamera, TileLook, commercial_look, draw_face, paste_warped

#: the families of photos with a whole 15x15 board, and the photos to refuse
FAMILIES = ("plain", "small", "oblique", "turned", "covered", "dark", "busy", "lens")
NEGATIVES = ("none", "cut", "other")
#: board palettes (BGR): frame, square, line, premiums (triple word, double word, triple
#: letter, double letter) and the premium labels' ink
PALETTES: dict[str, tuple[tuple[int, int, int], ...]] = {
    "classic": ((40, 40, 120), (170, 200, 215), (225, 235, 240), (50, 50, 200), (160, 160, 240), (150, 90, 30),
                (225, 195, 140), (245, 245, 245)),
    "green": ((40, 80, 30), (60, 115, 45), (170, 200, 170), (60, 70, 210), (150, 150, 235), (160, 100, 40),
              (220, 190, 120), (245, 245, 245)),
    "maroon": ((40, 35, 95), (185, 215, 225), (45, 40, 110), (60, 60, 190), (170, 165, 235), (140, 80, 40),
               (220, 200, 150), (30, 30, 30)),
    "wood": ((60, 100, 150), (110, 160, 205), (50, 75, 110), (60, 70, 170), (120, 130, 200), (120, 90, 60),
             (170, 170, 150), (30, 40, 60)),
    "dark": ((25, 25, 25), (40, 38, 36), (150, 150, 150), (60, 60, 210), (150, 120, 230), (170, 110, 40),
             (200, 170, 90), (240, 240, 240)),
    "light": ((210, 215, 215), (238, 240, 240), (150, 150, 150), (110, 120, 235), (190, 190, 245), (215, 170, 90),
              (245, 225, 180), (40, 40, 40)),
}
#: the classic layout's quarter (T triple word, D double word, t triple letter, d double letter)
_QUARTER = ("T..d...T", ".D...t..", "..D...d.", "d..D...d", "....D...", ".t...t..", "..d...d.", "T..d...D")
_WORDS = ("TRIPLE", "DOUBLE", "WORD", "LETTER", "SCORE", "MOT", "COMPTE", "WORT", "PALABRA", "СЛОВО", "БУКВА")
#: table colours (BGR) and the things' colours are drawn round these
_TABLES = ((70, 95, 120), (40, 60, 90), (150, 160, 170), (200, 200, 205), (30, 30, 35), (120, 140, 170))


@dataclass(frozen=True)
class GridScene:
    """A photo, the true corners of its 15x15 grid (TL, TR, BR, BL on the board; None for a
    photo to refuse) and its family."""

    frame: np.ndarray
    corners: np.ndarray | None
    family: str
    #: how much of the grid's least visible corner is in view (in the photo and not under the
    #: hand: :func:`corners_in_view`), from the scene itself; 1.0 for a photo to refuse
    in_view: float = 1.0


def layout(rows: int, cols: int, rng: np.random.Generator) -> list[str]:
    """The classic premium layout on 15x15, a point-symmetric scatter on other sizes.

    >>> layout(15, 15, np.random.default_rng(0))[0]
    'T..d...T...d..T'
    """
    if (rows, cols) == (15, 15):
        half = [row + row[-2::-1] for row in _QUARTER]
        return half + half[-2::-1]
    grid = np.full((rows, cols), ".")
    for _ in range(rows * cols // 8):
        r, c = int(rng.integers(rows)), int(rng.integers(cols))
        grid[r, c] = grid[rows - 1 - r, cols - 1 - c] = "TDtd"[int(rng.integers(4))]
    return ["".join(row) for row in grid]


def grid_scene(seed: int, family: str = "plain", *, size: tuple[int, int] = (2048, 1536)) -> GridScene:
    """One photo of ``family`` (see the module's docstring) from ``seed``."""
    if family not in FAMILIES + NEGATIVES:
        raise ValueError(f"family is one of {', '.join(FAMILIES + NEGATIVES)}, not {family!r}")
    rng = np.random.default_rng([seed, 97, (FAMILIES + NEGATIVES).index(family)])
    n = int(rng.choice([13, 19, 21])) if family == "other" else 15
    palette = str(rng.choice(list(PALETTES)))
    if family == "dark" and rng.random() < 0.6:
        palette = "dark" if rng.random() < 0.5 else str(rng.choice(["green", "maroon"]))
    cell = 44
    margin = float(rng.uniform(0.3, 1.6))
    page = _board_face(n, n, cell, margin, PALETTES[palette], rng)
    coverage = rng.uniform(0.3, 0.6) if family == "covered" else rng.uniform(0.0, 0.3)
    tiles = _played(n, coverage, rng)
    look = _dark_look(rng) if family == "dark" and palette != "dark" or rng.random() < 0.1 else \
        commercial_look(rng, "en", tilefonts.HELD_OUT)
    tilt = rng.uniform(35, 50) if family == "oblique" else rng.uniform(0, 30)
    turn = rng.uniform(0, 360) if family == "turned" else (rng.uniform(-15, 15) + 90 * int(rng.integers(4)) *
                                                           (rng.random() < 0.3))
    fill = rng.uniform(0.3, 0.55) if family == "small" else rng.uniform(0.55, 0.95)
    camera = _Camera(n, margin, size, float(tilt), float(turn), float(fill), rng)
    if family == "small":
        camera.place(rng, anywhere=True)
    if family == "cut":
        camera.cut(rng)
    photo = _table(size, rng, textured=family == "busy" or rng.random() < 0.3)
    things = int(rng.integers(3, 9)) if family in ("busy", "none") else int(rng.integers(0, 4))
    _things(photo, things, rng, tiles_look=look)
    if family != "none":
        _board(photo, page, cell, margin, n, tiles, look, camera, rng)
    cover = None
    if family == "busy" or rng.random() < 0.15:
        square = camera.project(np.array([[n / 2, n / 2, 0.0], [n / 2 + 1, n / 2, 0.0]]))
        cover = _hand(photo, square[0], float(np.linalg.norm(square[1] - square[0])), rng)
    photo = _light(photo, rng, strong=family == "busy")
    corners = camera.project(np.array([[0, 0, 0], [n, 0, 0], [n, n, 0], [0, n, 0]], np.float64))
    in_view = corners_in_view(corners, cover, size) if family in FAMILIES else 1.0   # before the lens bends both
    if family == "lens" or rng.random() < 0.1:
        photo, corners = _lens(photo, corners, float(rng.choice([-1, 1]) * rng.uniform(0.03, 0.1)))
    frame = camera_finish(photo, rng, dim=0.25, glare_radius=(0.03, 0.1), glare=(30, 90), blur=(0.4, 1.4),
                          jpeg=(55, 92))
    return GridScene(frame, corners if family in FAMILIES else None, family, in_view)


def corners_in_view(corners: np.ndarray, cover: np.ndarray | None, size: tuple[int, int], squares: int = 15) -> float:
    """How much of the grid's least visible corner is in view: for each of its ``corners``
    (pixels), the share of its two outer lines' first square (of ``squares``) from it that lies in
    a ``size`` (width, height) photo and not under a hand (``cover``: how much the hand covers
    each pixel, 0-1; None: no hand). A person sees where a grid ends, and so where it is, when
    its four corners are in view (an outer line hidden between them still runs straight from one
    to the other). Measured on the scene, never on what a finder makes of the photo.

    >>> square = np.array([[100, 100], [400, 100], [400, 400], [100, 400]], float)
    >>> corners_in_view(square, None, (500, 500))
    1.0
    >>> arm = np.zeros((500, 500), np.float32)
    >>> arm[200:300, 0:500] = 1.0                       # across the middle: every corner in view
    >>> corners_in_view(square, arm, (500, 500))
    1.0
    >>> arm[50:150, 0:500] = 1.0                        # along the top line: its corners hidden
    >>> corners_in_view(square, arm, (500, 500))
    0.0
    """
    w, h = size
    at = (np.arange(50) + 0.5) / 50 / squares
    least = 1.0
    for k in range(4):
        corner = np.asarray(corners[k], np.float64)
        points = np.concatenate([corner + at[:, None] * (np.asarray(corners[(k + side) % 4], np.float64) - corner)
                                 for side in (1, 3)])
        seen = (points[:, 0] >= 0) & (points[:, 0] < w) & (points[:, 1] >= 0) & (points[:, 1] < h)
        if cover is not None:
            xs = np.clip(points[:, 0].astype(int), 0, w - 1)
            ys = np.clip(points[:, 1].astype(int), 0, h - 1)
            seen &= cover[ys, xs] < 0.5
        least = min(least, float(seen.mean()))
    return least


def _played(n: int, share: float, rng: np.random.Generator) -> dict[tuple[int, int], str]:
    """Tiles as a game leaves them: words across and down, ``share`` of the squares covered."""
    tiles: dict[tuple[int, int], str] = {}
    tries = 0
    while len(tiles) < share * n * n and tries < 2000:
        tries += 1
        r, c, length, down = int(rng.integers(n)), int(rng.integers(n)), int(rng.integers(2, 9)), rng.random() < 0.5
        for k in range(length):
            at = (r + k, c) if down else (r, c + k)
            if at[0] < n and at[1] < n:
                tiles[at] = "ABCDEFGHIJKLMNOPRSTUWY?"[int(rng.integers(23))]
    return tiles


def _dark_look(rng: np.random.Generator) -> TileLook:
    fonts = tilefonts.available("en", tilefonts.HELD_OUT)
    face = tuple(int(v) for v in rng.uniform(20, 70, 3))
    ink = tuple(int(v) for v in rng.uniform(200, 250, 3))
    return TileLook(face, ink, fonts[int(rng.integers(len(fonts)))], height=float(rng.uniform(0.1, 0.3)),  # type: ignore[arg-type]
                    size=float(rng.uniform(0.88, 0.96)), values=bool(rng.random() < 0.7))


def _board_face(rows: int, cols: int, cell: int, margin: float, palette: tuple[tuple[int, int, int], ...],
                rng: np.random.Generator) -> np.ndarray:
    """The board's face (BGR float32): the frame, the squares with a gap of line colour between
    them, the premium squares with small labels, a star in the middle, a word on the frame."""
    frame_c, square, line, *premium, ink = (np.array(c, np.float32) + rng.normal(0, 8, 3) for c in palette)
    h, w = int((rows + 2 * margin) * cell), int((cols + 2 * margin) * cell)
    page = np.empty((h, w, 3), np.float32)
    page[:] = frame_c
    if rng.random() < 0.3:                                          # the frame the squares' colour
        page[:] = square * 0.9
    x0, y0 = int(margin * cell), int(margin * cell)
    page[y0:y0 + rows * cell, x0:x0 + cols * cell] = line
    gap = max(1, int(cell * rng.uniform(0.03, 0.12)))
    kinds = layout(rows, cols, rng)
    grain = rng.random() < 0.5 or bool((palette[1] == PALETTES["wood"][1]))
    font = cv2.FONT_HERSHEY_SIMPLEX
    labels = np.zeros((h, w), np.uint8)                                # OpenCV writes text on 8-bit images only
    for r in range(rows):
        for c in range(cols):
            k = kinds[r][c]
            colour = square if k == "." else premium["TDtd".index(k)]
            sx, sy = x0 + c * cell + gap // 2 + gap % 2, y0 + r * cell + gap // 2 + gap % 2
            page[sy:sy + cell - gap, sx:sx + cell - gap] = colour * rng.uniform(0.97, 1.03)
            if k != "." and rng.random() < 0.9:
                for j in range(int(rng.integers(1, 4))):
                    cv2.putText(labels, str(rng.choice(_WORDS))[:7], (sx + 2, sy + int(cell * (0.3 + 0.25 * j))), font,
                                cell / 150, 255, 1, cv2.LINE_AA)
    _ink(page, labels, ink)
    if grain:
        yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
        streaks = np.sin(yy * rng.uniform(0.05, 0.2) + 4 * np.sin(xx / w * rng.uniform(2, 6)))
        page *= (1 - rng.uniform(0.02, 0.08) * (0.5 + 0.5 * streaks))[..., None]
    mid = (x0 + (cols / 2) * cell, y0 + (rows / 2) * cell)
    star = [(mid[0] + cell * 0.32 * (1 if k % 2 == 0 else 0.45) * np.sin(k * np.pi / 5),
             mid[1] - cell * 0.32 * (1 if k % 2 == 0 else 0.45) * np.cos(k * np.pi / 5)) for k in range(10)]
    cv2.fillPoly(page, [np.array(star, np.int32)], ink.tolist(), cv2.LINE_AA)
    if margin > 0.8 and rng.random() < 0.6:                          # a name printed on the frame
        name = np.zeros((h, w), np.uint8)
        cv2.putText(name, str(rng.choice(["WORDS", "CROSSWORD", "LETTERS"])), (int(w * 0.3), int(margin * cell * 0.75)),
                    font, margin * cell / 60, 255, 2, cv2.LINE_AA)
        _ink(page, name, premium[0] * 0.8)
    return page


def _ink(page: np.ndarray, mask: np.ndarray, colour: np.ndarray) -> None:
    m = mask.astype(np.float32)[..., None] / 255.0
    page *= 1 - m
    page += colour * m


class _Camera(BoardCamera):
    """The tile scenes' pinhole camera (world units are squares, the grid's top-left corner at
    the origin, x right, y down the board, z into the table), turned any way, framing the board
    with its ``margin`` to ``fill`` of the photo, and movable (:meth:`place`, :meth:`cut`)."""

    def __init__(self, n: int, margin: float, size: tuple[int, int], tilt: float, turn: float, fill: float,
                 rng: np.random.Generator):
        w, h = size
        self.size, self.n, self.margin = size, n, margin
        self.f = w * rng.uniform(0.7, 1.3)
        direction = rng.uniform(0, 2 * np.pi)
        tilted, _ = cv2.Rodrigues(np.array([np.cos(direction), np.sin(direction), 0.0]) * np.radians(tilt))
        turned, _ = cv2.Rodrigues(np.array([0.0, 0.0, np.radians(turn)]))
        self.rotation = tilted @ turned
        self.centre = np.array([n / 2, n / 2, 0.0])
        self.distance = self.f * (n + 2 * margin) / (fill * min(w, h))
        outline = self.outline()
        for _ in range(5):
            extent = self._raw(outline).max(0) - self._raw(outline).min(0)
            self.distance *= float(max(extent[0] / w, extent[1] / h, max(extent) / min(w, h)) / fill)
        proj = self._raw(outline)
        self.shift = np.array([w / 2, h / 2]) - (proj.max(0) + proj.min(0)) / 2 + rng.uniform(-0.03, 0.03, 2) * size

    def outline(self) -> np.ndarray:
        m, n = self.margin, self.n
        return np.array([[-m, -m, 0], [n + m, -m, 0], [n + m, n + m, 0], [-m, n + m, 0]], np.float64)

    def place(self, rng: np.random.Generator, anywhere: bool) -> None:
        """Move the board anywhere in the photo where it stays whole."""
        proj = self.project(self.outline())
        lo, hi = -proj.min(0) + 2, np.array(self.size) - proj.max(0) - 2
        self.shift = self.shift + rng.uniform(np.minimum(lo, hi), np.maximum(lo, hi))

    def cut(self, rng: np.random.Generator) -> None:
        """Move the board until at least two squares of its grid are out of the photo."""
        grid = np.array([[0, 0, 0], [self.n, 0, 0], [self.n, self.n, 0], [0, self.n, 0]], np.float64)
        step = np.zeros(2)
        step[int(rng.integers(2))] = float(rng.choice([-1, 1])) * 0.05 * self.size[0]
        for _ in range(40):
            proj = self.project(grid)
            cell = float(np.linalg.norm(proj[1] - proj[0])) / self.n
            if (proj < -2 * cell).any() or (proj > np.array(self.size) + 2 * cell).any():
                return
            self.shift = self.shift + step


def _board(photo: np.ndarray, page: np.ndarray, cell: int, margin: float, n: int, tiles: dict[tuple[int, int], str],
           look: TileLook, camera: _Camera, rng: np.random.Generator) -> None:
    """The board (its thickness, its face with the tiles' shadows) and the tiles on it, in place."""
    thick = float(rng.uniform(0.1, 0.4))
    out = camera.outline()
    body = np.vstack([out, out + [0, 0, thick]])
    hull = cv2.convexHull(camera.project(body).astype(np.float32)).astype(np.int32)
    cv2.fillConvexPoly(photo, hull, (page[2, 2] * 0.45).tolist(), cv2.LINE_AA)
    shade = np.ones(page.shape[:2], np.float32)
    for r, c in tiles:
        x0, y0 = int((c + margin + 0.08) * cell), int((r + margin + 0.08) * cell)
        cv2.rectangle(shade, (x0, y0), (x0 + int(0.95 * cell), y0 + int(0.95 * cell)), 0.0, -1)
    soft = np.asarray(cv2.GaussianBlur(shade, (0, 0), cell * 0.08), np.float32)
    paste_warped(photo, page * (0.75 + 0.25 * soft)[..., None], np.ones(page.shape[:2], np.float32),
           camera.plane(cell, margin, page.shape, 0.0))
    if not tiles:
        return
    eye = camera.position
    side = np.array(look.face, np.float32) * 0.6
    top = np.zeros_like(page)
    alpha = np.zeros(page.shape[:2], np.float32)
    order = sorted(tiles, key=lambda sq: -float(np.linalg.norm(np.array([sq[1] + 0.5, sq[0] + 0.5, 0]) - eye)))
    for r, c in order:
        s = look.size * rng.uniform(0.97, 1.0)
        slack = max(0.0, (1 - s) / 2) + 0.02
        x, y = c + 0.5 + rng.uniform(-slack, slack), r + 0.5 + rng.uniform(-slack, slack)
        angle = float(rng.uniform(-6, 6))
        a = np.radians(angle)
        u, v = np.array([np.cos(a), np.sin(a)]) * s / 2, np.array([-np.sin(a), np.cos(a)]) * s / 2
        foot = np.array([[x, y]]) + np.array([-u - v, u - v, u + v, -u + v])
        box = np.vstack([np.hstack([foot, np.zeros((4, 1))]), np.hstack([foot, np.full((4, 1), -look.height)])])
        cv2.fillConvexPoly(photo, cv2.convexHull(camera.project(box).astype(np.float32)).astype(np.int32),
                           (side * rng.uniform(0.8, 1.1)).tolist(), cv2.LINE_AA)
        px = int(round(s * cell))
        face = draw_face(tiles[(r, c)], px, look, rng)
        turn = cv2.getRotationMatrix2D((px / 2, px / 2), angle, 1.0)
        turn[:, 2] = turn[:, 2] + np.array([(x + margin) * cell, (y + margin) * cell]) - px / 2
        cv2.warpAffine(face, turn, (page.shape[1], page.shape[0]), dst=top, borderMode=cv2.BORDER_TRANSPARENT)
        cv2.warpAffine(np.ones((px, px), np.float32), turn, (page.shape[1], page.shape[0]), dst=alpha,
                       borderMode=cv2.BORDER_TRANSPARENT)
    paste_warped(photo, top, alpha, camera.plane(cell, margin, page.shape, -look.height))


def _table(size: tuple[int, int], rng: np.random.Generator, textured: bool) -> np.ndarray:
    """The table: a plain colour, or wood grain, or a checked cloth, or speckled stone."""
    w, h = size
    table = np.empty((h, w, 3), np.float32)
    table[:] = np.array(_TABLES[int(rng.integers(len(_TABLES)))], np.float32) * rng.uniform(0.7, 1.3)
    if not textured:
        return table
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    kind = int(rng.integers(3))
    if kind == 0:                                                      # wood planks
        a = rng.uniform(0, np.pi)
        along, across = xx * np.cos(a) + yy * np.sin(a), -xx * np.sin(a) + yy * np.cos(a)
        streak = np.sin(across * rng.uniform(0.05, 0.15) + 3 * np.sin(along / w * 5))
        table *= (1 - 0.15 * (0.5 + 0.5 * streak))[..., None]
        plank = rng.uniform(0.08, 0.2) * w
        seams = (np.mod(across, plank) < 3).astype(np.float32)
        table *= (1 - 0.5 * seams)[..., None]
    elif kind == 1:                                                    # a checked cloth
        step = rng.uniform(0.02, 0.06) * w
        a = rng.uniform(0, np.pi)
        u, v = xx * np.cos(a) + yy * np.sin(a), -xx * np.sin(a) + yy * np.cos(a)
        check = ((np.mod(u, 2 * step) < step).astype(np.float32) + (np.mod(v, 2 * step) < step)) / 2
        other = rng.uniform(30, 240, 3).astype(np.float32)
        table = table * (1 - check[..., None]) + other * check[..., None]
    else:                                                              # speckled stone
        noise = cv2.resize(rng.normal(0, 1, (h // 8, w // 8)).astype(np.float32), (w, h))
        table *= (1 + 0.12 * noise)[..., None]
    return table


def _things(photo: np.ndarray, count: int, rng: np.random.Generator, tiles_look: TileLook) -> None:
    """Things on the table: books and papers with lines of print, cups, a tile rack, loose tiles."""
    h, w = photo.shape[:2]
    for _ in range(count):
        colour = rng.uniform(20, 240, 3)
        centre = (float(rng.uniform(0, w)), float(rng.uniform(0, h)))
        kind = int(rng.integers(4))
        if kind == 0:                                                  # a book or a paper with print
            side = (float(rng.uniform(0.1, 0.35) * w), float(rng.uniform(0.1, 0.35) * h))
            angle = float(rng.uniform(0, 180))
            box = cv2.boxPoints((centre, side, angle)).astype(np.int32)
            cv2.fillConvexPoly(photo, box, colour.tolist(), cv2.LINE_AA)
            if rng.random() < 0.6:
                ink = (colour * 0.3).tolist()
                a = np.radians(angle)
                d, e = np.array([np.cos(a), np.sin(a)]), np.array([-np.sin(a), np.cos(a)])
                for k in range(-6, 7):
                    p = np.array(centre) + e * k * side[1] / 15
                    cv2.line(photo, tuple((p - d * side[0] * 0.4).astype(int)), tuple((p + d * side[0] * 0.4).astype(int)),
                             ink, 2, cv2.LINE_AA)
        elif kind == 1:                                                # a cup seen from above
            r = int(rng.uniform(0.03, 0.08) * w)
            cv2.circle(photo, (int(centre[0]), int(centre[1])), r, colour.tolist(), -1, cv2.LINE_AA)
            cv2.circle(photo, (int(centre[0]), int(centre[1])), int(r * 0.8), (colour * 0.5).tolist(), -1, cv2.LINE_AA)
        elif kind == 2:                                                # a rack with tiles
            side = (float(rng.uniform(0.2, 0.3) * w), float(rng.uniform(0.03, 0.05) * w))
            angle = float(rng.uniform(0, 180))
            cv2.fillConvexPoly(photo, cv2.boxPoints((centre, side, angle)).astype(np.int32), colour.tolist())
            a = np.radians(angle)
            for k in range(7):
                p = np.array(centre) + np.array([np.cos(a), np.sin(a)]) * (k - 3) * side[0] / 7.5
                tile = cv2.boxPoints(((float(p[0]), float(p[1])), (side[0] / 8, side[1] * 0.8), angle))
                cv2.fillConvexPoly(photo, tile.astype(np.int32), list(tiles_look.face))
        else:                                                          # loose tiles
            t = float(rng.uniform(0.015, 0.03) * w)
            for _k in range(int(rng.integers(3, 12))):
                p = np.array(centre) + rng.normal(0, 3 * t, 2)
                loose = cv2.boxPoints(((float(p[0]), float(p[1])), (t, t), float(rng.uniform(0, 90))))
                cv2.fillConvexPoly(photo, loose.astype(np.int32), list(tiles_look.face), cv2.LINE_AA)


def _hand(photo: np.ndarray, middle: np.ndarray, square: float, rng: np.random.Generator) -> np.ndarray:
    """A hand (about two squares across, ``square`` pixels a square) over the board and its
    arm out to the photo's edge, in place; how much it covers each pixel (0-1)."""
    h, w = photo.shape[:2]
    blob = np.zeros((h, w), np.float32)
    at = middle + rng.uniform(-6, 6, 2) * square
    size = rng.uniform(0.8, 1.4) * square
    cv2.ellipse(blob, (int(at[0]), int(at[1])), (int(size), int(size * 0.75)), float(rng.uniform(0, 180)), 0, 360, 1.0, -1)
    edge = np.array([[w * 1.2, at[1]], [-w * 0.2, at[1]], [at[0], h * 1.2], [at[0], -h * 0.2]])[int(rng.integers(4))]
    cv2.line(blob, (int(at[0]), int(at[1])), (int(edge[0]), int(edge[1])), 1.0, int(size * rng.uniform(1.0, 1.5)))
    cover = np.asarray(cv2.GaussianBlur(blob, (0, 0), 6), np.float32)[..., None]
    skin = np.array([(120, 150, 200), (90, 120, 170), (60, 85, 120), (150, 175, 220)][int(rng.integers(4))], np.float32)
    photo[:] = photo * (1 - cover) + skin * cover
    return cover[..., 0]


def _light(photo: np.ndarray, rng: np.random.Generator, strong: bool) -> np.ndarray:
    """A warm or cold cast, the room's brightness, a side in shadow, and glare (strong: a bright
    reflection that washes out part of the board)."""
    h, w = photo.shape[:2]
    photo = photo * np.array([rng.uniform(0.8, 1.1), 1.0, rng.uniform(0.9, 1.2)], np.float32) * rng.uniform(0.55, 1.1)
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    if rng.random() < 0.35:
        a = rng.uniform(0, 2 * np.pi)
        ramp = ((xx / w - 0.5) * np.cos(a) + (yy / h - 0.5) * np.sin(a)) * 2
        photo *= (1 - rng.uniform(0.3, 0.6) * np.clip(ramp, 0, 1))[..., None]
    if strong or rng.random() < 0.2:
        gx, gy = rng.uniform(0.25, 0.75) * w, rng.uniform(0.25, 0.75) * h
        rx, ry = rng.uniform(0.04, 0.12) * w, rng.uniform(0.02, 0.06) * w
        spot = np.exp(-(((xx - gx) / rx) ** 2 + ((yy - gy) / ry) ** 2))
        photo += rng.uniform(120, 220) * spot[..., None]
    return photo


def _lens(photo: np.ndarray, corners: np.ndarray, k: float) -> tuple[np.ndarray, np.ndarray]:
    """The photo through a lens with radial distortion ``k`` (negative: pincushion, positive:
    barrel; the model of :class:`vision.lens.Lens`), and where the grid's corners land in it."""
    h, w = photo.shape[:2]
    c = np.array([w / 2, h / 2])
    r0 = np.hypot(w, h) / 2
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    dx, dy = (xx - c[0]) / r0, (yy - c[1]) / r0
    grow = 1 + k * (dx * dx + dy * dy)
    out = cv2.remap(photo, (c[0] + dx * grow * r0).astype(np.float32), (c[1] + dy * grow * r0).astype(np.float32),
                    cv2.INTER_LINEAR, borderMode=cv2.BORDER_REFLECT)
    moved = []
    for p in corners:                                     # the point q with q * (1 + k|q|^2) = p
        target = (p - c) / r0
        q = target.copy()
        for _ in range(30):
            q = target / (1 + k * float(q @ q))
        moved.append(c + q * r0)
    return out, np.array(moved)


__all__ = ["FAMILIES", "NEGATIVES", "PALETTES", "GridScene", "grid_scene", "layout"]
