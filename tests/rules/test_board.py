"""The board loader: valid files load; bad ones are refused naming file, row and column."""

import pytest

from rules.board import Board, parse_board
from rules.errors import BoardFormatError
from rules.squares import Square
from tabletop.resources import builtin_boards, load_board

GOOD = """
name = "Small test board"
rows = 3
cols = 4
[layers]
values = ["2111", "0123", "9999"]
zones  = ["WW.X", "Wz.X", "§§§X"]
marks  = ["!..#", ".*D.", "...."]
"""


def test_parses_layers_zones_marks_and_default_centre():
    board = parse_board(GOOD, "small.toml")
    assert (board.rows, board.cols, board.name) == (3, 4, "Small test board")
    assert board.center == Square(1, 2)
    assert board.value(Square(2, 3)) == 9
    assert board.zone(Square(0, 2)) is None and board.zone(Square(2, 0)) == "§"
    assert board.is_chance(Square(0, 0)) and not board.is_playable(Square(0, 3))
    assert board.zone_names() == ["W", "X", "z", "§"]


def test_round_trips_through_toml():
    board = parse_board(GOOD, "small.toml")
    assert parse_board(board.to_toml(), "again") == board


def test_explicit_centre():
    board = parse_board(GOOD.replace("cols = 4", "cols = 4\ncenter = [0, 1]"), "c.toml")
    assert board.center == Square(0, 1)


@pytest.mark.parametrize("broken, words", [
    (GOOD.replace('"0123"', '"012"'), ["small.toml", "row 1", "ragged"]),
    (GOOD.replace('"0123"', '"01x3"'), ["small.toml", "row 1", "column 2", "'x' is not a digit"]),
    (GOOD.replace('".*D."', '".*Q."'), ["row 1", "column 2", "'Q' is not a mark"]),
    (GOOD.replace('"Wz.X"', '"W .X"'), ["row 1", "column 1", "non-space"]),
    (GOOD.replace('zones  = ["WW.X", "Wz.X", "§§§X"]', ""), ["missing layer 'zones'"]),
    (GOOD.replace('values = ["2111", "0123", "9999"]', ""), ["missing layer 'values'"]),
    (GOOD.replace('"9999"]', '"9999", "1111"]'), ["layer 'values' has 4 rows", "rows = 3"]),
    (GOOD.replace("rows = 3", "rows = 0"), ["'rows' must be a positive whole number"]),
    (GOOD.replace("rows = 3\n", ""), ["missing 'rows'"]),
    (GOOD.replace("cols = 4", "cols = 4\ncenter = [5, 5]"), ["centre [5, 5] is off the 3x4 board"]),
    (GOOD.replace("[layers]", "[layers"), ["not valid TOML"]),
    (GOOD.replace("[layers]", "[other]"), ["missing the [layers] table"]),
    (GOOD.replace('marks  = ["!..#", ".*D.", "...."]', 'marks = "....."'), ["list of strings"]),
])
def test_rejects_bad_files_naming_where(broken, words):
    with pytest.raises(BoardFormatError) as caught:
        parse_board(broken, "small.toml")
    for word in words:
        assert word in str(caught.value)


def test_builtin_boards_load_and_sp_zone_2_has_20_squares():
    assert set(builtin_boards()) >= {"extradiction", "extradiction-sp"}
    sp = load_board("extradiction-sp")
    assert len(sp.zone_names()) == 8
    assert sum(1 for s in sp.squares() if sp.zone(s) == sp.zone(Square(sp.center.row, sp.center.col + 1))) == 20
    assert sum(1 for s in sp.squares() if sp.zone(s) == sp.zone(sp.center)) == 1
    original = load_board("extradiction")
    corners = [original.zone(Square(0, 0)), original.zone(Square(0, 12)), original.zone(Square(12, 0)),
               original.zone(Square(12, 12))]
    assert len(set(corners)) == 4
    for corner in corners:
        assert sum(1 for s in original.squares() if original.zone(s) == corner) == 4
    assert all(0 <= original.value(s) <= 5 for s in original.squares())
    assert any(original.is_chance(s) for s in original.squares())


def test_board_is_a_value():
    assert isinstance(parse_board(GOOD), Board)
