"""Faint strokes are ink (issue 25): a written square whose strokes glare or blur washed out to
barely darker than the paper is judged written once those strokes cover a fiftieth of it (a dozen
pixels of a 30-pixel square; a twenty-fifth before), while clean paper, noise and all, stays empty."""

from __future__ import annotations

import cv2
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rules.squares import Square
from vision.cells import DOUBT_STROKE, EMPTY, INK, CellJudge, reference_image
from vision.locate import MARGIN

pytestmark = pytest.mark.vision

CELL = 30


def _canon_with_stroke(board, sq: Square, length: int, shade: float = 0.8) -> np.ndarray:
    """The board as printed, photographed a little dim (its white paper at 214, not glare), with one
    pale stroke a pixel wide and ``length`` pixels long down the middle of ``sq`` (``shade``: the
    share of the paper's light it leaves)."""
    canon = (reference_image(board, CELL) * 0.85).astype(np.uint8)
    m = int(round(MARGIN * CELL))
    x, y = m + sq.col * CELL + CELL // 2, m + sq.row * CELL + 9
    canon[y:y + length, x] = (canon[y:y + length, x] * shade).astype(np.uint8)
    return canon


def test_a_washed_out_stroke_covering_a_thirtieth_of_the_square_is_ink(marks_board):
    """Sixteen pixels a fifth darker than the paper: too pale for ink (``ink_threshold``), a faint
    stroke on 0.028 of the inner area; the judge before (``min_stroke`` 0.04) left it empty."""
    sq = Square(2, 3)
    canon = _canon_with_stroke(marks_board, sq, 16)
    analysis = CellJudge(marks_board, CELL).analyse(canon)
    assert analysis.ink_fraction[sq] > CellJudge(marks_board, CELL).min_ink  # (the faint share, carried as ink)
    assert CellJudge.MIN_STROKE < analysis.faint[sq] < 0.04
    assert analysis.states[sq] == INK
    assert int((analysis.states == INK).sum()) == 1  # nothing else is
    assert CellJudge(marks_board, CELL, min_stroke=0.04).analyse(canon).states[sq] == EMPTY


def test_three_faint_pixels_stay_empty_and_doubtful(marks_board):
    """What clean paper showed at most in the tuning scenes (0.005 of a square): not written, but
    doubtful (a word beside it is asked about), at the same level as before the change."""
    sq = Square(2, 3)
    judge = CellJudge(marks_board, CELL)
    analysis = judge.analyse(_canon_with_stroke(marks_board, sq, 3))
    assert analysis.states[sq] == EMPTY
    assert analysis.doubt[sq]
    assert DOUBT_STROKE * judge.min_stroke == pytest.approx(0.004)  # the doubt level did not move


def test_the_rim_of_a_glare_spot_is_no_stroke(marks_board):
    """A saturated glare spot (a disc of white, a square and a half across) over square
    (2, 2): the local light spreads it over
    the paper round it, which then looks like a faint arc in the squares beside it; in the photo
    that paper is flat, not a valley, so no square is written (with every faint stroke counted, as
    without :meth:`CellJudge._valleys`, some are)."""
    canon = (reference_image(marks_board, CELL) * 0.85).astype(np.uint8)
    m = int(round(MARGIN * CELL))
    cv2.circle(canon, (m + 2 * CELL + CELL // 2, m + 2 * CELL + CELL // 2), int(0.75 * CELL), (255, 255, 255), -1)
    judge = CellJudge(marks_board, CELL)
    assert not (judge.analyse(canon).states == INK).any()
    judge.min_stroke_anywhere = judge.min_stroke  # every faint stroke counted, valley or not
    assert (judge.analyse(canon).states == INK).any()


@settings(max_examples=12, deadline=None)
@given(st.integers(0, 2**31 - 1), st.floats(1.5, 5.0), st.floats(0.3, 1.3), st.floats(0.0, 90.0))
def test_empty_paper_under_noise_blur_and_glare_stays_empty(marks_board, seed, noise, blur, glare):
    """An empty board, blurred, noisy and under a glare spot: no square is written."""
    rng = np.random.default_rng(seed)
    canon = reference_image(marks_board, CELL).astype(np.float32)
    h, w = canon.shape[:2]
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    cx, cy = rng.uniform(0, w), rng.uniform(0, h)
    spot = glare * np.exp(-((xx - cx) ** 2 + (yy - cy) ** 2) / (2 * (w / 4) ** 2))
    canon = cv2.GaussianBlur(canon * 0.85, (0, 0), blur) + spot[:, :, None] + rng.normal(0, noise, canon.shape)
    states = CellJudge(marks_board, CELL).analyse(np.clip(canon, 0, 255).astype(np.uint8)).states
    assert not (states == INK).any(), np.argwhere(states == INK)
