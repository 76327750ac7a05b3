"""What is written on the board: an immutable map from squares to characters.

>>> g = Grid.from_rows(["....", ".AT.", "...."])
>>> g[Square(1, 1)], g.get(Square(0, 0))
('A', None)
>>> [w.text for w in g.words()]
['AT']
>>> g.with_letters({Square(2, 2): "O"}).rows_text()
['....', '.AT.', '..O.']
"""

from __future__ import annotations

from collections.abc import ItemsView

from dataclasses import dataclass
from typing import Iterable, Iterator, Mapping

from rules.squares import Direction, Square

EMPTY = "."


@dataclass(frozen=True)
class Word:
    """A run of written characters along one direction."""

    text: str
    squares: tuple[Square, ...]
    direction: Direction

    @property
    def start(self) -> Square:
        return self.squares[0]

    def describe(self) -> str:
        """``'MARKET (I10 across)'``."""
        return f"{self.text} ({self.start.name} {self.direction.value})"


class Grid:
    """The characters written on a ``rows`` x ``cols`` board. Immutable: changes return a new grid."""

    __slots__ = ("rows", "cols", "_cells")

    def __init__(self, rows: int, cols: int, cells: Mapping[Square, str] | None = None):
        self.rows = rows
        self.cols = cols
        self._cells: dict[Square, str] = dict(cells or {})

    @classmethod
    def from_rows(cls, lines: Iterable[str]) -> "Grid":
        """A grid from one string a row, ``'.'`` (or a space) for an empty square."""
        lines = list(lines)
        cols = max((len(line) for line in lines), default=0)
        cells = {
            Square(r, c): ch
            for r, line in enumerate(lines)
            for c, ch in enumerate(line)
            if ch not in (EMPTY, " ")
        }
        return cls(len(lines), cols, cells)

    def __getitem__(self, square: Square) -> str:
        return self._cells[square]

    def get(self, square: Square) -> str | None:
        return self._cells.get(square)

    def __contains__(self, square: object) -> bool:
        return square in self._cells

    def __len__(self) -> int:
        return len(self._cells)

    def __iter__(self) -> Iterator[Square]:
        return iter(self._cells)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Grid) and (self.rows, self.cols, self._cells) == (other.rows, other.cols, other._cells)

    def __hash__(self) -> int:
        return hash((self.rows, self.cols, frozenset(self._cells.items())))

    def __repr__(self) -> str:
        return f"Grid({self.rows}x{self.cols}, {len(self)} written)"

    def items(self) -> ItemsView[Square, str]:
        return self._cells.items()

    def on_board(self, square: Square) -> bool:
        return 0 <= square.row < self.rows and 0 <= square.col < self.cols

    def with_letters(self, letters: Mapping[Square, str]) -> "Grid":
        cells = dict(self._cells)
        cells.update(letters)
        return Grid(self.rows, self.cols, cells)

    def without(self, squares: Iterable[Square]) -> "Grid":
        cells = dict(self._cells)
        for square in squares:
            cells.pop(square, None)
        return Grid(self.rows, self.cols, cells)

    def rows_text(self) -> list[str]:
        """One string a row, ``'.'`` for an empty square (the ``grid`` of DESIGN.md's JSON)."""
        return [
            "".join(self._cells.get(Square(r, c), EMPTY) for c in range(self.cols)) for r in range(self.rows)
        ]

    def run_through(self, square: Square, direction: Direction) -> Word:
        """The maximal run of written squares through ``square`` along ``direction``.

        The square itself counts as written even when it is empty (for trying a letter there).
        """
        start = square
        while True:
            before = start.step(direction, -1)
            if before in self._cells:
                start = before
            else:
                break
        squares = [start]
        while True:
            after = squares[-1].step(direction)
            if after in self._cells:
                squares.append(after)
            else:
                break
        text = "".join(self._cells.get(s, "?") for s in squares)
        return Word(text, tuple(squares), direction)

    def words(self, min_length: int = 2) -> list[Word]:
        """Every maximal run of at least ``min_length`` characters, across words first, in reading order."""
        found = []
        for direction in (Direction.ACROSS, Direction.DOWN):
            for square in sorted(self._cells):
                if square.step(direction, -1) in self._cells:
                    continue
                word = self.run_through(square, direction)
                if len(word.squares) >= min_length:
                    found.append(word)
        return found
