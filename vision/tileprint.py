"""Printable letter tiles (``tabletop print-tiles questique en|uk``), for a family without a set.

A tile is a square of warm ivory card with a soft darker edge and its capital letter in DejaVu
Sans Bold, about 45 % of the tile high; a blank has no letter. Cut out, each fits inside one square
of the printed board (``print-board questique`` on the same paper): the tile's side is 92 % of
the board's square. The camera's tile reader (:mod:`vision.tiles`) is trained on photos of
exactly these tiles (:mod:`vision.synth.tilescene` draws them with :func:`draw_tile`).

>>> tile = draw_tile("Ж", 60)
>>> tile.shape, tile.dtype, bool((tile < 80).any()), bool((draw_tile(None, 60) < 80).any())
((60, 60, 3), dtype('uint8'), True, False)
"""

from __future__ import annotations

import functools
import pathlib

import cv2
import numpy as np
from PIL import Image, ImageDraw, ImageFont

from rules.board import Board

#: the printed tile's face (BGR): warm ivory, unlike the board's white paper and its marks
TILE_FACE_BGR = (165, 222, 246)
#: the letter's colour (BGR), near black
TILE_INK_BGR = (28, 28, 28)
#: the tile's edge is printed this much darker than its face, fading inwards
EDGE_SHADE = 0.78
#: the typeface of the letters (Debian's fonts-dejavu-core, in scripts/apt-packages.txt)
TILE_FONT = "/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf"
#: a tile's side as a share of the board's square
TILE_SHARE = 0.92
#: the letter's font size as a share of the tile (a capital is about 0.45 of the tile high)
FONT_SHARE = 0.62


@functools.lru_cache(maxsize=16)
def _font(px: int) -> ImageFont.FreeTypeFont:
    if not pathlib.Path(TILE_FONT).exists():
        raise FileNotFoundError(f"the tiles' typeface {TILE_FONT} is missing: run ./tabletop.sh setup "
                                "(Debian package fonts-dejavu-core)")
    return ImageFont.truetype(TILE_FONT, px)


def draw_tile(letter: str | None, px: int) -> np.ndarray:
    """One tile's face, ``px`` pixels square, BGR uint8: the face, a soft darker edge and
    ``letter`` (``None`` for a blank tile) centred on it."""
    tile = np.empty((px, px, 3), np.float32)
    tile[:] = TILE_FACE_BGR
    bevel = max(1, px // 14)
    edge = np.ones((px, px), np.float32)
    cv2.rectangle(edge, (0, 0), (px - 1, px - 1), EDGE_SHADE, bevel)
    tile *= cv2.GaussianBlur(edge, (0, 0), bevel / 2 + 0.5)[..., None]
    if letter is not None:
        text = Image.new("L", (px, px))
        draw = ImageDraw.Draw(text)
        font = _font(max(6, int(px * FONT_SHARE)))
        x0, y0, x1, y1 = draw.textbbox((0, 0), letter, font=font)
        draw.text(((px - x0 - x1) / 2, (px - y0 - y1) / 2), letter, fill=255, font=font)
        ink = np.asarray(text, np.float32)[..., None] / 255.0
        tile = tile * (1 - ink) + np.array(TILE_INK_BGR, np.float32) * ink
    return np.clip(tile, 0, 255).astype(np.uint8)


def tile_pages(board: Board, language: str, paper: str = "A4", dpi: int = 200) -> tuple[list[np.ndarray], dict]:
    """The pages of one whole set of ``language`` (every tile of :data:`rules.questique_tiles.TILES`,
    blanks too), with cut lines, and a sidecar: ``{"tiles": [{"letter", "page", "box"}], "tile_mm"}``
    (``letter`` null for a blank; ``box`` the tile's pixels on its page). Each tile fits a square
    of ``board`` printed on the same ``paper`` at the same ``dpi`` (the caller loads the board:
    this library never reads the application's files).

    >>> from rules.board import parse_board
    >>> board = parse_board('rows = 15\\ncols = 15\\n[layers]\\n', "15x15", required=())
    >>> pages, sidecar = tile_pages(board, "en", dpi=60)
    >>> len(sidecar["tiles"]), sidecar["tile_mm"] < sidecar["square_mm"]
    (150, True)
    """
    from rules.questique_tiles import BLANK, bag
    from vision.printing import PAPER_MM, page_geometry

    letters = bag(language)
    page_w, page_h, square, _origin = page_geometry(board, paper, dpi)
    w_mm, _h_mm = PAPER_MM[paper]
    side = int(round(square * TILE_SHARE))
    pitch = side + max(2, int(round(square - side)))
    margin = int(round(12 / 25.4 * dpi))
    top = margin + int(round(10 / 25.4 * dpi))
    cols, rows = (page_w - 2 * margin) // pitch, (page_h - top - margin) // pitch
    per_page = cols * rows
    pages, placed = [], []
    count = -(-len(letters) // per_page)
    for number in range(count):
        page = np.full((page_h, page_w, 3), 255, np.uint8)
        chunk = letters[number * per_page:(number + 1) * per_page]
        title = f"Questique tiles, {language}: page {number + 1} of {count}; cut along the grey lines"
        cv2.putText(page, title, (margin, margin + int(4 / 25.4 * dpi)), cv2.FONT_HERSHEY_SIMPLEX,
                    dpi / 400, (40, 40, 40), max(1, dpi // 150), cv2.LINE_AA)
        used_rows = -(-len(chunk) // cols)
        for k, letter in enumerate(chunk):
            r, c = divmod(k, cols)
            x, y = margin + c * pitch, top + r * pitch
            page[y:y + side, x:x + side] = draw_tile(None if letter == BLANK else letter, side)
            placed.append({"letter": None if letter == BLANK else letter, "page": number + 1,
                           "box": [x, y, x + side, y + side]})
        grey = (170, 170, 170)
        for r in range(used_rows + 1):                   # cut lines half-way between the tiles
            y = top + r * pitch - (pitch - side) // 2
            cv2.line(page, (margin - pitch // 4, y), (margin + cols * pitch, y), grey, 1)
        for c in range(cols + 1):
            x = margin + c * pitch - (pitch - side) // 2
            cv2.line(page, (x, top - pitch // 4), (x, top + used_rows * pitch), grey, 1)
        pages.append(page)
    tile_mm = round(side / dpi * 25.4, 1)
    return pages, {"language": language, "paper": paper, "dpi": dpi, "tile_mm": tile_mm,
                   "square_mm": round(square / dpi * 25.4, 1), "tiles": placed, "paper_mm": w_mm}
