"""Synthetic photos of letter tiles on a board (training, tests and the benchmark only).

Two kinds of board are drawn. ``"printed"``: the project's own printed board (markers, stars and
diamonds) with the tiles of ``tabletop print-tiles`` cut out and laid on it, flat card.
``"commercial"``: a board with no markers like the boxed crossword games: coloured bonus
squares with small labels, raised wooden or plastic tiles in a typeface of
:mod:`vision.synth.tilefonts`, each with its letter value in a corner.

The scene is a real pinhole camera over the table (tilted up to 35°, turned, at a distance that
fills the frame), so a tile that stands proud of the board shows its sides and its face is
shifted from its square the way an oblique photo shifts it; then the light (a darker side, a
warm or cold cast, glare spots), blur, noise and JPEG of :func:`vision.synth.camera.camera_finish`.

>>> from tabletop.resources import load_board
>>> from rules.squares import Square
>>> board = load_board("questique", required=("marks",))
>>> shot = tile_scene(board, {Square(9, 8): "A", Square(9, 9): "?"}, seed=1)
>>> shot.frame.shape, shot.rows[9][7:11], shot.corners.shape
((960, 1280, 3), '.A?.', (4, 2))
"""

from __future__ import annotations

import dataclasses
import functools
import pathlib
from dataclasses import dataclass
from typing import Any

import cv2
import numpy as np
from PIL import Image, ImageDraw, ImageFont

from rules.board import Board
from rules.squares import Square
from vision.layout import Layout
from vision.synth import tilefonts
from vision.synth.camera import camera_finish

#: a blank tile in the ``tiles`` of a scene and in its ``rows``
BLANK = "?"

#: tile colours of boxed sets (BGR): ivory plastic, light and dark wood, white, yellow
FACES = ((200, 228, 240), (150, 200, 232), (112, 160, 205), (236, 236, 236), (130, 212, 240))
#: letter colours: black, dark brown, dark red, dark blue
INKS = ((25, 25, 25), (30, 45, 70), (35, 35, 130), (110, 50, 25))
#: bonus-square colours of boxed boards (BGR): red, pink, dark blue, light blue, and a board
#: colour each (green, beige, grey-blue, cream)
BONUS = ((60, 60, 200), (170, 150, 240), (170, 90, 40), (230, 200, 140))
#: the pale bonus colours of boards that print dark labels on them: salmon, pink, blue, light blue
PALE_BONUS = ((110, 120, 235), (190, 190, 245), (215, 170, 90), (245, 225, 180))
#: board colours: green, beige, grey-blue, cream, deep red, teal, dark green
BOARD_COLOURS = ((90, 130, 60), (170, 205, 220), (150, 140, 120), (205, 225, 235), (45, 30, 115), (125, 135, 30),
                 (55, 95, 35))
#: grid-line colours beside the board's own: gold, light plastic ridges, black, cream
LINE_COLOURS = ((70, 165, 215), (200, 215, 205), (25, 25, 25), (200, 230, 240))
#: the classic 15x15 bonus layout of the boxed crossword games, a quarter of it (rows 0-7, cols
#: 0-7; mirrored for the rest): T triple word, D double word, t triple letter, d double letter
_BONUS_QUARTER = ("T..d...T", ".D...t..", "..D...d.", "d..D...d", "....D...", ".t...t..", "..d...d.", "T..d...D")
_BONUS_LABELS = {"T": ("TRIPLE", "WORD", "SCORE"), "D": ("DOUBLE", "WORD", "SCORE"),
                 "t": ("TRIPLE", "LETTER", "SCORE"), "d": ("DOUBLE", "LETTER", "SCORE")}
#: words of other editions' labels (French, German, Polish, Spanish, Ukrainian), drawn at random
_LABEL_WORDS = ("MOT", "COMPTE", "LETTRE", "DOUBLE", "TRIPLE", "WORT", "BUCHSTABEN", "DOPPELTER", "DREIFACHER",
                "WERT", "PREMIA", "PODWÓJNA", "POTRÓJNA", "LITEROWA", "SŁOWNA", "PALABRA", "LETRA", "DOBLE",
                "TRIPLE", "ПОДВІЙНА", "ПОТРІЙНА", "СЛОВО", "БУКВА")


@dataclass(frozen=True)
class Palette:
    """One set's colours (BGR): the tiles' face, their letters' ink, and whether they are wood."""

    face: tuple[int, int, int]
    ink: tuple[int, int, int]
    wooden: bool = False


