"""The tile renderer's faces: the classic sets' large letter with its value tucked against its foot."""

from __future__ import annotations

import dataclasses

import cv2
import numpy as np
import pytest

from vision.synth import tilefonts
from vision.synth.tilescene import MORE_WOOD, TRAINING_PALETTES, draw_face, varied_look

PX = 96


def _inked(letter: str, seed: int, tucked: bool) -> list[tuple[int, ...]]:
    """The ink's pieces on one face (x, y, width, height, area), largest first, drawn plain."""
    rng = np.random.default_rng(seed)
    language = "en" if letter.isascii() else "uk"
    look = dataclasses.replace(varied_look(rng, language, tilefonts.TRAINING, TRAINING_PALETTES[:1], tucked=1.0),
                               face=(230, 230, 230), ink=(0, 0, 0), grain=0.0, values=True, tucked=tucked, corner="br")
    face = draw_face(letter, PX, look, rng)
    ink = (face.mean(2) < 100).astype(np.uint8)
    n, _labels, stats, _centres = cv2.connectedComponentsWithStats(ink)
    pieces = [tuple(int(v) for v in stats[k]) for k in range(1, n) if stats[k][4] > 4]
    return sorted(pieces, key=lambda piece: -piece[4])


@pytest.mark.parametrize("seed", range(8))
def test_a_tucked_value_sits_against_the_letters_foot_on_its_right(seed: int) -> None:
    letter, *digits = _inked("I", seed, tucked=True)
    assert letter[3] >= 0.4 * PX                      # a large letter
    if not digits:                                    # the value touches the letter: one piece of ink
        assert letter[2] >= 0.2 * PX
        return
    right, foot = letter[0] + letter[2], letter[1] + letter[3]
    first = min(digits, key=lambda piece: piece[0])
    assert 0 <= first[0] - right <= 0.07 * PX
    assert -0.06 * PX <= (first[1] + first[3]) - foot <= 0.08 * PX


@pytest.mark.parametrize("seed", range(8))
def test_a_corner_value_lies_apart_from_a_smaller_letter(seed: int) -> None:
    letter, *digits = _inked("I", seed, tucked=False)
    first = min(digits, key=lambda piece: piece[0])
    assert first[0] - (letter[0] + letter[2]) > 0.08 * PX
    assert letter[3] < 0.5 * PX


def test_tucked_sets_come_at_the_asked_rate_and_only_with_their_value_bottom_right() -> None:
    rng = np.random.default_rng(3)
    looks = [varied_look(rng, "en", tilefonts.TRAINING, TRAINING_PALETTES + MORE_WOOD, tucked=0.5) for _ in range(400)]
    tucked = [look for look in looks if look.tucked]
    assert 160 <= len(tucked) <= 240
    assert {look.corner for look in tucked} == {"br"}
    assert not any(varied_look(rng, "en").tucked for _ in range(50))


@pytest.mark.parametrize("letter", ["Щ", "Ж", "Ю", "W", "Ї", "Й", "Д", "M"])
def test_a_tucked_letter_wide_or_tall_fits_inside_its_face(letter: str) -> None:
    for seed in range(30):
        pieces = _inked(letter, seed, tucked=True)
        left = min(piece[0] for piece in pieces)
        right = max(piece[0] + piece[2] for piece in pieces)
        top = min(piece[1] for piece in pieces)
        bottom = max(piece[1] + piece[3] for piece in pieces)
        assert left >= 0.04 * PX and right <= 0.96 * PX and top >= 0.04 * PX and bottom <= 0.96 * PX, (seed, pieces)


def _board(modern: float, seed: int) -> np.ndarray:
    from vision.synth.tilescene import _commercial_board

    return _commercial_board(15, 15, 48, 1.0, np.random.default_rng(seed), (170, 205, 220), modern)


def test_boards_without_the_modern_print_are_drawn_as_before() -> None:
    """``modern=0`` draws nothing more from the scene's randomness: the benchmark's photos stay the same."""
    from vision.synth.tilescene import tile_scene
    from rules.board import parse_board

    board = parse_board("rows = 15\ncols = 15\n[layers]\n", "b", required=())
    plain = tile_scene(board, {}, seed=5, style="commercial")
    assert np.array_equal(plain.frame, tile_scene(board, {}, seed=5, style="commercial", modern=0.0).frame)
    assert not np.array_equal(plain.frame, tile_scene(board, {}, seed=5, style="commercial", modern=1.0).frame)


@pytest.mark.parametrize("turn", [1, 3])
def test_a_turned_label_is_the_plain_label_turned_a_quarter(turn: int) -> None:
    from PIL import ImageFont

    from vision.synth.tilescene import _bonus_square

    font = ImageFont.truetype(tilefonts.available("en")[0], 8)
    style = {"pale": True, "points": False, "edge": False, "words": False, "font": font, "teeth": 0}
    squares = []
    for k in (0, turn):
        page = np.zeros((48, 48, 3), np.float32)
        _bonus_square(page, 0, 0, 48, "T", {**style, "turn": k}, np.random.default_rng(3))
        squares.append(page.mean(2))
    plain, turned = squares
    assert np.abs(plain - plain.mean()).max() > 40                  # a label is drawn
    assert np.allclose(np.rot90(plain, turn), turned, atol=1e-3)


def test_most_modern_boards_turn_their_labels_a_quarter() -> None:
    from vision.synth.tilescene import _modern_style

    turns = [_modern_style(np.random.default_rng(seed))["turn"] for seed in range(400)]
    assert 0.75 <= sum(t in (1, 3) for t in turns) / len(turns) <= 0.95
    assert set(turns) == {0, 1, 3}


def test_a_modern_bonus_square_has_teeth_into_the_lines_round_it() -> None:
    from vision.synth.tilescene import _teeth

    page = np.zeros((100, 100, 3), np.float32)
    _teeth(page, 26, 26, 48, tuple((k / 4, (k + 1) / 4) for k in range(4)), 48 * 0.09, np.array([255.0, 255.0, 255.0], np.float32))
    above = page[20:26, 26:74, 0] > 100
    assert 3 <= int(cv2.connectedComponents(above.astype(np.uint8))[0]) - 1 <= 4   # four teeth above the square
    assert not (page[26:74, 26:74, 0] > 100).all()              # the square itself is left to its colour


def test_framed_plain_squares_are_darker_round_their_edge_than_in_their_middle() -> None:
    for seed in range(40):
        page = _board(1.0, seed)
        cell, pad = 48, 48
        square = page[pad + 7 * cell:pad + 8 * cell, pad + 1 * cell:pad + 2 * cell].mean(2)   # row 8, column 2: plain
        middle = float(np.median(square[16:32, 16:32]))
        rim = float(np.median(square[5:8, 16:32]))
        if rim < middle - 15:
            return
    pytest.fail("no modern board of 40 framed its plain squares")
