"""The camera over Questique's tiles: the tile watcher emits a move once, never from a frame with
a hand, and the table turns it into the write of the whole word (or asks the host about a
blank); the demo plays a whole game with the camera."""

from __future__ import annotations

import pytest

from rules.squares import Square
from tabletop.resources import load_board
from tabletop.session.devices.tile_input import TileCameraInput, camera_view
from vision.tilewatch import TileMove
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


def tile_input(grid):
    """A tile camera input for a game showing ``grid`` (no camera, no watcher: just its moves)."""
    import types

    game = types.SimpleNamespace(state=lambda: {"grid": grid})
    camera = TileCameraInput.__new__(TileCameraInput)
    camera.session = types.SimpleNamespace(game=game, setup=types.SimpleNamespace(language="en"),
                                           lexicon={"CAT", "CAB", "COT"})
    return camera


def move(letters, unsure=False, taken=()):
    return TileMove(tuple(letters), tuple(letters.values()), tuple(taken), unsure, 0.0)


def test_new_tiles_are_the_write_of_the_whole_word_in_their_line():
    camera = tile_input(["....", ".CA.", "....", "...."])
    assert camera.event_for(move({Square(1, 3): "T"})) == (
        {"type": "write", "text": "CAT", "row": 1, "col": 1, "dir": "across"}, False)
    assert camera.event_for(move({Square(2, 1): "O", Square(3, 1): "W"}, unsure=True)) == (
        {"type": "write", "text": "COW", "row": 1, "col": 1, "dir": "down"}, True)
    assert camera.event_for(move({Square(0, 0): "A", Square(3, 3): "B"})) == (None, False)   # not in one line
    assert camera.event_for(move({Square(3, 0): "A", Square(3, 3): "B"})) == (None, False)   # a gap between them
    assert camera.event_for(move({}, taken=[Square(1, 1)])) == (None, False)               # tiles only taken up


def test_a_new_blank_tile_is_guessed_from_the_dictionary_and_asked_about():
    camera = tile_input(["....", ".CA.", "....", "...."])
    assert camera.event_for(move({Square(1, 3): "?"})) == (
        {"type": "write", "text": "CAb", "row": 1, "col": 1, "dir": "across"}, True)


def test_a_letter_on_a_blanks_square_takes_the_blank():
    camera = tile_input(["....", ".Ca.", "....", "...."])
    assert camera.event_for(move({Square(1, 2): "A"})) == ({"type": "take_blank", "row": 1, "col": 2}, False)


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
