"""Chips on the printed Sequence Letters board: every colour on any picture (a red chip on the
red apple too), the empty board, four in a row from a photo, and the score command."""

from __future__ import annotations

import json

import cv2
import numpy as np
import pytest

from rules.squares import Square
from rules.sequence_letters import four_in_a_row
from tabletop.cli import main
from tabletop.resources import load_board
from vision.chips import ChipReader
from vision.errors import BoardNotFound
from vision.synth.chipscene import chip_scene

pytestmark = pytest.mark.vision
BOARD = load_board("sequence-letters", required=("letters", "colors"))
SQUARES = [Square(r, c) for r in range(BOARD.rows) for c in range(BOARD.cols)]


@pytest.fixture(scope="module")
def reader():
    return ChipReader(BOARD)


def expected(chips):
    return tuple("".join(chips.get(Square(r, c), ".") for c in range(BOARD.cols)) for r in range(BOARD.rows))


def test_an_empty_board_has_no_chips(reader):
    assert reader.read(chip_scene(BOARD, {}, seed=4)).rows == ("." * 8,) * 6


def test_a_chip_of_each_colour_on_a_picture_of_its_own_colour(reader):
    # the red apple, the blue umbrella, the green frog: the chip hides them all the same
    chips = {Square(0, 0): "r", Square(2, 4): "b", Square(5, 0): "g", Square(5, 5): "r"}
    assert reader.read(chip_scene(BOARD, chips, seed=6)).rows == expected(chips)


@pytest.mark.slow
def test_random_boards_in_perspective_and_uneven_light(reader):
    rng = np.random.default_rng(9)
    for seed in range(8):
        picked = rng.choice(len(SQUARES), int(rng.integers(1, 25)), replace=False)
        chips = {SQUARES[i]: str(rng.choice(["r", "b", "g"])) for i in picked}
        assert reader.read(chip_scene(BOARD, chips, seed=seed)).rows == expected(chips), seed


def test_a_board_full_of_chips(reader):
    chips = {sq: "rbg"[(sq.row + sq.col) % 3] for sq in SQUARES}
    assert reader.read(chip_scene(BOARD, chips, seed=2)).rows == expected(chips)


def test_no_markers_no_read(reader):
    with pytest.raises(BoardNotFound):
        reader.read(np.full((480, 640, 3), 200, np.uint8))


def test_four_in_a_row_on_a_grid():
    assert four_in_a_row(["....", "bbbb"]) == ("b", tuple(Square(1, c) for c in range(4)))
    assert four_in_a_row(["...r", "..r.", ".r..", "r..."])[0] == "r"
    assert four_in_a_row(["rrr.", "bbb."]) == (None, ())


def test_score_prints_the_grid_and_the_winning_line(tmp_path, capsys):
    chips = {Square(1, 1): "g", Square(2, 2): "g", Square(3, 3): "g", Square(4, 4): "g", Square(0, 7): "b"}
    path = tmp_path / "photo.jpg"
    cv2.imwrite(str(path), chip_scene(BOARD, chips, seed=12))
    assert main(["score", str(path), "--game", "sequence-letters", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["grid"] == list(expected(chips))
    assert out["winner"] == "g" and out["sequence"] == [[1, 1], [2, 2], [3, 3], [4, 4]]
    assert main(["score", str(path), "--game", "extradiction"]) == 3
    assert "this looks like the sequence-letters board" in capsys.readouterr().err


def test_a_photo_of_the_sheet_printed_by_print_board(tmp_path):
    """The acceptance path: someone prints the PNG, puts chips on it and takes a photo."""
    from vision.synth.scene import camera_homography

    assert main(["print-board", "sequence-letters", "--out", str(tmp_path / "b.png"), "--dpi", "100"]) == 0
    page = cv2.imread(str(tmp_path / "b.png")).astype(np.float32)
    side = json.loads((tmp_path / "b.json").read_text())
    chips = {Square(0, 1): "r", Square(3, 6): "b", Square(5, 2): "g"}
    colours = {"r": (40, 40, 200), "b": (185, 90, 30), "g": (60, 150, 40)}
    for sq, code in chips.items():
        x0, y0, x1, y1 = side["cells"][sq.row * side["cols"] + sq.col]
        cv2.circle(page, ((x0 + x1) // 2 + 2, (y0 + y1) // 2 - 1), int((x1 - x0) * 0.33), colours[code], -1, cv2.LINE_AA)
    rng = np.random.default_rng(1)
    h = camera_homography(page.shape[1], page.shape[0], (1280, 960), 25.0, rng, fill=0.95)
    photo = cv2.warpPerspective(page, h, (1280, 960), borderValue=(70, 90, 110))
    photo = np.clip(cv2.GaussianBlur(photo, (0, 0), 1.0) + rng.normal(0, 3, photo.shape), 0, 255).astype(np.uint8)
    assert ChipReader(BOARD).read(photo).rows == expected(chips)


@pytest.mark.parametrize("game", ["sequence-letters", "letter-dice"])
def test_score_refuses_what_is_no_photo_of_the_pieces(tmp_path, capsys, game):
    (tmp_path / "notes.jpg").write_text("not a photo")
    assert main(["score", str(tmp_path / "notes.jpg"), "--game", game]) == 2
    assert "is not an image" in capsys.readouterr().err
    cv2.imwrite(str(tmp_path / "wall.png"), np.full((480, 640, 3), 90, np.uint8))
    assert main(["score", str(tmp_path / "wall.png"), "--game", game, "--json"]) == 3
    err = capsys.readouterr().err
    assert ("board not found" in err or "0 of 8 dice seen" in err) and "Traceback" not in err
