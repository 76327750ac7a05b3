"""Where lexicons come from: Debian's word lists and WordNet (installed by ./tabletop.sh), or a
house word list file.

Built-in English is the union of ``american-english-huge``, ``british-english-huge`` (with their
inflections: APPLES, MA, AT; accented words also without their accents: CAFE) and WordNet's
phrases (ICE CREAM; WordNet's single words add only proper nouns it writes in lower case, genera
and abbreviations, so they are left out);
Ukrainian is ``/usr/share/dict/ukrainian`` (every inflected form). Proper nouns (a capital first
letter in the list), possessives (``'s``), English abbreviations without a vowel (``kg``,
``ltd``) and Roman numerals (``iv``; see :func:`is_word_like`) are left out.

>>> import tempfile, pathlib
>>> path = pathlib.Path(tempfile.mkdtemp()) / "house.txt"
>>> _ = path.write_text("qi\\nza\\n# a comment\\n")
>>> "QI" in load_wordlist(path)
True
"""

from __future__ import annotations

import functools
import hashlib
import os
import pathlib
import re

from rules.lexicon import Lexicon, normalise
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
    """The list's words that are word-like; in English also each accented word without its
    accents, as players write it (café -> cafe, naïve -> naive). Ukrainian letters are never folded
    (Ґ and Г, Й and И are different letters)."""
    with path.open(encoding="utf-8", errors="replace") as handle:
        words = [word for word in (line.strip() for line in handle) if is_word_like(word, language)]
    if language == "en":
        words += [plain for plain in (_unaccented(w) for w in words if not w.isascii()) if plain]
    return words


def _unaccented(word: str) -> str | None:
    import unicodedata

    plain = "".join(ch for ch in unicodedata.normalize("NFD", word) if not unicodedata.combining(ch))
    return plain if plain.isascii() and plain != word else None


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
                # WordNet adds phrases (ice cream); its single words that Debian's lists lack are
                # proper nouns it writes in lower case (zagreb, hemingway), genera and abbreviations
                if "_" not in lemma:
                    continue
                if lemma.isascii() and lemma.replace("_", "").replace("-", "").isalpha():
                    lemmas.append(lemma.replace("_", " "))
    return lemmas


#: bump when the words a source gives (or the trie's layout) change, so old caches are rebuilt
CACHE_FORMAT = "2"


def cache_dir() -> pathlib.Path:
    """Where compiled dictionaries are kept: ``$TABLETOP_CACHE``, else ``$XDG_CACHE_HOME/tabletop``
    (``~/.cache/tabletop``)."""
    if os.environ.get("TABLETOP_CACHE"):
        return pathlib.Path(os.environ["TABLETOP_CACHE"])
    base = os.environ.get("XDG_CACHE_HOME") or str(pathlib.Path.home() / ".cache")
    return pathlib.Path(base) / "tabletop"


def _source_files(language: str) -> list[pathlib.Path]:
    files = [DICT_DIR / name for name in SOURCES[language]]
    if language == "en":
        files += [WORDNET_DIR / f"index.{part}" for part in ("noun", "verb", "adj", "adv")]
    return [f for f in files if f.exists()]


def _version(language: str, files: list[pathlib.Path]) -> str:
    """A short key of the sources' editions (path, size, modification time) and the cache format."""
    import hashlib

    digest = hashlib.sha256(f"{CACHE_FORMAT}:{language}".encode())
    for f in files:
        stat = f.stat()
        digest.update(f"{f}:{stat.st_size}:{stat.st_mtime_ns}".encode())
    return digest.hexdigest()[:12]


class TrieStore:
    """A :class:`rules.lexicon.WordStore` over a compiled, memory-mapped MARISA trie.

    Each key is the word prefixed by its length (``003CAT``), so the words of one length are
    one prefix query away; the file is shared by every process through the page cache.
    """

    def __init__(self, trie):
        self._trie = trie
        self._by_length: dict[int, tuple[str, ...]] = {}

    @staticmethod
    def key(word: str) -> str:
        return f"{len(word):03d}{word}"

    def __contains__(self, word: object) -> bool:
        return isinstance(word, str) and self.key(word) in self._trie

    def __len__(self) -> int:
        return len(self._trie)

    def __iter__(self):
        return (k[3:] for k in self._trie.iterkeys())

    def of_length(self, n: int) -> tuple[str, ...]:
        if n not in self._by_length:
            self._by_length[n] = tuple(sorted(k[3:] for k in self._trie.keys(f"{n:03d}")))
        return self._by_length[n]

    def has_prefix(self, prefix: str, n: int) -> bool:
        for _ in self._trie.iterkeys(f"{n:03d}{prefix}"):     # the first key with the prefix settles it
            return True
        return False


