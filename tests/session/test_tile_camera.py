"""The camera over Questique's tiles: the tile watcher emits a move once, never from a frame with
a hand, and the table turns it into the write of the whole word (or asks the host about a
blank); the demo plays a whole game with the camera."""

from __future__ import annotations

import pytest

from rules.squares import Square
from tabletop.resources import load_board
from tabletop.session.devices.tile_input import _line, camera_view
from vision.synth.tilescene import tile_scene
from vision.tiles import TileReader
from vision.tilewatch import TileWatcher

pytestmark = pytest.mark.vision

BOARD = load_board("questique", required=("marks",))
EMPTY = ["." * 19] * 19


def frames(tiles, seed=2, hands=2, still=6):
    return [tile_scene(BOARD, {}, seed=seed, hand=True).frame] * hands + [tile_scene(BOARD, tiles, seed=seed).frame] * still


def test_a_move_is_emitted_once_and_never_from_a_hand_frame():
    watcher = TileWatcher(TileReader(BOARD), baseline=EMPTY, still_seconds=0.5)
    tiles = {Square(3, 4): "D", Square(4, 4): "O", Square(5, 4): "G"}
    moves = []
    for n, frame in enumerate(frames(tiles)):
        got = watcher.feed(frame, n * 0.25)
        assert not (got and n < 2), "a move from a frame with a hand"
        moves += got
    assert [(m.squares, m.letters, m.unsure) for m in moves] == [(tuple(tiles), ("D", "O", "G"), False)]


def test_the_first_steady_read_is_the_baseline_without_one():
    watcher = TileWatcher(TileReader(BOARD), still_seconds=0.5)
    frame = tile_scene(BOARD, {Square(9, 9): "A"}, seed=3).frame
    assert [m for n in range(6) for m in watcher.feed(frame, n * 0.25)] == []
    assert watcher.committed[9][9] == "A"


def test_the_camera_sees_blanks_and_exclusion_blanks_as_blank_tiles():
    class Game:
        def state(self):
            return {"grid": ["CAt"] + ["..."] * 2, "excluded": [[2, 2]]}
    assert camera_view(Game()) == ["CA?", "...", "..?"]


def test_new_tiles_are_extended_to_the_whole_word_in_their_line():
    grid = ["....", ".CA.", "....", "...."]
    assert _line((Square(1, 3),), grid) == ("across", [Square(1, 1), Square(1, 2), Square(1, 3)])
    assert _line((Square(2, 1), Square(3, 1)), grid) == ("down", [Square(1, 1), Square(2, 1), Square(3, 1)])
    assert _line((Square(0, 0), Square(3, 3)), grid) is None           # not in one line
    assert _line((Square(3, 0), Square(3, 3)), grid) is None           # a gap between them


@pytest.mark.slow
def test_the_demo_plays_questique_with_the_camera(tmp_path):
    import io

    from tabletop.table.demo import play_demo

    out = io.StringIO()
    report = play_demo("questique", seed=7, serve=False, buzzer_box=False, out=out, journal_path=str(tmp_path / "j.sqlite"))
    text = out.getvalue()
    assert report.winner is not None and report.totals == report.replay_totals
    assert "read by the tile watcher" in text
    assert report.camera_writes > 3 and report.camera_writes >= 3 * report.host_writes, text
