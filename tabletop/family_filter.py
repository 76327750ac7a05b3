"""The family filter: the letter-dice reveal's "best words the roll allowed" leave out vulgar
words, on by default (the set-up option ``family_filter: false`` turns it off).

The words are a short list a language, written by hand (``tabletop/data/family-filter/LANG.txt``:
one a line, a trailing ``*`` for every word starting so). It only keeps the table's own
suggestions clean: a player's word is scored as the rules say, whatever it is.

>>> clean = FamilyFilter.builtin("en")
>>> clean.allows("CAT"), clean.allows("fucked"), clean.allows("ASSET")
(True, False, True)
>>> clean.keep(["SHIT", "SHOT", "HOTS"])
['SHOT', 'HOTS']
"""

from __future__ import annotations

import functools
import pathlib
from dataclasses import dataclass
from typing import Iterable

from rules.lexicon import normalise

FOLDER = pathlib.Path(__file__).resolve().parent / "data" / "family-filter"


@dataclass(frozen=True)
class FamilyFilter:
    """Words (``exact``) and beginnings of words (``stems``) kept off the family screen."""

    exact: frozenset[str]
    stems: tuple[str, ...]

    @classmethod
    def parse(cls, text: str) -> "FamilyFilter":
        """A filter from a list's text (``#`` comments, one word a line, ``*`` for a stem).

        >>> FamilyFilter.parse("# a comment\\nrude\\nbad*").allows("badly")
        False
        """
        exact, stems = set(), []
        for line in text.splitlines():
            word = line.split("#", 1)[0].strip()
            if not word:
                continue
            if word.endswith("*"):
                stems.append(normalise(word[:-1]))
            else:
                exact.add(normalise(word))
        return cls(frozenset(exact), tuple(stems))

    @classmethod
    @functools.cache
    def builtin(cls, language: str) -> "FamilyFilter":
        """The built-in list of ``language`` (an empty filter for a language without one)."""
        path = FOLDER / f"{language}.txt"
        return cls.parse(path.read_text(encoding="utf-8")) if path.is_file() else cls(frozenset(), ())

    def allows(self, word: str) -> bool:
        """Whether ``word`` may be shown (any case)."""
        word = normalise(word)
        return word not in self.exact and not any(word.startswith(stem) for stem in self.stems)

    def keep(self, words: Iterable[str]) -> list[str]:
        """``words`` without those the filter leaves out, in their order."""
        return [w for w in words if self.allows(w)]