def _compile(language: str, path: pathlib.Path) -> None:
    """Build the dictionary from its word lists into a trie file (written atomically)."""
    import marisa_trie

    words: list[str] = []
    for name in SOURCES[language]:
        source = DICT_DIR / name
        if source.exists():
            words += _common_words(source, language)
    if language == "en":
        words += _wordnet_lemmas()
    keys = {TrieStore.key(normalise(w)) for w in words if w and w.strip()}
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(f"{path.name}.{os.getpid()}.tmp")
    marisa_trie.Trie(keys).save(str(tmp))
    os.replace(tmp, path)


@functools.lru_cache(maxsize=4)
def builtin_lexicon(language: str = "en") -> Lexicon:
    """The built-in dictionary for ``language`` ('en' or 'uk'), loaded once per process.

    Compiled on first use into a trie in :func:`cache_dir`, keyed by the word lists' editions,
    and memory-mapped from there afterwards: a later start takes milliseconds, not seconds.
    """
    import marisa_trie

    if language not in SOURCES:
        raise UserError(f"no built-in dictionary for language {language!r}; choose one of {', '.join(LANGUAGES)}")
    files = _source_files(language)
    if not any(f.parent == DICT_DIR for f in files):
        missing = ", ".join(str(DICT_DIR / n) for n in SOURCES[language])
        raise UserError(f"the {language} dictionary is not installed ({missing} missing); run ./tabletop.sh setup")
    version = _version(language, files)
    path = cache_dir() / f"lexicon-{language}-{version}.marisa"
    if not path.exists():
        try:
            _compile(language, path)
        except OSError as error:
            raise UserError(f"cannot write the compiled dictionary to {path.parent}: {error.strerror}; "
                            f"set TABLETOP_CACHE to a writable folder") from None
    trie = marisa_trie.Trie()
    try:
        trie.mmap(str(path))
    except Exception:                     # a damaged cache file: build it again
        _compile(language, path)
        trie = marisa_trie.Trie()
        trie.mmap(str(path))
    return Lexicon(name=f"built-in {language}", version=version, store=TrieStore(trie))


def _wordfreq_version() -> str | None:
    """The installed ``wordfreq``'s version (None when it is not installed), read from the name of
    its ``dist-info`` folder: what :mod:`importlib.metadata` says, without importing that (10 ms and
    2 MB on every ``tabletop score``). An unusual installation is asked the usual way.

    >>> from importlib.metadata import version
    >>> _wordfreq_version() == version("wordfreq")
    True
    """
    import importlib.util

    try:
        found = importlib.util.find_spec("wordfreq")
        places = list(found.submodule_search_locations or ()) if found else []
        infos = [info for place in places for info in pathlib.Path(place).parent.glob("wordfreq-*.dist-info")]
        if len(infos) == 1:
            return infos[0].name.removeprefix("wordfreq-").removesuffix(".dist-info")
        from importlib.metadata import version

        return version("wordfreq")
    except Exception:
        return None


