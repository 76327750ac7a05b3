"""The shipped letter-dice games replay with the built-in English and Ukrainian dictionaries."""

from __future__ import annotations

import json
import pathlib

import pytest

from tabletop.cli import main

ROOT = pathlib.Path(__file__).resolve().parents[2]


@pytest.mark.parametrize("name, totals, winner", [
    ("letter-dice-en", {"Ann": 18, "Ben": 21, "Cai": 21}, "Cai"),       # Ben and Cai tie: Cai's final round is better
    ("letter-dice-uk", {"Оля": 24, "Тарас": 15, "Ann": 18}, "Оля"),
])
def test_examples_replay(capsys, name, totals, winner):
    assert main(["replay", "--json", str(ROOT / "examples" / f"{name}.json")]) == 0
    result = json.loads(capsys.readouterr().out)
    assert result["totals"] == totals and result["winner"] == winner
    assert len(result["rounds"]) == 4


def test_the_ukrainian_example_shows_apostrophes_clashes_and_ghe(capsys):
    main(["replay", "--json", str(ROOT / "examples" / "letter-dice-uk.json")])
    rounds = json.loads(capsys.readouterr().out)["rounds"]
    assert rounds[1]["Оля"][0] == {"row": 5, "word": "М'ЯТА", "score": 0, "reason": "also written by Тарас, Ann"}
    assert rounds[2]["Тарас"][0] == {"row": 8, "word": "ГАНОК", "score": 3}          # not ҐАНОК
    assert rounds[2]["Тарас"][2]["reason"] == "written by Оля in round 1"


def test_an_illegal_entry_stops_the_replay_naming_event_row_and_word(tmp_path, capsys):
    record = json.loads((ROOT / "examples" / "letter-dice-en.json").read_text())
    record["events"][1] = {"type": "word", "player": "Ann", "row": 3, "word": "CAT"}
    (tmp_path / "bad.json").write_text(json.dumps(record))
    assert main(["replay", str(tmp_path / "bad.json")]) == 1
    err = capsys.readouterr().err
    assert "event 2 (word by Ann): Row 3 has 4 squares, and CAT has 3 letters" in err and "Traceback" not in err
