"""``tabletop bench dice|chips --photos DIR``: answered photos of labelled dice and of the chips
board measured as the solid scenes are counted, unanswered photos listed, a wrong answer
counted wrong, malformed answers refused by name."""

from __future__ import annotations

import argparse
import json

import cv2
import pytest

from rules.letter_dice_sets import DICE
from rules.squares import Square
from tabletop.benchmarks import chips as chips_bench
from tabletop.benchmarks import dice as dice_bench
from tabletop.benchmarks.answered import AnswerError
from tabletop.benchmarks.piece_photos import (load_chips_answer, load_dice_answer, load_plain_dice_answer,
                                              measure_chip_photos, measure_dice_photos, measure_plain_dice_photos)
from tabletop.errors import UserError
from tabletop.resources import load_board
from vision.synth.chips3d import chips_photo
from vision.synth import realdice
from vision.synth.dice3d import dice_photo

pytestmark = pytest.mark.vision


def write(folder, name, image, answer):
    cv2.imwrite(str(folder / f"{name}.png"), image)
    (folder / f"{name}.json").write_text(json.dumps(answer, ensure_ascii=False), encoding="utf-8")


def dice_answer(shot, language="en"):
    return {"language": language, "dice": [{"top": t, "state": s} for t, s in zip(shot.top, shot.state)]}


@pytest.fixture(scope="module")
def level_roll():
    labels = dice_bench.printed_labels("en")
    return dice_photo(DICE["en"], seed=8, family="level", labels=labels)


def test_answered_dice_photos_are_counted_and_the_rest_listed(tmp_path, level_roll):
    write(tmp_path, "roll", level_roll.image, dice_answer(level_roll))
    cv2.imwrite(str(tmp_path / "no-answer.png"), level_roll.image)
    m = measure_dice_photos(tmp_path)
    assert m["photos"] == 1 and m["unanswered"] == ["no-answer.png"]
    assert m["dice_seen"] == level_roll.state.count("seen") > 0
    assert m["right"] == m["dice_seen"] and m["per_die"] == 1.0 and m["rolls_right"] == 1
    assert m["ms_per_read"] > 0 and m["per_photo"][0]["errors"] == []


def test_a_die_answered_with_another_face_counts_wrong(tmp_path, level_roll):
    answer = dice_answer(level_roll)
    first = level_roll.state.index("seen")
    other = next(face for face in DICE["en"][first] if face != level_roll.top[first])
    answer["dice"][first]["top"] = other
    write(tmp_path, "roll", level_roll.image, answer)
    m = measure_dice_photos(tmp_path)
    assert m["right"] == m["dice_seen"] - 1 and m["rolls_right"] == 0
    assert m["per_photo"][0]["errors"] == [f"die {first + 1}: {other}->{level_roll.top[first]}"]


def test_a_die_answered_hidden_that_the_reader_names_is_a_face_for_a_hidden_die(tmp_path, level_roll):
    answer = dice_answer(level_roll)
    first = level_roll.state.index("seen")
    answer["dice"][first]["state"] = "hidden"
    write(tmp_path, "roll", level_roll.image, answer)
    m = measure_dice_photos(tmp_path)
    assert m["hidden"] == level_roll.state.count("hidden") + 1 and m["faces_for_hidden"] == 1


@pytest.mark.parametrize("change, message", [
    (lambda a: a.update(language="fr"), "'language' must be one of"),
    (lambda a: a["dice"].pop(), "must list the 8 dice of the en set"),
    (lambda a: a["dice"][0].update(top="Щ"), "die 1 has no face 'Щ'"),
    (lambda a: a["dice"][2].update(state="rolling"), "die 3's 'state' must be one of seen, hidden, partly"),
    (lambda a: a.update(dice=[{"face": "E", "box": [0, 0, 9, 9]}]), "plain dice .*: measure it with --plain"),
])
def test_a_malformed_dice_answer_is_refused_by_name(tmp_path, level_roll, change, message):
    answer = dice_answer(level_roll)
    change(answer)
    (tmp_path / "bad.json").write_text(json.dumps(answer, ensure_ascii=False), encoding="utf-8")
    with pytest.raises(AnswerError, match=message) as error:
        load_dice_answer(tmp_path / "bad.json")
    assert str(error.value).startswith("bad.json: ")


BOARD = load_board("sequence-letters", required=("letters", "colors"))
CHIPS = {Square(1, 1): "r", Square(2, 5): "b", Square(4, 3): "g"}


def chips_rows(chips):
    return ["".join(chips.get(Square(r, c), ".") for c in range(BOARD.cols)) for r in range(BOARD.rows)]


@pytest.fixture(scope="module")
def chips_shot():
    return chips_photo(BOARD, CHIPS, seed=18, family="level")


