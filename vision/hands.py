"""Learning each player's hand: the letters of a player's confirmed words make later reads of
their writing surer.

A :class:`HandMemory` keeps the normalised images (28x28, as :func:`vision.letters.normalise`
makes them) of the letters one player wrote in words that were confirmed: by the host, by the
clue card's answer, or accepted unchallenged. Reading a new letter of theirs, two things move
the letter network's scores:

* the player's own *last layer*: a small change of the network's last layer fitted on the
  remembered letters (regularised logistic regression on their features, held to the shipped
  layer: :mod:`vision.writer_fit`), so that the player's letters read as what they were;
* *likeness*: the new letter's features are compared with those of the remembered letters
  (cosine similarity); each letter the player has shown gets its score raised by how much
  closer to their own example the new letter is than :data:`LIKENESS_BASE`, scaled by
  :data:`LIKENESS_WEIGHT`.

A player whose R looks like most people's P thus has their R read as R once the table has seen
it. The memory is plain data (:meth:`HandMemory.to_json`): the session journals it, so a
resumed game keeps it (the fitted layer is fitted again from the same letters, so it is the
same), and the host can reset it.

>>> from vision.letters import LetterModel, normalise
>>> from vision.synth.handwriting import render_letter
>>> rng = np.random.default_rng(1)
>>> hand = HandMemory(LetterModel.load())
>>> hand.learn(np.stack([normalise(render_letter(ch, 40, rng)) for ch in "CAT"]), "CAT")
>>> len(hand), hand.letters()
(3, 'ACT')
"""

from __future__ import annotations

import base64

import numpy as np

from vision.letters import ALPHABET, NORM, LetterModel
from vision.writer_fit import CHANGE_L2, Correction, fit_correction

#: how strongly a likeness to the player's own letters moves the scores (fitted with
#: :data:`vision.writer_fit.CHANGE_L2` on the tuning writers by ``scripts/fit_hands.py``: see docs/vision.md)
LIKENESS_WEIGHT = 4.0
#: the cosine similarity that neither raises nor lowers a letter's score
LIKENESS_BASE = 0.5
#: the weight and base of the hand memory before the player's own last layer (likeness alone:
#: :meth:`HandMemory.likeness_alone`), which ``bench vision`` compares the memory with
LIKENESS_ALONE = (16.0, 0.6)
#: letters remembered per player and letter (the latest kept)
KEEP_PER_LETTER = 12


