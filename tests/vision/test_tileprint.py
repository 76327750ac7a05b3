"""``print-tiles``: a whole set on the pages, each tile the right size for the printed board,
every letter inked, blanks blank, readable refusals."""

from __future__ import annotations

import json

import cv2
import numpy as np
import pytest

from rules.questique_tiles import BLANK, TILES, alphabet
from tabletop.cli import main
from tabletop.resources import load_board
from vision.tileprint import TILE_FACE_BGR, TILE_SHARE, draw_tile, tile_pages

QUESTIQUE = load_board("questique", required=())


def faces_on(page: np.ndarray) -> int:
    """The tiles on a page: the outermost blobs of the face colour (a letter's counters, inside
    a tile's blob, are not counted)."""
    near = np.all(np.abs(page.astype(int) - TILE_FACE_BGR) < 30, axis=2).astype(np.uint8)
    contours, _ = cv2.findContours(near, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    return sum(1 for c in contours if cv2.contourArea(c) > 50)


@pytest.mark.parametrize("language", ["en", "uk"])
def test_the_pages_hold_the_whole_set(language):
    pages, sidecar = tile_pages(QUESTIQUE, language, "A4", 150)
    assert sum(faces_on(page) for page in pages) == sum(TILES[language].values()) == 150
    letters = [t["letter"] or BLANK for t in sidecar["tiles"]]
    assert {ch: letters.count(ch) for ch in set(letters)} == TILES[language]


def test_a_tile_fits_a_square_of_the_printed_board():
    for paper in ("A4", "A3"):
        _pages, sidecar = tile_pages(QUESTIQUE, "en", paper, 200)
        assert sidecar["tile_mm"] == pytest.approx(sidecar["square_mm"] * TILE_SHARE, abs=0.2)
        assert sidecar["tile_mm"] < sidecar["square_mm"]


def test_every_letter_is_inked_and_a_blank_is_not():
    for ch in alphabet("en") + alphabet("uk"):
        tile = draw_tile(ch, 48)
        assert (tile[8:40, 8:40] < 90).sum() > 20, ch
    assert (draw_tile(None, 48) < 90).sum() == 0


def test_the_command_writes_the_pages_and_a_sidecar(tmp_path, capsys):
    assert main(["print-tiles", "questique", "uk", "--out", str(tmp_path / "t.png"), "--dpi", "100"]) == 0
    side = json.loads((tmp_path / "t.json").read_text(encoding="utf-8"))
    assert len(side["tiles"]) == 150 and (tmp_path / "t-1.png").exists()
    assert "150 tiles" in capsys.readouterr().out


@pytest.mark.parametrize("argv, message", [
    (["print-tiles", "extradiction", "en"], "'extradiction' has no letter tiles; print-tiles prints those of: questique"),
    (["print-tiles", "questique", "fr"], "the tiles come in en, uk, not 'fr'"),
    (["print-tiles", "questique", "en", "--out", "x.gif"], "must end in .png or .pdf"),
    (["print-tiles", "questique", "en", "--paper", "B5"], "--paper is one of A4, A3, Letter"),
])
def test_readable_refusals(tmp_path, capsys, argv, message):
    argv = [str(tmp_path / a) if a == "x.gif" else a for a in argv]
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert message in err and "Traceback" not in err
