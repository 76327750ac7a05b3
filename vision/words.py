"""Words from letter probabilities: lexicon-constrained decoding and answer verification.

Each written square has a probability for every letter. A run of squares is decoded to the
dictionary word with the highest joint probability; its *confidence* is that word's share of
the probability over every candidate (all words of that length, plus the raw letter-by-letter
reading as an out-of-dictionary option). Low confidence means "ask the host to confirm".

Given how often words occur in ordinary text (``frequency``), a common word is a little more
likely than a rare one that looks the same (a word smudged halfway between BEACHES and BENCHES
is read as the more common BEACHES): each word gets a log prior of ``FREQUENCY_WEIGHT`` times
the log of its frequency, counted from ``FREQUENCY_FLOOR`` up.

>>> import numpy as np
>>> probs = np.full((3, 26), 0.01); probs[0, 2] = probs[1, 0] = 0.7; probs[2, 19] = 0.4; probs[2, 17] = 0.5
>>> index = LexiconIndex(["cat", "car", "dog"])
>>> d = decode(np.log(probs), index)
>>> d.text, d.raw, d.in_lexicon
('CAR', 'CAR', True)
>>> v = verify(np.log(probs), "CAT", index, prior=0.0)
>>> v.matches, round(v.confidence, 2)
(False, 0.44)
>>> v = verify(np.log(probs), "CAT", index)  # the card says CAT: it starts ANSWER_LOG_PRIOR ahead
>>> v.matches, round(v.confidence, 2)
(True, 0.86)
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable, Iterable

import numpy as np

from vision.letters import ALPHABET

#: log prior of "the writer meant a word not in the dictionary" (per word)
OOV_LOG_PRIOR = -20.0
#: words read less surely than this go to the host when the letter network has no fitted
#: acceptance (:mod:`vision.acceptance`, scripts/fit_accept.py); chosen by scripts/fit_confirm.py on the
#: calibration writers (420 everyday words: at 0.97 none of the 322 accepted was wrong and 23 % were
#: asked; at 0.9, 3 of 353 accepted were wrong)
CONFIRM_BELOW = 0.97
#: log prior of the clue card's answer over any other word, when verifying what was written;
#: chosen by scripts/fit_confirm.py --answers on the calibration writers' words: 2 verified 85 %
#: of 360 written answers and took none of 318 words one letter away for the answer (4: 90 %, 1
#: taken; 8: 98 %, 24 taken)
ANSWER_LOG_PRIOR = 2.0
#: how much a word's frequency in ordinary text counts (0: every dictionary word as likely);
#: chosen on the tuning writers' words (docs/vision.md, under "Words")
FREQUENCY_WEIGHT = 0.4
#: frequencies below this (and words the frequency list lacks) count as this rare
FREQUENCY_FLOOR = 1e-7


class LexiconIndex:
    """Words of A-Z only, grouped by length as letter-index arrays for fast scoring.

    Built from any iterable of words, or from a :class:`rules.lexicon.Lexicon` (``.words()``);
    ``frequency`` (upper-case word -> share of ordinary text, e.g.
    :func:`tabletop.lexicons.word_frequencies`) gives common words a prior.

    >>> index = LexiconIndex(["cat", "cot"], frequency={"CAT": 1e-4}.get)
    >>> [round(float(x), 2) for x in index.log_prior(3)]
    [2.76, 0.0]
    """

    def __init__(self, words: Iterable[str] | object, frequency: Callable[[str], float | None] | None = None,
                 weight: float = FREQUENCY_WEIGHT, alphabet: str = ALPHABET):
        self.frequency, self.weight, self.alphabet = frequency, weight, alphabet
        self._letters = frozenset(alphabet)
        self._source: Any = None
        self._words: dict[int, list[str]] = {}
        if callable(getattr(words, "words_of_length", None)):
            self._source = words          # a Lexicon: each length is fetched the first time it is needed
        else:
            by_len: dict[int, list[str]] = {}
            for w in words if not callable(getattr(words, "words", None)) else words.words():  # type: ignore[union-attr]
                w = w.upper()
                if w and all(ch in self._letters for ch in w):
                    by_len.setdefault(len(w), []).append(w)
            self._words = {n: sorted(set(ws)) for n, ws in by_len.items()}
        self._arrays: dict[int, np.ndarray] = {}
        self._priors: dict[int, np.ndarray] = {}

    def words(self, n: int) -> list[str]:
        """The ``n``-letter words of the alphabet (A-Z unless given), sorted."""
        if self._source is not None and n not in self._words:
            self._words[n] = [w for w in self._source.words_of_length(n) if all(ch in self._letters for ch in w)]
        return self._words.get(n, [])

    def array(self, n: int) -> np.ndarray:
        if n not in self._arrays:
            ws = self.words(n)
            if not ws:
                arr = np.zeros((0, n), np.uint8)
            elif self.alphabet == ALPHABET:
                arr = np.frombuffer("".join(ws).encode("ascii"), np.uint8).reshape(len(ws), n) - 65
            else:
                position = {ch: i for i, ch in enumerate(self.alphabet)}
                arr = np.array([[position[ch] for ch in w] for w in ws], np.uint8).reshape(len(ws), n)
            self._arrays[n] = arr.astype(np.intp)
        return self._arrays[n]

    def log_prior(self, n: int) -> np.ndarray:
        """Each ``n``-letter word's log prior (as :meth:`words` orders them), 0 for the rarest."""
        if n not in self._priors:
            words = self.words(n)
            if self.frequency is None or self.weight == 0:
                self._priors[n] = np.zeros(len(words))
            else:
                f = np.array([self.frequency(w) or 0.0 for w in words], float)
                self._priors[n] = self.weight * np.log(np.maximum(f, FREQUENCY_FLOOR) / FREQUENCY_FLOOR)
        return self._priors[n]

    def __contains__(self, word: str) -> bool:
        return word.upper() in set(self.words(len(word)))


