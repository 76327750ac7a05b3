"""The words a tray holds: a search over the dictionary's prefixes, die after touching die.

From each die, the search reads on to every touching die not yet used, and goes on only while
some word of the dictionary begins with what it has read (:meth:`rules.lexicon.Lexicon.has_prefix`,
asked per word length: a prefix lookup in the compiled trie), so it never reads the whole
dictionary. A wild face tries every letter of the language. Words with an apostrophe are not
found (no die shows one).

>>> from rules.lexicon import Lexicon
>>> from rules.word_grid_tray import Tray
>>> tray = Tray.parse(["CATS", "ORED", "PINE", "LUGH"], "en")   # ROTE: no T touches the O
>>> sorted(words_in(tray, Lexicon(["cat", "cats", "coat", "rote", "xyz", "ca"]), 3, "en"))
['CAT', 'CATS', 'COAT']
>>> best_words(tray, Lexicon(["cat", "cats", "coat", "rote"]), 3, "en", limit=2)
['CATS', 'COAT']
"""

from __future__ import annotations

from typing import Callable

from rules.lexicon import Lexicon
from rules.word_grid_dice import ALPHABETS, WILD
from rules.word_grid_tray import Tray


def words_in(tray: Tray, lexicon: Lexicon, min_letters: int, language: str) -> set[str]:
    """Every dictionary word of at least ``min_letters`` letters that chains through ``tray``."""
    lengths = tuple(n for n in range(min_letters, tray.letters() + 1) if lexicon.has_prefix("", n))
    found: set[str] = set()

    def visit(index: int, read: str, used: int, wanted: tuple[int, ...]) -> None:
        face = tray.faces[index]
        for piece in (ALPHABETS[language] if face == WILD else (face,)):
            text = read + piece
            still = tuple(n for n in wanted if n >= len(text) and lexicon.has_prefix(text, n))
            if not still:
                continue
            if still[0] == len(text):          # a word of exactly this length begins with it: it is one
                found.add(text)
            longer = still[1:] if still[0] == len(text) else still
            if longer:
                for step in tray.neighbours(index):
                    if not used >> step & 1:
                        visit(step, text, used | 1 << step, longer)

    if lengths:
        for start in range(len(tray.faces)):
            visit(start, "", 1 << start, lengths)
    return found


def best_words(tray: Tray, lexicon: Lexicon, min_letters: int, language: str, limit: int = 10,
               rank: Callable[[str], float] | None = None) -> list[str]:
    """The tray's ``limit`` best words: the longest first (they score most), then the highest
    ``rank`` (say, how common a word is), then alphabetical."""
    found = words_in(tray, lexicon, min_letters, language)
    return sorted(found, key=lambda w: (-len(w), -(rank(w) or 0.0) if rank else 0.0, w))[:limit]
