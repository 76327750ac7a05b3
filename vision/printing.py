"""Drawing the printed board: squares coloured by value, value digits, zone lines, marks,
margin labels (A.. across the top, 1.. down the side) and four ArUco markers.

The same drawing, at a smaller scale, is the *reference look* the reader compares a photo with,
so anything printed here is never mistaken for ink.

>>> from rules.board import parse_board
>>> b = parse_board('rows = 2\\ncols = 3\\n[layers]\\nvalues = ["123", "111"]\\nzones = ["abb", "..."]')
>>> page, sidecar = print_board(b, paper="A4", dpi=100)
>>> page.shape, sidecar["rows"], len(sidecar["cells"])
((827, 1169, 3), 2, 6)
"""

from __future__ import annotations

import io
import json
import pathlib

import cv2
import numpy as np

from rules.board import Board
from rules.squares import column_label
from vision.layout import ARUCO_DICT, Layout

PAPER_MM = {"A4": (210.0, 297.0), "A3": (297.0, 420.0), "Letter": (215.9, 279.4)}
#: what the legend says under the grid (Hershey fonts: plain ASCII)
LEGEND = ("Values: the digit in a square is its stars; thick lines bound the zones; ! chance square.",
          "Laminate the sheet (or slide it into a clear sleeve) and write with dry-erase markers.",
          "Keep the four black-and-white corner markers visible to the camera.")
#: square fill (BGR) by printed value
VALUE_COLOURS = {
    0: (252, 252, 252), 1: (252, 252, 252), 2: (160, 232, 255), 3: (250, 215, 170),
    4: (185, 238, 190), 5: (205, 190, 255), 6: (230, 200, 230), 7: (200, 230, 230),
    8: (215, 215, 215), 9: (190, 210, 240),
}
PAPER = (252, 252, 252)


def aruco_dictionary():
    return cv2.aruco.getPredefinedDictionary(getattr(cv2.aruco, ARUCO_DICT))