class HandMemory:
    """One player's confirmed letters, and the adjustment they make to that player's reads.
    ``change_l2``: how firmly the player's own last layer is held to the shipped one (None: no
    layer of their own, likeness alone)."""

    def __init__(self, model: LetterModel, weight: float = LIKENESS_WEIGHT, base: float = LIKENESS_BASE,
                 change_l2: float | None = CHANGE_L2):
        self.model, self.weight, self.base, self.change_l2 = model, weight, base, change_l2
        self.alphabet: str = getattr(model, "alphabet", ALPHABET)  #: the letters the model's scores are of
        self._images: list[np.ndarray] = []
        self._labels: list[int] = []
        self._features: np.ndarray | None = None
        self._correction: Correction | None = None

    @classmethod
    def likeness_alone(cls, model: LetterModel) -> "HandMemory":
        """The memory as it was before the player's own last layer: likeness alone, weighted
        :data:`LIKENESS_ALONE`."""
        return cls(model, *LIKENESS_ALONE, change_l2=None)

    def __len__(self) -> int:
        return len(self._labels)

    def letters(self) -> str:
        """The distinct letters remembered, in alphabetical order."""
        return "".join(self.alphabet[i] for i in sorted(set(self._labels)))

    def learn(self, images: np.ndarray, letters: str) -> None:
        """Remember ``images`` (n, 28, 28; floats 0..1 or uint8 0..255) as the letters ``letters``
        (one a square; characters outside the model's alphabet are skipped)."""
        images = np.asarray(images)
        if len(images) != len(letters):
            raise ValueError(f"{len(images)} images for {len(letters)} letters")
        for image, letter in zip(images, letters):
            if letter not in self.alphabet or image.shape != (NORM, NORM):
                continue
            as_bytes = image if image.dtype == np.uint8 else np.round(np.clip(image, 0, 1) * 255).astype(np.uint8)
            self._images.append(as_bytes)
            self._labels.append(self.alphabet.index(letter))
        self._keep_latest()
        self._features = self._correction = None

    def _keep_latest(self) -> None:
        seen: dict[int, int] = {}
        keep = []
        for k in range(len(self._labels) - 1, -1, -1):
            seen[self._labels[k]] = seen.get(self._labels[k], 0) + 1
            if seen[self._labels[k]] <= KEEP_PER_LETTER:
                keep.append(k)
        keep.reverse()
        self._images = [self._images[k] for k in keep]
        self._labels = [self._labels[k] for k in keep]

    def forget(self) -> None:
        """Start again from nothing (the host's reset)."""
        self._images, self._labels, self._features, self._correction = [], [], None, None

    def _remembered(self) -> np.ndarray:
        """The remembered letters' features as unit vectors; the player's own last layer fitted
        on them (once, after each lesson: a pure function of the remembered letters)."""
        if self._features is None:
            stack = np.stack(self._images).astype(np.float32) / 255
            features, scores = self.model.outputs(stack)
            self._features = _unit(features)
            self._correction = (fit_correction(features, scores, np.asarray(self._labels), self.change_l2)
                                if self.change_l2 is not None else None)
        return self._features

    def correction(self) -> Correction | None:
        """The player's own change of the network's last layer (None without one, or while
        nothing is remembered)."""
        if not self._labels:
            return None
        self._remembered()
        return self._correction

    def adjust(self, features: np.ndarray, scores: np.ndarray) -> np.ndarray:
        """``scores`` (n, letters) of letters with ``features`` (n, F), read with this player's own
        last layer and moved towards the letters they have shown that the new ones look like.
        Unchanged (the very ``scores``) while nothing is remembered."""
        if not self._labels or len(scores) == 0:
            return scores
        remembered = self._remembered()
        out = np.asarray(scores, np.float32)
        if self._correction is not None:
            out = self._correction.apply(features, out)
        return with_likeness(out, features, remembered, np.asarray(self._labels), self.weight, self.base)

    def to_json(self) -> dict:
        """The memory as JSON-able data: ``{"letters": "CAT", "images": [base64 of 784 bytes, ...]}``."""
        return {"letters": "".join(self.alphabet[i] for i in self._labels),
                "images": [base64.b64encode(im.tobytes()).decode("ascii") for im in self._images]}

    def learn_json(self, data: dict) -> None:
        """Add what :meth:`to_json` (or a journalled lesson) holds; malformed parts are skipped."""
        letters, images = str(data.get("letters", "")), data.get("images", [])
        decoded, kept = [], []
        for letter, text in zip(letters, images if isinstance(images, list) else []):
            try:
                raw = base64.b64decode(str(text), validate=True)
            except ValueError:
                continue
            if len(raw) == NORM * NORM:
                decoded.append(np.frombuffer(raw, np.uint8).reshape(NORM, NORM))
                kept.append(letter)
        if decoded:
            self.learn(np.stack(decoded), "".join(kept))


def with_likeness(scores: np.ndarray, features: np.ndarray, remembered: np.ndarray, labels: np.ndarray,
                  weight: float = LIKENESS_WEIGHT, base: float = LIKENESS_BASE) -> np.ndarray:
    """``scores`` (n, letters) of letters with ``features`` (n, F), each letter among ``labels``
    raised by ``weight`` times how much closer (cosine) the closest of its ``remembered`` examples
    (m, F: unit vectors, their letters ``labels``) is than ``base`` (a new array).

    >>> remembered = np.array([[1.0, 0.0]]); labels = np.array([1])
    >>> with_likeness(np.zeros((2, 2)), np.array([[2.0, 0.0], [0.0, 1.0]]), remembered, labels, 10, 0.5).tolist()
    [[0.0, 5.0], [0.0, -5.0]]
    """
    likeness = _unit(features) @ np.asarray(remembered, np.float32).T  # (n, m)
    out = np.array(scores, np.float32, copy=True)
    for letter in np.unique(labels):
        out[:, letter] += weight * (likeness[:, labels == letter].max(axis=1) - base)
    return out


def _unit(x: np.ndarray) -> np.ndarray:
    x = np.asarray(x, np.float32)
    return x / np.maximum(np.linalg.norm(x, axis=1, keepdims=True), 1e-6)
