"""Squares and directions on a grid board.

Rows and columns count from 0 at the top-left square (the record format of DESIGN.md). For
people, a square is named like a crossword board's margin labels: the column as letters
(``A`` is column 0) and the row as a number from 1.

>>> Square(7, 5).name
'F8'
>>> Square.parse("F8")
Square(row=7, col=5)
>>> Direction.parse("down").step
(1, 0)
"""

from __future__ import annotations

import enum
from typing import NamedTuple


def column_label(col: int) -> str:
    """``0 -> 'A'``, ``25 -> 'Z'``, ``26 -> 'AA'`` (spreadsheet style).

    >>> column_label(27)
    'AB'
    """
    if col < 0:
        return f"[{col}]"
    label = ""
    col += 1
    while col:
        col, rest = divmod(col - 1, 26)
        label = chr(ord("A") + rest) + label
    return label


class Square(NamedTuple):
    """One square of the board, by 0-based row and column."""

    row: int
    col: int

    @property
    def name(self) -> str:
        """The square as players read it off the printed margins, e.g. ``'F8'``.

        A square off the top or left edge has no printed label: ``Square(-1, 2).name == 'C[0]'``.
        """
        row = f"{self.row + 1}" if self.row >= 0 else f"[{self.row + 1}]"
        return f"{column_label(self.col)}{row}"

    def step(self, direction: "Direction", n: int = 1) -> "Square":
        """The square ``n`` steps along ``direction``.

        >>> Square(0, 0).step(Direction.ACROSS, 3)
        Square(row=0, col=3)
        """
        dr, dc = direction.step
        return Square(self.row + dr * n, self.col + dc * n)

    @classmethod
    def parse(cls, name: str) -> "Square":
        """Read a name such as ``'F8'`` or ``'AA10'`` back into a square."""
        letters = "".join(ch for ch in name if ch.isalpha()).upper()
        digits = name[len(letters):]
        if not letters or not digits.isdigit() or name[: len(letters)].upper() != letters:
            raise ValueError(f"not a square name: {name!r}")
        col = 0
        for ch in letters:
            col = col * 26 + (ord(ch) - ord("A") + 1)
        return cls(int(digits) - 1, col - 1)


class Direction(enum.Enum):
    """The two ways a word may be written: left to right, or top to bottom."""

    ACROSS = "across"
    DOWN = "down"

    @property
    def step(self) -> tuple[int, int]:
        return (0, 1) if self is Direction.ACROSS else (1, 0)

    @property
    def other(self) -> "Direction":
        """The perpendicular direction."""
        return Direction.DOWN if self is Direction.ACROSS else Direction.ACROSS

    @classmethod
    def parse(cls, value: str) -> "Direction":
        """``'across'``/``'down'`` (also ``'a'``, ``'h'``, ``'d'``, ``'v'``, any case)."""
        text = str(value).strip().lower()
        if text in ("across", "a", "h", "horizontal", "right"):
            return cls.ACROSS
        if text in ("down", "d", "v", "vertical"):
            return cls.DOWN
        raise ValueError(f"direction must be 'across' or 'down', not {value!r}")
