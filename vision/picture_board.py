"""The printed Sequence Letters board: every square a picture, its coloured square with the
letter, the picture's name, the four ArUco markers and DESIGN.md's sidecar of square boxes.

Pictures come from Debian's ``fonts-noto-color-emoji`` (Noto Color Emoji: the font under the
SIL Open Font License 1.1, its images under Apache-2.0; credited in README). The few pictures
it has no emoji for (an igloo, a jack-in-the-box, a table) are drawn here; a picture with no
emoji and no drawing is printed as its big letter.

>>> from tabletop.resources import load_board
>>> board = load_board("sequence-letters", required=("letters", "colors"))
>>> page, sidecar = print_picture_board(board, dpi=60)
>>> sidecar["rows"], sidecar["cols"], len(sidecar["cells"]), sidecar["pictures"][0]
(6, 8, 48, 'apple')
"""

from __future__ import annotations

import functools
import pathlib

import cv2
import numpy as np

from rules.board import Board
from rules.squares import Square
from vision.layout import Layout
from vision.printing import draw_markers, page_geometry

EMOJI_FONT = pathlib.Path("/usr/share/fonts/truetype/noto/NotoColorEmoji.ttf")
#: the picture names of the built-in board (and others like it) -> emoji
EMOJI = {
    "apple": "\U0001F34E", "airplane": "\u2708\ufe0f", "balloon": "\U0001F388", "bike": "\U0001F6B2",
    "candle": "\U0001F56F\ufe0f", "cereal": "\U0001F963", "duck": "\U0001F986", "drum": "\U0001F941",
    "eagle": "\U0001F985", "egg": "\U0001F95A", "fish": "\U0001F41F", "frog": "\U0001F438",
    "giraffe": "\U0001F992", "grapes": "\U0001F347", "horse": "\U0001F40E", "heart": "\u2764\ufe0f",
    "ice cream": "\U0001F366", "jellybeans": "\U0001FAD8", "kite": "\U0001FA81", "kangaroo": "\U0001F998",
    "lamp": "\U0001FA94", "ladder": "\U0001FA9C", "monkey": "\U0001F412", "mouse": "\U0001F42D",
    "nose": "\U0001F443", "net": "\U0001F945", "orange": "\U0001F34A", "owl": "\U0001F989",
    "pumpkin": "\U0001F383", "pig": "\U0001F437", "queen": "\U0001F478", "question mark": "\u2753",
    "raccoon": "\U0001F99D", "robot": "\U0001F916", "sun": "\u2600\ufe0f", "saw": "\U0001FA9A",
    "truck": "\U0001F69A", "umbrella": "\u2602\ufe0f", "unicorn": "\U0001F984", "violin": "\U0001F3BB",
    "volcano": "\U0001F30B", "watermelon": "\U0001F349", "worm": "\U0001FAB1", "yarn": "\U0001F9F6",
    "yo-yo": "\U0001FA80",
}
#: markers smaller and nearer than on the crossword boards: the pictures get the paper
MARKER_CELLS, GAP_CELLS = 1.2, 0.45
#: the colours of the squares by the pictures (BGR), by the board's ``colors`` codes
SQUARE_COLOURS = {"r": (60, 60, 220), "o": (40, 140, 250), "y": (40, 215, 245), "g": (80, 170, 60),
                  "b": (200, 120, 40), "p": (170, 70, 150)}


@functools.lru_cache(maxsize=128)
def emoji_image(emoji: str, size: int) -> np.ndarray | None:
    """The emoji drawn ``size`` pixels square (BGRA), or ``None`` when the font lacks it."""
    if not EMOJI_FONT.exists():
        return None
    from PIL import Image, ImageDraw, ImageFont

    font = ImageFont.truetype(str(EMOJI_FONT), 109)           # the only size the colour font has
    canvas = Image.new("RGBA", (160, 160), (255, 255, 255, 0))
    ImageDraw.Draw(canvas).text((8, 8), emoji, font=font, embedded_color=True)
    box = canvas.getbbox()
    if box is None:
        return None
    glyph = np.asarray(canvas.crop(box))
    if glyph.shape[0] < 40:                                 # a thin fallback mark, not a picture
        return None
    side = max(glyph.shape[:2])
    square = np.zeros((side, side, 4), np.uint8)
    y, x = (side - glyph.shape[0]) // 2, (side - glyph.shape[1]) // 2
    square[y:y + glyph.shape[0], x:x + glyph.shape[1]] = glyph
    return cv2.cvtColor(cv2.resize(square, (size, size), interpolation=cv2.INTER_AREA), cv2.COLOR_RGBA2BGRA)


