"""Where lexicons come from: Debian's word lists and WordNet (installed by ./tabletop.sh), or a
house word list file.

Built-in English is the union of ``american-english-huge``, ``british-english-huge`` (with their
inflections: APPLES, MA, AT) and WordNet's lemmas (which add phrases such as ICE CREAM);
Ukrainian is ``/usr/share/dict/ukrainian`` (every inflected form). Proper nouns (a capital first
letter in the list), possessives (``'s``), English abbreviations without a vowel (``kg``,
``ltd``) and Roman numerals (``iv``; see :func:`is_word_like`) are left out, and so are
WordNet's single words of fewer than four letters (mostly chemical symbols such as ``tc``).

>>> import tempfile, pathlib
>>> path = pathlib.Path(tempfile.mkdtemp()) / "house.txt"
>>> _ = path.write_text("qi\\nza\\n# a comment\\n")
>>> "QI" in load_wordlist(path)
True
"""

from __future__ import annotations

import functools
import os
import pathlib
import re

from rules.lexicon import Lexicon
from tabletop.errors import UserError
from tabletop.files import read_user_text

DICT_DIR = pathlib.Path(os.environ.get("TABLETOP_DICT_DIR", "/usr/share/dict"))
WORDNET_DIR = pathlib.Path(os.environ.get("TABLETOP_WORDNET_DIR", "/usr/share/wordnet"))

SOURCES = {
    "en": ["american-english-huge", "british-english-huge"],
    "uk": ["ukrainian"],
}
LANGUAGES = tuple(SOURCES)


#: real English words of up to four letters with no vowel; other such entries are abbreviations
#: (``cm``, ``kg``, ``ltd``) that Debian's huge lists carry in lower case.
VOWELLESS_WORDS = frozenset("hm hmm mm sh shh st brr brrr grr nth pst psst tsk tsks zzz pfft cwm cwms".split())
_VOWELS = frozenset("aeiouy")

#: Roman numerals (``ii``, ``iv``, ``xlii``) fill Debian's huge lists in lower case; these few
#: are words as well (a musical note, Greek letters, a Chinese unit, to mix, hmm).
ROMAN_NUMERAL_WORDS = frozenset("mi xi li mix mm".split())
_ROMAN_NUMERAL = re.compile(r"m{0,3}(cm|cd|d?c{0,3})(xc|xl|l?x{0,3})(ix|iv|v?i{0,3})")


def is_word_like(word: str, language: str = "en") -> bool:
    """Not a proper noun, possessive, (English) vowelless abbreviation or Roman numeral.

    >>> [w for w in ("apple", "Ann", "apple's", "kg", "ltd", "hmm", "ma", "iv", "xlii", "mix", "xi") if is_word_like(w)]
    ['apple', 'hmm', 'ma', 'mix', 'xi']
    """
    if not word or word[0].isupper() or word.endswith("'s"):
        return False
    if language == "en" and len(word) >= 2 and _ROMAN_NUMERAL.fullmatch(word):
        return word in ROMAN_NUMERAL_WORDS
    if language == "en" and len(word) <= 4 and not (_VOWELS & set(word)):
        return word in VOWELLESS_WORDS
    return True


def _common_words(path: pathlib.Path, language: str) -> list[str]:
    with path.open(encoding="utf-8", errors="replace") as handle:
        return [word for word in (line.strip() for line in handle) if is_word_like(word, language)]


def _wordnet_lemmas() -> list[str]:
    lemmas = []
    for part in ("noun", "verb", "adj", "adv"):
        index = WORDNET_DIR / f"index.{part}"
        if not index.exists():
            continue
        with index.open(encoding="utf-8", errors="replace") as handle:
            for line in handle:
                if line.startswith(" "):
                    continue
                lemma = line.split(" ", 1)[0]
                # WordNet adds phrases (ice cream); its short single words are mostly symbols (tc, ni)
                if "_" not in lemma and len(lemma) < 4:
                    continue
                if lemma.isascii() and lemma.replace("_", "").replace("-", "").isalpha():
                    lemmas.append(lemma.replace("_", " "))
    return lemmas


@functools.lru_cache(maxsize=4)
def builtin_lexicon(language: str = "en") -> Lexicon:
    """The built-in dictionary for ``language`` ('en' or 'uk'), loaded once per process."""
    if language not in SOURCES:
        raise UserError(f"no built-in dictionary for language {language!r}; choose one of {', '.join(LANGUAGES)}")
    words: list[str] = []
    missing = []
    for name in SOURCES[language]:
        path = DICT_DIR / name
        if path.exists():
            words += _common_words(path, language)
        else:
            missing.append(str(path))
    if language == "en":
        words += _wordnet_lemmas()
    if not words:
        raise UserError(
            f"the {language} dictionary is not installed ({', '.join(missing)} missing); run ./tabletop.sh setup"
        )
    return Lexicon(words, name=f"built-in {language}")


@functools.lru_cache(maxsize=4)
def word_frequencies(language: str = "en"):
    """How often each word occurs in ordinary text in ``language``, as a function of an
    upper-case word (0.0 for words it does not know), from the ``wordfreq`` package's data;
    None when it has no list for the language. Reading handwriting leans on it
    (:class:`vision.words.LexiconIndex`); the rules never do.

    >>> freq = word_frequencies("en")
    >>> freq("THE") > freq("CAT") > freq("TUMULI") > 0, freq("QZXJ")
    (True, 0.0)
    """
    try:
        import wordfreq

        table = wordfreq.get_frequency_dict(language, "best")
    except (ImportError, LookupError):
        return None

    def frequency(word: str) -> float:
        return table.get(word.lower(), 0.0)

    return frequency


def reading_index(lexicon: Lexicon, language: str = "en"):
    """The lexicon as the board reader decodes words with: common words slightly preferred.

    >>> index = reading_index(Lexicon(["cat", "cot"]), "en")
    >>> bool(index.log_prior(3)[0] > index.log_prior(3)[1])  # CAT is commoner than COT
    True
    """
    from vision.words import LexiconIndex

    return LexiconIndex(lexicon, frequency=word_frequencies(language))


def load_wordlist(path: str | os.PathLike) -> Lexicon:
    """A house-rules word list: one word (or phrase) a line, ``#`` comments and blank lines skipped."""
    path = pathlib.Path(path)
    text = read_user_text(path, "word list")
    words = [line.strip() for line in text.splitlines() if line.strip() and not line.lstrip().startswith("#")]
    if not words:
        raise UserError(f"word list {path} has no words")
    return Lexicon(words, name=str(path))