@dataclass
class Decoded:
    text: str  #: the reading chosen (a dictionary word, or the raw letters when none fits)
    confidence: float  #: its posterior share, 0..1
    raw: str  #: letter-by-letter best reading
    in_lexicon: bool
    alternatives: list[tuple[str, float]]  #: next best readings with their shares
    #: the smallest log-probability the letter network gave a letter of :attr:`text`
    weakest: float = 0.0
    known: int = 0  #: letters of it that were given (``fixed``: already on the board)

    @property
    def needs_confirmation(self) -> bool:
        return self.confidence < CONFIRM_BELOW


def _logsumexp(x: np.ndarray) -> float:
    m = float(np.max(x))
    return m + float(np.log(np.exp(x - m).sum()))


def word_scores(logp: np.ndarray, words: np.ndarray) -> np.ndarray:
    """Each word's log-probability: the sum over its positions of ``logp`` (n, letters) at its
    letters (``words``: (N, n) letter indices), a column at a time (three to four times faster
    than one gather of the whole (N, n) block for the dictionary's 30,000 words of seven letters).

    >>> word_scores(np.log([[0.5, 0.5], [0.9, 0.1]]), np.array([[0, 0], [1, 1]])).round(3).tolist()
    [-0.799, -2.996]
    """
    scores = np.zeros(len(words), logp.dtype) if logp.shape[0] == 0 else logp[0, words[:, 0]].copy()
    for k in range(1, logp.shape[0]):
        scores += logp[k, words[:, k]]
    return scores


