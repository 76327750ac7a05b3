"""Placement analysis shared by every crossword game (eXtraDICTION, SP, Questique).

A write puts an entry (a word, or a phrase with one blank square between its words) on the
board left-to-right or top-to-bottom, one character a square. :func:`analyse` checks that it can
be written there and works out what it does: the squares it inks, whether it is the first word,
crosses or touches what is written, or floats, and every new word it forms.

>>> from rules.board import parse_board
>>> board = parse_board('rows = 5\\ncols = 5\\n[layers]\\n'
...     'values = ["11111","11111","11111","11111","11111"]\\n'
...     'zones  = ["aaaaa","aaaaa","aaaaa","aaaaa","aaaaa"]')
>>> first = analyse(board, Grid(5, 5), "cat", Square(2, 1), Direction.ACROSS)
>>> first.kind.value, [s.name for s in first.new_squares]
('first', ['B3', 'C3', 'D3'])
>>> grid = first.grid_after
>>> touch = analyse(board, grid, "SO", Square(3, 3), Direction.ACROSS)
>>> touch.kind.value, [w.text for w in touch.formed_words]
('touching', ['TS'])

The other way round, :func:`infer_write` works out which write the letters that appeared on the
board stand for (what a camera over the board sees): the whole word they make in their line.

>>> infer_write(grid.rows_text(), {Square(1, 3): "A", Square(3, 3): "E"}).describe()
'ATE at D2 down'
"""

from __future__ import annotations

import enum
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import cached_property
from typing import Any

from rules import errors
from rules.board import Board
from rules.grid import Grid, Word
from rules.lexicon import Lexicon, normalise
from rules.squares import Direction, Square

#: characters besides letters that may take a square ("each character (letter or punctuation mark)").
PUNCTUATION = frozenset("'-.,!?&")


class PlacementKind(enum.Enum):
    """How a write relates to what is already on the board."""

    FIRST = "first"          # the board was empty
    CROSSING = "crossing"    # shares at least one square (and its letter) with what is written
    TOUCHING = "touching"    # no shared square, but a new letter sits beside a written one
    FLOATING = "floating"    # neither crosses nor touches anything


@dataclass(frozen=True)
class Placement:
    """What one write does to the board."""

    text: str                                # the entry as written, normalised (spaces = blank squares)
    start: Square
    direction: Direction
    squares: tuple[Square, ...]              # every square the entry occupies (blanks excluded)
    new_letters: tuple[tuple[Square, str], ...]  # squares this write inks, with their letters
    kind: PlacementKind
    formed_words: tuple[Word, ...]           # perpendicular words made by the new letters
    grid_after: Grid

    @property
    def new_squares(self) -> tuple[Square, ...]:
        return tuple(square for square, _ in self.new_letters)

    @cached_property
    def entry(self) -> Word:
        """The entry itself as a word on the board (a phrase keeps its spaces)."""
        return Word(self.text, self.squares, self.direction)

    def describe(self) -> str:
        """``'MARKET at I10 across'``."""
        return f"{self.text} at {self.start.name} {self.direction.value}"


def _ordinal(n: int) -> str:
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


def _check_text(raw: str) -> str:
    if not isinstance(raw, str) or not raw.strip():
        raise errors.BadText("Nothing to write: the word is empty.")
    text = normalise(raw)
    for i, ch in enumerate(text):
        if not (ch == " " or ch.isalpha() or ch in PUNCTUATION):
            raise errors.BadText(
                f"{text} cannot be written: its {_ordinal(i + 1)} character {ch!r} is not a letter or punctuation mark."
            )
    return text


