"""Premium squares' printed labels read as letters are told from tiles by colour (issue 24, ninth round)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from rules.board import parse_board
from tabletop.resources import load_board
from vision.tiles import CELL, MARGIN, TileReader

ROOT = Path(__file__).resolve().parents[2]
#: BGR in evened-light units: the premium colours lie further than BLANK_COLOUR from the wood
PLAIN, PINK, BLUE, WOOD = (0.55, 0.5, 0.45), (0.6, 0.45, 0.95), (0.95, 0.75, 0.5), (0.7, 0.85, 0.95)


@pytest.fixture(scope="module")
def reader() -> TileReader:
    return TileReader(load_board(str(ROOT / "examples/boards/boxed-15x15.toml"), required=()), "en")


def _scene(reader: TileReader, tiles: dict[tuple[int, int], str]) -> tuple[np.ndarray, np.ndarray]:
    """An evened-light top-down board (plain, pink double-word, blue letter squares; wooden tiles on
    ``tiles``) and the network's reads as the table would get them: every premium square read as
    an H (its label), every tile as its letter."""
    rows, cols = reader.board.rows, reader.board.cols
    side = int((rows + 2 * MARGIN) * CELL)
    light = np.empty((side, side, 3), np.float32)
    light[:] = PLAIN
    premiums = reader.board.layers["premiums"]
    probs = np.zeros((rows * cols, len(reader.codes)), np.float32)
    probs[:, 0] = 1.0
    for r in range(rows):
        for c in range(cols):
            kind = premiums[r][c]
            y0, x0 = int((MARGIN + r) * CELL), int((MARGIN + c) * CELL)
            if (r, c) in tiles:
                light[y0:y0 + CELL, x0:x0 + CELL] = WOOD
                code = reader.codes.index(tiles[(r, c)])
            elif kind != ".":
                light[y0:y0 + CELL, x0:x0 + CELL] = PINK if kind in "DT" else BLUE
                code = reader.codes.index("H")
            else:
                continue
            probs[r * cols + c] = 0.0
            probs[r * cols + c, code] = 0.97
            probs[r * cols + c, 0] = 0.03
    return light, probs


def _read(reader: TileReader, light: np.ndarray, probs: np.ndarray) -> list[str]:
    probs = probs.copy()
    reader._check_labels(probs, light, reader.middles)
    codes = probs.argmax(1)
    cols = reader.board.cols
    return ["".join(reader.codes[k] for k in codes[r * cols:(r + 1) * cols]) for r in range(reader.board.rows)]


def test_an_empty_boards_labels_read_as_letters_are_empty_squares(reader: TileReader) -> None:
    light, probs = _scene(reader, {})
    assert (probs.argmax(1) == reader.codes.index("H")).sum() == 61        # every premium square read as H
    assert all(set(row) == {"."} for row in _read(reader, light, probs))


def test_tiles_on_premium_squares_stay_and_labels_beside_them_go(reader: TileReader) -> None:
    tiles = {(7, 5): "C", (7, 6): "A", (7, 7): "T", (7, 8): "S", (3, 3): "O", (3, 4): "X"}   # (7, 7) the star, (3, 3) a pink square
    light, probs = _scene(reader, tiles)
    rows = _read(reader, light, probs)
    assert rows[7][5:9] == "CATS"
    assert rows[3][3:5] == "OX"
    assert sum(ch not in ".CATSOX" for row in rows for ch in row) == 0
    assert sum(ch != "." for row in rows for ch in row) == len(tiles)


def test_a_nearly_empty_boards_first_word_on_the_star_stays(reader: TileReader) -> None:
    tiles = {(7, 6): "A", (7, 7): "T"}                        # fewer than three letters on plain squares
    light, probs = _scene(reader, tiles)
    rows = _read(reader, light, probs)
    assert rows[7][6:8] == "AT"
    assert sum(ch != "." for row in rows for ch in row) == 2


def test_a_board_without_premium_squares_is_left_as_read() -> None:
    board = parse_board("rows = 15\ncols = 15\n[layers]\n", "plain", required=())
    plain = TileReader(board, "en")
    probs = np.zeros((225, len(plain.codes)), np.float32)
    probs[:, 0] = 1.0
    probs[16] = 0.0
    probs[16, plain.codes.index("H")] = 1.0
    light = np.full((int((15 + 2 * MARGIN) * CELL),) * 2 + (3,), 0.5, np.float32)
    after = probs.copy()
    plain._check_labels(after, light, plain.middles)
    assert np.array_equal(after, probs)


def test_an_empty_boards_plain_squares_read_as_blanks_are_empty(reader: TileReader) -> None:
    light, probs = _scene(reader, {})
    for square in (1, 75, 110):                               # plain squares a framed board shows as blank tiles
        assert reader.board.layers["premiums"][square // 15][square % 15] == "."
        probs[square] = 0.0
        probs[square, reader.codes.index("?")] = 0.9
        probs[square, 0] = 0.1
    assert all(set(row) == {"."} for row in _read(reader, light, probs))
