"""Lexicons: is this a word (or a phrase) in the game's language?

A :class:`Lexicon` is built from words it is given; where they come from (Debian's word lists,
WordNet, a house word list) is the application's business (:mod:`tabletop.lexicons`).
Spelling is compared after :func:`normalise`: upper case, one kind of apostrophe.

>>> lex = Lexicon(["apple", "apples", "ice cream", "ice", "м'ята"], name="test")
>>> "APPLES" in lex, "Apple" in lex, "APPLEZ" in lex
(True, True, False)
>>> lex.accepts_entry("ICE CREAM"), lex.accepts_entry("ICE APPLE"), lex.accepts_entry("ICE APPLEZ")
(True, True, False)
>>> "М’ЯТА" in lex
True
"""

from __future__ import annotations

import unicodedata
from functools import cached_property
from typing import Iterable

_APOSTROPHES = str.maketrans({"\u2019": "'", "\u02bc": "'", "\u2018": "'", "`": "'"})


def normalise(text: str) -> str:
    """The spelling used for comparisons: NFC, upper case, ``'`` for every apostrophe, single spaces.

    >>> normalise("  м\u2019ята  ")
    "М'ЯТА"
    """
    text = unicodedata.normalize("NFC", text).translate(_APOSTROPHES).upper()
    return " ".join(text.split())


class Lexicon:
    """A set of accepted words and phrases, compared after :func:`normalise`."""

    def __init__(self, words: Iterable[str], name: str = "lexicon"):
        self.name = name
        self._words = frozenset(normalise(w) for w in words if w and w.strip())

    def __contains__(self, word: object) -> bool:
        return isinstance(word, str) and normalise(word) in self._words

    def __len__(self) -> int:
        return len(self._words)

    def __repr__(self) -> str:
        return f"Lexicon({self.name!r}, {len(self)} words)"

    def accepts_entry(self, text: str) -> bool:
        """A written entry is accepted when it is a listed word or phrase, or every word of a phrase is."""
        text = normalise(text)
        if text in self._words:
            return True
        parts = text.split(" ")
        return len(parts) > 1 and all(part in self._words for part in parts)

    @cached_property
    def _by_length(self) -> dict[int, tuple[str, ...]]:
        table: dict[int, list[str]] = {}
        for word in self._words:
            table.setdefault(len(word), []).append(word)
        return {n: tuple(sorted(ws)) for n, ws in table.items()}

    def words_of_length(self, n: int) -> tuple[str, ...]:
        """Every listed word or phrase of ``n`` characters (spaces count), sorted.

        >>> Lexicon(["cat", "dog", "horse"]).words_of_length(3)
        ('CAT', 'DOG')
        """
        return self._by_length.get(n, ())

    def words(self) -> frozenset[str]:
        """Every listed word, normalised."""
        return self._words
