"""``tabletop replay``: the rulebook examples, foreign boards and word lists, illegal and malformed records."""

from __future__ import annotations

import json
import pathlib

import pytest

from tabletop.cli import main

ROOT = pathlib.Path(__file__).resolve().parents[1]


def replay_json(path, capsys):
    code = main(["replay", "--json", str(path)])
    out, err = capsys.readouterr()
    return code, (json.loads(out) if out.strip() else None), err


def test_sp_rulebook_example_numbers(capsys):
    code, result, _ = replay_json(ROOT / "examples" / "sp-rulebook.json", capsys)
    assert code == 0
    assert [t["score"] for t in result["turns"]] == [21, 38, 43, 26]
    assert result["turns"][2]["words"] == [{"word": "THERMOSTAT", "score": 36}, {"word": "MA", "score": 3},
                                           {"word": "AT", "score": 4}]
    assert result["totals"] == {"Ann": 21, "Ben": 38, "Cai": 43, "Dee": 26}
    assert result["winner"] == "Cai"


def test_level3_rulebook_example_numbers(capsys):
    code, result, _ = replay_json(ROOT / "examples" / "extradiction-level3-rulebook.json", capsys)
    assert code == 0
    assert [t["score"] for t in result["turns"]] == [12, 22, 3]
    assert result["turns"][1]["words"] == [{"word": "STAR", "score": 10}, {"word": "APPLES", "score": 12}]


def test_every_shipped_example_replays(capsys):
    for path in sorted((ROOT / "examples").glob("*.json")):
        assert main(["replay", str(path)]) == 0, path
        assert "Totals:" in capsys.readouterr().out


def test_text_output_explains_each_turn(capsys):
    assert main(["replay", str(ROOT / "examples" / "sp-rulebook.json")]) == 0
    out = capsys.readouterr().out
    assert "MARKET: 7 x 3 zones = 21" in out and "INVISIBLE: 26 (floating, not multiplied)" in out


FOREIGN_BOARD = """
name = "Someone else's board"
rows = 5
cols = 6
center = [2, 2]
[layers]
values = ["123456", "000000", "314159", "000000", "271828"]
zones  = ["§§§zzz", "§§§zzz", "..zzz&", "xxxyyy", "xxxyyy"]
marks  = ["......", "......", "......", "......", "......"]
"""

# Worked by hand on the board above (values, zones):
MOVES = [
    {"type": "write", "player": "Ann", "text": "QI", "row": 2, "col": 1, "dir": "across"},   # (1+4) x {.,z}=1 -> 5
    {"type": "pass", "player": "Ben"},
    {"type": "write", "player": "Ann", "text": "QIS", "row": 2, "col": 1, "dir": "across"},  # (1+4+1) x 1 -> 6
    {"type": "write", "player": "Ben", "text": "TO", "row": 3, "col": 2, "dir": "across"},   # TO (0+0) x {x,y} = 0,
    #                                         IT (4+0) x {z,x} = 8, SO (1+0) x {z,y} = 2 -> 10
    {"type": "write", "player": "Ann", "text": "AX", "row": 0, "col": 5, "dir": "down"},     # floating 6+0 -> 6
]
EXPECTED_TURNS = [
    {"player": "Ann", "score": 5, "words": [{"word": "QI", "score": 5}]},
    {"player": "Ann", "score": 6, "words": [{"word": "QIS", "score": 6}]},
    {"player": "Ben", "score": 10, "words": [{"word": "TO", "score": 0}, {"word": "IT", "score": 8},
                                              {"word": "SO", "score": 2}]},
    {"player": "Ann", "score": 6, "words": [{"word": "AX", "score": 6}]},
]


@pytest.fixture
def foreign(tmp_path):
    (tmp_path / "boards").mkdir()
    (tmp_path / "boards" / "mine.toml").write_text(FOREIGN_BOARD, encoding="utf-8")
    (tmp_path / "house.txt").write_text("# house words\nqi\nqis\nto\nit\nso\nax\nxi\n", encoding="utf-8")
    return tmp_path


def record(tmp_path, events, **extra):
    data = {"game": "extradiction-sp", "variant": "speed", "board": "boards/mine.toml", "language": "en",
            "players": ["Ann", "Ben"], "seed": 3, "lexicon": "house.txt", "events": events, **extra}
    path = tmp_path / "game.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    return path


def test_foreign_board_house_words_and_passes(foreign, capsys):
    code, result, err = replay_json(record(foreign, MOVES), capsys)
    assert code == 0, err
    assert result["turns"] == EXPECTED_TURNS
    assert result["totals"] == {"Ann": 17, "Ben": 10} and result["winner"] == "Ann"


