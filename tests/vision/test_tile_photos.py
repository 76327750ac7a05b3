"""``tabletop bench tiles --photos DIR``: answered photos measured, unanswered ones listed,
letters outside the alphabet left out of per-tile, bad answer files refused by name."""

from __future__ import annotations

import argparse
import json
import re

import cv2
import pytest

from rules.board import parse_board
from rules.squares import Square
from tabletop.benchmarks import tiles as tiles_bench
from tabletop.benchmarks.tile_photos import AnswerError, load_answer, measure_photos
from tabletop.errors import UserError
from vision.synth.tilefonts import HELD_OUT
from vision.synth.tilescene import tile_scene

pytestmark = pytest.mark.vision

BOXED = parse_board("rows = 15\ncols = 15\n[layers]\n", "boxed", required=())


def answered_photo(folder, name, tiles, seed, rows=None):
    shot = tile_scene(BOXED, tiles, seed=seed, style="commercial", faces=HELD_OUT, tilt_deg=20)
    cv2.imwrite(str(folder / f"{name}.jpg"), shot.frame.clip(0, 255).astype("uint8"))
    answer = {"corners": shot.corners.tolist(), "language": "en", "rows": list(rows or shot.rows)}
    (folder / f"{name}.json").write_text(json.dumps(answer, ensure_ascii=False), encoding="utf-8")
    return shot


def test_answered_photos_are_measured_and_the_rest_listed(tmp_path):
    tiles = {Square(7, 4 + k): ch for k, ch in enumerate("TABLE")}
    answered_photo(tmp_path, "one", tiles, seed=21)
    cv2.imwrite(str(tmp_path / "no-answer.png"), cv2.imread(str(tmp_path / "one.jpg")))
    m = measure_photos(tmp_path)
    assert m["photos"] == 1 and m["tiles"] == 5 and m["squares"] == 225
    assert m["unanswered"] == ["no-answer.png"]
    assert m["per_tile"] >= 0.8 and m["empty_or_tile"] >= 0.98
    assert m["per_photo"][0]["photo"] == "one.jpg" and m["per_photo"][0]["tiles"] == 5


def test_a_letter_outside_the_alphabet_counts_for_presence_only(tmp_path):
    tiles = {Square(7, 4 + k): ch for k, ch in enumerate("TABLE")}
    shot = answered_photo(tmp_path, "polish", tiles, seed=22)
    rows = list(shot.rows)
    rows[7] = rows[7][:4] + "Ł" + rows[7][5:]                 # the answer says a Polish Ł lies there
    answer = json.loads((tmp_path / "polish.json").read_text(encoding="utf-8"))
    answer["rows"] = rows
    (tmp_path / "polish.json").write_text(json.dumps(answer, ensure_ascii=False), encoding="utf-8")
    m = measure_photos(tmp_path)
    assert m["foreign_tiles"] == 1 and m["tiles"] == 4


def test_an_empty_or_missing_folder_measures_nothing(tmp_path):
    assert measure_photos(tmp_path)["photos"] == 0
    assert measure_photos(tmp_path / "nowhere")["photos"] == 0


@pytest.mark.parametrize("text, says", [
    ("{not json", "not readable JSON"),
    ('{"corners": [[0, 0], [1, 0]], "rows": ["..."]}', "four [x, y] points"),
    ('{"corners": [[0, 0], [1, 0], [1, 1], [0, 1]], "rows": ["...", ".."]}', "strings of one length"),
])
def test_a_bad_answer_file_is_refused_by_name(tmp_path, text, says):
    path = tmp_path / "board.json"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(AnswerError, match=re.escape(says)) as caught:
        load_answer(path)
    assert "board.json" in str(caught.value)


def test_the_command_refuses_a_folder_that_is_not_there(tmp_path):
    with pytest.raises(UserError, match="no such folder"):
        tiles_bench.run(argparse.Namespace(quick=True, json=True, photos=str(tmp_path / "nowhere")))


def test_the_command_prints_the_real_photo_lines(tmp_path, capsys):
    answered_photo(tmp_path, "one", {Square(3, 3): "Q", Square(3, 4): "I"}, seed=23)
    assert tiles_bench.run(argparse.Namespace(quick=True, json=False, photos=str(tmp_path))) == 0
    out = capsys.readouterr().out
    assert "real photos" in out and "one.jpg" in out and "tiles right" in out


def test_the_synthetic_table_has_a_row_per_family_with_its_targets(capsys):
    """One photo of dark tiles with light letters (held-out colours): read, timed, and printed in
    its row with the targets beside it."""
    m = tiles_bench.measure("dark", 1)
    assert m["tiles"] > 10 and m["per_tile"] > 0.5 and m["empty_right"] > 0.95       # not all read empty
    assert m["targets"] == {"per_tile": 0.97, "empty_right": 0.999, "ms_per_read": 50.0}
    assert 0 < m["cpu_ms_per_read"] < 10_000
    tiles_bench.print_lines({"dark": m})
    out = capsys.readouterr().out
    assert "dark tiles, light letters" in out and ">=0.97" in out and ">=0.999" in out
    assert {f.key for f in tiles_bench.families()} >= {"printed", "boxed", "dark", "wood_light", "oblique_3mp"}


def test_the_photos_are_read_with_the_dictionary_unless_told_not_to(tmp_path, capsys):
    answered_photo(tmp_path, "one", {Square(7, 4 + k): ch for k, ch in enumerate("TABLE")}, seed=24)
    assert measure_photos(tmp_path)["dictionary"] is True
    assert measure_photos(tmp_path, dictionary=False)["dictionary"] is False
    tiles_bench.run(argparse.Namespace(quick=True, json=False, photos=str(tmp_path), no_dictionary=True))
    assert "without the dictionary" in capsys.readouterr().out
    tiles_bench.run(argparse.Namespace(quick=True, json=False, photos=str(tmp_path), no_dictionary=False))
    assert "words with the dictionary" in capsys.readouterr().out


def test_an_answer_in_a_language_without_tiles_is_refused_by_name(tmp_path):
    path = tmp_path / "board.json"
    path.write_text('{"rows": ["..."], "language": "xx"}', encoding="utf-8")
    with pytest.raises(AnswerError, match="board.json: 'language' must be one of en, uk, not 'xx'"):
        load_answer(path)


def test_a_photo_without_tiles_says_so_rather_than_missed(tmp_path, capsys):
    answered_photo(tmp_path, "bare", {}, seed=25)
    tiles_bench.run(argparse.Namespace(quick=True, json=False, photos=str(tmp_path)))
    line = next(line for line in capsys.readouterr().out.splitlines() if "bare.jpg" in line and "empty" in line)
    assert "no tiles" in line and "MISSED" not in line.split(";")[0]
