"""Placement analysis: every rejection rule has its own test, and each names the square(s)."""

import pytest

from rules import errors
from rules.grid import Grid
from rules.placement import PlacementKind, analyse, check_words
from rules.squares import Direction, Square
from tests.helpers import board_from

A, D = Direction.ACROSS, Direction.DOWN


@pytest.fixture
def board():
    marks = [".......", ".......", ".......", ".......", ".......", "......#", "......."]
    return board_from(["1111111"] * 7, ["aaabccc"] * 7, marks)


def grid_with(*rows):
    return Grid.from_rows(rows)


EMPTY = Grid(7, 7)
CAT_MIDDLE = grid_with(".......", ".......", ".......", "..CAT..", ".......", ".......", ".......")


def test_first_word_through_centre_is_first(board):
    p = analyse(board, EMPTY, "cat", Square(3, 2), A)
    assert p.kind is PlacementKind.FIRST
    assert [s.name for s in p.squares] == ["C4", "D4", "E4"]
    assert p.text == "CAT"


def test_first_word_missing_centre_is_rejected_naming_centre(board):
    with pytest.raises(errors.MissesCentre) as caught:
        analyse(board, EMPTY, "CAT", Square(0, 0), A)
    assert "centre square D4" in str(caught.value) and "CAT at A1 across" in str(caught.value)
    assert caught.value.squares == (Square(3, 3),)


def test_centre_rule_can_be_switched_off(board):
    assert analyse(board, EMPTY, "CAT", Square(0, 0), A, require_centre=False).kind is PlacementKind.FIRST


def test_runs_off_the_board(board):
    with pytest.raises(errors.OffBoard) as caught:
        analyse(board, CAT_MIDDLE, "CATS", Square(4, 5), D)
    assert "runs off the board" in str(caught.value) and "4th character S" in str(caught.value)
    assert "F7" in str(caught.value)


def test_starts_off_the_board(board):
    with pytest.raises(errors.OffBoard) as caught:
        analyse(board, EMPTY, "CAT", Square(9, 1), A)
    assert str(caught.value) == ("CAT cannot start at row 10, column 2: that square is off the board, "
                                 "whose squares run from A1 to G7.")


def test_not_playable_square(board):
    with pytest.raises(errors.NotPlayable) as caught:
        analyse(board, CAT_MIDDLE, "TEA", Square(5, 4), A)
    assert "G6" in str(caught.value)


def test_letter_conflict_names_square_and_letters(board):
    with pytest.raises(errors.LetterConflict) as caught:
        analyse(board, CAT_MIDDLE, "DOG", Square(1, 3), D)
    message = str(caught.value)
    assert message == "The G of DOG would go on D4, where A is already written."
    assert caught.value.squares == (Square(3, 3),)


def test_crossing_shares_a_letter(board):
    p = analyse(board, CAT_MIDDLE, "TEA", Square(3, 4), D)
    assert p.kind is PlacementKind.CROSSING
    assert [s.name for s in p.new_squares] == ["E5", "E6"]


def test_touching_forms_perpendicular_words(board):
    p = analyse(board, CAT_MIDDLE, "TEA", Square(4, 2), A)
    assert p.kind is PlacementKind.TOUCHING
    assert [(w.text, w.direction) for w in p.formed_words] == [("CT", D), ("AE", D), ("TA", D)]


def test_extension_is_found_as_a_formed_word(board):
    p = analyse(board, CAT_MIDDLE, "SO", Square(3, 5), D)
    assert [w.text for w in p.formed_words] == ["CATS"]


def test_floating_neither_crosses_nor_touches(board):
    p = analyse(board, CAT_MIDDLE, "DOG", Square(0, 0), A)
    assert p.kind is PlacementKind.FLOATING and p.formed_words == ()


def test_diagonal_contact_is_still_floating(board):
    p = analyse(board, CAT_MIDDLE, "GO", Square(4, 5), A)
    assert p.kind is PlacementKind.FLOATING


def test_runs_into_a_letter_after_the_word(board):
    with pytest.raises(errors.RunsInto) as caught:
        analyse(board, CAT_MIDDLE, "BA", Square(3, 0), A)
    assert "would read BACAT" in str(caught.value) and "C4" in str(caught.value)


def test_runs_into_a_letter_before_the_word(board):
    with pytest.raises(errors.RunsInto) as caught:
        analyse(board, CAT_MIDDLE, "SO", Square(3, 5), A)
    assert "would read CATSO" in str(caught.value)


def test_write_must_add_a_letter(board):
    with pytest.raises(errors.NothingNew) as caught:
        analyse(board, CAT_MIDDLE, "CAT", Square(3, 2), A)
    assert "already on the board" in str(caught.value)


def test_phrase_leaves_a_blank_square(board):
    board9 = board_from(["111111111"] * 9)
    p = analyse(board9, Grid(9, 9), "ICE CREAM", Square(4, 0), A)
    assert len(p.squares) == 8 and Square(4, 3) not in p.squares


def test_phrase_blank_square_must_be_empty():
    board9 = board_from(["111111111"] * 9)
    grid = Grid(9, 9).with_letters({Square(3, 3): "A", Square(4, 3): "T", Square(5, 3): "E"})
    with pytest.raises(errors.BlankOccupied) as caught:
        analyse(board9, grid, "ICE CREAM", Square(4, 0), A)
    assert "D5 left blank" in str(caught.value)


@pytest.mark.parametrize("text", ["", "   ", "C4T", "CA_T"])
def test_unwritable_text(board, text):
    with pytest.raises(errors.BadText):
        analyse(board, EMPTY, text, Square(3, 2), A)


def test_punctuation_takes_a_square(board):
    assert len(analyse(board, EMPTY, "O'K", Square(3, 2), A).squares) == 3


def test_entry_not_in_dictionary(board, lexicon):
    p = analyse(board, EMPTY, "CAX", Square(3, 2), A)
    with pytest.raises(errors.NotAWord) as caught:
        check_words(p, lexicon)
    assert "CAX (C4 across) is not in the dictionary" in str(caught.value)


def test_formed_word_not_in_dictionary(board, lexicon):
    p = analyse(board, CAT_MIDDLE, "DOG", Square(4, 1), A)   # forms OC? no: D under B4 empty; O under C -> CO
    with pytest.raises(errors.NotAWord) as caught:
        check_words(p, lexicon)
    assert "makes CO (C4 down)" in str(caught.value)


def test_phrase_accepted_word_by_word(board, lexicon):
    board9 = board_from(["111111111"] * 9)
    check_words(analyse(board9, Grid(9, 9), "CAT DOG", Square(4, 0), A), lexicon)


def test_lower_case_and_apostrophes_are_normalised(board):
    assert analyse(board, EMPTY, "cat", Square(3, 2), A).text == "CAT"


@pytest.mark.parametrize("row, col", [(-1, 2), (2, -1), (-5, -9)])
def test_negative_start_is_off_the_board_not_a_hang(board, row, col):
    with pytest.raises(errors.OffBoard) as caught:
        analyse(board, EMPTY, "CAT", Square(row, col), A)
    assert f"row {row + 1}, column {col + 1}: that square is off the board" in str(caught.value)


def test_square_names_off_the_edge_are_readable():
    assert Square(-1, 2).name == "C[0]" and Square(0, -2).name == "[-2]1"