def test_same_moves_score_the_same_in_the_original_game(foreign, capsys):
    code, result, err = replay_json(record(foreign, MOVES, game="extradiction"), capsys)
    assert code == 0, err
    assert result["turns"] == EXPECTED_TURNS


def test_a_write_running_into_letters_stops_the_replay_at_its_position(foreign, capsys):
    events = MOVES + [{"type": "write", "player": "Ben", "text": "XI", "row": 1, "col": 2, "dir": "down"}]
    code, result, err = replay_json(record(foreign, events), capsys)
    assert code == 1 and result["position"] == 6
    assert "event 6 (write by Ben)" in err and "it would read XIT" in err


def test_a_formed_word_outside_the_house_list_stops_the_replay(foreign, capsys):
    events = MOVES[:3] + [{"type": "write", "player": "Ben", "text": "IT", "row": 3, "col": 2, "dir": "across"}]
    code, result, err = replay_json(record(foreign, events), capsys)
    assert code == 1 and "event 4 (write by Ben)" in err
    assert "makes II (C3 down), which is not in the dictionary" in err


def test_out_of_turn_in_speed_names_the_event(foreign, capsys):
    events = MOVES[:1] + [{"type": "write", "player": "Ann", "text": "QIS", "row": 2, "col": 1, "dir": "across"}]
    code, _, err = replay_json(record(foreign, events), capsys)
    assert code == 1 and "event 2 (write by Ann): It is Ben's turn to write" in err


@pytest.mark.parametrize("content, message", [
    (None, "no such record file"),
    ("{not json", "is not valid JSON"),
    (json.dumps({"players": ["Ann"]}), "has no 'game'"),
    (json.dumps({"game": "chess", "players": ["Ann"], "board": "extradiction", "events": []}), "unknown game 'chess'"),
    (json.dumps({"game": "extradiction", "players": ["Ann"], "board": "nowhere.toml", "events": []}), "no board"),
    (json.dumps({"game": "extradiction", "players": ["Ann", "Ann"], "events": []}), "same name"),
    (json.dumps({"game": "extradiction", "players": ["Ann"], "seed": True, "events": []}), "'seed' has the wrong type"),
    (json.dumps({"game": "extradiction", "players": ["Ann"], "events": {"type": "pass"}}), "'events' has the wrong type"),
    (json.dumps({"game": "extradiction", "players": ["Ann"], "lexicon": "missing.txt", "events": []}),
     "no such word list"),
])
def test_malformed_records_get_a_readable_error(tmp_path, capsys, content, message):
    path = tmp_path / "bad.json"
    if content is not None:
        path.write_text(content, encoding="utf-8")
    code = main(["replay", str(path)])
    err = capsys.readouterr().err
    assert code != 0 and message in err and "Traceback" not in err


def test_malformed_event_names_its_position(tmp_path, capsys):
    path = tmp_path / "bad.json"
    path.write_text(json.dumps({"game": "extradiction", "variant": "speed", "players": ["Ann"], "events": [
        {"type": "pass", "player": "Ann"}, {"type": "write", "player": "Ann", "row": "x"}]}), encoding="utf-8")
    assert main(["replay", str(path)]) == 1
    assert "event 2 (write by Ann): a 'write' event needs 'text'" in capsys.readouterr().err


def test_house_rules_add_and_remove_words(tmp_path, capsys):
    data = json.loads((ROOT / "examples" / "sp-rulebook.json").read_text())
    data["remove_words"] = ["market"]
    (tmp_path / "removed.json").write_text(json.dumps(data))
    code, result, err = replay_json(tmp_path / "removed.json", capsys)
    assert code == 1 and "MARKET" in err and "dictionary" in err
    (tmp_path / "house.txt").write_text("penetrate\nthermostat\nma\nat\ninvisible\n")
    data.update(remove_words=[], add_words=["market"], lexicon="house.txt")
    (tmp_path / "added.json").write_text(json.dumps(data))
    code, result, _ = replay_json(tmp_path / "added.json", capsys)
    assert code == 0 and result["totals"] == {"Ann": 21, "Ben": 38, "Cai": 43, "Dee": 26}
    assert result["dictionary"]["words"] == 6 and result["dictionary"]["name"].endswith("(amended: +1 -0)")


def test_replay_names_the_dictionary(capsys):
    assert main(["replay", str(ROOT / "examples" / "sp-rulebook.json")]) == 0
    assert "  dictionary: built-in en (version " in capsys.readouterr().out
