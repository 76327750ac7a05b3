"""Typed errors of the rules core.

A :class:`Rejection` is a player's move (or a table event) that the rules refuse; its message
is one sentence a player understands, naming the square(s) and the rule. The other errors
describe malformed data: a board file, a record, an event.

>>> from rules.squares import Square
>>> err = LetterConflict("The P of PEN would go on C3, where R is already written.", [Square(2, 2)])
>>> isinstance(err, Rejection), err.squares[0].name
(True, 'C3')
"""

from __future__ import annotations

from typing import Iterable

from rules.squares import Square


class RulesError(Exception):
    """Base of every error raised by :mod:`rules`."""


class BoardFormatError(RulesError, ValueError):
    """A board layout that cannot be used; the message names the file, layer, row and column."""

    def __init__(self, message: str, source: str = "<board>", row: int | None = None, col: int | None = None):
        where = source
        if row is not None:
            where += f", row {row}"
        if col is not None:
            where += f", column {col}"
        super().__init__(f"{where}: {message}")
        self.source, self.row, self.col = source, row, col


class EventFormatError(RulesError, ValueError):
    """An event that is not well formed (a missing field, a wrong type)."""


class RecordFormatError(RulesError, ValueError):
    """A game record that is not well formed."""


class Rejection(RulesError):
    """An event the rules refuse. ``squares`` lists the squares the message talks about;
    ``private_to`` names the player whose private things the message shows (a sealed word, a
    rack, a hand of cards): the table tells it to that player alone (and the host).

    >>> Rejection("Ann's cards: M N.", private_to="Ann").private_to
    'Ann'
    """

    rule = "rejected"

    def __init__(self, message: str, squares: Iterable[Square] = (), *, private_to: str | None = None):
        super().__init__(message)
        self.squares = tuple(squares)
        self.private_to = private_to


class OffBoard(Rejection):
    rule = "off the board"


class NotPlayable(Rejection):
    rule = "square not playable"


class LetterConflict(Rejection):
    rule = "letter conflict"


class BlankOccupied(Rejection):
    rule = "blank square between words already written"


class RunsInto(Rejection):
    rule = "word runs into another"


class NothingNew(Rejection):
    rule = "no new letter"


class NotInOneLine(Rejection):
    """Letters that appeared on the board but make no single write: they are not all in one row
    or column, or they leave an empty square between them."""

    rule = "new letters not in one line"


class MissesCentre(Rejection):
    rule = "first word misses the centre"


class NotAWord(Rejection):
    rule = "not in the dictionary"


class BadText(Rejection):
    rule = "unwritable text"


class WrongDirection(Rejection):
    rule = "direction not allowed"


class NotYourTurn(Rejection):
    rule = "not this player's turn"


class UnknownPlayer(Rejection):
    rule = "unknown player"


class WrongPhase(Rejection):
    rule = "not possible now"


class WordAlreadyUsed(Rejection):
    rule = "word already used"


class WrongAnswer(Rejection):
    rule = "not the card's answer"


class TooLate(Rejection):
    rule = "too late"


class ChallengeFails(Rejection):
    rule = "challenge fails"


class GameOver(Rejection):
    rule = "game over"
