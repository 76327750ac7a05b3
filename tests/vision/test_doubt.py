"""A word read beside a square judged empty, yet with some ink, is asked about (issue 25)."""

from __future__ import annotations

import numpy as np
import pytest

from rules.squares import Square
from vision.acceptance import Acceptance
from vision.cells import DOUBT_INK, EMPTY, INK, CellJudge
from vision.letters import ALPHABET
from vision.locate import MARGIN
from vision.reader import BoardReader


def _read_cat(board, doubt_at: tuple[int, int] | None) -> bool:
    """Is CAT, written clearly on squares (0, 1)-(0, 3) of an otherwise empty board, taken without
    asking when the square ``doubt_at`` is doubtful (None: no square is)?"""
    reader = BoardReader(board, ["CAT", "COT", "DOG"], acceptance=Acceptance(min_share=0.5))
    rows, cols = board.rows, board.cols
    states = np.full((rows, cols), EMPTY, np.int8)
    probs = np.zeros((rows, cols, len(ALPHABET)), np.float32)
    for col, ch in zip((1, 2, 3), "CAT"):
        states[0, col] = INK
        probs[0, col] = 0.001
        probs[0, col, ALPHABET.index(ch)] = 1 - 0.001 * (len(ALPHABET) - 1)
    letters = np.full((rows, cols), ".", dtype="<U1")
    doubt = np.zeros((rows, cols), bool)
    if doubt_at is not None:
        doubt[doubt_at] = True
    [word] = reader._decode_words(states, probs, letters, np.zeros((rows, cols), np.float32), {}, doubt)
    assert word.text == "CAT" and word.squares == (Square(0, 1), Square(0, 2), Square(0, 3))
    return not word.needs_confirmation


@pytest.mark.parametrize("doubt_at", [(0, 0), (0, 4)])
def test_a_word_beside_a_doubtful_empty_square_is_asked(small_board, doubt_at):
    assert not _read_cat(small_board, doubt_at)


@pytest.mark.parametrize("doubt_at", [None, (0, 5), (1, 2), (1, 0)])
def test_a_word_beside_clean_empty_squares_is_taken(small_board, doubt_at):
    assert _read_cat(small_board, doubt_at)  # (0, 5): two squares away; (1, x): not in its direction


def test_a_square_with_a_little_ink_stays_empty_but_is_doubtful(marks_board):
    cell = 30
    judge = CellJudge(marks_board, cell)
    h, w = judge.ref.shape[:2]
    darkness = np.zeros((h, w), np.float32)
    inner = int(judge.inner.sum())
    y0, x0 = int(MARGIN * cell) + 2 * cell, int(MARGIN * cell) + 3 * cell  # square (2, 3)
    length = int(DOUBT_INK * judge.min_ink * inner) + 3  # above DOUBT_INK of min_ink, below min_ink
    assert length < judge.min_ink * inner
    darkness[y0 + 8:y0 + 8 + length, x0 + 15] = 0.6  # a short thin stroke: part of an I
    analysis = judge._judge(darkness, np.zeros((h, w), np.uint8), darkness.copy())
    assert analysis.states[2, 3] == EMPTY and analysis.doubt[2, 3]
    assert int(analysis.doubt.sum()) == 1  # clean squares are never doubtful