def _drawn(name: str, size: int) -> np.ndarray | None:
    """The pictures no emoji shows, drawn in a few strokes (BGRA)."""
    img = np.zeros((size, size, 4), np.uint8)
    s = size / 100

    def p(x: float, y: float) -> tuple[int, int]:
        return int(x * s), int(y * s)

    ink, w = (60, 60, 60, 255), max(1, int(3 * s))
    if name == "igloo":
        cv2.ellipse(img, p(50, 78), (int(42 * s), int(45 * s)), 0, 180, 360, (250, 235, 225, 255), -1)
        cv2.ellipse(img, p(50, 78), (int(42 * s), int(45 * s)), 0, 180, 360, ink, w)
        for y in (48, 63):
            cv2.line(img, p(14, y), p(86, y), ink, w)
        cv2.ellipse(img, p(50, 78), (int(13 * s), int(18 * s)), 0, 180, 360, (90, 60, 40, 255), -1)
        cv2.line(img, p(6, 78), p(94, 78), ink, w)
    elif name == "jack-in-the-box":
        cv2.rectangle(img, p(22, 60), p(78, 95), (40, 60, 210, 255), -1)
        cv2.rectangle(img, p(22, 60), p(78, 95), ink, w)
        for k in range(5):
            cv2.line(img, p(40 if k % 2 == 0 else 60, 58 - k * 6), p(60 if k % 2 == 0 else 40, 52 - k * 6), ink, w)
        cv2.circle(img, p(50, 20), int(15 * s), (150, 200, 250, 255), -1)
        cv2.circle(img, p(50, 20), int(15 * s), ink, w)
        cv2.circle(img, p(50, 22), int(4 * s), (40, 40, 220, 255), -1)
        cv2.fillPoly(img, [np.array([p(37, 10), p(63, 10), p(50, -4)], np.int32)], (60, 170, 60, 255))
    elif name == "table":
        cv2.rectangle(img, p(8, 38), p(92, 50), (40, 100, 160, 255), -1)
        for x in (14, 80):
            cv2.rectangle(img, p(x, 50), p(x + 6, 92), (30, 80, 130, 255), -1)
        cv2.rectangle(img, p(8, 38), p(92, 50), ink, w)
    else:
        return None
    return img


def picture_image(name: str, size: int) -> np.ndarray | None:
    """The picture called ``name`` (BGRA, ``size`` square): its emoji, or the drawing of it."""
    emoji = EMOJI.get(name.lower())
    image = emoji_image(emoji, size) if emoji else None
    if image is None:
        drawn = _drawn(name.lower(), 240)            # drawn large, then shrunk: the same look at every size
        image = None if drawn is None else cv2.resize(drawn, (size, size), interpolation=cv2.INTER_AREA)
    return image


def _paste(canvas: np.ndarray, picture: np.ndarray, x: int, y: int) -> None:
    h, w = picture.shape[:2]
    region = canvas[y:y + h, x:x + w].astype(np.float32)
    alpha = picture[:, :, 3:4].astype(np.float32) / 255
    canvas[y:y + h, x:x + w] = (region * (1 - alpha) + picture[:, :, :3] * alpha).astype(np.uint8)


