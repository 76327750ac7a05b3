import json

import cv2
import pytest

from vision.locate import detect_markers
from vision.printing import print_board, save_print

pytestmark = pytest.mark.vision


def test_sidecar_boxes_are_row_major_and_on_the_page(small_board):
    page, side = print_board(small_board, "A4", 200)
    assert (side["rows"], side["cols"]) == (13, 13)
    cells = side["cells"]
    assert len(cells) == 169
    h, w = page.shape[:2]
    for x0, y0, x1, y1 in cells:
        assert 0 <= x0 < x1 <= w and 0 <= y0 < y1 <= h
        assert x1 - x0 >= 60  # large enough to write in and to read
    assert cells[1][0] > cells[0][0] and cells[13][1] > cells[0][1]


def test_print_png_and_pdf_with_sidecar(tmp_path, sp_board):
    png, side = save_print(sp_board, tmp_path / "board.png", paper="A3", dpi=150)
    image = cv2.imread(str(png))
    data = json.loads(side.read_text())
    assert image.shape[:2] == (2480, 1754)
    assert sorted(detect_markers(cv2.cvtColor(image, cv2.COLOR_BGR2GRAY))) == [0, 1, 2, 3]
    x0, y0, x1, y1 = data["cells"][0]
    assert image[(y0 + y1) // 2, (x0 + x1) // 2].mean() > 150  # a square, not a line
    pdf, _ = save_print(sp_board, tmp_path / "board.pdf")
    assert pdf.read_bytes().startswith(b"%PDF")


def test_unknown_paper_or_suffix(tmp_path, small_board):
    with pytest.raises(ValueError):
        print_board(small_board, "A5")
    with pytest.raises(ValueError):
        save_print(small_board, tmp_path / "board.gif")