def decode(logp: np.ndarray, index: LexiconIndex | None, fixed: dict[int, int] | None = None,
           alphabet: str | None = None) -> Decoded:
    """The best reading of a run from its (n, letters) log-probabilities, the letters those of
    ``alphabet`` (default: the index's, else A-Z).

    ``fixed`` maps positions to letter indices that must be kept (a crossing word's letter).
    """
    n = len(logp)
    letters = alphabet or (index.alphabet if index is not None else ALPHABET)
    raw_idx = logp.argmax(1)
    if fixed:
        for k, v in fixed.items():
            raw_idx[k] = v
    raw = "".join(letters[i] for i in raw_idx)
    raw_score = float(logp[np.arange(n), raw_idx].sum()) + OOV_LOG_PRIOR
    arr = index.array(n) if index is not None else np.zeros((0, n), np.intp)
    prior = index.log_prior(n) if index is not None else np.zeros(0)
    if fixed and len(arr):
        keep = np.ones(len(arr), bool)
        for k, v in fixed.items():
            keep &= arr[:, k] == v
        arr, prior = arr[keep], prior[keep]
    known = len(fixed or {})
    free = np.array([k not in (fixed or {}) for k in range(n)], bool)  # the letters read, not given
    raw_weakest = float(logp[np.arange(n), raw_idx][free].min()) if free.any() else 0.0
    if len(arr) == 0:
        # no dictionary to lean on: the chance every letter is right (capped when a dictionary
        # was given but has no such word: then the host should look)
        letters_right = float(np.exp(logp[np.arange(n), raw_idx].sum()))
        return Decoded(raw, letters_right if index is None else min(0.5, letters_right), raw, False, [],
                       raw_weakest, known)
    scores = word_scores(logp, arr) + prior
    total = _logsumexp(np.append(scores, raw_score))
    top = np.argpartition(-scores, 3)[:4] if len(scores) > 4 else np.arange(len(scores))   # the 4 best, unsorted
    order = top[np.argsort(-scores[top], kind="stable")]
    best = int(order[0])
    best_text = "".join(letters[i] for i in arr[best])
    alts = [("".join(letters[i] for i in arr[k]), float(np.exp(scores[k] - total))) for k in order[1:]]
    if raw_score > scores[best] and best_text != raw:
        return Decoded(raw, min(0.5, float(np.exp(raw_score - total))), raw, False,
                       [(best_text, float(np.exp(scores[best] - total)))] + alts, raw_weakest, known)
    weakest = float(logp[np.arange(n), arr[best]][free].min()) if free.any() else 0.0
    return Decoded(best_text, float(np.exp(scores[best] - total)), raw, True, alts, weakest, known)


@dataclass
class Verification:
    expected: str
    matches: bool  #: the expected answer is the most likely reading
    confidence: float  #: posterior share of the expected answer

    @property
    def needs_confirmation(self) -> bool:
        return self.confidence < CONFIRM_BELOW


def verify(logp: np.ndarray, expected: str, index: LexiconIndex | None = None,
           prior: float | None = None, alphabet: str | None = None) -> Verification:
    """Is ``expected`` (e.g. the clue card's answer) what is written? Compared with every other
    dictionary word of that length and the raw reading; the card's answer starts ``prior``
    (default :data:`ANSWER_LOG_PRIOR`) ahead of each of them, as players mostly write it. The
    letters are ``alphabet``'s (default: the index's, else A-Z)."""
    letters = alphabet or (index.alphabet if index is not None else ALPHABET)
    expected = expected.upper()
    n = len(logp)
    if len(expected) != n or not all(ch in letters for ch in expected):
        return Verification(expected, False, 0.0)
    e_idx = np.array([letters.index(ch) for ch in expected])
    e_score = float(logp[np.arange(n), e_idx].sum()) + (ANSWER_LOG_PRIOR if prior is None else prior)
    raw_idx = logp.argmax(1)
    raw_score = float(logp[np.arange(n), raw_idx].sum()) + OOV_LOG_PRIOR
    arr = index.array(n) if index is not None else np.zeros((0, n), np.intp)
    others = word_scores(logp, arr) if len(arr) else np.zeros(0)
    others = others[(arr != e_idx[None, :]).any(1)] if len(arr) else others
    total = _logsumexp(np.concatenate([[e_score, raw_score if (raw_idx != e_idx).any() else -np.inf], others]))
    conf = float(np.exp(e_score - total))
    best_other = max([raw_score if (raw_idx != e_idx).any() else -np.inf] + list(others))
    return Verification(expected, bool(e_score >= best_other), conf)
