"""The rules core: pure Python game logic (no I/O, no clock, no randomness not drawn from a seed).

Everything a game needs arrives as data: a :class:`~rules.board.Board` parsed from text, a
lexicon built from a set of words, and timestamped events.
"""

from rules.board import Board, parse_board
from rules.errors import Rejection, RulesError
from rules.squares import Direction, Square

__all__ = ["Board", "Direction", "Rejection", "RulesError", "Square", "parse_board"]