#: the tile colours the tile network is trained on: light tiles with dark letters (ivory and
#: white plastic, light and dark wood, yellow) and dark tiles with light letters (club sets:
#: black, navy, purple, slate, red, dark green; white, cream or gold letters)
TRAINING_PALETTES = (
    Palette((200, 228, 240), (25, 25, 25)), Palette((150, 200, 232), (30, 45, 70), True),
    Palette((112, 160, 205), (25, 25, 25), True), Palette((236, 236, 236), (110, 50, 25)),
    Palette((130, 212, 240), (35, 35, 130)), Palette((185, 215, 235), (20, 20, 20), True),
    Palette((30, 30, 30), (240, 240, 240)), Palette((85, 40, 25), (235, 240, 240)),
    Palette((100, 40, 90), (230, 230, 230)), Palette((95, 90, 80), (245, 245, 245)),
    Palette((35, 35, 150), (240, 240, 240)), Palette((50, 80, 30), (200, 235, 245)),
    Palette((28, 28, 28), (60, 180, 220)), Palette((60, 60, 60), (250, 250, 250)),
)
#: more wood beside :data:`TRAINING_PALETTES`, for the tile networks' training only (real boxed
#: sets' wood: grey, grey-brown and tan beech, as on real photos of worn and deluxe sets)
MORE_WOOD = (
    Palette((165, 172, 178), (25, 25, 25), True), Palette((150, 165, 175), (20, 20, 20), True),
    Palette((140, 175, 200), (30, 30, 30), True),
)
#: tile colours never trained on: the benchmark's dark and light sets (charcoal with cream
#: letters, maroon, dark teal, indigo with yellow letters; pale birch wood, grey plastic)
HELD_OUT_PALETTES = (
    Palette((55, 52, 58), (200, 230, 245)), Palette((40, 25, 100), (245, 245, 245)),
    Palette((90, 85, 25), (240, 240, 240)), Palette((110, 45, 60), (70, 200, 240)),
    Palette((170, 210, 228), (15, 15, 15), True), Palette((190, 190, 185), (100, 40, 20)),
)
#: board colours the network is trained on beside :data:`BOARD_COLOURS`: light boards (white,
#: light wood, light grey, pale yellow) under light tiles
LIGHT_BOARDS = ((235, 235, 235), (170, 210, 230), (200, 200, 200), (190, 230, 240))
#: board colours never trained on (the benchmark's): a grey-white, a light green, a tan
HELD_OUT_BOARDS = ((215, 220, 210), (120, 165, 95), (150, 185, 210))


@dataclass(frozen=True)
class TileLook:
    """How one set's tiles look: face and ink colour (BGR), typeface, height (in squares),
    share of the square the tile covers, and whether a letter value is printed in a corner."""

    face: tuple[int, int, int]
    ink: tuple[int, int, int]
    font: pathlib.Path
    height: float
    size: float
    values: bool
    grain: float = 0.0
    printed: bool = False  #: drawn by :func:`vision.tileprint.draw_tile`
    corner: str = "br"  #: where the letter value is: ``br``, ``bl``, ``tr`` or ``tl`` (bottom right ...)
    #: printed as the classic boxed sets are: a large letter, its value tucked against the
    #: letter's foot like a subscript (not in the tile's corner), the value's font 0.17-0.28 of the tile
    tucked: bool = False


@dataclass(frozen=True)
class TileScene:
    """A photo, where the grid's outer corners are in it (TL, TR, BR, BL, on the board's
    surface), what each square holds (``rows``: ``.`` empty, a letter, ``?`` a blank) and where
    in the photo each tile's face has its middle (``faces``: square -> (x, y) pixels)."""

    frame: np.ndarray
    corners: np.ndarray
    rows: tuple[str, ...]
    faces: dict[Square, tuple[float, float]]
    #: where in the photo each square's middle would be raised to the tiles' face (rows, cols, 2)
    raised: np.ndarray | None = None


def printed_look() -> TileLook:
    """The tiles of ``tabletop print-tiles`` glued to card (:mod:`vision.tileprint`)."""
    from vision import tileprint

    return TileLook(tileprint.TILE_FACE_BGR, tileprint.TILE_INK_BGR, pathlib.Path(tileprint.TILE_FONT),
                    height=0.03, size=tileprint.TILE_SHARE, values=False, printed=True)


def commercial_look(rng: np.random.Generator, language: str, faces: tuple[str, ...] = tilefonts.TRAINING) -> TileLook:
    """A random boxed set: wood or plastic, a typeface from ``faces``, raised 0.12-0.4 squares."""
    b, g, r = (int(v) for v in np.clip(np.array(FACES[rng.integers(len(FACES))]) + rng.normal(0, 10, 3), 0, 255))
    face = (b, g, r)
    ink = INKS[rng.integers(len(INKS))] if rng.random() < 0.5 else INKS[0]
    fonts = tilefonts.available(language, faces)
    wooden = face in FACES[1:3] or rng.random() < 0.3
    return TileLook(face, ink, fonts[rng.integers(len(fonts))], height=float(rng.uniform(0.12, 0.4)),
                    size=float(rng.uniform(0.88, 0.97)), values=rng.random() < 0.8,
                    grain=float(rng.uniform(0.03, 0.09)) if wooden else 0.0)


