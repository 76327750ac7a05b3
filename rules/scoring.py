"""Scoring a word on a zoned board: square values summed, times the number of distinct zones.

A floating word is not multiplied. A zone counts once however many of the word's squares lie
in it; a square in no zone (``'.'`` in the zones layer) adds no zone.

>>> from rules.board import parse_board
>>> board = parse_board('rows = 1\\ncols = 4\\n[layers]\\nvalues = ["1212"]\\nzones = ["aabb"]')
>>> s = score_squares(board, "TEST", [Square(0, c) for c in range(4)])
>>> s.value_sum, s.zones, s.score
(6, ('a', 'b'), 12)
>>> score_squares(board, "TEST", [Square(0, c) for c in range(4)], multiply=False).score
6
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Iterable

from rules.board import Board
from rules.grid import Grid
from rules.squares import Square


@dataclass(frozen=True)
class WordScore:
    """One scored word: its squares' value sum, the zones it occupies and the points."""

    word: str
    squares: tuple[Square, ...]
    value_sum: int
    zones: tuple[str, ...]
    score: int
    multiplied: bool = True

    def explain(self) -> str:
        """``'MARKET: 7 x 3 zones = 21'`` or ``'INVISIBLE: 26 (floating, not multiplied)'``."""
        if not self.multiplied:
            return f"{self.word}: {self.value_sum} (floating, not multiplied)"
        n = len(self.zones)
        return f"{self.word}: {self.value_sum} x {n} zone{'s' if n != 1 else ''} = {self.score}"

    def to_json(self) -> dict[str, object]:
        return {"word": self.word, "score": self.score}


def score_squares(board: Board, word: str, squares: Iterable[Square], multiply: bool = True) -> WordScore:
    """Score ``word`` written on ``squares``: sum of values, times distinct zones when ``multiply``."""
    squares = tuple(squares)
    value_sum = sum(board.value(s) for s in squares)
    zones: dict[str, None] = {}
    for s in squares:
        zone = board.zone(s)
        if zone is not None:
            zones.setdefault(zone, None)
    score = value_sum * len(zones) if multiply else value_sum
    return WordScore(word, squares, value_sum, tuple(zones), score, multiply)


def score_board(board: Board, grid: Grid) -> list[WordScore]:
    """Every word of two or more letters on the board, each scored as if written alone (for a photo).

    >>> from rules.board import parse_board
    >>> b = parse_board('rows = 2\\ncols = 3\\n[layers]\\nvalues = ["123", "111"]\\nzones = ["abb", "..."]')
    >>> [(w.word, w.score) for w in score_board(b, Grid.from_rows(["CAT", "..."]))]
    [('CAT', 12)]
    """
    return [score_squares(board, word.text, word.squares) for word in grid.words()]
