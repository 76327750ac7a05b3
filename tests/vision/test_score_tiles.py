"""``tabletop score --pieces tiles``: a boxed board through ``--board/--corners``, the printed
Questique board by its markers, and readable refusals."""

from __future__ import annotations

import json

import cv2
import numpy as np
import pytest

from rules.squares import Square
from tabletop.cli import main
from tabletop.resources import load_board
from vision.synth.tilefonts import HELD_OUT
from vision.synth.tilescene import tile_scene

pytestmark = pytest.mark.vision

BOXED_TOML = 'name = "my old boxed set"\nrows = 15\ncols = 15\n[layers]\n'


def across(text, row, col):
    return {Square(row, col + k): ch for k, ch in enumerate(text)}


@pytest.fixture
def boxed(tmp_path):
    from rules.board import parse_board

    (tmp_path / "boxed.toml").write_text(BOXED_TOML)
    board = parse_board(BOXED_TOML, required=())
    shot = tile_scene(board, {**across("HOUSE", 7, 5), **across("TREE", 3, 2)}, seed=21, style="commercial",
                      faces=HELD_OUT, tilt_deg=28)
    cv2.imwrite(str(tmp_path / "boxed.jpg"), shot.frame)
    corners = [f"{x:.0f},{y:.0f}" for x, y in shot.corners]
    return tmp_path, shot, corners


def test_a_boxed_board_read_through_its_corners(boxed, capsys):
    tmp_path, shot, corners = boxed
    code = main(["score", str(tmp_path / "boxed.jpg"), "--board", str(tmp_path / "boxed.toml"), "--corners", *corners,
                 "--pieces", "tiles", "--json"])
    out = json.loads(capsys.readouterr().out)
    assert code == 0
    assert out["grid"] == list(shot.rows)
    assert sorted(w["word"] for w in out["words"]) == ["HOUSE", "TREE"]
    assert out["score"] == 0 and out["stars"] == []            # a boxed board has no star squares
    assert out["confirm"] == bool(out["unsure"]) and len(out["unsure"]) <= 2


def test_the_printed_questique_board_and_its_stars(tmp_path, capsys):
    board = load_board("questique", required=("marks",))
    shot = tile_scene(board, {**across("STAR", 1, 5), **across("CAT", 8, 6)}, seed=22)   # (8, 8) is a star
    cv2.imwrite(str(tmp_path / "q.jpg"), shot.frame)
    assert main(["score", str(tmp_path / "q.jpg"), "--game", "questique", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["grid"] == list(shot.rows)
    assert out["stars"] == [[8, 8]] and out["score"] == 1
    assert main(["score", str(tmp_path / "q.jpg"), "--game", "questique"]) == 0
    text = capsys.readouterr().out
    assert "CAT at G9 across" in text and "stars covered: 1" in text


@pytest.mark.parametrize("extra, message", [
    (["--corners", "1,2", "3,4", "oops", "5,6"], "--corners takes four X,Y pixel pairs"),
    (["--corners", "0,0", "0,900", "1200,900", "1200,0"], "from the top-left, clockwise"),
    (["--language", "fr"], "letter tiles come in en, uk, not 'fr'"),
])
def test_readable_refusals(boxed, capsys, extra, message):
    tmp_path, _shot, _corners = boxed
    code = main(["score", str(tmp_path / "boxed.jpg"), "--board", str(tmp_path / "boxed.toml"), "--pieces", "tiles",
                 *extra])
    err = capsys.readouterr().err
    assert code in (2, 3) and message in err and "Traceback" not in err


def test_a_boxed_board_read_without_corners_prints_the_corners_it_found(boxed, capsys):
    tmp_path, shot, _corners = boxed
    args = ["score", str(tmp_path / "boxed.jpg"), "--board", str(tmp_path / "boxed.toml"), "--pieces", "tiles"]
    assert main([*args, "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["grid"] == list(shot.rows) and out["found_by"] == "grid"
    cell = np.linalg.norm(shot.corners[1] - shot.corners[0]) / 15
    assert np.abs(np.array(out["corners"]) - shot.corners).max() < 0.25 * cell
    assert main(args) == 0
    text = capsys.readouterr().out
    assert "grid found at --corners " in text and "HOUSE at" in text


def test_corners_given_override_the_grid_found(boxed, capsys):
    tmp_path, shot, _corners = boxed
    cell = np.linalg.norm(shot.corners[1] - shot.corners[0]) / 15
    moved = shot.corners + [cell, 0]                      # a square to the right: the reading moves too
    code = main(["score", str(tmp_path / "boxed.jpg"), "--board", str(tmp_path / "boxed.toml"), "--pieces", "tiles",
                 "--corners", *[f"{x:.1f},{y:.1f}" for x, y in moved], "--json"])
    out = json.loads(capsys.readouterr().out)
    assert code == 0 and out["found_by"] == "corners"
    assert np.abs(np.array(out["corners"]) - moved).max() < 0.1
    assert out["grid"] != list(shot.rows)


def test_a_photo_without_a_board_is_refused(tmp_path, capsys):
    (tmp_path / "boxed.toml").write_text(BOXED_TOML)
    rng = np.random.default_rng(3)
    photo = cv2.GaussianBlur(rng.integers(0, 255, (900, 1200, 3)).astype(np.uint8), (0, 0), 6)
    cv2.rectangle(photo, (300, 200), (700, 500), (40, 90, 160), -1)          # a book on the table
    cv2.imwrite(str(tmp_path / "table.jpg"), photo)
    code = main(["score", str(tmp_path / "table.jpg"), "--board", str(tmp_path / "boxed.toml"), "--pieces", "tiles"])
    err = capsys.readouterr().err
    assert code == 3 and "no grid of 15x15 squares was found in the photo" in err and "--corners" in err


def test_tiles_without_a_board_ask_for_one(tmp_path, capsys):
    cv2.imwrite(str(tmp_path / "x.png"), np.full((300, 400, 3), 128, np.uint8))
    assert main(["score", str(tmp_path / "x.png"), "--pieces", "tiles"]) == 2
    assert "give the board with --board FILE.toml" in capsys.readouterr().err