@functools.lru_cache(maxsize=4)
def word_frequencies(language: str = "en"):
    """How often each word occurs in ordinary text in ``language``, as a function of an
    upper-case word (0.0 for words it does not know), from the ``wordfreq`` package's data;
    None when it has no list for the language. Reading handwriting leans on it
    (:class:`vision.words.LexiconIndex`); the rules never do.

    Compiled on first use, like the dictionaries, into a memory-mapped trie in
    :func:`cache_dir` keyed by wordfreq's version (loading wordfreq itself takes a second).

    >>> freq = word_frequencies("en")
    >>> freq("THE") > freq("CAT") > freq("TUMULI") > 0, freq("QZXJ")
    (True, 0.0)
    """
    import marisa_trie

    edition = _wordfreq_version()
    if edition is None:
        return None
    path = cache_dir() / f"frequency-{language}-{CACHE_FORMAT}-{edition}.marisa"
    if not path.exists():
        try:
            import wordfreq

            table = wordfreq.get_frequency_dict(language, "best")
        except (ImportError, LookupError):
            return None
        entries = ((word.upper(), (value,)) for word, value in table.items() if word and word.isalpha())
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_name(f"{path.name}.{os.getpid()}.tmp")
        marisa_trie.RecordTrie("<d", entries).save(str(tmp))
        os.replace(tmp, path)
    trie = marisa_trie.RecordTrie("<d")
    trie.mmap(str(path))

    def frequency(word: str) -> float:
        found = trie.get(word)
        return float(found[0][0]) if found else 0.0

    return frequency


def reading_index(lexicon: Lexicon, language: str = "en", alphabet: str | None = None):
    """The lexicon as the board reader decodes words with: common words slightly preferred;
    its words of ``alphabet`` only (default: the letters handwriting in ``language`` is read as,
    :func:`vision.letters.alphabet_of`; the tile reader gives the set's letters).

    For a built-in dictionary the per-length letter arrays and priors are compiled into
    :func:`cache_dir` the first time a length is read, and memory-mapped from there afterwards.

    >>> index = reading_index(Lexicon(["cat", "cot"]), "en")
    >>> bool(index.log_prior(3)[0] > index.log_prior(3)[1])  # CAT is commoner than COT
    True
    """
    from vision.words import FREQUENCY_WEIGHT, LexiconIndex

    from vision.letters import ALPHABET, alphabet_of

    frequency = word_frequencies(language)
    alphabet = alphabet or alphabet_of(language)
    if not lexicon.version:
        return LexiconIndex(lexicon, frequency=frequency, alphabet=alphabet)
    letters = "" if alphabet == ALPHABET else "-" + hashlib.sha256(alphabet.encode()).hexdigest()[:8]
    folder = cache_dir() / f"reading-{language}-{lexicon.version}-{CACHE_FORMAT}-{FREQUENCY_WEIGHT}{letters}"
    return _CachedIndex(folder, lexicon, frequency, alphabet)


def _cached_index_class():
    from vision.words import LexiconIndex

    class CachedIndex(LexiconIndex):
        """A :class:`~vision.words.LexiconIndex` whose arrays and priors live in files, one per length."""

        def __init__(self, folder: pathlib.Path, lexicon: Lexicon, frequency, alphabet: str):
            super().__init__(lexicon, frequency=frequency, alphabet=alphabet)
            self.folder = folder

        def _load(self, n: int) -> None:
            import numpy as np

            letters, priors = self.folder / f"letters-{n}.npy", self.folder / f"priors-{n}.npy"
            if not (letters.exists() and priors.exists()):
                array, prior = super().array(n), super().log_prior(n)
                self.folder.mkdir(parents=True, exist_ok=True)
                for path, data in ((letters, array.astype(np.uint8)), (priors, prior)):
                    tmp = path.with_name(f"{path.stem}.{os.getpid()}.tmp.npy")
                    np.save(tmp, data)
                    os.replace(tmp, path)
            self._arrays[n] = np.load(letters, mmap_mode="r").astype(np.intp)
            self._priors[n] = np.load(priors, mmap_mode="r")

        def array(self, n: int):
            if n not in self._arrays:
                self._load(n)
            return self._arrays[n]

        def log_prior(self, n: int):
            if n not in self._priors:
                self._load(n)
            return self._priors[n]

    return CachedIndex


def _CachedIndex(folder: pathlib.Path, lexicon: Lexicon, frequency, alphabet: str):
    return _cached_index_class()(folder, lexicon, frequency, alphabet)


def load_wordlist(path: str | os.PathLike) -> Lexicon:
    """A house-rules word list: one word (or phrase) a line, ``#`` comments and blank lines skipped."""
    path = pathlib.Path(path)
    text = read_user_text(path, "word list")
    words = [line.strip() for line in text.splitlines() if line.strip() and not line.lstrip().startswith("#")]
    if not words:
        raise UserError(f"word list {path} has no words")
    return Lexicon(words, name=str(path))
