"""The board's words settle what its tiles read.

On a board in play every run of two or more tiles, across and down, is a word. The tile reader
reads each square on its own (:mod:`vision.tiles`); this module reads the runs together against
the dictionary:

* :func:`decode_runs`: each run is decoded like handwriting (:func:`vision.words.decode`; a blank
  is a wildcard), so an unsure letter inside a word comes out as the word's letter; a word the
  dictionary lacks is read as the letters show.
* :func:`fill_gaps`: a square read as empty, though not surely (:data:`GAP_EMPTY`), becomes a tile
  when the runs it would join or end are dictionary words (:data:`GAP_WORD` sure) and, read as
  empty, it leaves a telling hole: tiles on both sides of it in a line, or a run beside it that is
  no word. A pale E or I on wood that the network gives even odds of being bare board (real photos
  of deluxe boards, issue 24's tenth round) is so found where its word needs it. The letter is the
  word's, and the square stays unsure (the host is asked).

Both need a dictionary (``index``), and a board of words: :func:`plays_words` says whether most
runs, as read letter by letter, are dictionary words. A board laid out with names, test patterns
or a block of the alphabet is not, and there the dictionary would only turn true letters into
the nearest words (kwwangkw's real photos, mostly such boards: 31 of 735 tiles lost); the reader then reads each
square on its own.

>>> import numpy as np
>>> from vision.words import LexiconIndex
>>> letters = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
>>> probs = np.full((1, 5, 2 + 26), 1e-4)
>>> for k, ch in enumerate("PINCH"):
...     probs[0, k, 2 + letters.index(ch)] = 1.0
>>> probs[0, 1, 0], probs[0, 1, 2 + letters.index("I")] = 1.2, 0.8      # the I, read as empty at 0.6
>>> probs /= probs.sum(2, keepdims=True)
>>> fill_gaps(probs, LexiconIndex(["pinch"]), ".?" + letters)
[(0, 1, 'I')]
>>> bool(probs[0, 1].argmax() == 2 + letters.index("I"))
True
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Iterator

import numpy as np

from rules.squares import Direction, Square
from vision.words import Decoded, LexiconIndex, decode

EMPTY, BLANK = ".", "?"
#: a square read as empty with less than this probability may be a tile its words need (the tuning
#: photos' letters read as empty: 0.47-0.55; squares read as empty beside words on renders of
#: crosswords of dictionary words, six families, 20 a family from seed 61000 + 100·k: none filled wrongly)
GAP_EMPTY = 0.7
#: ... when every run it would make is a dictionary word with at least this share
#: (:attr:`vision.words.Decoded.confidence`)
GAP_WORD = 0.5
#: a board is a game of dictionary words when at least this share of its runs without a blank,
#: read letter by letter, are the dictionary's reading: midway between the real photos of games
#: (0.75-0.98 a photo: declan-tune, two of kwwangkw's) and of names, test patterns, the alphabet
#: and random tiles (0-0.35: the other eight of kwwangkw's, francescov1's; issue 24's tenth round).
#: A board whose typeface the network misreads on most runs (a render's Д read as А on 6 of 10)
#: is read without it too.
GAME_WORDS = 0.55


@dataclass(frozen=True)
class TileWord:
    """A run of two or more tiles, decoded (``text`` has the word's letters, blanks included)."""

    text: str
    squares: tuple[Square, ...]
    direction: Direction
    confidence: float
    raw: str
    in_lexicon: bool

    def to_json(self) -> dict[str, object]:
        return {"word": self.text, "squares": [[s.row, s.col] for s in self.squares],
                "direction": self.direction.value, "confidence": round(self.confidence, 3),
                "in_dictionary": self.in_lexicon, "raw": self.raw}


Memo = dict[bytes, Decoded]
"""Runs already decoded against one dictionary, by their letters' log-probabilities: a read decodes
each run once, though the board gate, the holes and the words each look at it."""


def _decoded(logp: np.ndarray, index: LexiconIndex | None, letters: str, memo: Memo | None) -> Decoded:
    """:func:`vision.words.decode` of one run's ``logp``, from ``memo`` when it was decoded before
    against ``index`` (a run read without a dictionary is its letters, decoded afresh)."""
    if memo is None or index is None:
        return decode(logp, index, alphabet=letters)
    key = logp.tobytes()
    if key not in memo:
        memo[key] = decode(logp, index, alphabet=letters)
    return memo[key]


def letter_logs(probs: np.ndarray, blank: np.ndarray) -> np.ndarray:
    """(rows, cols, letters) log-probabilities of each square's letter, given that a tile lies
    there, from ``probs`` (rows, cols, codes: empty, blank, the letters); a ``blank`` square is
    any letter alike.

    >>> letter_logs(np.array([[[0.5, 0.0, 0.5, 0.0]]]), np.array([[True]])).round(3).tolist()
    [[[-0.693, -0.693]]]
    """
    letters = probs[:, :, 2:]
    logp = np.log(np.clip(letters / np.maximum(letters.sum(2, keepdims=True), 1e-9), 1e-6, 1.0))
    logp[blank] = -np.log(letters.shape[2])
    return logp


def plays_words(probs: np.ndarray, index: LexiconIndex, codes: str, memo: Memo | None = None) -> bool:
    """Whether the board read as ``probs`` ((rows, cols, codes), the codes ``codes``: empty,
    blank, the letters) is a game of ``index``'s words: at least :data:`GAME_WORDS` of its runs
    of two or more tiles that hold no blank read, letter by letter, as the dictionary reads them
    (a board without such runs is not: nothing to settle).

    >>> index = LexiconIndex(["cat", "dog"])
    >>> def read(*rows):
    ...     probs = np.full((len(rows), len(rows[0]), 28), 1e-4)
    ...     for r, row in enumerate(rows):
    ...         for c, ch in enumerate(row):
    ...             probs[r, c, ".?ABCDEFGHIJKLMNOPQRSTUVWXYZ".index(ch)] = 1.0
    ...     return probs
    >>> codes = ".?ABCDEFGHIJKLMNOPQRSTUVWXYZ"
    >>> plays_words(read("CAT.", "...D", "...O", "..XG"), index, codes)       # CAT, DOG, XG: 2 of 3
    True
    >>> plays_words(read("KAT.", "...D", "...Q", "..XG"), index, codes)       # names and patterns
    False
    >>> plays_words(read("....", "...."), index, codes)
    False
    """
    read = np.array(list(codes))[probs.argmax(2)]
    logp = letter_logs(probs, read == BLANK)
    words = total = 0
    for _direction, squares in runs(read != EMPTY):
        at = tuple(np.array(squares).T)
        if (read[at] == BLANK).any():
            continue
        found = _decoded(logp[at], index, codes[2:], memo)
        total += 1
        words += found.in_lexicon and found.text == "".join(read[at])
    return total > 0 and words >= GAME_WORDS * total


def decode_runs(probs: np.ndarray, codes: np.ndarray, confidence: np.ndarray, index: LexiconIndex | None,
                letters: str, memo: Memo | None = None) -> list[TileWord]:
    """Each run of two or more tiles of ``codes`` ((rows, cols) codes, changed in place with
    ``confidence``) decoded against ``index`` (:func:`vision.words.decode`): a letter the word
    settles is written into ``codes`` (a blank stays ``?``), as sure as the word.

    >>> codes = np.array([list("CQT")]); sure = np.array([[0.99, 0.5, 0.99]])
    >>> probs = np.full((1, 3, 28), 1e-3)
    >>> for k, ch in enumerate("CQT"): probs[0, k, 2 + ord(ch) - 65] = 1.0
    >>> probs[0, 1, 2] = 0.9                                # the Q might well be an A
    >>> [w.text for w in decode_runs(probs, codes, sure, LexiconIndex(["cat"]), "ABCDEFGHIJKLMNOPQRSTUVWXYZ")]
    ['CAT']
    >>> "".join(codes[0])
    'CAT'
    """
    blank = codes == BLANK
    logp = letter_logs(probs, blank)
    words = []
    for direction, squares in runs(codes != EMPTY):
        index_of = tuple(np.array(squares).T)
        found = _decoded(logp[index_of], index, letters, memo)
        for sq, ch in zip(squares, found.text):
            if not blank[sq] and found.in_lexicon and found.confidence > confidence[sq]:
                codes[sq], confidence[sq] = ch, found.confidence
        words.append(TileWord(found.text, tuple(Square(*s) for s in squares), direction, found.confidence,
                              found.raw, found.in_lexicon))
    return words


def fill_gaps(probs: np.ndarray, index: LexiconIndex, codes: str, memo: Memo | None = None) -> list[tuple[int, int, str]]:
    """The squares read as empty that the board's words need (see the module docstring), as
    (row, col, letter); ``probs`` ((rows, cols, codes), the codes ``codes``: empty, blank, the
    letters) is changed in place so that each reads as that letter, barely (it stays unsure).
    Each square is judged on the board as first read, so two holes side by side are not filled
    from each other."""
    letters = codes[2:]
    read = np.array(list(codes))[probs.argmax(2)]
    logp = letter_logs(probs, read == BLANK)
    filled = []
    for row, col in zip(*np.nonzero((read == EMPTY) & (probs[:, :, 0] < GAP_EMPTY))):
        letter = _needed(int(row), int(col), read, logp, index, letters, memo)
        if letter is not None:
            filled.append((int(row), int(col), letter))
    for row, col, letter in filled:
        at = probs[row, col]
        at[codes.index(letter)] = max(at[codes.index(letter)], at[0] + 1e-3)
        at /= at.sum()
    return filled


def _needed(row: int, col: int, read: np.ndarray, logp: np.ndarray, index: LexiconIndex, letters: str,
            memo: Memo | None) -> str | None:
    """The letter the words through the empty square (``row``, ``col``) of the board ``read``
    (its codes) need, or None: every run of two or more it would make is a dictionary word that
    keeps the letters read there (a blank is any) and agrees on this square's letter, and in one
    of them the square lies between two tiles or leaves a run beside it that is no word."""
    tiled = read != EMPTY
    needed, telling = None, False
    for step in ((0, 1), (1, 0)):
        before, after = _reach(tiled, row, col, step, -1), _reach(tiled, row, col, step, 1)
        if not before and not after:
            continue
        squares = before[::-1] + [(row, col)] + after
        word = _decoded(logp[tuple(np.array(squares).T)], index, letters, memo)
        kept = all(read[r, c] in (BLANK, ch) for (r, c), ch in zip(squares, word.text) if (r, c) != (row, col))
        if not (word.in_lexicon and word.confidence >= GAP_WORD and kept):
            return None
        letter = word.text[len(before)]
        if needed not in (None, letter):
            return None
        needed = letter
        telling |= bool(before and after) or any(
            len(side) >= 2 and not _decoded(logp[tuple(np.array(side).T)], index, letters, memo).in_lexicon
            for side in (before[::-1], after))
    return needed if telling else None


def _reach(tiled: np.ndarray, row: int, col: int, step: tuple[int, int], sign: int) -> list[tuple[int, int]]:
    """The tiled squares next to (``row``, ``col``) one after another along ``step`` (``sign``: on
    which side), nearest first."""
    out = []
    r, c = row + sign * step[0], col + sign * step[1]
    while 0 <= r < tiled.shape[0] and 0 <= c < tiled.shape[1] and tiled[r, c]:
        out.append((r, c))
        r, c = r + sign * step[0], c + sign * step[1]
    return out


def runs(tiled: np.ndarray) -> Iterator[tuple[Direction, list[tuple[int, int]]]]:
    """(direction, squares) of every run of two or more tiled squares, across then down.

    >>> [(d.value, s) for d, s in runs(np.array([[True, True], [False, True]]))]
    [('across', [(0, 0), (0, 1)]), ('down', [(0, 1), (1, 1)])]
    """
    for direction, grid in ((Direction.ACROSS, tiled), (Direction.DOWN, tiled.T)):
        for i, line in enumerate(grid):
            j = 0
            while j < len(line):
                if not line[j]:
                    j += 1
                    continue
                k = j
                while k < len(line) and line[k]:
                    k += 1
                if k - j >= 2:
                    yield direction, [(i, x) if direction is Direction.ACROSS else (x, i) for x in range(j, k)]
                j = k
