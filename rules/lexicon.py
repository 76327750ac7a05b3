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

import bisect
import unicodedata
from typing import Iterable, Iterator, Protocol

_APOSTROPHES = str.maketrans({"\u2019": "'", "\u02bc": "'", "\u2018": "'", "`": "'"})


def normalise(text: str) -> str:
    """The spelling used for comparisons: NFC, upper case, ``'`` for every apostrophe, single spaces.

    >>> normalise("  м\u2019ята  ")
    "М'ЯТА"
    """
    text = unicodedata.normalize("NFC", text).translate(_APOSTROPHES).upper()
    return " ".join(text.split())


def spelling(word: str) -> str:
    """A word (or a die's face) as compared and looked up: :func:`normalise`, and no spaces.

    >>> spelling(" м’ята "), spelling("Qu it")
    ("М'ЯТА", 'QUIT')
    """
    return normalise(word).replace(" ", "")


def letters_of(word: str) -> str:
    """The letters a word is made of: upper case; an apostrophe, a hyphen or a space is no letter.

    >>> letters_of("м’ята"), letters_of("e-mail")
    ('МЯТА', 'EMAIL')
    """
    return "".join(ch for ch in normalise(word) if ch.isalpha())


class WordStore(Protocol):
    """Where a lexicon's normalised words live: a set in memory, or a compiled trie on disk
    (:mod:`tabletop.lexicons` keeps the built-in dictionaries in memory-mapped tries)."""

    def __contains__(self, word: object) -> bool: ...

    def __len__(self) -> int: ...

    def __iter__(self) -> Iterator[str]: ...

    def of_length(self, n: int) -> tuple[str, ...]:
        """Every word of ``n`` characters, sorted."""
        ...

    def has_prefix(self, prefix: str, n: int) -> bool:
        """Does some word of ``n`` characters begin with ``prefix`` (normalised)?"""
        ...


class SetStore:
    """A :class:`WordStore` in memory, from already normalised words.

    >>> SetStore(["CAT", "DOG", "HORSE"]).of_length(3)
    ('CAT', 'DOG')
    """

    def __init__(self, words: Iterable[str]):
        self._words = frozenset(words)
        self._by_length: dict[int, tuple[str, ...]] | None = None

    def __contains__(self, word: object) -> bool:
        return word in self._words

    def __len__(self) -> int:
        return len(self._words)

    def __iter__(self) -> Iterator[str]:
        return iter(self._words)

    def of_length(self, n: int) -> tuple[str, ...]:
        if self._by_length is None:
            table: dict[int, list[str]] = {}
            for word in self._words:
                table.setdefault(len(word), []).append(word)
            self._by_length = {k: tuple(sorted(ws)) for k, ws in table.items()}
        return self._by_length.get(n, ())

    def has_prefix(self, prefix: str, n: int) -> bool:
        return _sorted_has_prefix(self.of_length(n), prefix)


def _sorted_has_prefix(words: tuple[str, ...], prefix: str) -> bool:
    """Does a word of the sorted ``words`` begin with ``prefix``?

    >>> _sorted_has_prefix(("CAT", "COT", "DOG"), "CO"), _sorted_has_prefix(("CAT", "DOG"), "CO")
    (True, False)
    """
    at = bisect.bisect_left(words, prefix)
    return at < len(words) and words[at].startswith(prefix)


class Lexicon:
    """A set of accepted words and phrases, compared after :func:`normalise`.

    Built from words (``Lexicon(["cat"])``) or over a :class:`WordStore` of normalised words
    (``Lexicon(store=...)``); ``version`` says which edition of its sources it is (shown by
    ``tabletop doctor`` and in replays). House rules amend it with :meth:`amended`.
    """

    def __init__(self, words: Iterable[str] = (), name: str = "lexicon", *, store: WordStore | None = None,
                 version: str = ""):
        self.name = name
        self.version = version
        self._store: WordStore = store if store is not None else SetStore(
            normalise(w) for w in words if w and w.strip())

    def __contains__(self, word: object) -> bool:
        return isinstance(word, str) and normalise(word) in self._store

    def __len__(self) -> int:
        return len(self._store)

    def __repr__(self) -> str:
        return f"Lexicon({self.name!r}, {len(self)} words)"

    def describe(self) -> str:
        """'built-in en (version 3f2a9c1b, 391,214 words)', for people."""
        version = f"version {self.version}, " if self.version else ""
        return f"{self.name} ({version}{len(self):,} words)"

    def accepts_entry(self, text: str) -> bool:
        """A written entry is accepted when it is a listed word or phrase, or every word of a phrase is."""
        text = normalise(text)
        if text in self._store:
            return True
        parts = text.split(" ")
        return len(parts) > 1 and all(part in self._store for part in parts)

    def words_of_length(self, n: int) -> tuple[str, ...]:
        """Every listed word or phrase of ``n`` characters (spaces count), sorted.

        >>> Lexicon(["cat", "dog", "horse"]).words_of_length(3)
        ('CAT', 'DOG')
        """
        return self._store.of_length(n)

    def has_prefix(self, prefix: str, n: int) -> bool:
        """Does a listed word of ``n`` characters begin with ``prefix``? The prefix must be
        normalised already (:func:`normalise`): a word-search asks this thousands of times.

        >>> lex = Lexicon(["cat", "cats", "dog"])
        >>> lex.has_prefix("CA", 3), lex.has_prefix("CA", 4), lex.has_prefix("CA", 5), lex.has_prefix("DA", 3)
        (True, True, False, False)
        """
        return self._store.has_prefix(prefix, n)

    def words(self) -> Iterable[str]:
        """Every listed word, normalised."""
        return self._store

    def amended(self, add: Iterable[str] = (), remove: Iterable[str] = ()) -> "Lexicon":
        """House rules: this lexicon with words added and removed.

        >>> lex = Lexicon(["cat", "dog"], name="base").amended(add=["qi"], remove=["dog"])
        >>> "QI" in lex, "DOG" in lex, "CAT" in lex, lex.name
        (True, False, True, 'base (amended: +1 -1)')
        """
        added = frozenset(normalise(w) for w in add if w and w.strip())
        removed = frozenset(normalise(w) for w in remove if w and w.strip())
        if not added and not removed:
            return self
        return Lexicon(name=f"{self.name} (amended: +{len(added)} -{len(removed)})", version=self.version,
                       store=_AmendedStore(self._store, added, removed))


class _AmendedStore:
    """A store with words added and removed on top of another."""

    def __init__(self, base: WordStore, added: frozenset[str], removed: frozenset[str]):
        self._base, self._added, self._removed = base, added - removed, removed

    def __contains__(self, word: object) -> bool:
        return word not in self._removed and (word in self._added or word in self._base)

    def __len__(self) -> int:
        return sum(1 for _ in self)

    def __iter__(self) -> Iterator[str]:
        for word in self._base:
            if word not in self._removed and word not in self._added:
                yield word
        yield from self._added

    def of_length(self, n: int) -> tuple[str, ...]:
        words = {w for w in self._base.of_length(n) if w not in self._removed}
        return tuple(sorted(words | {w for w in self._added if len(w) == n}))

    def has_prefix(self, prefix: str, n: int) -> bool:
        if any(len(w) == n and w.startswith(prefix) for w in self._added):
            return True
        if not any(len(w) == n and w.startswith(prefix) for w in self._removed):
            return self._base.has_prefix(prefix, n)
        return _sorted_has_prefix(self.of_length(n), prefix)