def analyse(
    board: Board,
    grid: Grid,
    text: str,
    start: Square,
    direction: Direction,
    *,
    require_centre: bool = True,
) -> Placement:
    """Check that ``text`` can be written at ``start`` along ``direction`` and describe the write.

    Raises a :class:`~rules.errors.Rejection` naming the square(s): off the board, a square that
    is not playable, a letter conflicting with one already written, a blank square of a phrase
    already written on, an entry running into letters before or after it (it would read as a
    longer word), a write that adds no letter, or a first word that misses the centre square.
    Dictionary checks are separate (:func:`check_words`): not every game wants them.
    """
    text = _check_text(text)
    start = Square(*start)
    label = f"{text} at {start.name} {direction.value}"
    squares: list[Square] = []
    new_letters: list[tuple[Square, str]] = []
    reused = False
    for i, ch in enumerate(text):
        square = start.step(direction, i)
        if square not in board:
            if i == 0:
                last = Square(board.rows - 1, board.cols - 1).name
                raise errors.OffBoard(
                    f"{text} cannot start at row {start.row + 1}, column {start.col + 1}: that square is off the "
                    f"board, whose squares run from A1 to {last}.", [start])
            raise errors.OffBoard(
                f"{label} runs off the board: its {_ordinal(i + 1)} character {ch} would fall outside the "
                f"{board.rows}x{board.cols} board after {start.step(direction, i - 1).name}.",
                [start.step(direction, i - 1)])
        if not board.is_playable(square):
            raise errors.NotPlayable(f"{label} would put {ch} on {square.name}, which is not a playable square.", [square])
        existing = grid.get(square)
        if ch == " ":
            if existing is not None:
                raise errors.BlankOccupied(
                    f"{label} needs {square.name} left blank between its words, but {existing} is written there.",
                    [square])
            continue
        squares.append(square)
        if existing is None:
            new_letters.append((square, ch))
        elif existing != ch:
            raise errors.LetterConflict(
                f"The {ch} of {text} would go on {square.name}, where {existing} is already written.", [square])
        else:
            reused = True
    for square in (start.step(direction, -1), start.step(direction, len(text))):
        if square in grid:
            after = grid.with_letters(dict(new_letters))
            reads = after.run_through(squares[0] if square == start.step(direction, -1) else squares[-1], direction)
            raise errors.RunsInto(
                f"{label} runs into the {grid[square]} already written on {square.name}: "
                f"it would read {reads.text}, not {text}.", [square])
    if not new_letters:
        raise errors.NothingNew(f"{label} is already on the board: a write must add at least one letter.", squares)
    after = grid.with_letters(dict(new_letters))
    if len(grid) == 0:
        if require_centre and board.center not in squares:
            raise errors.MissesCentre(
                f"The first word must use the centre square {board.center.name}; {label} does not.", [board.center])
        kind = PlacementKind.FIRST
        formed: tuple[Word, ...] = ()
    else:
        formed = tuple(
            word for word in (after.run_through(square, direction.other) for square, _ in new_letters)
            if len(word.squares) >= 2
        )
        if reused:
            kind = PlacementKind.CROSSING
        elif formed:
            kind = PlacementKind.TOUCHING
        else:
            kind = PlacementKind.FLOATING
    return Placement(text, start, direction, tuple(squares), tuple(new_letters), kind, formed, after)


def check_words(placement: Placement, lexicon: Lexicon) -> None:
    """Reject the write if its entry, or any word it forms, is not in ``lexicon``.

    >>> from rules.grid import Grid
    >>> from rules.board import parse_board
    >>> board = parse_board('rows = 1\\ncols = 3\\n[layers]\\nvalues = ["111"]\\nzones = ["aaa"]')
    >>> p = analyse(board, Grid(1, 3), "CAX", Square(0, 0), Direction.ACROSS)
    >>> check_words(p, Lexicon(["cat"], name="house list"))
    Traceback (most recent call last):
    ...
    rules.errors.NotAWord: CAX (A1 across) is not in the dictionary (house list).
    """
    if not lexicon.accepts_entry(placement.text):
        raise errors.NotAWord(
            f"{placement.entry.describe()} is not in the dictionary ({lexicon.name}).", placement.squares)
    for word in placement.formed_words:
        if word.text not in lexicon:
            raise errors.NotAWord(
                f"Writing {placement.text} makes {word.describe()}, which is not in the dictionary ({lexicon.name}).",
                word.squares)



@dataclass(frozen=True)
class InferredWrite:
    """The write that letters newly on the board stand for (see :func:`infer_write`)."""

    text: str                                    # the whole word after the write, letters already there included
    start: Square                                # its first square
    direction: Direction
    squares: tuple[Square, ...]                  # every square of the word, from ``start``
    new_letters: tuple[tuple[Square, str], ...]  # the squares that changed, with their letters, in reading order

    @property
    def row(self) -> int:
        return self.start.row

    @property
    def col(self) -> int:
        return self.start.col

    @property
    def new_squares(self) -> tuple[Square, ...]:
        return tuple(square for square, _ in self.new_letters)

    def describe(self) -> str:
        """``'CATS at B3 across'``."""
        return f"{self.text} at {self.start.name} {self.direction.value}"

    def event(self) -> dict[str, Any]:
        """The ``write`` event of docs/events.md for this write, without its ``player`` (the table
        knows who is writing) and its time.

        >>> infer_write(["....", ".CA.", "...."], {Square(1, 3): "T"}).event()
        {'type': 'write', 'text': 'CAT', 'row': 1, 'col': 1, 'dir': 'across'}
        """
        return {"type": "write", "text": self.text, "row": self.start.row, "col": self.start.col,
                "dir": self.direction.value}


