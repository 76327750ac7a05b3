"""The answer files shipped for real photos (``examples/real-tile-photos*/``) are usable: each loads,
is a 15x15 grid of letters, blanks and empty squares, has its corners clockwise round a convex
grid, and any premium layout it gives is the boxed board's."""

from __future__ import annotations

import json
import tomllib
from pathlib import Path

import pytest

from tabletop.benchmarks.tile_photos import load_answer

ROOT = Path(__file__).resolve().parents[2]
ANSWERS = sorted(ROOT.glob("examples/real-tile-photos*/*.json"))
BOXED_PREMIUMS = tomllib.loads((ROOT / "examples/boards/boxed-15x15.toml").read_text(encoding="utf-8"))["layers"]["premiums"]
#: what a square may hold by the answer's language: a Polish board is answered as English (its
#: letters outside the alphabet left out of per tile), a Russian one as Ukrainian
LETTERS = {"en": set("ABCDEFGHIJKLMNOPQRSTUVWXYZĄĆĘŁŃÓŚŹŻ?."),
           "uk": set("АБВГҐДЕЄЖЗИІЇЙКЛМНОПРСТУФХЦЧШЩЬЮЯЫЭЪЁ?.")}


def turns(corners):
    """The cross products at each corner of the quadrilateral, in order (all positive: convex and
    clockwise on screen, where y grows downwards)."""
    out = []
    for i in range(4):
        (ax, ay), (bx, by), (cx, cy) = corners[i], corners[(i + 1) % 4], corners[(i + 2) % 4]
        out.append((bx - ax) * (cy - by) - (by - ay) * (cx - bx))
    return out


def test_the_turns_of_a_clockwise_square_are_positive_and_of_an_anticlockwise_one_negative():
    square = [[0, 0], [10, 0], [10, 10], [0, 10]]
    assert all(t > 0 for t in turns(square))
    assert all(t < 0 for t in turns(square[::-1]))


def test_there_are_answer_files_in_every_folder():
    folders = {path.parent.name for path in ANSWERS}
    assert {"real-tile-photos", "real-tile-photos-kwwangkw", "real-tile-photos-idofrizler", "real-tile-photos-anna"} <= folders


@pytest.mark.parametrize("path", ANSWERS, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_an_answer_file_is_a_whole_board_with_clockwise_corners(path):
    answer = load_answer(path)
    rows = answer["rows"]
    assert len(rows) == 15 and all(len(row) == 15 for row in rows)
    language = json.loads(path.read_text(encoding="utf-8"))["language"]
    assert language in LETTERS and set("".join(rows)) <= LETTERS[language]
    assert answer["corners"] is not None and all(t > 0 for t in turns(answer["corners"]))
    if answer["premiums"] is not None:
        assert answer["premiums"] == BOXED_PREMIUMS
