"""When a word read off the board is taken without asking anyone: a small logistic model of
"this reading is right" over what the decoding knows about the word, fitted on tuning writers.

The posterior share of the best reading (:attr:`vision.words.Decoded.confidence`) alone is a
poor judge: it is sure of many misread short words, and unsure of long words whose letters
agree. The model weighs six things the decoding knows (:func:`features`):

* the share itself (as log-odds) and the *margin*, the log ratio of the best reading's share
  to the next one's;
* the *weakest letter*: the smallest probability the letter network gave any letter of the
  reading;
* the word's length, whether the letter-by-letter reading is the word itself, and the share of
  its letters that were already on the board (crossing words, confirmed before).

A word is accepted when the model's probability that it is right reaches :attr:`Acceptance.accept_at`
(and its share :attr:`Acceptance.min_share`). When the model asks no less than the share alone
at the same accuracy on the tuning writers, the fit keeps the share alone: a threshold on it
(no weights). The weights and thresholds are those ``scripts/fit_accept.py`` wrote beside the letter
network (``vision/models/letters.accept.json`` for ``letters.onnx``), fitted for that very
network (its SHA-256 is kept with them); for a network with none fitted, or fitted for another
network, the reader falls back to :data:`FALLBACK`: ask whenever the share is below
:data:`vision.words.CONFIRM_BELOW`.

>>> from vision.words import Decoded
>>> sure = Decoded("CAT", 0.999, "CAT", True, [("COT", 0.0005)], weakest=-0.01)
>>> unsure = Decoded("COT", 0.6, "CAT", True, [("CAT", 0.3)], weakest=-2.5)
>>> FALLBACK.accepts(sure), FALLBACK.accepts(unsure)
(True, False)
>>> [round(x, 2) for x in features(sure)]
[6.91, 7.6, -0.01, 3.0, 1.0, 0.0]
"""

from __future__ import annotations

import hashlib
import json
import math
import pathlib
from dataclasses import dataclass
from typing import Protocol


class Reading(Protocol):
    """What the acceptance looks at: a :class:`vision.words.Decoded` or a :class:`vision.reader.ReadWord`."""

    text: str
    confidence: float
    raw: str
    in_lexicon: bool
    alternatives: list
    weakest: float
    known: int

#: the features' names, in order (the JSON's weights follow them)
FEATURES = ("log_odds", "margin", "weakest", "length", "letters_agree", "known_share")
#: log-odds and margins are clipped to this (a share of 1 - 1e-6 is as sure as it gets)
CLIP = 14.0


def features(word: Reading) -> list[float]:
    """The model's inputs for one decoded word (see the module docstring), in :data:`FEATURES` order."""
    share = min(max(word.confidence, 1e-6), 1 - 1e-6)
    second = max((s for _text, s in word.alternatives), default=0.0)
    margin = math.log(share / max(second, 1e-6))
    n = max(1, len(word.text))
    return [min(CLIP, max(-CLIP, math.log(share / (1 - share)))), min(CLIP, max(-CLIP, margin)),
            max(-CLIP, word.weakest), float(len(word.text)), float(word.raw == word.text), word.known / n]


class AcceptanceStale(ValueError):
    """The acceptance file was fitted for another letter network."""


@dataclass(frozen=True)
class Acceptance:
    """Weights over :data:`FEATURES` (and a bias) and the probability of being right from which
    a word is accepted. With no weights, a plain threshold on the share (``min_share``)."""

    weights: tuple[float, ...] = ()
    bias: float = 0.0
    accept_at: float = 1.0
    min_share: float = 0.97
    source: str = "fallback"  #: where it came from (a path, or "fallback")
    #: the letter log-probabilities are divided by this before words are decoded (above 1: the
    #: letters of one hand are less sure together than one by one)
    temperature: float = 1.0

    def right_probability(self, word: Reading) -> float:
        """The model's probability that ``word``'s reading is right (with no weights: its share)."""
        if not self.weights:
            return word.confidence
        z = self.bias + sum(w * x for w, x in zip(self.weights, features(word)))
        return 1 / (1 + math.exp(-max(-60.0, min(60.0, z))))

    def accepts(self, word: Reading) -> bool:
        """Is ``word`` taken without asking? Never a reading outside the dictionary."""
        if not word.in_lexicon:
            return False
        if not self.weights:
            return word.confidence >= self.min_share
        return word.confidence >= self.min_share and self.right_probability(word) >= self.accept_at

    def to_json(self, model_sha256: str, notes: dict | None = None) -> dict:
        """The JSON ``scripts/fit_accept.py`` writes."""
        return {"model_sha256": model_sha256, "features": list(FEATURES), "weights": list(self.weights),
                "bias": self.bias, "accept_at": self.accept_at, "min_share": self.min_share,
                "temperature": self.temperature, **(notes or {})}

    @classmethod
    def from_json(cls, data: dict, model_sha256: str | None = None, source: str = "") -> "Acceptance":
        """Read what :meth:`to_json` wrote; :class:`AcceptanceStale` when it was fitted for another
        network than the one whose digest is ``model_sha256``, ``ValueError`` when malformed."""
        if model_sha256 is not None and data.get("model_sha256") != model_sha256:
            raise AcceptanceStale(f"{source or 'the acceptance file'} was fitted for another letter network: "
                                  "run scripts/fit_accept.py again")
        weights = tuple(float(w) for w in data.get("weights", []))
        temperature = float(data.get("temperature", 1.0))
        if not temperature > 0:
            raise ValueError(f"{source or 'the acceptance file'} has a temperature of {temperature}")
        if not weights:  # the share alone: a threshold on it
            return cls((), 0.0, 1.0, float(data["min_share"]), source, temperature)
        if list(data.get("features", [])) != list(FEATURES):
            raise ValueError(f"{source or 'the acceptance file'} names other features than {', '.join(FEATURES)}")
        if len(weights) != len(FEATURES):
            raise ValueError(f"{source or 'the acceptance file'} has {len(weights)} weights for {len(FEATURES)} features")
        return cls(weights, float(data["bias"]), float(data["accept_at"]), float(data.get("min_share", 0.0)), source,
                   temperature)


def accept_path(model_path: str | pathlib.Path) -> pathlib.Path:
    """Where the acceptance fitted for the letter network at ``model_path`` is kept.

    >>> accept_path("vision/models/letters.onnx").name
    'letters.accept.json'
    """
    return pathlib.Path(model_path).with_suffix(".accept.json")


def file_sha256(path: str | pathlib.Path) -> str:
    """The SHA-256 of a file's bytes, in hex."""
    return hashlib.sha256(pathlib.Path(path).read_bytes()).hexdigest()


def _fallback() -> Acceptance:
    from vision.words import CONFIRM_BELOW

    return Acceptance(min_share=CONFIRM_BELOW)


FALLBACK = _fallback()  #: ask whenever the share is below :data:`vision.words.CONFIRM_BELOW`

_LOADED: dict[pathlib.Path, Acceptance] = {}


def for_model(model_path: str | pathlib.Path | None) -> Acceptance:
    """The acceptance fitted for the letter network at ``model_path`` (cached), or
    :data:`FALLBACK` when there is none, it is malformed, or it was fitted for another network."""
    if model_path is None:
        return FALLBACK
    path = pathlib.Path(model_path)
    if path not in _LOADED:
        found = accept_path(path)
        try:
            data = json.loads(found.read_text(encoding="utf-8"))
            _LOADED[path] = Acceptance.from_json(data, file_sha256(path), str(found))
        except (OSError, ValueError, KeyError, TypeError):
            _LOADED[path] = FALLBACK
    return _LOADED[path]