def _names(squares: Sequence[Square]) -> str:
    """``'B3'``, ``'B3 and C3'``, ``'B3, C3 and D3'``."""
    names = [square.name for square in squares]
    return names[0] if len(names) == 1 else f"{', '.join(names[:-1])} and {names[-1]}"


def _touches(grid: Grid, square: Square, direction: Direction) -> bool:
    return square.step(direction, -1) in grid or square.step(direction) in grid


def infer_write(grid: Grid | Sequence[str], new_letters: Mapping[Square, str]) -> InferredWrite:
    """The write that ``new_letters`` (square -> letter, what appeared on the board) stand for, on
    ``grid`` as it was before them (a :class:`~rules.grid.Grid`, or one string a row with ``'.'``
    for an empty square, as a game's ``state()["grid"]``).

    The new letters must lie in one row (a write across) or one column (down), with no empty
    square between them; the write is the whole word they make with the letters already in that
    line, before, between and after them. A single new letter goes the way it touches written
    letters, across first: it extends the word it is put beside, and when it touches words both
    ways the across one is taken (the rules still score the down word it forms, as for any write);
    a letter touching nothing is a one-letter write across. A new letter on a square the grid
    already holds reads as the new letter (the rules judge the conflict). The letters are kept as
    given (a game's lowercase blank, a camera's ``?``); the rules are not asked whether the write
    is allowed: that is :func:`analyse`'s work once a player makes it.

    Raises :class:`~rules.errors.NotInOneLine` naming the squares when the new letters are not in
    one row or column, or leave a gap, :class:`~rules.errors.OffBoard` for a square off the grid
    and :class:`~rules.errors.NothingNew` when nothing is new.

    >>> grid = ["......", ".CAT..", "......", "......"]
    >>> w = infer_write(grid, {Square(1, 4): "S"})
    >>> w.describe(), [s.name for s in w.squares], [s.name for s in w.new_squares]
    ('CATS at B2 across', ['B2', 'C2', 'D2', 'E2'], ['E2'])
    >>> infer_write(grid, {Square(0, 2): "B", Square(2, 2): "D"}).describe()
    'BAD at C1 down'
    >>> infer_write(grid, {Square(3, 0): "O", Square(3, 2): "X"})
    Traceback (most recent call last):
    ...
    rules.errors.NotInOneLine: The new letters on A4 and C4 leave B4 empty between them: they make no single word.
    >>> infer_write(grid, {Square(0, 0): "O", Square(2, 4): "X"})
    Traceback (most recent call last):
    ...
    rules.errors.NotInOneLine: The new letters on A1 and E3 are not in one row or column: they make no single word.
    """
    before = grid if isinstance(grid, Grid) else Grid.from_rows(grid)
    new = {Square(*square): letter for square, letter in new_letters.items()}
    if not new:
        raise errors.NothingNew("No new letter is on the board: there is no write to read.")
    squares = sorted(new)
    outside = [square for square in squares if not before.on_board(square)]
    if outside:
        raise errors.OffBoard(
            f"{_names(outside)} {'is' if len(outside) == 1 else 'are'} off the {before.rows}x{before.cols} board.",
            outside)
    after = before.with_letters(new)
    if len(squares) == 1:
        only = squares[0]
        direction = Direction.DOWN if (not _touches(after, only, Direction.ACROSS)
                                       and _touches(after, only, Direction.DOWN)) else Direction.ACROSS
    elif len({square.row for square in squares}) == 1:
        direction = Direction.ACROSS
    elif len({square.col for square in squares}) == 1:
        direction = Direction.DOWN
    else:
        raise errors.NotInOneLine(
            f"The new letters on {_names(squares)} are not in one row or column: they make no single word.",
            squares)
    first, last = squares[0], squares[-1]
    span = max(last.row - first.row, last.col - first.col)
    gaps = [square for square in (first.step(direction, k) for k in range(span)) if square not in after]
    if gaps:
        raise errors.NotInOneLine(
            f"The new letters on {_names(squares)} leave {_names(gaps)} empty between them: "
            "they make no single word.", gaps)
    word = after.run_through(first, direction)
    return InferredWrite(word.text, word.start, direction, word.squares, tuple((s, new[s]) for s in squares))
