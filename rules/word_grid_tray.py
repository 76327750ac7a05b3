"""A tray of letter dice, as read upright: its faces, which dice touch, and how a word chains
through them.

Dice touch across, down and diagonally. A word chains through the tray when its letters can be
read die after touching die, each die once: a face of two letters (``QU``) gives both, in order;
the wild face ``*`` gives any one letter.

>>> tray = Tray.parse(["TAPE", "SORL", ["N", "I", "QU", "D"], "EDCH"], "en")
>>> tray.size, tray.faces[10]
(4, 'QU')
>>> tray.chain("SOAP"), tray.chain("QUID"), tray.chain("TAPES")
((4, 5, 1, 2), (10, 9, 13), None)
>>> tray.rows()[2]
['N', 'I', 'QU', 'D']
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from typing import Any, Sequence

from rules import errors
from rules.lexicon import spelling
from rules.word_grid_dice import ALPHABETS, WILD

#: the sizes of tray the game knows: 4x4, 5x5, 6x6
SIZES = (4, 5, 6)
#: how many steps a chain search may take before it gives up (only a tray full of the same
#: letter, or of wild faces, with a long word, comes near it)
SEARCH_STEPS = 200_000


class BadTray(errors.Rejection):
    """A tray that is no square of dice, or a face no die of the language shows."""

    rule = "not a tray of letter dice"


class TooHardToCheck(errors.RulesError):
    """A word whose chain through the tray takes too long to settle (a pathological tray)."""


def _face(raw: Any, alphabet: str, where: str) -> str:
    if not isinstance(raw, str):
        raise BadTray(f"A die's face is text, not {type(raw).__name__} ({where}).")
    face = spelling(raw)
    if face == WILD:
        return face
    if not 1 <= len(face) <= 2 or any(ch not in alphabet for ch in face):
        shown = face[:8] or "nothing"
        raise BadTray(f"A die shows one or two letters of the alphabet ({alphabet[0]}-{alphabet[-1]}) or {WILD}, "
                      f"not {shown!r} ({where}).")
    return face


@dataclass(frozen=True)
class Tray:
    """A square tray of dice: ``faces`` row by row from the top-left, as read upright."""

    size: int
    faces: tuple[str, ...]

    @classmethod
    def parse(cls, rows: Sequence[Any], language: str) -> "Tray":
        """The tray a ``tray`` event's rows describe: each row a string of one-letter faces, or a
        list of faces (for two-letter faces); :class:`BadTray` naming the row and the rule."""
        alphabet = ALPHABETS[language]
        if not isinstance(rows, (list, tuple)) or len(rows) not in SIZES:
            count = len(rows) if isinstance(rows, (list, tuple)) else "no"
            raise BadTray(f"A tray is 4, 5 or 6 rows of dice, not {count} rows.")
        size = len(rows)
        faces: list[str] = []
        for r, row in enumerate(rows, start=1):
            cells = list(row) if isinstance(row, str) else row
            if not isinstance(cells, list) or len(cells) != size:
                got = len(cells) if isinstance(cells, list) else "not a row of"
                raise BadTray(f"Row {r} of a {size}x{size} tray has {got} dice, not {size}.")
            faces += [_face(cell, alphabet, f"row {r}, die {c}") for c, cell in enumerate(cells, start=1)]
        return cls(size, tuple(faces))

    def rows(self) -> list[list[str]]:
        """The faces row by row (the event's list form)."""
        return [list(self.faces[r * self.size:(r + 1) * self.size]) for r in range(self.size)]

    def neighbours(self, index: int) -> tuple[int, ...]:
        """The dice touching die ``index`` (across, down, diagonally).

        >>> Tray(4, ("A",) * 16).neighbours(0), len(Tray(4, ("A",) * 16).neighbours(5))
        ((1, 4, 5), 8)
        """
        row, col = divmod(index, self.size)
        return tuple(r * self.size + c for r in range(row - 1, row + 2) for c in range(col - 1, col + 2)
                     if 0 <= r < self.size and 0 <= c < self.size and (r, c) != (row, col))

    def letters(self) -> int:
        """The most letters a word can have here (every die once; a two-letter face gives two)."""
        return sum(len(face) for face in self.faces)

    def could_hold(self, letters: str) -> bool:
        """Do the faces show enough of each letter (a wild face any one)? A chain needs it."""
        have = Counter(ch for face in self.faces if face != WILD for ch in face)
        short = sum(max(0, n - have[ch]) for ch, n in Counter(letters).items())
        return short <= self.faces.count(WILD)

    def chain(self, letters: str) -> tuple[int, ...] | None:
        """The dice a word's ``letters`` are read from, in order, or ``None`` if no chain of
        touching dice, each once, reads them; :class:`TooHardToCheck` past :data:`SEARCH_STEPS`."""
        if not letters or not self.could_hold(letters):
            return None
        steps = [0]

        def extend(index: int, at: int, path: tuple[int, ...]) -> tuple[int, ...] | None:
            steps[0] += 1
            if steps[0] > SEARCH_STEPS:
                raise TooHardToCheck(f"A chain of {len(letters)} letters through this tray takes too long to check.")
            face = self.faces[index]
            if face == WILD:
                taken = 1
            elif letters.startswith(face, at):
                taken = len(face)
            else:
                return None
            path += (index,)
            if at + taken == len(letters):
                return path
            for step in self.neighbours(index):
                if step not in path:
                    found = extend(step, at + taken, path)
                    if found is not None:
                        return found
            return None

        for start in range(len(self.faces)):
            found = extend(start, 0, ())
            if found is not None:
                return found
        return None
