"""Occlusion on densely written boards: letters are never a hand, a hand always is.

Regression: late in a game (many words, letters written edge to edge in neighbouring squares)
the cells judge took a column of touching letters for a hand, so the tracker never committed
and the host had to type the words in; a board-wide light fitted to inky paper made it worse.
The letters here are drawn by ``edge_to_edge`` (thick marker capitals as tall as their square,
touching its borders: the worst case for neighbouring letters running into each other),
independent of the synthetic handwriting.
"""

import cv2
import numpy as np
import pytest

from rules.board import parse_board
from rules.squares import Square
from vision.cells import INK, OCCLUDED, CellJudge
from vision.locate import locate
from vision.reader import BoardReader
from vision.synth.scene import make_scene
from vision.tracker import Tracker

pytestmark = [pytest.mark.vision, pytest.mark.slow]
ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"


def edge_to_edge(letter: str, size: int, rng: np.random.Generator) -> np.ndarray:
    """A marker capital as tall as its square, touching the top and bottom borders (and the
    sides when it is wide): an ink map, 0..1.

    >>> ink = edge_to_edge("M", 48, np.random.default_rng(0))
    >>> ink.shape, bool(ink[0].max() > 0.5 and ink[-1].max() > 0.5)
    ((48, 48), True)
    """
    stroke = int(round(48 * rng.uniform(0.1, 0.15)))  # 10-15 % of the square, as drawn at 48 px
    (w, h), base = cv2.getTextSize(letter, cv2.FONT_HERSHEY_SIMPLEX, 1.5, stroke)
    canvas = np.zeros((h + base + 2 * stroke, w + 2 * stroke), np.uint8)
    cv2.putText(canvas, letter, (stroke, h + stroke), cv2.FONT_HERSHEY_SIMPLEX, 1.5, 255, stroke, cv2.LINE_AA)
    ys, xs = np.nonzero(canvas)
    glyph = canvas[ys.min():ys.max() + 1, xs.min():xs.max() + 1]
    width = min(size, int(round(glyph.shape[1] * size / glyph.shape[0])))
    out = np.zeros((size, size), np.float32)
    x0 = (size - width) // 2
    out[:, x0:x0 + width] = cv2.resize(glyph, (width, size), interpolation=cv2.INTER_AREA) / 255.0
    return out