def draw_picture_board(board: Board, names: dict[Square, str], cell: float, origin: tuple[float, float],
                       canvas: np.ndarray) -> None:
    """Draw every square of ``board`` on ``canvas`` (grid top-left at ``origin``, ``cell`` pixels a square)."""
    ox, oy = origin

    def px(u: float, v: float) -> tuple[int, int]:
        return int(round(ox + u * cell)), int(round(oy + v * cell))

    font = cv2.FONT_HERSHEY_SIMPLEX
    for sq in board.squares():
        r, c = sq
        x0, y0 = px(c, r)
        letter = board.cell("letters", sq)
        if letter == ".":
            cv2.rectangle(canvas, (x0, y0), px(c + 1, r + 1), (225, 225, 225), -1)
            continue
        colour = SQUARE_COLOURS.get(board.cell("colors", sq), (120, 120, 120))
        tag = int(cell * 0.26)
        cv2.rectangle(canvas, (x0 + 3, y0 + 3), (x0 + 3 + tag, y0 + 3 + tag), colour, -1)
        scale = cell / 150
        (tw, th), _ = cv2.getTextSize(letter, font, scale, max(1, int(cell / 45)))
        on_light = board.cell("colors", sq) in ("y", "o")
        cv2.putText(canvas, letter, (x0 + 3 + (tag - tw) // 2, y0 + 3 + (tag + th) // 2), font, scale,
                    (30, 30, 30) if on_light else (255, 255, 255), max(1, int(cell / 45)), cv2.LINE_AA)
        name = names.get(sq, letter)
        size = int(cell * 0.58)
        picture = picture_image(name, size)
        if picture is not None:
            _paste(canvas, picture, x0 + int((cell - size) / 2), y0 + int(cell * 0.16))
        else:
            (tw, th), _ = cv2.getTextSize(letter, font, cell / 40, max(2, int(cell / 20)))
            cv2.putText(canvas, letter, (x0 + int((cell - tw) / 2), y0 + int(cell * 0.7)), font, cell / 40,
                        (90, 90, 90), max(2, int(cell / 20)), cv2.LINE_AA)
        small = cell / 260
        while small > 0.2 and cv2.getTextSize(name, font, small, 1)[0][0] > cell * 0.92:
            small *= 0.9
        (tw, th), _ = cv2.getTextSize(name, font, small, 1)
        cv2.putText(canvas, name, (x0 + int((cell - tw) / 2), y0 + int(cell * 0.94)), font, small, (50, 50, 50), 1,
                    cv2.LINE_AA)
    thin = max(1, int(round(cell * 0.02)))
    for k in range(board.rows + 1):
        cv2.line(canvas, px(0, k), px(board.cols, k), (90, 90, 90), thin, cv2.LINE_AA)
    for k in range(board.cols + 1):
        cv2.line(canvas, px(k, 0), px(k, board.rows), (90, 90, 90), thin, cv2.LINE_AA)
    cv2.rectangle(canvas, px(0, 0), px(board.cols, board.rows), (30, 30, 30), max(2, int(round(cell * 0.05))))


def print_picture_board(board: Board, paper: str = "A4", dpi: int = 200, *, title: str | None = None) -> tuple[np.ndarray, dict]:
    """The printable page (BGR) and its sidecar (DESIGN.md's ``rows``, ``cols``, ``cells``, plus
    ``pictures``: each square's picture name, row-major, ``null`` for a square without one)."""
    from rules.sequence_letters import picture_names
    from vision.printing import _write_lines

    names = picture_names(board)
    lay = Layout(board.rows, board.cols, marker=MARKER_CELLS, gap=GAP_CELLS)
    page_w, page_h, cell, (ox, oy) = page_geometry(board, paper, dpi, lay)
    page = np.full((page_h, page_w, 3), 255, np.uint8)
    draw_picture_board(board, names, cell, (ox, oy), page)
    draw_markers(page, lay, cell, (ox, oy))
    _write_lines(page, [title] if title else [], oy - lay.outer * cell, dpi, above=True, scale=1.6)
    _write_lines(page, ["Put a chip on a picture that starts with your card's letter; four in a row wins.",
                        "Keep the four black-and-white corner markers visible to the camera."],
                 oy + (board.rows + lay.outer) * cell, dpi, above=False, scale=0.8)
    cells = [[int(round(ox + c * cell)), int(round(oy + r * cell)), int(round(ox + (c + 1) * cell)),
              int(round(oy + (r + 1) * cell))] for r in range(board.rows) for c in range(board.cols)]
    pictures = [names.get(Square(r, c)) for r in range(board.rows) for c in range(board.cols)]
    sidecar = {"rows": board.rows, "cols": board.cols, "cells": cells, "board": board.name, "paper": paper,
               "dpi": dpi, "cell_px": cell, "origin": [ox, oy], "marker_cells": MARKER_CELLS, "gap_cells": GAP_CELLS,
               "pictures": pictures}
    return page, sidecar
