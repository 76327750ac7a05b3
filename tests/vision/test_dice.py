"""The letter-dice reader and the roll watcher: photos of dice anywhere, turned any way, read in
the set's order; no roll from a hand or tumbling dice; the CLI's ``score`` and ``print-dice``."""

from __future__ import annotations

import json

import cv2
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rules.letter_dice_sets import DICE
from tabletop.cli import main
from vision.dice import DiceNotFound, DiceReader
from vision.dicelabels import MAX_DICE, die_marks, inner_template
from vision.dicewatch import DiceWatcher
from vision.errors import BadImage
from vision.synth.dicescene import dice_scene

pytestmark = pytest.mark.vision


@pytest.fixture(scope="module")
def readers():
    return {language: DiceReader(dice) for language, dice in DICE.items()}


def random_roll(language: str, rng: np.random.Generator) -> tuple[str, ...]:
    return tuple(str(rng.choice(die)) for die in DICE[language])


@pytest.mark.parametrize("language", ["en", "uk"])
def test_every_face_of_every_die_has_its_own_label(language):
    dice = DICE[language]
    seen = {}
    for d, die in enumerate(dice):
        for face in set(die):
            picture = inner_template(face, d)
            for (other_face, other_die), other in seen.items():
                assert not np.array_equal(picture, other), (face, d, other_face, other_die)
            seen[(face, d)] = picture


def test_die_marks_number_eight_dice_and_no_more():
    assert len({die_marks(d) for d in range(MAX_DICE)}) == MAX_DICE
    with pytest.raises(ValueError, match="at most 8 dice"):
        die_marks(MAX_DICE)


@pytest.mark.slow
@pytest.mark.parametrize("language", ["en", "uk"])
def test_photos_of_rolls_read_in_the_sets_order(language, readers):
    rng = np.random.default_rng(11)
    for seed in range(12):
        faces = random_roll(language, rng)
        photo = dice_scene(faces, seed=100 + seed, touching=seed % 2 == 0)
        roll = readers[language].read(photo)
        assert roll.faces == faces, seed
        assert min(roll.confidence) > 0.5


@settings(max_examples=8, deadline=None)
@given(st.integers(0, 10_000), st.sampled_from([cv2.ROTATE_90_CLOCKWISE, cv2.ROTATE_180, cv2.ROTATE_90_COUNTERCLOCKWISE]))
def test_a_photo_turned_any_way_reads_the_same(seed, turn):
    reader = DiceReader(DICE["uk"])
    faces = random_roll("uk", np.random.default_rng(seed))
    photo = dice_scene(faces, seed=seed)
    assert reader.read(cv2.rotate(photo, turn)).faces == reader.read(photo).faces == faces


def test_dice_sharing_letters_are_told_apart_by_their_marks(readers):
    # R is on dice 3, 4 and 7 of the English set; the marks say which die shows which
    faces = ("E", "A", "R", "R", "L", "S", "R", "*")
    assert readers["en"].read(dice_scene(faces, seed=5)).faces == faces


def test_look_alike_letters_stand_on_different_dice():
    for dice in DICE.values():
        for pair in (("Г", "Ґ"), ("І", "Ї"), ("И", "Й"), ("M", "W")):
            assert not any(set(pair) <= set(die) for die in dice), pair


def test_ghe_and_ghe_with_upturn_read_side_by_side(readers):
    faces = ("А", "О", "О", "Н", "С", "Г", "Ґ", "*")
    assert readers["uk"].read(dice_scene(faces, seed=7)).faces == faces


def test_a_hand_over_a_die_is_reported_not_guessed(readers):
    faces = random_roll("en", np.random.default_rng(3))
    with pytest.raises(DiceNotFound, match="of 8 dice seen"):
        readers["en"].read(dice_scene(faces, seed=3, hand=True))


@pytest.mark.parametrize("frame", [np.zeros((0, 0, 3), np.uint8), np.zeros((10, 10, 3), np.float32), "photo.jpg",
                                   np.zeros((10, 10, 2), np.uint8)])
def test_what_is_not_a_photo_is_refused(frame, readers):
    with pytest.raises(BadImage):
        readers["en"].read(frame)


def test_an_empty_table_has_no_dice(readers):
    with pytest.raises(DiceNotFound, match="0 of 8"):
        readers["en"].read(np.full((480, 640, 3), 120, np.uint8))


