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