def draw_board(board: Board, cell: float, *, origin=(0.0, 0.0), canvas: np.ndarray | None = None,
               markers: bool = True, labels: bool = True) -> np.ndarray:
    """Draw ``board`` with ``cell`` pixels a square; grid top-left at pixel ``origin``.

    Without ``canvas`` a paper-white image just large enough for the layout is made (then
    ``origin`` is ignored and the grid starts at ``Layout.outer * cell``).
    """
    lay = Layout(board.rows, board.cols)
    if canvas is None:
        canvas = np.full((int(round(lay.height * cell)), int(round(lay.width * cell)), 3), PAPER, np.uint8)
        origin = (lay.outer * cell, lay.outer * cell)
    ox, oy = origin

    def px(u, v):
        return int(round(ox + u * cell)), int(round(oy + v * cell))

    thin = max(1, int(round(cell * 0.03)))
    thick = max(2, int(round(cell * 0.09)))
    font = cv2.FONT_HERSHEY_SIMPLEX
    for sq in board.squares():
        r, c = sq
        x0, y0 = px(c, r)
        x1, y1 = px(c + 1, r + 1)
        cv2.rectangle(canvas, (x0, y0), (x1, y1), VALUE_COLOURS[board.value(sq)], -1)
        mark = board.mark(sq)
        if mark == "#":
            for k in range(0, 2 * (x1 - x0), max(3, int(cell / 5))):
                cv2.line(canvas, (x0 + k, y0), (x0 + k - (y1 - y0), y1), (150, 150, 150), thin)
            cv2.rectangle(canvas, (x0, y0), (x1, y1), VALUE_COLOURS[board.value(sq)], 0)
        if board.value(sq):
            cv2.putText(canvas, str(board.value(sq)), px(c + 0.06, r + 0.3), font, cell / 110, (120, 120, 120),
                        max(1, int(cell / 40)), cv2.LINE_AA)
        _draw_mark(canvas, mark, px(c + 0.8, r + 0.2), cell)
    for k in range(board.rows + 1):
        cv2.line(canvas, px(0, k), px(board.cols, k), (110, 110, 110), thin, cv2.LINE_AA)
    for k in range(board.cols + 1):
        cv2.line(canvas, px(k, 0), px(k, board.rows), (110, 110, 110), thin, cv2.LINE_AA)
    _draw_zone_lines(canvas, board, px, thick)
    cv2.rectangle(canvas, px(0, 0), px(board.cols, board.rows), (30, 30, 30), thick)
    if labels:
        scale = cell / 70
        for c in range(board.cols):
            text = column_label(c)
            (tw, th), _ = cv2.getTextSize(text, font, scale, max(1, int(cell / 30)))
            x, y = px(c + 0.5, -0.3)
            cv2.putText(canvas, text, (x - tw // 2, y), font, scale, (60, 60, 60), max(1, int(cell / 30)), cv2.LINE_AA)
        for r in range(board.rows):
            text = str(r + 1)
            (tw, th), _ = cv2.getTextSize(text, font, scale, max(1, int(cell / 30)))
            x, y = px(-0.2, r + 0.5)
            cv2.putText(canvas, text, (x - tw, y + th // 2), font, scale, (60, 60, 60), max(1, int(cell / 30)), cv2.LINE_AA)
    if markers:
        draw_markers(canvas, lay, cell, origin)
    return canvas


def draw_markers(canvas: np.ndarray, lay: Layout, cell: float, origin: tuple[float, float]) -> None:
    """The four ArUco markers of ``lay`` round a grid whose top-left is at pixel ``origin``."""
    ox, oy = origin
    lay_dict = aruco_dictionary()
    for marker_id in range(4):
        corners = lay.marker_corners(marker_id)
        x0, y0 = int(round(ox + corners[0][0] * cell)), int(round(oy + corners[0][1] * cell))
        x1, y1 = int(round(ox + corners[2][0] * cell)), int(round(oy + corners[2][1] * cell))
        side = min(x1 - x0, y1 - y0)
        img = cv2.aruco.generateImageMarker(lay_dict, marker_id, side)
        canvas[y0:y0 + side, x0:x0 + side] = img[:, :, None]


def _draw_mark(canvas, mark, centre, cell):
    x, y = centre
    s = cell * 0.12
    if mark == "!":
        cv2.line(canvas, (x, int(y - s)), (x, int(y + s * 0.4)), (40, 40, 200), max(1, int(cell / 25)), cv2.LINE_AA)
        cv2.circle(canvas, (x, int(y + s)), max(1, int(cell / 40)), (40, 40, 200), -1, cv2.LINE_AA)
    elif mark == "*":
        pts = []
        for k in range(10):
            rad = s if k % 2 == 0 else s * 0.45
            a = -np.pi / 2 + k * np.pi / 5
            pts.append((x + rad * np.cos(a), y + rad * np.sin(a)))
        cv2.fillPoly(canvas, [np.round(np.array(pts)).astype(np.int32)], (0, 150, 230), cv2.LINE_AA)
    elif mark == "D":
        diamond = np.array([(x, y - s), (x + s, y), (x, y + s), (x - s, y)])
        cv2.fillPoly(canvas, [np.round(diamond).astype(np.int32)], (160, 60, 60), cv2.LINE_AA)


#: the layers whose borders are drawn as thick lines (the first the board has): zones, else quadrants
OUTLINED_LAYERS = ("zones", "quadrants")


def _draw_zone_lines(canvas, board: Board, px, thick):
    layer = next((name for name in OUTLINED_LAYERS if name in board.layers), None)
    if layer is None:
        return
    rows = board.layers[layer]
    for r, c in board.squares():
        if c + 1 < board.cols and rows[r][c] != rows[r][c + 1]:
            cv2.line(canvas, px(c + 1, r), px(c + 1, r + 1), (30, 30, 30), thick)
        if r + 1 < board.rows and rows[r][c] != rows[r + 1][c]:
            cv2.line(canvas, px(c, r + 1), px(c + 1, r + 1), (30, 30, 30), thick)


def page_geometry(board: Board, paper: str = "A4", dpi: int = 200, layout: Layout | None = None):
    """``(page_w, page_h, cell_px, origin)`` for printing ``board`` on ``paper`` (portrait, or
    landscape for a wide layout) at ``dpi``; ``layout`` defaults to the board's standard one."""
    if paper not in PAPER_MM:
        raise ValueError(f"paper must be one of {', '.join(PAPER_MM)}, not {paper!r}")
    w_mm, h_mm = PAPER_MM[paper]
    lay = layout or Layout(board.rows, board.cols)
    landscape = lay.width > lay.height
    if landscape:
        w_mm, h_mm = h_mm, w_mm
    page_w, page_h = int(round(w_mm / 25.4 * dpi)), int(round(h_mm / 25.4 * dpi))
    margin = 10 / 25.4 * dpi  # 10 mm printer margin
    cell = min((page_w - 2 * margin) / lay.width, (page_h - 2 * margin) / lay.height)
    cell = float(int(cell))
    origin = ((page_w - lay.width * cell) / 2 + lay.outer * cell, (page_h - lay.height * cell) / 2 + lay.outer * cell)
    origin = (float(round(origin[0])), float(round(origin[1])))
    return page_w, page_h, cell, origin


def square_mm(board: Board, paper: str = "A4", dpi: int = 200) -> float:
    """The side of a printed square, in millimetres, when ``board`` is printed on ``paper``.

    >>> from rules.board import parse_board
    >>> b = parse_board('rows = 19\\ncols = 19\\n[layers]\\nvalues = ' + repr(["1" * 19] * 19), required=())
    >>> square_mm(b, "A4", dpi=1000), square_mm(b, "A3", dpi=1000)
    (7.6, 11.1)
    """
    _w, _h, cell, _origin = page_geometry(board, paper, dpi)
    return round(cell / dpi * 25.4, 1)


def print_board(board: Board, paper: str = "A4", dpi: int = 200, *, title: str | None = None,
                legend: tuple[str, ...] = ()) -> tuple[np.ndarray, dict]:
    """The printable page (BGR) and its sidecar ``{"rows", "cols", "cells": [[x0,y0,x1,y1], ...]}``.

    Boxes are the squares' pixel boxes in the page image, row-major. The sidecar also records
    ``cell_px``, ``origin`` (grid top-left), ``paper``, ``dpi`` and ``board`` name for convenience.
    ``title`` goes above the grid and ``legend`` lines below it, in the paper's spare height
    (the grid keeps the largest size the paper's width allows).
    """
    page_w, page_h, cell, (ox, oy) = page_geometry(board, paper, dpi)
    page = np.full((page_h, page_w, 3), 255, np.uint8)
    draw_board(board, cell, origin=(ox, oy), canvas=page)
    lay = Layout(board.rows, board.cols)
    top, bottom = oy - lay.outer * cell, oy + (board.rows + lay.outer) * cell
    _write_lines(page, [title] if title else [], top, dpi, above=True, scale=1.6)
    _write_lines(page, list(legend), bottom, dpi, above=False, scale=0.8)
    cells = [[int(round(ox + c * cell)), int(round(oy + r * cell)), int(round(ox + (c + 1) * cell)),
              int(round(oy + (r + 1) * cell))] for r in range(board.rows) for c in range(board.cols)]
    sidecar = {"rows": board.rows, "cols": board.cols, "cells": cells, "board": board.name, "paper": paper,
               "dpi": dpi, "cell_px": cell, "origin": [ox, oy]}
    return page, sidecar


def _write_lines(page: np.ndarray, lines: list[str], edge: float, dpi: int, *, above: bool, scale: float) -> None:
    """Centred lines of text in the page's spare height, above or below ``edge`` (pixels)."""
    font, size = cv2.FONT_HERSHEY_SIMPLEX, scale * dpi / 200
    weight = max(1, int(round(2 * size)))
    line_h = int(45 * size)
    spare = edge - 10 / 25.4 * dpi if above else page.shape[0] - 10 / 25.4 * dpi - edge
    if not lines or spare < line_h * len(lines):
        return                                   # no room (a board that fills the page): leave it off
    for k, text in enumerate(lines):
        (tw, th), _ = cv2.getTextSize(text, font, size, weight)
        while tw > page.shape[1] * 0.92 and size > 0.3:
            size *= 0.9
            (tw, th), _ = cv2.getTextSize(text, font, size, weight)
        y = int(edge - line_h * (len(lines) - k) + th) if above else int(edge + line_h * (k + 1))
        cv2.putText(page, text, ((page.shape[1] - tw) // 2, y), font, size, (40, 40, 40), weight, cv2.LINE_AA)


def sidecar_path(out: str | pathlib.Path) -> pathlib.Path:
    """The sidecar of a printed board: ``board.json`` beside ``board.png`` (DESIGN.md), and
    ``board.pdf.json`` beside ``board.pdf`` (so a PNG and a PDF of one name never share one).

    >>> sidecar_path("b/board.png").name, sidecar_path("b/board.pdf").name
    ('board.json', 'board.pdf.json')
    """
    out = pathlib.Path(out)
    return out.with_suffix(".json") if out.suffix.lower() == ".png" else out.with_name(out.name + ".json")


def save_print(board: Board, out: str | pathlib.Path, paper: str = "A4", dpi: int = 200, *, title: str | None = None,
               legend: tuple[str, ...] = ()) -> tuple[pathlib.Path, pathlib.Path]:
    """Write ``out`` (.png or .pdf) and the JSON sidecar beside it; returns both paths."""
    page, sidecar = print_board(board, paper, dpi, title=title, legend=legend)
    return write_page(page, sidecar, out, dpi)


def write_page(page: np.ndarray, sidecar: dict, out: str | pathlib.Path, dpi: int) -> tuple[pathlib.Path, pathlib.Path]:
    """Write a printable ``page`` (BGR) to ``out`` (.png, or .pdf at ``dpi``) and ``sidecar`` as
    JSON beside it (:func:`sidecar_path`); returns both paths."""
    out = pathlib.Path(out)
    suffix = out.suffix.lower()
    if suffix == ".png":
        ok, data = cv2.imencode(".png", page)
        out.write_bytes(data.tobytes())
    elif suffix == ".pdf":
        from PIL import Image

        buffer = io.BytesIO()
        Image.fromarray(cv2.cvtColor(page, cv2.COLOR_BGR2RGB)).save(buffer, "PDF", resolution=float(dpi))
        out.write_bytes(buffer.getvalue())
    else:
        raise ValueError(f"output must end in .png or .pdf, not {out.name!r}")
    side = sidecar_path(out)
    side.write_text(json.dumps(sidecar, ensure_ascii=False) + "\n", encoding="utf-8")
    return out, side


def write_pages(pages: list[np.ndarray], sidecar: dict, out: str | pathlib.Path, dpi: int) -> tuple[list[pathlib.Path], pathlib.Path]:
    """Write printable ``pages`` (BGR) to ``out``: one .pdf of them all at ``dpi``, or for .png
    one file a page (``NAME-1.png``, ``NAME-2.png``, ...); ``sidecar`` as JSON beside ``out``.
    Returns the files written and the sidecar's path."""
    out = pathlib.Path(out)
    if out.suffix.lower() == ".pdf":
        from PIL import Image

        images = [Image.fromarray(cv2.cvtColor(page, cv2.COLOR_BGR2RGB)) for page in pages]
        buffer = io.BytesIO()
        images[0].save(buffer, "PDF", resolution=float(dpi), save_all=True, append_images=images[1:])
        out.write_bytes(buffer.getvalue())
        written = [out]
    elif out.suffix.lower() == ".png":
        written = [out.with_name(f"{out.stem}-{k}.png") for k in range(1, len(pages) + 1)]
        for path, page in zip(written, pages):
            ok, data = cv2.imencode(".png", page)
            path.write_bytes(data.tobytes())
    else:
        raise ValueError(f"output must end in .png or .pdf, not {out.name!r}")
    side = sidecar_path(out)
    side.write_text(json.dumps(sidecar, ensure_ascii=False) + "\n", encoding="utf-8")
    return written, side