def dense_letters(board, seed: int, block: tuple[int, int, int, int] = (2, 2, 7, 7)) -> dict:
    """A solid block of letters (every square written) plus words across and down elsewhere."""
    rng = np.random.default_rng(seed)
    r0, c0, r1, c1 = block
    letters = {Square(r, c): ALPHABET[int(rng.integers(26))] for r in range(r0, r1) for c in range(c0, c1)}
    for k in range(board.rows // 2):
        r = int(rng.integers(board.rows))
        c = int(rng.integers(board.cols - 5))
        for j in range(5):
            letters[Square(r, c + j) if k % 2 else Square(c + j, r)] = ALPHABET[int(rng.integers(26))]
    return letters


def states(board, scene):
    loc = locate(scene.frame, board.rows, board.cols, cell=30)
    return CellJudge(board, 30).analyse(loc.warp(scene.frame)).states


@pytest.mark.parametrize("seed,glare", [(0, False), (1, True), (2, False), (3, True)])
def test_a_densely_written_board_is_never_a_hand(sp_board, small_board, seed, glare):
    board = [sp_board, small_board][seed % 2]
    letters = dense_letters(board, seed)
    scene = make_scene(board, letters, seed=seed, glare=glare, ink_renderer=edge_to_edge, ink=["black", "blue", "red", "green"][seed])
    got = states(board, scene)
    assert not (got == OCCLUDED).any(), sorted(map(tuple, np.argwhere(got == OCCLUDED)))
    written = np.zeros(got.shape, bool)
    for sq in letters:
        written[sq] = True
    assert ((got == INK) & written).sum() >= 0.9 * written.sum()


@pytest.mark.parametrize("seed", range(4))
def test_a_hand_over_a_densely_written_board_is_still_seen(sp_board, small_board, seed):
    board = [sp_board, small_board][seed % 2]
    scene = make_scene(board, dense_letters(board, seed), seed=seed, glare=False, ink_renderer=edge_to_edge,
                       hand=True, hand_seed=seed, hand_coverage=0.06 + 0.04 * seed)
    got = states(board, scene)
    occluded = {Square(int(r), int(c)) for r, c in np.argwhere(got == OCCLUDED)}
    mostly_under = {sq for sq, share in scene.hand_cover.items() if share > 0.8}
    assert mostly_under, "the scene should put the hand over the grid"
    assert len(occluded & mostly_under) >= 0.8 * len(mostly_under)


@pytest.mark.parametrize("seed", range(2))
def test_a_pen_on_a_densely_written_board_is_still_seen(small_board, seed):
    scene = make_scene(small_board, dense_letters(small_board, seed), seed=seed, glare=False, ink_renderer=edge_to_edge,
                       pen=True, hand_seed=seed)
    got = states(small_board, scene)
    assert (got == OCCLUDED).any()


def test_the_light_fit_is_not_fooled_by_dense_ink(small_board):
    """The board-wide light is fitted to plain paper between the letters, not to the ink."""
    letters = dense_letters(small_board, 5, block=(0, 0, 13, 9))  # every square of nine columns written
    scene = make_scene(small_board, letters, seed=5, glare=False, ink_renderer=edge_to_edge, ink="green")
    empty = make_scene(small_board, {}, seed=5, glare=False)
    judge = CellJudge(small_board, 30)
    loc = locate(empty.frame, small_board.rows, small_board.cols, cell=30)
    light = [judge.light(loc.warp(s.frame)) for s in (empty, scene)]
    assert np.abs(light[1] / light[0] - 1).max() < 0.06


def tinted_board():
    """A 15x15 board with every square tinted by its value (light yellow and blue squares)."""
    values = ["".join(str(1 + (r * 7 + c * 3) % 3 if (r + c) % 4 else 2) for c in range(15)) for r in range(15)]
    zones = ["".join("ABC"[min(2, max(abs(r - 7), abs(c - 7)) // 3)] for c in range(15)) for r in range(15)]
    return parse_board(f"rows = 15\ncols = 15\n[layers]\nvalues = {values}\nzones = {zones}".replace("'", '"'))


@pytest.mark.parametrize("seed", [4, 22])
def test_glare_on_tinted_squares_is_not_a_hand(seed):
    """Glare adds white light: a tinted square's weak channel brightens far more than the light
    it gets, which must not raise the board-wide light (white squares would look darker)."""
    board = tinted_board()
    got = states(board, make_scene(board, {}, seed=seed, glare=True))
    assert not (got == OCCLUDED).any(), sorted(map(tuple, np.argwhere(got == OCCLUDED)))


def test_the_tracker_commits_a_word_on_a_dense_board_and_never_with_a_hand(sp_board):
    """A game late on: a new word is written (hand over the board), then the hand leaves."""
    before = dense_letters(sp_board, 6, block=(6, 5, 11, 9))
    word = {Square(11, 6): "S", Square(12, 6): "E", Square(13, 6): "A"}  # down, under the block
    after = {**before, **word}
    common = dict(seed=6, tilt_deg=12, glare=False, blur=0.6, noise=2, ink_renderer=edge_to_edge)
    frames = ([(make_scene(sp_board, before, **common).frame, False)] * 4
              + [(make_scene(sp_board, after, hand=True, hand_seed=h, **common).frame, True) for h in range(3) for _ in range(4)]
              + [(make_scene(sp_board, after, frame_no=i, **common).frame, False) for i in range(6)])
    tracker = Tracker(BoardReader(sp_board), still_seconds=0.4)
    out = [(det, hand) for i, (frame, hand) in enumerate(frames) for det in tracker.feed(frame, i * 0.2)]
    assert tracker.status == "committed", tracker.last_read.occluded
    assert [hand for _det, hand in out] == [False] * len(out)  # no write from a frame with a hand
    assert [(d.direction.value, d.squares) for d, _ in out][-1] == ("down", tuple(word))
