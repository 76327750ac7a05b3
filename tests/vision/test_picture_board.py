"""The printed Sequence Letters board: every picture drawn, the coloured squares, the markers a
camera finds, and the sidecar's boxes and picture names."""

from __future__ import annotations

import json

import cv2
import numpy as np
import pytest

from rules.sequence_letters import picture_names
from tabletop.cli import main
from tabletop.resources import load_board
from vision.picture_board import picture_image

pytestmark = pytest.mark.vision
BOARD = load_board("sequence-letters", required=("letters", "colors"))


def test_every_picture_of_the_built_in_board_has_an_image():
    for name in picture_names(BOARD).values():
        image = picture_image(name, 64)
        assert image is not None and image.shape == (64, 64, 4), name
        assert (image[:, :, 3] > 0).mean() > 0.1, name            # a picture, not a dot


def test_print_board_writes_the_pictures_markers_and_sidecar(tmp_path):
    assert main(["print-board", "sequence-letters", "--out", str(tmp_path / "board.png"), "--dpi", "120"]) == 0
    page = cv2.imread(str(tmp_path / "board.png"))
    side = json.loads((tmp_path / "board.json").read_text())
    assert (side["rows"], side["cols"], len(side["cells"])) == (6, 8, 48)
    assert side["pictures"][:3] == ["apple", "balloon", "candle"] and side["pictures"][24] == "net"
    for x0, y0, x1, y1 in side["cells"]:
        inside = page[y0 + 5:y1 - 5, x0 + 5:x1 - 5]
        assert (inside.std(axis=2) > 30).mean() > 0.05           # something coloured is printed there
    detector = cv2.aruco.ArucoDetector(cv2.aruco.getPredefinedDictionary(cv2.aruco.DICT_4X4_50))
    _, ids, _ = detector.detectMarkers(cv2.cvtColor(page, cv2.COLOR_BGR2GRAY))
    assert sorted(ids.ravel().tolist()) == [0, 1, 2, 3]
    x0, y0, x1, y1 = side["cells"][0]                            # the apple's red square, top left
    b, g, r = page[y0 + int((y1 - y0) * 0.05) + 4, x0 + int((x1 - x0) * 0.05) + 4].astype(int)
    assert r > 150 and g < 120 and b < 120


def test_a_board_without_picture_names_prints_its_letters(tmp_path):
    (tmp_path / "zoo.toml").write_text('name = "Zoo"\nrows = 2\ncols = 2\n[layers]\nletters = ["AB", "B."]\n'
                                       'colors = ["rg", "g."]\n')
    board = load_board(tmp_path / "zoo.toml", required=("letters", "colors"))
    from vision.picture_board import print_picture_board

    page, side = print_picture_board(board, dpi=80)
    assert side["pictures"] == ["A", "B", "B", None] and page.shape[0] > 0
    assert np.isfinite(page).all()


def test_print_cards_prints_the_whole_deck_with_a_sidecar(tmp_path, capsys):
    assert main(["print-cards", "sequence-letters", "--out", str(tmp_path / "cards.pdf"), "--dpi", "80"]) == 0
    assert (tmp_path / "cards.pdf").read_bytes().startswith(b"%PDF")
    side = json.loads((tmp_path / "cards.pdf.json").read_text())
    cards = [c["card"] for c in side["cards"]]
    assert len(cards) == 52 and cards.count("X") == cards.count("Z") == 2 and cards.count("Q") == 2
    assert {c["color"] for c in side["cards"] if c["card"] == "A"} == {"r"}
    assert main(["print-cards", "extradiction"]) == 2
    assert "no deck to print" in capsys.readouterr().err