def feed(watcher, frames, start=0.0, step=0.25):
    return [d for n, f in enumerate(frames) if (d := watcher.feed(f, start + n * step)) is not None]


def test_the_watcher_says_a_roll_once_when_the_dice_rest():
    reader = DiceReader(DICE["en"])
    faces = random_roll("en", np.random.default_rng(21))
    watcher = DiceWatcher(reader)
    tumbling = [dice_scene(faces, seed=s, moving=True) for s in range(1, 5)]
    held = [dice_scene(faces, seed=40, hand=True)] * 6            # a hand held still over the dice
    resting = [dice_scene(faces, seed=40)] * 10
    assert feed(watcher, tumbling + held) == []
    rolls = feed(watcher, resting, start=10.0)
    assert [r.faces for r in rolls] == [faces]
    assert rolls[0].to_event()["type"] == "roll"
    # a hand passes over and leaves the dice as they were: no new roll
    assert feed(watcher, held[:2] + resting, start=20.0) == []
    # the next roll: the dice lie elsewhere
    again = random_roll("en", np.random.default_rng(22))
    assert [r.faces for r in feed(watcher, tumbling[:2] + [dice_scene(again, seed=41)] * 10, start=30.0)] == [again]


def test_the_watcher_never_reads_tumbling_dice():
    watcher = DiceWatcher(DiceReader(DICE["uk"]), still_seconds=0.1)
    faces = random_roll("uk", np.random.default_rng(8))
    frames = [dice_scene(faces, seed=s, moving=True) for s in range(12)]
    assert feed(watcher, frames) == []
    assert "moving" in watcher.status


def test_score_prints_the_faces_of_a_photo(tmp_path, capsys):
    faces = ("И", "Ї", "Є", "К", "П", "Ш", "Ґ", "*")
    path = tmp_path / "roll.jpg"
    cv2.imwrite(str(path), dice_scene(faces, seed=12))
    assert main(["score", str(path), "--game", "letter-dice", "--language", "uk", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["faces"] == list(faces)
    assert main(["score", str(path), "--game", "letter-dice", "--language", "uk"]) == 0
    assert "die 8: Joker" in capsys.readouterr().out


def test_score_says_when_dice_are_missing(tmp_path, capsys):
    path = tmp_path / "table.png"
    cv2.imwrite(str(path), np.full((480, 640, 3), 120, np.uint8))
    assert main(["score", str(path), "--game", "letter-dice"]) == 3
    err = capsys.readouterr().err
    assert "0 of 8 dice seen" in err and "Traceback" not in err


def test_print_dice_writes_the_sheet_and_a_sidecar_naming_each_face(tmp_path, capsys):
    assert main(["print-dice", "en", "--out", str(tmp_path / "dice.png"), "--dpi", "150"]) == 0
    side = json.loads((tmp_path / "dice.json").read_text())
    sheet = cv2.imread(str(tmp_path / "dice.png"), cv2.IMREAD_GRAYSCALE)
    assert [(e["die"], e["face"], e["letter"]) for e in side["labels"]] == \
        [(d + 1, f + 1, face) for d, die in enumerate(DICE["en"]) for f, face in enumerate(die)]
    x0, y0, x1, y1 = side["labels"][0]["box"]
    assert abs((x1 - x0) - 14 / 25.4 * 150) <= 1 and sheet[y0 + 2, x0 + 2] < 60   # 14 mm, the frame black
    assert main(["print-dice", "uk", "--out", str(tmp_path / "dice.pdf")]) == 0
    assert (tmp_path / "dice.pdf").read_bytes().startswith(b"%PDF") and (tmp_path / "dice.pdf.json").exists()
    assert main(["print-dice", "fr", "--out", str(tmp_path / "x.png")]) == 2
    assert "there are dice for en, uk" in capsys.readouterr().err


@pytest.mark.slow
def test_photo_of_labels_cut_from_the_printed_sheet(tmp_path):
    from tabletop.benchmarks.dice import printed_labels

    rng = np.random.default_rng(5)
    for language in ("en", "uk"):
        labels = printed_labels(language)
        reader = DiceReader(DICE[language])
        for seed in range(4):
            faces = random_roll(language, rng)
            assert reader.read(dice_scene(faces, seed=seed, touching=True, labels=labels)).faces == faces
