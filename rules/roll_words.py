"""The words a roll of letter dice allows, found by the letters' multiset, not by reading the
whole dictionary: every word of a length is filed once under its sorted letters (its
"signature"), and a roll's words are looked up under the signatures of the roll's sub-multisets
(a Joker adding any one letter). A roll of 8 dice has at most 70 sub-multisets of a length, or
about 1,200 with one Joker, so a look-up costs a few thousand dictionary probes however large
the dictionary is.

>>> from rules.lexicon import Lexicon
>>> sorted(words_from_roll(Lexicon(["cat", "act", "tac", "dog", "cot", "coat"]), ["C", "A", "T", "*"], 3).items())
[('ACT', 0), ('CAT', 0), ('COT', 1), ('TAC', 0)]
"""

from __future__ import annotations

import itertools
import weakref
from collections import Counter
from typing import Iterable

from rules.letter_dice_sets import JOKER
from rules.lexicon import Lexicon

#: with more Jokers than this, the words are found by reading every word of the length
MAX_JOKERS_BY_SIGNATURE = 2

_INDEX: "weakref.WeakKeyDictionary[Lexicon, dict[int, dict[str, tuple[str, ...]]]]" = weakref.WeakKeyDictionary()
_ALPHABET: "weakref.WeakKeyDictionary[Lexicon, dict[int, tuple[str, ...]]]" = weakref.WeakKeyDictionary()


def signature(word: str) -> str:
    """A word's letters in order: words that are anagrams of each other share it.

    >>> signature("TEA"), signature("EAT")
    ('AET', 'AET')
    """
    return "".join(sorted(word))


def by_signature(lexicon: Lexicon, length: int) -> dict[str, tuple[str, ...]]:
    """The lexicon's words of ``length`` letters (letters only) filed by signature; built at the
    first call for a lexicon and length, then kept as long as the lexicon is."""
    per_length = _INDEX.setdefault(lexicon, {})
    if length not in per_length:
        filed: dict[str, list[str]] = {}
        for word in lexicon.words_of_length(length):
            if word.isalpha():
                filed.setdefault(signature(word), []).append(word)
        per_length[length] = {key: tuple(words) for key, words in filed.items()}
        _ALPHABET.setdefault(lexicon, {})[length] = tuple(sorted({ch for key in filed for ch in key}))
    return per_length[length]


def letters_missing(letters: str, have: Counter[str]) -> int:
    """How many of ``letters`` the dice ``have`` (the Jokers left out) cannot give: the Jokers
    a word needs.

    >>> letters_missing("CAAT", Counter("CAT")), letters_missing("TAC", Counter("CAT"))
    (1, 0)
    """
    return sum(max(0, n - have.get(ch, 0)) for ch, n in Counter(letters).items())


def words_from_roll(lexicon: Lexicon, faces: Iterable[str], length: int) -> dict[str, int]:
    """Every word of ``length`` letters the roll ``faces`` allows (each die once, ``*`` the
    Joker standing for any letter), with the number of Jokers it needs."""
    have = Counter(faces)
    jokers = have.pop(JOKER, 0)
    index = by_signature(lexicon, length)
    if jokers > MAX_JOKERS_BY_SIGNATURE:
        return _by_reading(index, have, jokers)
    letters = sorted(have.elements())
    alphabet = _ALPHABET[lexicon][length]
    found: dict[str, int] = {}
    for used in range(0, min(jokers, length) + 1):
        for part in set(itertools.combinations(letters, length - used)):
            for extra in itertools.combinations_with_replacement(alphabet, used):
                for word in index.get(signature("".join(part + extra)), ()):
                    found.setdefault(word, used)
    return found


def _by_reading(index: dict[str, tuple[str, ...]], have: Counter[str], jokers: int) -> dict[str, int]:
    found: dict[str, int] = {}
    for key, words in index.items():
        missing = letters_missing(key, have)
        if missing <= jokers:
            found.update((word, missing) for word in words)
    return found
