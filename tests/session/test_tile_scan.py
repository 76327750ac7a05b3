"""The scan button over a board of tiles: a phone's photo of the board (found by its grid when
no marker is in view) becomes one move offered to the host; a photo without it is refused."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from rules.squares import Square
from tabletop.session.devices.photo_scan import ScanRefused
from vision.synth.tilescene import tile_scene

pytestmark = pytest.mark.vision


@pytest.fixture
def session(tmp_path):
    from tests.web.conftest import make_session

    made = make_session(tmp_path, game="questique", variant=None, players=("Ann", "Ben"))
    yield made
    made.journal.close()


def jpeg(frame) -> bytes:
    return cv2.imencode(".jpg", frame, [cv2.IMWRITE_JPEG_QUALITY, 90])[1].tobytes()


def test_a_boxed_board_without_markers_is_found_by_its_grid_and_its_word_offered(session):
    from tabletop import pieces

    word = {Square(9, 8 + k): ch for k, ch in enumerate("STAR")}
    shot = tile_scene(session.board, word, seed=5, style="commercial", tilt_deg=20)      # no markers
    scanner = pieces.kind("tiles").scanner(session)
    reply = scanner.scan(jpeg(shot.frame), "scan:host")
    assert reply["status"] == "offered" and [w["text"] for w in reply["words"]] == ["STAR"]
    assert [(r["text"], r["row"], r["col"], r["player"]) for r in session.pending_reads] == \
        [("STAR", 9, 8, "Ann")]
    assert len(session.game.events) == 0                    # nothing reaches the rules before the host


def test_a_photo_without_the_board_is_refused_and_changes_nothing(session):
    from tabletop import pieces

    scanner = pieces.kind("tiles").scanner(session)
    table = cv2.GaussianBlur(np.random.default_rng(2).integers(0, 255, (900, 1200, 3)).astype(np.uint8), (0, 0), 5)
    with pytest.raises(ScanRefused, match="The board's grid was not found in the photo"):
        scanner.scan(jpeg(table))
    assert session.pending_reads == []
