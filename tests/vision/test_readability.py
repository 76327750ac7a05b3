"""Never a letter from a board the reader cannot read: a board too small in the picture or too
blurred gets a reason (move closer, hold still), and the tracker, the scan and ``score`` write
nothing; a board it judges readable has no letter on an empty square (seeds never calibrated on)."""

from __future__ import annotations

import pytest

from rules.squares import Square
from tabletop.resources import load_board
from vision.errors import VisionError
from vision.reader import BoardReader
from vision.synth.scene import make_scene
from vision.tracker import Tracker

pytestmark = pytest.mark.vision

BOARD = load_board("extradiction-sp")
WORDS = {Square(5, 3 + k): ch for k, ch in enumerate("PLANET")} | {Square(6 + k, 8): ch for k, ch in enumerate("ROAD")}


@pytest.fixture(scope="module")
def reader():
    return BoardReader(BOARD)


def test_a_close_sharp_board_is_readable(reader):
    read = reader.read(make_scene(BOARD, WORDS, seed=11, fill=0.95, tilt_deg=20).frame)
    assert read.unreadable is None and read.rows[5][3:9] == "PLANET"


@pytest.mark.parametrize("fill, blur, seed, says", [(0.35, None, 12, "move the camera closer"),
                                                    (0.9, 2.0, 2, "hold the camera still")])
def test_a_far_or_blurred_board_gets_a_reason_and_the_tracker_writes_nothing(reader, fill, blur, seed, says):
    frame = make_scene(BOARD, WORDS, seed=seed, fill=fill, blur=blur, tilt_deg=25, glare=False).frame
    read = reader.read(frame)
    assert read.unreadable and says in read.unreadable
    tracker = Tracker(reader, still_seconds=0.2)
    written = [d for t in range(6) for d in tracker.feed(frame, t * 0.25)]
    assert written == [] and says in tracker.status and tracker.committed_rows == ["." * 19] * 19


@pytest.mark.slow
def test_no_letter_on_an_empty_square_of_a_board_judged_readable(reader):
    judged = invented = refused = 0
    for fill in (0.95, 0.6, 0.42):
        for blur in (None, 1.8):
            for seed in (21, 22, 23):
                try:
                    read = reader.read(make_scene(BOARD, WORDS, seed=seed, fill=fill, blur=blur, tilt_deg=30).frame)
                except VisionError:
                    continue
                if read.unreadable:
                    refused += 1
                    continue
                judged += 1
                invented += sum(1 for r, row in enumerate(read.rows) for c, ch in enumerate(row)
                                if ch not in ".?" and Square(r, c) not in WORDS)
    assert judged >= 4 and refused >= 2 and invented == 0, (judged, refused, invented)