def test_answered_chip_photos_are_counted_and_a_wrong_answer_counts_wrong(tmp_path, chips_shot):
    write(tmp_path, "board", chips_shot.image, {"board": "sequence-letters", "rows": chips_rows(CHIPS)})
    m = measure_chip_photos(tmp_path)
    assert m["photos"] == 1 and m["squares"] == BOARD.rows * BOARD.cols and m["chips"] == 3
    assert m["per_square"] == 1.0 and m["chips_right"] == 3 and m["board_not_found"] == 0
    wrong = chips_rows({**CHIPS, Square(0, 0): "g"})
    unknown = chips_rows(CHIPS)
    unknown[4] = "?" + unknown[4][1:]
    write(tmp_path, "board", chips_shot.image, {"rows": wrong})
    write(tmp_path, "board-unknown", chips_shot.image, {"rows": unknown})
    m = measure_chip_photos(tmp_path)
    assert m["squares"] == 2 * BOARD.rows * BOARD.cols - 1 and m["right"] == m["squares"] - 1
    assert m["confusions"] == {"g->.": 1}


@pytest.mark.parametrize("answer, message", [
    ({"rows": ["."]}, "'rows' must be"),
    ({"board": "nowhere-board", "rows": []}, "nowhere-board"),
    ({"rows": chips_rows({Square(0, 0): "x"})}, "may hold only"),
    (["r"], "must be a JSON object"),
])
def test_a_malformed_chips_answer_is_refused_by_name(tmp_path, answer, message):
    (tmp_path / "bad.json").write_text(json.dumps(answer), encoding="utf-8")
    with pytest.raises(AnswerError, match=message):
        load_chips_answer(tmp_path / "bad.json")


def test_the_commands_print_json_and_refuse_a_missing_folder(tmp_path, capsys, level_roll):
    write(tmp_path, "roll", level_roll.image, dice_answer(level_roll))
    assert dice_bench.run(argparse.Namespace(photos=str(tmp_path), json=True, quick=False)) == 0
    printed = json.loads(capsys.readouterr().out)
    assert printed["photos"]["photos"] == 1 and printed["targets"]["solid_per_die"] == 0.99
    with pytest.raises(UserError, match="roll.json: 'rows' must be"):     # a dice answer is no chips answer
        chips_bench.run(argparse.Namespace(photos=str(tmp_path), json=False, quick=False))
    for bench in (dice_bench, chips_bench):
        with pytest.raises(UserError, match="no such folder"):
            bench.run(argparse.Namespace(photos=str(tmp_path / "nowhere"), json=False, quick=False))
    (tmp_path / "roll.json").write_text("{", encoding="utf-8")
    with pytest.raises(UserError, match="roll.json: not readable JSON"):
        dice_bench.run(argparse.Namespace(photos=str(tmp_path), json=False, quick=False))


needs_photos = pytest.mark.skipif(not (realdice.DATA_DIR / "annotations.csv").is_file(),
                                  reason="the Boggle Boards photos are not in ../shared/data")


@needs_photos
def test_answered_plain_dice_photos_are_counted_as_the_boggle_photos_are(tmp_path):
    photo = realdice.photos_of("train")[0]                 # a train photo: the split's rule kept
    image = cv2.imread(str(photo.path()))
    answer = {"dice": [{"face": d.face, "box": list(d.box)} for d in photo.dice]}
    write(tmp_path, "tray", image, answer)
    m = measure_plain_dice_photos(tmp_path)
    s = m["summary"]
    assert m["photos"] == 1 and s["dice"] == len(photo.dice) and s["recall"] >= 0.9
    right = m["per_photo"][0]["right"]
    assert right >= 0.9 * len(photo.dice)
    from vision.plaindice import FACES

    for die in answer["dice"]:                              # every answer one face on: right no more
        face = "QU" if die["face"] == "Q" else die["face"]
        die["face"] = FACES[(FACES.index(face) + 1) % len(FACES)]
    write(tmp_path, "tray", image, answer)
    assert measure_plain_dice_photos(tmp_path)["per_photo"][0]["right"] <= 0.1 * len(photo.dice)


@pytest.mark.parametrize("answer, message", [
    ({"dice": []}, "'dice' must list the dice seen"),
    ({"dice": [{"face": "e", "box": [0, 0, 9, 9]}]}, "die 1's face 'e' is none the reader knows"),
    ({"dice": [{"face": "E", "box": [9, 0, 0, 9]}]}, "die 1's 'box' must be"),
])
def test_a_malformed_plain_dice_answer_is_refused_by_name(tmp_path, answer, message):
    (tmp_path / "bad.json").write_text(json.dumps(answer), encoding="utf-8")
    with pytest.raises(AnswerError, match=message):
        load_plain_dice_answer(tmp_path / "bad.json")
