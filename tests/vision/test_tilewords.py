"""The board's words settle the tile read (vision.tilewords): runs decoded against the dictionary,
and a square read unsurely as empty filled only where its words need it."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rules.squares import Direction, Square
from vision.tilewords import GAP_EMPTY, decode_runs, fill_gaps, plays_words, runs
from vision.words import LexiconIndex

LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
CODES = ".?" + LETTERS
INDEX = LexiconIndex(["pinch", "box", "boxed", "page", "pa", "cart", "carts", "and", "dog", "cat"])
INDEX_NEAR = LexiconIndex(["zizz", "ken", "katniss"])


def board(rows: list[str], holes: dict[tuple[int, int], tuple[str, float]] | None = None) -> np.ndarray:
    """(rows, cols, codes) probabilities read surely as ``rows`` says; each of ``holes`` read as
    empty with the given probability, its letter taking the rest."""
    probs = np.full((len(rows), len(rows[0]), len(CODES)), 1e-5)
    for r, row in enumerate(rows):
        for c, ch in enumerate(row):
            probs[r, c, CODES.index(ch)] = 1.0
    for (r, c), (ch, empty) in (holes or {}).items():
        probs[r, c] = 1e-5
        probs[r, c, 0], probs[r, c, CODES.index(ch)] = empty, 1.0 - empty
    return probs / probs.sum(2, keepdims=True)


def test_a_letter_between_two_tiles_its_word_needs_is_filled():
    probs = board(["P.NCH"], {(0, 1): ("I", 0.55)})
    assert fill_gaps(probs, INDEX, CODES) == [(0, 1, "I")]
    assert probs[0, 1].argmax() == CODES.index("I")
    assert probs[0, 1].max() < 0.8                             # it stays unsure: the host is asked


def test_the_word_names_the_letter_not_the_network():
    probs = board(["BOX.D"], {(0, 3): ("F", 0.5)})            # the network's best guess is F
    probs[0, 3, CODES.index("E")] = 0.2
    probs[0, 3] /= probs[0, 3].sum()
    assert fill_gaps(probs, INDEX, CODES) == [(0, 3, "E")]


def test_a_run_left_no_word_is_ended_by_its_letter():
    assert fill_gaps(board(["PAG."], {(0, 3): ("E", 0.6)}), INDEX, CODES) == [(0, 3, "E")]


def test_a_word_already_whole_is_not_lengthened():
    """CART is a word: an S after it is no hole, however likely CARTS (a premium square's label)."""
    assert fill_gaps(board(["CART."], {(0, 4): ("S", 0.4)}), INDEX, CODES) == []


@pytest.mark.parametrize("rows, hole, empty", [
    (["P.NCH"], (0, 1), GAP_EMPTY + 0.05),                     # the network is sure enough of bare board
    (["P.NXH"], (0, 1), 0.5),                                  # PINXH is no word
    ([".....", "P.NCH", ".D..."], (1, 1), 0.5),               # down it would make ID, no word
    (["....."], (0, 2), 0.3),                                  # no tile beside it
])
def test_no_fill_without_the_words_needing_it(rows, hole, empty):
    probs = board(rows, {hole: ("I", empty)})
    before = probs.copy()
    assert fill_gaps(probs, INDEX, CODES) == []
    assert np.array_equal(probs, before)


def test_both_words_through_a_hole_must_agree():
    """Across it would be PINCH (an I), down DOG (an O): no letter fits both."""
    rows = [".D...", "P.NCH", ".G..."]
    assert fill_gaps(board(rows, {(1, 1): ("I", 0.5)}), INDEX, CODES) == []
    rows = [".P...", "B.XED", ".G...", ".E..."]                # PAGE down and BOXED across: O and A
    assert fill_gaps(board(rows, {(1, 1): ("O", 0.5)}), INDEX, CODES) == []


def test_a_board_without_tiles_is_left_alone():
    probs = board(["....."] * 5)
    probs[:, :, 0] = 0.4                                       # every square unsure, none beside a tile
    probs /= probs.sum(2, keepdims=True)
    assert fill_gaps(probs, INDEX, CODES) == []


def test_decode_runs_settles_an_unsure_letter_and_keeps_a_blank():
    probs = board(["CQT.", "?OG."])
    probs[0, 1, CODES.index("A")] = 0.9
    probs[0, 1] /= probs[0, 1].sum()
    codes = np.array([list("CQT."), list("?OG.")])
    sure = np.where(codes == ".", 1.0, 0.99)
    sure[0, 1] = 0.5
    words = decode_runs(probs, codes, sure, INDEX, LETTERS)
    assert {w.text for w in words} >= {"CAT", "DOG"}
    assert "".join(codes[0]) == "CAT." and codes[1, 0] == "?"


@settings(max_examples=60, deadline=None)
@given(st.lists(st.text(alphabet=".AB", min_size=6, max_size=6), min_size=1, max_size=6))
def test_runs_are_the_lines_of_two_or_more_tiles(rows):
    tiled = np.array([[ch != "." for ch in row] for row in rows])
    found = list(runs(tiled))
    for direction, squares in found:
        assert len(squares) >= 2 and all(tiled[s] for s in squares)
        step = (0, 1) if direction is Direction.ACROSS else (1, 0)
        assert all((b[0] - a[0], b[1] - a[1]) == step for a, b in zip(squares, squares[1:]))
    covered = {(d, s) for d, squares in found for s in squares}
    for r in range(tiled.shape[0]):
        for c in range(tiled.shape[1]):
            if tiled[r, c] and ((c > 0 and tiled[r, c - 1]) or (c + 1 < tiled.shape[1] and tiled[r, c + 1])):
                assert (Direction.ACROSS, (r, c)) in covered
            if tiled[r, c] and ((r > 0 and tiled[r - 1, c]) or (r + 1 < tiled.shape[0] and tiled[r + 1, c])):
                assert (Direction.DOWN, (r, c)) in covered


def test_a_board_of_names_and_patterns_is_no_game_of_words():
    rows = ["KATNISS..", ".........", "ZZZZ.KKK.", "........."]
    assert not plays_words(board(rows), INDEX_NEAR, CODES)
    assert plays_words(board(["PINCH", ".....", "BOXED"]), INDEX, CODES)


def test_the_reader_leaves_the_letters_of_a_board_of_non_words_as_read():
    """With a dictionary one letter away from each run (ZIZZ, KEN), sure letters would be turned
    into those words; on a board that is no game of words the dictionary is not used."""
    from rules.board import parse_board
    from vision.synth.tilescene import tile_scene
    from vision.tiles import TileReader

    boxed = parse_board("rows = 15\ncols = 15\n[layers]\n", "boxed", required=())
    tiles = {Square(4, 3 + k): ch for k, ch in enumerate("ZZZZ")} | {Square(8, 5 + k): ch for k, ch in enumerate("KKK")}
    shot = tile_scene(boxed, tiles, seed=31, style="commercial")
    alone = TileReader(boxed, "en", corners=shot.corners).read(shot.frame)
    with_words = TileReader(boxed, "en", corners=shot.corners, index=INDEX_NEAR).read(shot.frame)
    assert with_words.rows == alone.rows
    assert alone.rows[4][3:7] == "ZZZZ" and alone.rows[8][5:8] == "KKK"
