"""No word from nothing: strong glare spots and a dark side of the board never read as ink, and
written words are still found under them."""

import numpy as np
import pytest

from rules.squares import Square
from tabletop.benchmarks.scenes import board_15
from tabletop.resources import load_board
from vision.cells import INK
from vision.reader import BoardReader
from vision.synth.scene import harsh_light, make_scene
from vision.tracker import Tracker

pytestmark = pytest.mark.vision

BOARDS = {"extradiction": lambda: load_board("extradiction"), "extradiction-sp": lambda: load_board("extradiction-sp"),
          "15x15": board_15}


@pytest.mark.parametrize("name", sorted(BOARDS))
def test_an_empty_board_under_glare_and_a_dark_side_reads_no_ink(name):
    board = BOARDS[name]()
    reader = BoardReader(board, ["CAT", "WHETHER"])
    for seed in range(4):
        read = reader.read(harsh_light(make_scene(board, {}, seed=200 + seed).frame, seed))
        assert not (read.states == INK).any(), f"seed {seed}: ink read at {np.argwhere(read.states == INK).tolist()}"
        assert read.words == []


@pytest.mark.parametrize("name", sorted(BOARDS))
def test_words_written_under_harsh_light_are_still_found_and_nothing_else(name):
    board = BOARDS[name]()
    reader = BoardReader(board, ["MARKET", "STAR", "PENETRATE"])
    letters = {Square(2, 1 + k): ch for k, ch in enumerate("MARKET")}
    letters.update({Square(6, 3 + k): ch for k, ch in enumerate("STAR")})
    for seed in range(3):
        read = reader.read(harsh_light(make_scene(board, letters, seed=300 + seed, tilt_deg=15).frame, seed))
        inked = {Square(int(r), int(c)) for r, c in np.argwhere(read.states == INK)}
        assert inked <= set(letters), f"seed {seed}: ink where nothing was written: {sorted(inked - set(letters))}"
        assert len(inked) >= len(letters) - 1, f"seed {seed}: only {len(inked)} of {len(letters)} letters found"


def test_the_tracker_emits_no_write_from_glare_on_an_empty_board():
    board = load_board("extradiction")
    tracker = Tracker(BoardReader(board, ["WHETHER"]), still_seconds=0.2)
    emitted = []
    for k in range(12):  # the light changes every few frames: a lamp moved, clouds
        frame = harsh_light(make_scene(board, {}, seed=7, frame_no=k).frame, k // 3)
        emitted += tracker.feed(frame, 0.25 * k)
    assert emitted == []
