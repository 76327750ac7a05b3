"""The dice and chip readers on photos of the solid-scene renderers (:mod:`vision.synth.dice3d`,
:mod:`vision.synth.chips3d`): only a die's top face is read, never a side; a die whose top a
hand hides is not seen rather than guessed; chips off their squares' centres on a tilted board."""

from __future__ import annotations

import numpy as np
import pytest

from rules.letter_dice_sets import DICE
from rules.squares import Square
from tabletop.resources import load_board
from vision.chips import ChipReader
from vision.dice import DiceNotFound, DiceReader
from vision.diceup import label_normals, on_top, table_up
from vision.synth.chips3d import chips_photo
from vision.synth.dice3d import FAMILIES, dice_photo

pytestmark = pytest.mark.vision
BOARD = load_board("sequence-letters", required=("letters", "colors"))


@pytest.fixture(scope="module")
def readers():
    return {language: DiceReader(dice) for language, dice in DICE.items()}


def test_the_renderer_says_which_face_is_on_top_and_what_a_hand_hides():
    shot = dice_photo(DICE["en"], seed=50, family="hands")
    assert len(shot.top) == len(shot.state) == 8
    assert all(top in die for top, die in zip(shot.top, DICE["en"]))
    assert "hidden" in shot.state and "seen" in shot.state
    with pytest.raises(ValueError, match="family must be one of"):
        dice_photo(DICE["en"], seed=1, family="upside-down")


@pytest.mark.slow
@pytest.mark.parametrize("family", ["tilted", "edge", "leaning"])
@pytest.mark.parametrize("language", ["en", "uk"])
def test_the_top_faces_are_read_and_never_a_side(family, language, readers):
    for seed in (1, 8):
        shot = dice_photo(DICE[language], seed=seed, family=family)
        faces = readers[language].look(shot.image).faces
        for face, top, state in zip(faces, shot.top, shot.state):
            if state == "seen":
                assert face == top, (seed, faces, shot.top)
            elif state == "hidden":
                assert face is None


def test_a_die_a_hand_hides_is_not_seen_and_the_roll_is_not_guessed(readers):
    for seed in (50, 57):
        shot = dice_photo(DICE["uk"], seed=seed, family="hands")
        seen = readers["uk"].look(shot.image)
        assert [f is None for f, s in zip(seen.faces, shot.state) if s == "hidden"] == \
            [True] * shot.state.count("hidden")
        assert [f for f, s in zip(seen.faces, shot.state) if s == "seen"] == \
            [t for t, s in zip(shot.top, shot.state) if s == "seen"]
        with pytest.raises(DiceNotFound):
            readers["uk"].read(shot.image)


@pytest.mark.parametrize("family", ["soft", "shaken"])
def test_soft_and_shaken_photos_read(family, readers):
    shot = dice_photo(DICE["en"], seed=22, family=family)
    assert shot.defocus_px >= 0.6 or shot.shake_px >= 1.5
    assert readers["en"].look(shot.image).faces == shot.top


def test_the_tables_up_is_what_most_labels_agree_on():
    flat = np.array([(300, 220), (340, 220), (340, 260), (300, 260)], np.float32)
    normals = np.array([label_normals(flat + (60 * k, 10 * k), (480, 640)) for k in range(4)])
    assert table_up(normals) @ np.array([0, 0, -1.0]) > 0.98
    assert on_top([], (480, 640)).shape == (0,)


@pytest.mark.parametrize("family", ["tilted", "off-centre", "mixed"])
def test_chips_off_centre_on_a_tilted_board(family):
    reader = ChipReader(BOARD)
    rng = np.random.default_rng(4)
    squares = [Square(r, c) for r in range(BOARD.rows) for c in range(BOARD.cols)]
    picked = rng.choice(len(squares), 16, replace=False)
    chips = {squares[i]: str(rng.choice(["r", "b", "g"])) for i in picked}
    shot = chips_photo(BOARD, chips, seed=3, family=family)
    assert shot.tilt_deg <= 40 and shot.off_centre <= 1 / 3
    want = tuple("".join(chips.get(Square(r, c), ".") for c in range(BOARD.cols)) for r in range(BOARD.rows))
    assert reader.read(shot.image).rows == want


def test_every_family_renders():
    assert len({dice_photo(DICE["en"], seed=3, family=f).family for f in FAMILIES}) == len(FAMILIES)