def varied_look(rng: np.random.Generator, language: str, faces: tuple[str, ...] = tilefonts.TRAINING,
                palettes: tuple[Palette, ...] = TRAINING_PALETTES, tucked: float = 0.0) -> TileLook:
    """A random boxed set of one of ``palettes`` (light tiles with dark letters or dark tiles
    with light letters), a typeface from ``faces``, raised 0.1-0.4 squares, its letter values in
    any corner or none; with chance ``tucked``, a large letter with its value tucked against its
    foot (:attr:`TileLook.tucked`).

    >>> look = varied_look(np.random.default_rng(1), "en", palettes=HELD_OUT_PALETTES)
    >>> 0.1 <= look.height <= 0.4 and look.corner in ("br", "bl", "tr", "tl")
    True
    """
    palette = palettes[int(rng.integers(len(palettes)))]
    face = tuple(int(v) for v in np.clip(np.array(palette.face) + rng.normal(0, 8, 3), 0, 255))
    ink = tuple(int(v) for v in np.clip(np.array(palette.ink) + rng.normal(0, 8, 3), 0, 255))
    fonts = tilefonts.available(language, faces)
    look = TileLook(face, ink, fonts[int(rng.integers(len(fonts)))], height=float(rng.uniform(0.1, 0.4)),  # type: ignore[arg-type]
                    size=float(rng.uniform(0.86, 0.97)), values=rng.random() < 0.75,
                    grain=float(rng.uniform(0.03, 0.09)) if palette.wooden else 0.0,
                    corner=str(rng.choice(["br", "br", "bl", "tr", "tl"])))
    if tucked and rng.random() < tucked:
        look = dataclasses.replace(look, tucked=True, values=rng.random() < 0.9, corner="br")
    return look


@functools.lru_cache(maxsize=64)
def _font(path: pathlib.Path, px: int) -> ImageFont.FreeTypeFont:
    return ImageFont.truetype(str(path), px)


