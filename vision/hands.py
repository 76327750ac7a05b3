"""Learning each player's hand: the letters of a player's confirmed words make later reads of
their writing surer.

A :class:`HandMemory` keeps the normalised images (28x28, as :func:`vision.letters.normalise`
makes them) of the letters one player wrote in words that were confirmed: by the host, by the
clue card's answer, or accepted unchallenged. Reading a new letter of theirs, the letter
network's features of it are compared with those of the remembered letters (cosine similarity);
each letter the player has shown gets its score raised by how much closer to their own example
the new letter is than :data:`LIKENESS_BASE`, scaled by :data:`LIKENESS_WEIGHT`. A player whose
R looks like most people's P thus has their R read as R once the table has seen one.

The memory is plain data (:meth:`HandMemory.to_json`): the session journals it, so a resumed
game keeps it, and the host can reset it.

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

#: how strongly a likeness to the player's own letters moves the scores (fitted on the
#: calibration writers by ``scripts/fit_hands.py``: see docs/vision.md)
LIKENESS_WEIGHT = 16.0
#: the cosine similarity that neither raises nor lowers a letter's score
LIKENESS_BASE = 0.6
#: letters remembered per player and letter (the latest kept)
KEEP_PER_LETTER = 12


class HandMemory:
    """One player's confirmed letters, and the adjustment they make to that player's reads."""

    def __init__(self, model: LetterModel, weight: float = LIKENESS_WEIGHT, base: float = LIKENESS_BASE):
        self.model, self.weight, self.base = model, weight, base
        self.alphabet: str = getattr(model, "alphabet", ALPHABET)  #: the letters the model's scores are of
        self._images: list[np.ndarray] = []
        self._labels: list[int] = []
        self._features: np.ndarray | None = None

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
        self._features = None

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
        self._images, self._labels, self._features = [], [], None

    def _remembered(self) -> np.ndarray:
        if self._features is None:
            stack = np.stack(self._images).astype(np.float32) / 255
            self._features = _unit(self.model.outputs(stack)[0])
        return self._features

    def adjust(self, features: np.ndarray, scores: np.ndarray) -> np.ndarray:
        """``scores`` (n, 26) of letters with ``features`` (n, F), moved towards the letters this
        player has shown that the new ones look like. Unchanged while nothing is remembered."""
        if not self._labels or len(scores) == 0:
            return scores
        likeness = _unit(features) @ self._remembered().T  # (n, m)
        labels = np.asarray(self._labels)
        out = np.array(scores, np.float32, copy=True)
        for letter in np.unique(labels):
            closest = likeness[:, labels == letter].max(axis=1)
            out[:, letter] += self.weight * (closest - self.base)
        return out

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


def _unit(x: np.ndarray) -> np.ndarray:
    x = np.asarray(x, np.float32)
    return x / np.maximum(np.linalg.norm(x, axis=1, keepdims=True), 1e-6)
