"""The shipped word-grid games replay with the built-in English and Ukrainian dictionaries."""

from __future__ import annotations

import json
import pathlib

import pytest

from tabletop.cli import main

ROOT = pathlib.Path(__file__).resolve().parents[2]


@pytest.mark.parametrize("name, totals, winner", [
    ("word-grid-en", {"Ann": 14, "Ben": 10, "Cai": 24}, "Cai"),
    ("word-grid-uk", {"Оля": 6, "Тарас": 7, "Ann": 11}, "Ann"),
])
def test_examples_replay(capsys, name, totals, winner):
    assert main(["replay", "--json", str(ROOT / "examples" / f"{name}.json")]) == 0
    result = json.loads(capsys.readouterr().out)
    assert result["totals"] == totals and result["winner"] == winner and len(result["rounds"]) == 2


def test_the_english_example_shows_every_reason(capsys):
    main(["replay", "--json", str(ROOT / "examples" / "word-grid-en.json")])
    first, second = json.loads(capsys.readouterr().out)["rounds"]
    assert first["Ann"][0] == {"word": "APRON", "score": 0, "reason": "also written by Ben"}
    assert first["Cai"][0] == {"word": "QUINOA", "score": 3}                      # QU: two letters on one die
    assert first["Ben"][-1]["reason"] == "written twice by Ben: it counts once"
    assert first["Ann"][2]["reason"].startswith("not in the tray") and first["Ann"][3]["reason"] == "shorter than 3 letters"
    assert second["Ann"][1] == {"word": "STAGHORN", "score": 11} and second["Ann"][2]["reason"] == "shorter than 4 letters"


def test_the_ukrainian_example_takes_apostrophes_alike(capsys):
    main(["replay", "--json", str(ROOT / "examples" / "word-grid-uk.json")])
    first, second = json.loads(capsys.readouterr().out)["rounds"]
    assert first["Оля"][0] == {"word": "М'ЯТА", "score": 0, "reason": "also written by Тарас"}
    assert second["Ann"][-1] == {"word": "ТРАВАС", "score": 0, "reason": "not in the dictionary"}


def test_the_design_example_replays(tmp_path, capsys):
    """DESIGN.md's own record (by someone else): TAPS is written by two players, and its P and S do not touch."""
    record = {"game": "word-grid", "language": "en", "players": ["Ann", "Ben", "Cai"], "minutes": 3,
              "events": [{"type": "tray", "grid": ["TAPE", "SORL", "NIQU", "EDCH"]},
                         {"type": "word", "player": "Ann", "word": "TAPS"},
                         {"type": "word", "player": "Ben", "word": "TAPS"}, {"type": "end_round"}]}
    (tmp_path / "design.json").write_text(json.dumps(record))
    assert main(["replay", "--json", str(tmp_path / "design.json")]) == 0
    rounds = json.loads(capsys.readouterr().out)["rounds"]
    assert rounds == [{"Ann": [{"word": "TAPS", "score": 0, "reason": "not in the tray: no chain of touching dice, "
                                                                       "each once, reads it"}],
                       "Ben": [{"word": "TAPS", "score": 0, "reason": "not in the tray: no chain of touching dice, "
                                                                       "each once, reads it"}], "Cai": []}]