def draw_face(letter: str, px: int, look: TileLook, rng: np.random.Generator) -> np.ndarray:
    """One tile's face, ``px`` square, BGR float32: the face colour (with wood grain), a bevel,
    the letter (none on a blank) and, for a boxed set, a small value in the corner; a printed
    tile exactly as ``print-tiles`` prints it (:func:`vision.tileprint.draw_tile`)."""
    if look.printed:
        from vision.tileprint import draw_tile

        return draw_tile(None if letter == BLANK else letter, px).astype(np.float32) * rng.uniform(0.96, 1.02)
    face = np.empty((px, px, 3), np.float32)
    face[:] = np.array(look.face, np.float32) * rng.uniform(0.94, 1.04)
    if look.grain:
        yy, xx = np.mgrid[0:px, 0:px].astype(np.float32)
        angle, freq = rng.uniform(-0.3, 0.3), rng.uniform(0.25, 0.6)
        streaks = np.sin((yy + angle * xx) * freq + 3 * np.sin(xx / px * rng.uniform(1, 4)))
        face *= (1 - look.grain * (0.5 + 0.5 * streaks))[..., None]
    bevel = max(1, px // 14)
    edge = np.ones((px, px), np.float32)
    cv2.rectangle(edge, (0, 0), (px - 1, px - 1), 0.78, bevel)
    face *= cv2.GaussianBlur(edge, (0, 0), bevel / 2 + 0.5)[..., None]
    if letter == BLANK:
        return face
    if look.tucked:
        return _tucked_face(face, letter, px, look, rng)
    ink = Image.new("L", (px, px))
    draw = ImageDraw.Draw(ink)
    size = int(px * (rng.uniform(0.5, 0.62) if look.values else 0.62))
    font = _font(look.font, max(6, size))
    x0, y0, x1, y1 = draw.textbbox((0, 0), letter, font=font)
    if look.values:
        cx, cy = px * rng.uniform(0.42, 0.48), px * rng.uniform(0.42, 0.5)
        cx, cy = (cx if look.corner[1] == "r" else px - cx), (cy if look.corner[0] == "b" else px - cy)
    else:
        cx, cy = px / 2, px / 2
    draw.text((cx - (x0 + x1) / 2, cy - (y0 + y1) / 2), letter, fill=255, font=font)
    if look.values:
        small = _font(look.font, max(5, int(px * 0.2)))
        value = str(int(rng.choice([1, 1, 1, 2, 3, 4, 5, 8, 10])))
        bx0, by0, bx1, by1 = draw.textbbox((0, 0), value, font=small)
        vx = px * 0.86 - bx1 if look.corner[1] == "r" else px * 0.14 - bx0
        vy = px * 0.88 - by1 if look.corner[0] == "b" else px * 0.12 - by0
        draw.text((vx, vy), value, fill=255, font=small)
    return _inked(face, ink, look.ink)


def _inked(face: np.ndarray, ink: Image.Image, colour: tuple[int, int, int]) -> np.ndarray:
    """``face`` (BGR float32) with the ``ink`` drawn on a grey image (255: full ink) laid on it in
    ``colour``, its soft edges blended."""
    mask = np.asarray(ink, np.float32)[..., None] / 255.0
    return face * (1 - mask) + np.array(colour, np.float32) * mask


#: the share of a tucked face's width and height its letter may take at most (the rest is bevel
#: and the value's room): wide letters (Щ, Ж, W) and tall ones (Ї, Й) are printed smaller
FITS = (0.74, 0.74)


def _tucked_face(face: np.ndarray, letter: str, px: int, look: TileLook, rng: np.random.Generator) -> np.ndarray:
    """``face`` with ``letter`` large (its font 0.6-0.78 of the tile, smaller where it would not
    fit: :data:`FITS`), left of the middle, and its value (its font 0.17-0.28 of the tile) tucked
    against the letter's ink at its foot on the right, a subscript as the classic boxed sets print
    it, close enough to touch an O or an I."""
    ink = Image.new("L", (px, px))
    draw = ImageDraw.Draw(ink)
    size = px * rng.uniform(0.6, 0.78)
    x0, y0, x1, y1 = draw.textbbox((0, 0), letter, font=_font(look.font, max(6, int(size))))
    size *= min(1.0, FITS[0] * px / max(1, x1 - x0), FITS[1] * px / max(1, y1 - y0))   # a wide Щ or tall Ї fits
    font = _font(look.font, max(6, int(size)))
    x0, y0, x1, y1 = draw.textbbox((0, 0), letter, font=font)
    shift = rng.uniform(0.02, 0.08) * px if look.values else 0.0
    cx = max(px / 2 - shift + rng.normal(0, 0.015) * px, (x1 - x0) / 2 + 0.07 * px)
    cy = px / 2 - shift / 2 + rng.normal(0, 0.015) * px
    draw.text((cx - (x0 + x1) / 2, cy - (y0 + y1) / 2), letter, fill=255, font=font)
    if look.values:
        small = _font(look.font, max(5, int(px * rng.uniform(0.17, 0.28))))
        value = str(int(rng.choice([1, 1, 1, 1, 2, 3, 4, 5, 8, 10])))
        bx0, by0, bx1, by1 = draw.textbbox((0, 0), value, font=small)
        inked_y, inked_x = np.nonzero(np.asarray(ink) > 127)
        right, foot = (inked_x.max(), inked_y.max()) if len(inked_x) else (cx, cy)
        vx = min(right + rng.uniform(0.0, 0.05) * px, px * 0.93 - (bx1 - bx0)) - bx0
        vy = min(foot + rng.uniform(-0.04, 0.06) * px, px * 0.93) - by1
        draw.text((vx, vy), value, fill=255, font=small)
    return _inked(face, ink, look.ink)


def _commercial_board(rows: int, cols: int, cell: int, pad: float, rng: np.random.Generator,
                      colour: tuple[int, int, int] | None = None, modern: float = 0.0) -> np.ndarray:
    """A boxed board's face: its colour, bonus squares (the classic layout on 15x15, scattered on
    other sizes) with small labels in light or dark ink, sometimes a raised edge and points into
    the squares beside them, lines between the squares (the board's colour, gold or a plastic
    grid's light ridges) and a star in the middle. With chance ``modern``, printed as current
    editions print it (:func:`_modern_style`)."""
    h, w = int((rows + 2 * pad) * cell), int((cols + 2 * pad) * cell)
    pick = int(rng.integers(len(BOARD_COLOURS)))
    base = np.array(BOARD_COLOURS[pick] if colour is None else colour, np.float32) + rng.normal(0, 8, 3)
    page = np.empty((h, w, 3), np.float32)
    page[:] = base * 0.8
    style: dict[str, Any] = {"pale": rng.random() < 0.5, "points": rng.random() < 0.5, "edge": rng.random() < 0.5,
                             "words": rng.random() < 0.5,
                             "font": _font(pathlib.Path(tilefonts.available("en")[int(rng.integers(3))]),
                                           max(5, int(cell * rng.uniform(0.14, 0.2))))}
    if modern and rng.random() < modern:
        style.update(_modern_style(rng))
    bonus = _bonus_layout(rows, cols, rng)
    for r in range(rows):
        for c in range(cols):
            x0, y0 = int((c + pad) * cell), int((r + pad) * cell)
            page[y0:y0 + cell, x0:x0 + cell] = base
            if style.get("frame"):         # a darker frame just inside the light line's half
                inset = style["frame"] + 1
                cv2.rectangle(page, (x0 + inset, y0 + inset), (x0 + cell - 1 - inset, y0 + cell - 1 - inset),
                              (base * style["frame_tone"]).tolist(), 2)
    for r in range(rows):
        for c in range(cols):
            if bonus[r][c] != ".":
                _bonus_square(page, int((c + pad) * cell), int((r + pad) * cell), cell, bonus[r][c], style, rng)
    line = base * rng.uniform(0.6, 1.25) if rng.random() < 0.5 else np.array(LINE_COLOURS[int(rng.integers(len(LINE_COLOURS)))],
                                                                             np.float32) + rng.normal(0, 8, 3)
    thick = max(1, int(cell * rng.uniform(1 / 20, 1 / 9)))
    if style.get("frame"):                 # light lines as wide as the frames' gap between squares
        line, thick = np.full(3, rng.uniform(215, 250), np.float32) + rng.normal(0, 5, 3), 2 * style["frame"]
    for k in range(rows + 1):
        y = int((k + pad) * cell)
        cv2.line(page, (int(pad * cell), y), (int((cols + pad) * cell), y), line.tolist(), thick)
    for k in range(cols + 1):
        x = int((k + pad) * cell)
        cv2.line(page, (x, int(pad * cell)), (x, int((rows + pad) * cell)), line.tolist(), thick)
    mid = ((cols // 2 + pad + 0.5) * cell, (rows // 2 + pad + 0.5) * cell)
    star = [(mid[0] + cell * 0.3 * (1 if k % 2 == 0 else 0.45) * np.sin(k * np.pi / 5),
             mid[1] - cell * 0.3 * (1 if k % 2 == 0 else 0.45) * np.cos(k * np.pi / 5)) for k in range(10)]
    cv2.fillPoly(page, [np.array(star, np.int32)], (30, 30, 30) if rng.random() < 0.6 else (235, 235, 245), cv2.LINE_AA)
    return page


def _bonus_square(page: np.ndarray, x0: int, y0: int, cell: int, kind: str, style: dict, rng: np.random.Generator) -> None:
    """One bonus square drawn on ``page`` at (x0, y0): its colour, points, edge and label."""
    colours = PALE_BONUS if style["pale"] else BONUS
    colour = np.array(colours["TDtd".index(kind)], np.float32) + rng.normal(0, 6, 3)
    if style["points"]:
        _teeth(page, x0, y0, cell, ((0.3, 0.7),), cell * 0.22, colour)
    if style.get("teeth"):
        count = style["teeth"]
        _teeth(page, x0, y0, cell, tuple((k / count, (k + 1) / count) for k in range(count)), cell * 0.09, colour)
    page[y0:y0 + cell, x0:x0 + cell] = colour
    if style["edge"]:
        cv2.rectangle(page, (x0 + 1, y0 + 1), (x0 + cell - 2, y0 + cell - 2), (colour * 1.25).clip(0, 255).tolist(),
                      max(1, cell // 14))
    words = _BONUS_LABELS[kind] if not style["words"] else tuple(_LABEL_WORDS[int(i)] for i in
                                                                 rng.integers(len(_LABEL_WORDS), size=int(rng.integers(2, 4))))
    text = Image.new("L", (cell, cell))
    draw = ImageDraw.Draw(text)
    for k, word in enumerate(words):
        tw = draw.textlength(word, font=style["font"])
        draw.text(((cell - tw) / 2, cell * (0.16 + 0.25 * k)), word, fill=255, font=style["font"])
    m = np.rot90(np.asarray(text, np.float32), style.get("turn", 0))[..., None] / 255.0 * 0.9
    ink = 40.0 if style["pale"] else 245.0
    page[y0:y0 + cell, x0:x0 + cell] = page[y0:y0 + cell, x0:x0 + cell] * (1 - m) + ink * m


def _modern_style(rng: np.random.Generator) -> dict[str, Any]:
    """How current boxed editions print their boards (Hasbro's since 2013, and many others):
    the bonus labels turned a quarter (read up or down the square, three words side by side),
    dark ink on pale bonus colours, serrated bonus squares' edges, and plain squares framed in a
    darker tone inside light lines: a plain square looks like a flat tile, a label like an H."""
    return {"turn": int(rng.choice((1, 3))) if rng.random() < 0.85 else 0, "pale": rng.random() < 0.8,
            "teeth": int(rng.integers(3, 7)) if rng.random() < 0.7 else 0, "edge": False,
            "frame": int(rng.integers(2, 5)) if rng.random() < 0.7 else 0, "frame_tone": float(rng.uniform(0.55, 0.85))}


def _teeth(page: np.ndarray, x0: int, y0: int, cell: int, spans: tuple[tuple[float, float], ...], depth: float,
           colour: np.ndarray) -> None:
    """Triangles pointing out of each side of the square at (x0, y0), into the lines and the
    squares beside it: one on each span (``a``, ``b``: shares of the side) of each side, ``depth``
    pixels high. One wide span is a bonus square's point; many narrow ones, a serrated edge."""
    tip = depth / cell
    for a, b in spans:
        mid = (a + b) / 2
        for (ax, ay), (bx, by), (cx, cy) in (((a, 0), (b, 0), (mid, -tip)), ((a, 1), (b, 1), (mid, 1 + tip)),
                                             ((0, a), (0, b), (-tip, mid)), ((1, a), (1, b), (1 + tip, mid))):
            poly = np.array([[x0 + ax * cell, y0 + ay * cell], [x0 + bx * cell, y0 + by * cell],
                             [x0 + cx * cell, y0 + cy * cell]], np.int32)
            cv2.fillConvexPoly(page, poly, colour.tolist(), cv2.LINE_AA)


def _bonus_layout(rows: int, cols: int, rng: np.random.Generator) -> list[str]:
    if (rows, cols) == (15, 15):
        half = [row + row[-2::-1] for row in _BONUS_QUARTER]
        return half + half[-2::-1]
    kinds = np.array(list("....TDtd"))
    return ["".join(rng.choice(kinds, p=[0.2] * 4 + [0.05, 0.05, 0.05, 0.05]) for _ in range(cols)) for _ in range(rows)]


def _printed_board(board: Board, cell: int) -> tuple[np.ndarray, float]:
    """The project's printed board (markers round it) on white paper, and its padding in squares."""
    from vision.printing import draw_board

    lay = Layout(board.rows, board.cols)
    pad = lay.outer + 0.6
    canvas = np.full((int((lay.height + 1.2) * cell), int((lay.width + 1.2) * cell), 3), 250, np.uint8)
    draw_board(board, cell, origin=(pad * cell, pad * cell), canvas=canvas)
    return canvas.astype(np.float32), pad


class BoardCamera:
    """A pinhole camera over the board: world units are squares, the grid's top-left corner at
    the origin, x to the right, y down the board, z into the table (a tile's face is at -height)."""

    def __init__(self, rows: int, cols: int, span: tuple[float, float], size: tuple[int, int], tilt_deg: float,
                 rng: np.random.Generator, fill: float):
        self.size = size
        w, h = size
        self.f = w * rng.uniform(0.8, 1.3)
        direction = rng.uniform(0, 2 * np.pi)
        axis = np.array([np.cos(direction), np.sin(direction), 0.0])
        tilt, _ = cv2.Rodrigues(axis * np.radians(tilt_deg))
        yaw, _ = cv2.Rodrigues(np.array([0.0, 0.0, np.radians(rng.uniform(-10, 10))]))
        self.rotation = tilt @ yaw
        self.centre = np.array([cols / 2, rows / 2, 0.0])
        corners = np.array([[-span[0], -span[1], 0], [cols + span[0], -span[1], 0], [cols + span[0], rows + span[1], 0],
                            [-span[0], rows + span[1], 0]], np.float64)
        self.distance = self.f * max(cols + 2 * span[0], rows + 2 * span[1]) / (fill * min(w, h))
        for _ in range(4):
            proj = self._raw(corners)
            extent = (proj.max(0) - proj.min(0)) / (np.array([w, h]) * fill)
            self.distance *= float(extent.max())
        proj = self._raw(corners)
        self.shift = np.array([w / 2, h / 2]) - (proj.max(0) + proj.min(0)) / 2 + rng.uniform(-0.03, 0.03, 2) * [w, h]

    def _raw(self, points: np.ndarray) -> np.ndarray:
        cam = (np.asarray(points, np.float64) - self.centre) @ self.rotation.T + [0.0, 0.0, self.distance]
        return self.f * cam[:, :2] / cam[:, 2:]

    def project(self, points: np.ndarray) -> np.ndarray:
        """World points (n, 3) -> frame pixels (n, 2)."""
        return self._raw(points) + self.shift

    @property
    def position(self) -> np.ndarray:
        return self.centre + self.rotation.T @ np.array([0.0, 0.0, -self.distance])

    def plane(self, page_cell: float, pad: float, page_shape: tuple[int, ...], z: float) -> np.ndarray:
        """The homography from page pixels (``page_cell`` a square, grid at ``pad`` squares)
        to the frame, for the plane at height ``z``."""
        h, w = page_shape[:2]
        page = np.array([[0, 0], [w, 0], [w, h], [0, h]], np.float64)
        world = np.hstack([page / page_cell - pad, np.full((4, 1), z)])
        return cv2.getPerspectiveTransform(page.astype(np.float32), self.project(world).astype(np.float32))


def tile_scene(board: Board, tiles: dict[Square, str], *, seed: int = 0, style: str = "printed",
               language: str = "en", faces: tuple[str, ...] = tilefonts.TRAINING, tilt_deg: float | None = None,
               size: tuple[int, int] = (1280, 960), glare: bool = True, dark_side: bool | None = None,
               look: TileLook | None = None, hand: bool = False, fill: float | None = None,
               board_colour: tuple[int, int, int] | None = None, clutter: int = 0,
               offset: tuple[float, float] = (0.0, 0.0), modern: float = 0.0) -> TileScene:
    """A photo of ``board`` with ``tiles`` (square -> capital letter, or ``?`` for a blank).

    ``style`` is ``"printed"`` (the project's printed board and tiles) or ``"commercial"`` (a
    boxed board without markers, tiles in one of ``faces``); ``tilt_deg`` defaults to a random
    tilt up to 35°; ``dark_side`` darkens one side of the board by up to 60%; ``hand`` puts a
    hand and arm over part of the board (the camera's view while a tile goes down). For the
    grid finder's benchmark: ``fill`` is how much of the photo's shorter side the board spans
    (default 0.8-0.95), ``board_colour`` a boxed board's colour (BGR), ``clutter`` how many
    things lie on the table round the board, ``offset`` moves the board by that share of the
    photo (a board cut by the photo's edge). ``modern`` is the chance that a boxed board is printed
    as current editions print theirs (labels turned a quarter, serrated bonus squares, framed
    plain squares); 0 keeps every earlier render the same.
    """
    if style not in ("printed", "commercial"):
        raise ValueError(f"style is printed or commercial, not {style!r}")
    rng = np.random.default_rng([seed, 11])
    cell = 48
    if style == "printed":
        page, pad = _printed_board(board, cell)
        look = look or printed_look()
    else:
        pad = float(rng.uniform(0.4, 1.2))
        page = _commercial_board(board.rows, board.cols, cell, pad, rng, board_colour, modern)
        look = look or commercial_look(rng, language, faces)
    tilt = float(rng.uniform(0, 35) if tilt_deg is None else tilt_deg)
    spans = float(rng.uniform(0.8, 0.95))
    camera = BoardCamera(board.rows, board.cols, (pad, pad), size, tilt, rng, spans if fill is None else fill)
    camera.shift = camera.shift + np.array(offset) * size
    photo = _table(size, rng)
    if clutter:
        _clutter(photo, clutter, np.random.default_rng([seed, 16]))
    board_h = camera.plane(cell, pad, page.shape, 0.0)
    _shadows(page, tiles, cell, pad, look, np.random.default_rng([seed, 15]))
    paste_warped(photo, page, np.ones(page.shape[:2], np.float32), board_h)
    placed = _placements(tiles, look, seed)
    if look.height > 0.05:
        _sides(photo, placed, look, camera)
    top = np.zeros_like(page)
    alpha = np.zeros(page.shape[:2], np.float32)
    for sq, (letter, (x, y), angle, side) in placed.items():
        px = int(round(side * cell))
        face = draw_face(letter, px, look, np.random.default_rng([seed, 12, sq.row, sq.col]))
        centre = ((x + pad) * cell, (y + pad) * cell)
        turn = cv2.getRotationMatrix2D((px / 2, px / 2), angle, 1.0)
        turn[:, 2] = turn[:, 2] + np.array(centre) - px / 2
        _stamp(top, face, turn)
        _stamp(alpha, np.ones((px, px), np.float32), turn)
    paste_warped(photo, top, alpha, camera.plane(cell, pad, page.shape, -look.height))
    if hand:
        _hand(photo, camera.project(np.array([[board.cols * 0.5, board.rows * 0.5, 0.0]]))[0],
              np.random.default_rng([seed, 13, len(tiles)]))
    photo = _light(photo, rng, dark_side)
    shot = camera_finish(photo, rng, dim=0.25, glare_radius=(0.03, 0.1), glare=(40, 110) if glare else (0, 0),
                         blur=(0.4, 1.3), jpeg=(60, 92))
    grid = np.array([[0, 0, 0], [board.cols, 0, 0], [board.cols, board.rows, 0], [0, board.rows, 0]], np.float64)
    rows = tuple("".join(tiles.get(Square(r, c), ".") for c in range(board.cols)) for r in range(board.rows))
    middles = np.array([[x, y, -look.height] for _letter, (x, y), _angle, _side in placed.values()]).reshape(-1, 3)
    seen = {sq: (float(x), float(y)) for sq, (x, y) in zip(placed, camera.project(middles))}
    xs, ys = np.meshgrid(np.arange(board.cols) + 0.5, np.arange(board.rows) + 0.5)
    lifted = np.stack([xs.ravel(), ys.ravel(), np.full(xs.size, -look.height)], 1)
    raised = camera.project(lifted).reshape(board.rows, board.cols, 2)
    return TileScene(shot, camera.project(grid), rows, seen, raised)


def _stamp(page: np.ndarray, image: np.ndarray, turn: np.ndarray) -> None:
    """Warp ``image`` by the affine ``turn`` onto ``page`` in place, over only the window the
    turned image can cover: as warping onto the whole page (up to OpenCV's fixed-point rounding of
    the shifted sub-pixel positions, a grey level or so on a few pixels), many times faster."""
    h, w = image.shape[:2]
    corners = cv2.transform(np.array([[[0, 0], [w, 0], [w, h], [0, h]]], np.float64), turn)[0]
    x0, y0 = np.maximum(np.floor(corners.min(axis=0)).astype(int) - 2, 0)
    x1, y1 = np.minimum(np.ceil(corners.max(axis=0)).astype(int) + 2, (page.shape[1], page.shape[0]))
    if x1 <= x0 or y1 <= y0:
        return
    window = np.ascontiguousarray(page[y0:y1, x0:x1])
    shifted = turn.copy()
    shifted[:, 2] -= (x0, y0)
    cv2.warpAffine(image, shifted, (int(x1 - x0), int(y1 - y0)), dst=window, borderMode=cv2.BORDER_TRANSPARENT)
    page[y0:y1, x0:x1] = window


def _placements(tiles: dict[Square, str], look: TileLook, seed: int):
    """Where each tile lies: its letter, centre (in squares), turn (degrees) and side (squares);
    a little off the middle and turned, as hands put tiles down (each tile on its own: putting
    down another leaves the others where they were)."""
    out = {}
    for sq, letter in tiles.items():
        rng = np.random.default_rng([seed, 14, sq.row, sq.col])
        side = look.size * rng.uniform(0.98, 1.0)
        slack = max(0.0, (1 - side) / 2) + 0.03
        out[sq] = (letter, (sq.col + 0.5 + rng.uniform(-slack, slack), sq.row + 0.5 + rng.uniform(-slack, slack)),
                   float(rng.uniform(-5, 5)), side)
    return out


def _shadows(page: np.ndarray, tiles: dict[Square, str], cell: int, pad: float, look: TileLook,
             rng: np.random.Generator) -> None:
    """The soft shadow each tile casts on the board (stronger the higher the tile)."""
    if not tiles:
        return
    mask = np.zeros(page.shape[:2], np.float32)
    dx, dy = rng.uniform(-0.1, 0.1, 2) * (1 + 3 * look.height)
    for sq in tiles:
        x0, y0 = int((sq.col + pad + 0.04 + dx) * cell), int((sq.row + pad + 0.04 + dy) * cell)
        cv2.rectangle(mask, (x0, y0), (x0 + int(0.95 * cell), y0 + int(0.95 * cell)), 1.0, -1)
    soft = np.asarray(cv2.GaussianBlur(mask, (0, 0), cell * 0.08), np.float32)
    page *= (1 - (0.15 + look.height) * soft)[..., None]


def _sides(photo: np.ndarray, placed, look: TileLook, camera: BoardCamera) -> None:
    """The sides of raised tiles that face the camera, far tiles first."""
    eye = camera.position
    order = sorted(placed.items(), key=lambda item: -np.linalg.norm(np.array([*item[1][1], 0.0]) - eye))
    shade = np.array(look.face, np.float32)
    for _sq, (_letter, (x, y), angle, side) in order:
        a = np.radians(angle)
        u, v = np.array([np.cos(a), np.sin(a)]) * side / 2, np.array([-np.sin(a), np.cos(a)]) * side / 2
        foot = np.array([[x, y]]) + np.array([-u - v, u - v, u + v, -u + v])
        for k in range(4):
            p, q = foot[k], foot[(k + 1) % 4]
            middle = (p + q) / 2
            outward = middle - [x, y]
            if np.dot(np.append(outward, 0.0), eye - np.append(middle, 0.0)) <= 0:
                continue
            quad = np.array([[*p, 0], [*q, 0], [*q, -look.height], [*p, -look.height]])
            light = 0.55 + 0.25 * (outward[1] < 0) + 0.1 * (outward[0] < 0)
            cv2.fillConvexPoly(photo, camera.project(quad).astype(np.int32), (shade * light).tolist(), cv2.LINE_AA)


def paste_warped(photo: np.ndarray, image: np.ndarray, alpha: np.ndarray, homography: np.ndarray) -> None:
    """Lay ``image`` (float, with coverage ``alpha``) on ``photo`` (float, in place) through ``homography``."""
    size = (photo.shape[1], photo.shape[0])
    warped = cv2.warpPerspective(image, homography, size, flags=cv2.INTER_LINEAR)
    cover = cv2.warpPerspective(alpha, homography, size, flags=cv2.INTER_LINEAR)[..., None]
    photo *= 1 - cover
    photo += warped * cover


def _hand(photo: np.ndarray, middle: np.ndarray, rng: np.random.Generator) -> None:
    """A hand (an ellipse) somewhere over the middle of the board and its arm out to the edge."""
    h, w = photo.shape[:2]
    blob = np.zeros((h, w), np.float32)
    at = middle + rng.uniform(-0.25, 0.25, 2) * [w, h]
    cv2.ellipse(blob, (int(at[0]), int(at[1])), (int(w * 0.1), int(h * 0.08)), float(rng.uniform(0, 180)), 0, 360, 1.0, -1)
    cv2.rectangle(blob, (int(at[0]), int(at[1] - h * 0.05)), (w, int(at[1] + h * 0.05)), 1.0, -1)
    cover = np.asarray(cv2.GaussianBlur(blob, (0, 0), 5), np.float32)[..., None]
    skin = np.array([(120, 150, 200), (90, 120, 170), (60, 85, 120)][int(rng.integers(3))], np.float32)
    photo[:] = photo * (1 - cover) + skin * cover


def _clutter(photo: np.ndarray, things: int, rng: np.random.Generator) -> None:
    """``things`` on the table: books, papers, a box lid, cups and a striped cloth, in place."""
    h, w = photo.shape[:2]
    for _ in range(things):
        colour = rng.uniform(20, 240, 3).tolist()
        centre = (float(rng.uniform(0, w)), float(rng.uniform(0, h)))
        side = (float(rng.uniform(0.05, 0.4) * w), float(rng.uniform(0.05, 0.4) * h))
        kind = rng.integers(3)
        if kind == 0:
            box = cv2.boxPoints((centre, side, float(rng.uniform(0, 90))))
            cv2.fillConvexPoly(photo, box.astype(np.int32), colour, cv2.LINE_AA)
            cv2.polylines(photo, [box.astype(np.int32)], True, (np.array(colour) * 0.5).tolist(), 3, cv2.LINE_AA)
        elif kind == 1:
            cv2.ellipse(photo, (int(centre[0]), int(centre[1])), (int(side[0] / 4), int(side[0] / 4)), 0, 0, 360,
                        colour, -1, cv2.LINE_AA)
        else:
            step = int(rng.uniform(0.01, 0.04) * w)
            x0, y0 = int(centre[0]), int(centre[1])
            for k in range(0, int(side[0]), 2 * step):
                cv2.rectangle(photo, (x0 + k, y0), (x0 + k + step, y0 + int(side[1])), colour, -1)


def _table(size: tuple[int, int], rng: np.random.Generator) -> np.ndarray:
    w, h = size
    table = np.empty((h, w, 3), np.float32)
    table[:] = np.array([70, 95, 120], np.float32) * rng.uniform(0.6, 1.4) + rng.normal(0, 8, 3)
    return table


def _light(photo: np.ndarray, rng: np.random.Generator, dark_side: bool | None) -> np.ndarray:
    """A warm or cold cast, the room's brightness, and sometimes a side of the board in shadow."""
    h, w = photo.shape[:2]
    cast = np.array([rng.uniform(0.8, 1.1), 1.0, rng.uniform(0.9, 1.2)], np.float32)
    photo = photo * cast * rng.uniform(0.55, 1.1)
    if dark_side if dark_side is not None else rng.random() < 0.3:
        angle = rng.uniform(0, 2 * np.pi)
        yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
        ramp = ((xx / w - 0.5) * np.cos(angle) + (yy / h - 0.5) * np.sin(angle)) * 2
        photo *= (1 - rng.uniform(0.3, 0.6) * np.clip(ramp, 0, 1))[..., None]
    return photo
