"""infer_write: from the letters that appeared on the board to the write they stand for."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rules import errors
from rules.grid import Grid
from rules.placement import InferredWrite, infer_write
from rules.squares import Direction, Square

A, D = Direction.ACROSS, Direction.DOWN

#: CA across on row 1 (B2 C2), and CA... down from B2: C on B2, O on B3
GRID = ["....",
        ".CA.",
        ".O..",
        "...."]


def names(squares):
    return [s.name for s in squares]


# -- a single new letter ---------------------------------------------------------------------------

def test_a_letter_after_a_word_extends_it_across():
    w = infer_write(GRID, {Square(1, 3): "T"})
    assert (w.text, w.start, w.direction) == ("CAT", Square(1, 1), A)
    assert names(w.squares) == ["B2", "C2", "D2"] and w.new_letters == ((Square(1, 3), "T"),)


def test_a_letter_before_a_word_extends_it_across():
    w = infer_write(GRID, {Square(1, 0): "S"})
    assert (w.text, w.start, w.direction) == ("SCA", Square(1, 0), A)


def test_a_letter_touching_only_a_word_above_or_below_extends_it_down():
    assert infer_write(GRID, {Square(3, 1): "W"}).describe() == "COW at B2 down"
    assert infer_write(GRID, {Square(0, 1): "S"}).describe() == "SCO at B1 down"


def test_a_letter_touching_words_both_ways_goes_across():
    grid = ["....", ".CA.", ".O.X", "...."]
    w = infer_write(grid, {Square(2, 2): "N"})                     # beside O (across), under A (down)
    assert (w.text, w.direction) == ("ONX", A)
    assert infer_write(GRID, {Square(2, 2): "T"}).describe() == "OT at B3 across"   # beside O, under A


def test_a_letter_touching_nothing_is_a_one_letter_write_across():
    w = infer_write(GRID, {Square(3, 3): "I"})
    assert (w.text, w.start, w.direction, w.squares) == ("I", Square(3, 3), A, (Square(3, 3),))
    assert infer_write(["...", "...", "..."], {Square(1, 1): "A"}).describe() == "A at B2 across"


def test_a_letter_touching_a_diagonal_letter_only_touches_nothing():
    assert infer_write(GRID, {Square(0, 0): "I"}).describe() == "I at A1 across"


@pytest.mark.parametrize("square, text, direction", [
    (Square(0, 0), "AB", A), (Square(0, 2), "BC", A), (Square(2, 0), "XY", A), (Square(2, 2), "YZ", A),
])
def test_letters_on_the_edges_and_corners(square, text, direction):
    grid = [".B.", "...", ".Y."]
    letter = {0: "A", 2: "C"}[square.col] if square.row == 0 else {0: "X", 2: "Z"}[square.col]
    w = infer_write(grid, {square: letter})
    assert (w.text, w.direction) == (text, direction)


# -- several new letters -------------------------------------------------------------------------

def test_new_letters_in_a_row_are_the_whole_word_across_through_letters_already_there():
    w = infer_write(["......", "..A...", "......"], {Square(1, 0): "C", Square(1, 1): "R", Square(1, 3): "B"})
    assert (w.text, w.start, w.direction) == ("CRAB", Square(1, 0), A)
    assert names(w.new_squares) == ["A2", "B2", "D2"]


def test_new_letters_in_a_column_are_the_whole_word_down_with_what_comes_before_and_after():
    grid = [".T.", "...", "...", ".E.", "..."]
    w = infer_write(grid, {Square(2, 1): "E", Square(1, 1): "R"})
    assert (w.text, w.start, w.direction) == ("TREE", Square(0, 1), D)
    assert w.new_letters == ((Square(1, 1), "R"), (Square(2, 1), "E"))   # in reading order


def test_the_word_stops_at_the_first_empty_square_each_way():
    w = infer_write(["A.B..C.D"], {Square(0, 3): "X", Square(0, 4): "Y"})
    assert (w.text, w.start, names(w.squares)) == ("BXYC", Square(0, 2), ["C1", "D1", "E1", "F1"])


def test_new_letters_replace_what_the_grid_held_on_their_squares():
    w = infer_write(["CAT"], {Square(0, 1): "U", Square(0, 2): "B"})
    assert w.text == "CUB"


def test_letters_are_kept_as_given():
    assert infer_write(["Ca.."], {Square(0, 2): "?", Square(0, 3): "s"}).text == "Ca?s"


def test_a_grid_and_its_rows_give_the_same_write():
    new = {Square(2, 1): "W"}
    assert infer_write(Grid.from_rows(GRID), new) == infer_write(GRID, new)
    assert infer_write(GRID, {(2, 1): "W"}) == infer_write(GRID, new)          # plain (row, col) pairs


def test_the_event_is_the_write_without_its_player():
    w = infer_write(GRID, {Square(3, 1): "W"})
    assert w.event() == {"type": "write", "text": "COW", "row": 1, "col": 1, "dir": "down"}
    assert (w.row, w.col) == (1, 1)


# -- refusals ------------------------------------------------------------------------------------

def test_letters_not_in_one_line_are_refused_naming_their_squares():
    with pytest.raises(errors.NotInOneLine) as caught:
        infer_write(GRID, {Square(0, 0): "A", Square(3, 3): "B", Square(0, 3): "C"})
    assert str(caught.value) == ("The new letters on A1, D1 and D4 are not in one row or column: "
                                 "they make no single word.")
    assert names(caught.value.squares) == ["A1", "D1", "D4"]
    assert isinstance(caught.value, errors.Rejection) and caught.value.rule == "new letters not in one line"


def test_an_l_shape_is_not_one_line():
    with pytest.raises(errors.NotInOneLine):
        infer_write(["...", "...", "..."], {Square(0, 0): "A", Square(0, 1): "B", Square(1, 1): "C"})


def test_a_gap_between_new_letters_is_refused_naming_the_empty_squares():
    with pytest.raises(errors.NotInOneLine) as caught:
        infer_write(["......"], {Square(0, 0): "A", Square(0, 2): "B", Square(0, 5): "C"})
    assert str(caught.value) == ("The new letters on A1, C1 and F1 leave B1, D1 and E1 empty between them: "
                                 "they make no single word.")
    assert names(caught.value.squares) == ["B1", "D1", "E1"]


def test_a_gap_filled_by_a_letter_already_there_is_no_gap():
    assert infer_write(["..X..."], {Square(0, 1): "A", Square(0, 3): "B"}).text == "AXB"


def test_nothing_new_is_refused():
    with pytest.raises(errors.NothingNew):
        infer_write(GRID, {})


def test_a_letter_off_the_board_is_refused():
    with pytest.raises(errors.OffBoard) as caught:
        infer_write(GRID, {Square(1, 4): "S"})
    assert str(caught.value) == "E2 is off the 4x4 board." and caught.value.squares == (Square(1, 4),)
    with pytest.raises(errors.OffBoard, match="are off"):
        infer_write(GRID, {Square(-1, 0): "S", Square(4, 0): "T"})


# -- properties ----------------------------------------------------------------------------------

LETTERS = "ABCDE"


@st.composite
def grids(draw):
    rows, cols = draw(st.integers(1, 7)), draw(st.integers(1, 7))
    cells = draw(st.lists(st.sampled_from(LETTERS + "..."), min_size=rows * cols, max_size=rows * cols))
    return ["".join(cells[r * cols:(r + 1) * cols]) for r in range(rows)]


@st.composite
def straight_writes(draw):
    """A grid and a write on it: a segment of one line, whose empty squares get new letters."""
    rows = draw(grids())
    height, width = len(rows), len(rows[0])
    direction = draw(st.sampled_from([A, D]))
    length = width if direction is A else height
    line = draw(st.integers(0, (height if direction is A else width) - 1))
    a = draw(st.integers(0, length - 1))
    b = draw(st.integers(a, length - 1))
    first = Square(line, 0) if direction is A else Square(0, line)
    segment = [first.step(direction, k) for k in range(a, b + 1)]
    empty = [s for s in segment if rows[s.row][s.col] == "."]
    if not empty:
        first_empty = draw(st.sampled_from(segment))
        rows[first_empty.row] = rows[first_empty.row][:first_empty.col] + "." + rows[first_empty.row][first_empty.col + 1:]
        empty = [first_empty]
    new = {s: draw(st.sampled_from(LETTERS.lower())) for s in empty}
    return rows, direction, new


def touches(grid, square, direction):
    return square.step(direction, -1) in grid or square.step(direction) in grid


@settings(max_examples=300, deadline=None)
@given(straight_writes())
def test_a_straight_write_is_recovered(case):
    rows, direction, new = case
    w = infer_write(rows, new)
    after = Grid.from_rows(rows).with_letters(new)
    if len(new) == 1:                   # a single letter: the way it touches letters, across first
        (only,) = new
        direction = D if touches(after, only, D) and not touches(after, only, A) else A
    assert isinstance(w, InferredWrite) and w.direction is direction
    assert w.squares == tuple(w.start.step(direction, k) for k in range(len(w.squares)))
    assert set(new) <= set(w.squares) and w.new_letters == tuple(sorted(new.items()))
    assert w.text == "".join(after[s] for s in w.squares)
    assert w.start.step(direction, -1) not in after and w.squares[-1].step(direction) not in after
    assert w.event() == {"type": "write", "text": w.text, "row": w.start.row, "col": w.start.col,
                         "dir": direction.value}


@st.composite
def scattered_letters(draw):
    """A grid and new letters on at least two of its empty squares, not in one row or column."""
    rows = draw(grids())
    empty = [Square(r, c) for r, row in enumerate(rows) for c, ch in enumerate(row) if ch == "."]
    chosen = draw(st.lists(st.sampled_from(empty), min_size=2, unique=True) if len(empty) >= 2 else st.nothing())
    if len({s.row for s in chosen}) == 1 or len({s.col for s in chosen}) == 1:
        chosen.append(draw(st.sampled_from([s for s in empty if s.row != chosen[0].row and s.col != chosen[0].col]
                                           or [None])))
    if None in chosen:
        return draw(st.nothing())
    return rows, {s: "z" for s in chosen}


@settings(max_examples=200, deadline=None)
@given(scattered_letters())
def test_scattered_letters_are_refused(case):
    rows, new = case
    with pytest.raises(errors.NotInOneLine) as caught:
        infer_write(rows, new)
    assert caught.value.squares == tuple(sorted(new))
    assert all(s.name in str(caught.value) for s in new)


@settings(max_examples=200, deadline=None)
@given(grids(), st.data())
def test_letters_in_one_line_with_an_empty_square_between_are_refused(rows, data):
    """Two new letters in one line with a square between them that stays empty."""
    line = data.draw(st.sampled_from([r for r, row in enumerate(rows) if row.count(".") >= 3] or [None]))
    if line is None:
        data.draw(st.nothing())
    empty = [c for c, ch in enumerate(rows[line]) if ch == "."]
    a, gap, b = sorted(data.draw(st.lists(st.sampled_from(empty), min_size=3, max_size=3, unique=True)))
    with pytest.raises(errors.NotInOneLine) as caught:
        infer_write(rows, {Square(line, a): "x", Square(line, b): "y"})
    assert Square(line, gap) in caught.value.squares
    assert all(rows[line][s.col] == "." and a < s.col < b for s in caught.value.squares)
