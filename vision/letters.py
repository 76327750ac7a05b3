"""Letter recognition: an ink map of one square -> a probability for each of the 26 capitals.

The model is a small convolutional network (``vision/models/letters.onnx``) run by OpenCV's
``dnn`` module on the size-normalised 28x28 ink. ``scripts/train_letters.py`` trains it on
real handwriting (the UNIPEN and UJI capitals, CC BY 4.0: see the README's credits) and on the
project's own rendered handwriting, written on the printed boards and photographed. Besides
the class scores it gives each letter's *features* (its last hidden layer), which
:class:`vision.hands.HandMemory` compares with a player's confirmed letters.

>>> model = LetterModel.load()
>>> from vision.synth.handwriting import render_letter
>>> ink = render_letter("K", 40, np.random.default_rng(3))
>>> probs = model.predict_proba(np.stack([ink]))
>>> probs.shape, ALPHABET[int(probs[0].argmax())]
((1, 26), 'K')
"""

from __future__ import annotations

import pathlib
import threading

import cv2
import numpy as np

from vision.errors import ModelMissing

ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
#: the 33 letters of the Ukrainian alphabet, in its order: the Ukrainian letter network's classes
UK_ALPHABET = "АБВГҐДЕЄЖЗИІЇЙКЛМНОПРСТУФХЦЧШЩЬЮЯ"
MODEL_PATH = pathlib.Path(__file__).resolve().parent / "models" / "letters.onnx"
NORM = 28  #: side of the normalised letter image


def normalise(ink: np.ndarray, threshold: float = 0.25) -> np.ndarray:
    """Crop the ink to its bounding box, scale the longer side to 20 px (aspect kept) and centre
    it in a 28x28 float32 image (the MNIST convention).

    >>> ink = np.zeros((40, 40)); ink[10:30, 18:22] = 1.0
    >>> img = normalise(ink)
    >>> img.shape, float(img.max()), int((img > 0.5).sum(axis=0).max())
    ((28, 28), 1.0, 20)
    """
    ys, xs = np.nonzero(ink > threshold)
    out = np.zeros((NORM, NORM), np.float32)
    if len(xs) == 0:
        return out
    x0, x1, y0, y1 = xs.min(), xs.max() + 1, ys.min(), ys.max() + 1
    crop = ink[y0:y1, x0:x1].astype(np.float32)
    h, w = crop.shape
    scale = 20.0 / max(h, w)
    nw, nh = max(1, int(round(w * scale))), max(1, int(round(h * scale)))
    small = cv2.resize(crop, (nw, nh), interpolation=cv2.INTER_AREA if scale < 1 else cv2.INTER_LINEAR)
    peak = float(small.max())
    if peak > 0:
        small = np.clip(small / peak, 0, 1)
    ox, oy = (NORM - nw) // 2, (NORM - nh) // 2
    out[oy:oy + nh, ox:ox + nw] = small
    return out


def softmax(scores: np.ndarray) -> np.ndarray:
    """Probabilities from class scores, row by row.

    >>> softmax(np.array([[0.0, 0.0], [np.log(3.0), 0.0]])).round(2).tolist()
    [[0.5, 0.5], [0.75, 0.25]]
    """
    z = np.asarray(scores, np.float64)
    z = z - z.max(1, keepdims=True)
    e = np.exp(z)
    return (e / e.sum(1, keepdims=True)).astype(np.float32)


class LetterModel:
    """The letter network. Input: normalised images (N, 28, 28), ink 1 and paper 0. Output: class
    scores already divided by the softmax temperature fitted on writers it did not learn from (so
    :func:`softmax` of them is an honest probability), and the letters' features.

    >>> model = LetterModel.load()
    >>> features, scores = model.outputs(np.zeros((2, 28, 28), np.float32))
    >>> features.shape[0], scores.shape
    (2, (2, 26))
    """

    def __init__(self, path: str | pathlib.Path = MODEL_PATH):
        self.path = pathlib.Path(path)
        if not self.path.is_file():
            raise ModelMissing(f"no letter model at {self.path}: run scripts/train_letters.py")
        try:
            self.net = cv2.dnn.readNetFromONNX(str(self.path))
        except cv2.error as error:
            raise ModelMissing(f"{self.path} is not a letter model OpenCV can run ({error.msg.strip()})") from error
        self._lock = threading.Lock()  # one network, possibly several reading threads

    @classmethod
    def load(cls, path: str | pathlib.Path = MODEL_PATH) -> "LetterModel":
        """The model saved at ``path`` (the shipped one by default)."""
        return cls(path)

    def outputs(self, images: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """(features (N, F), scores (N, 26)) for normalised images (N, 28, 28)."""
        x = np.ascontiguousarray(np.asarray(images, np.float32)[:, None])
        if len(x) == 0:
            return np.zeros((0, 0), np.float32), np.zeros((0, 26), np.float32)
        with self._lock:
            self.net.setInput(x)
            features, scores = self.net.forward(["features", "scores"])
        return np.asarray(features, np.float32), np.asarray(scores, np.float32)

    def predict_proba_images(self, images: np.ndarray) -> np.ndarray:
        """Probabilities (N, 26) for normalised 28x28 images."""
        return softmax(self.outputs(images)[1]) if len(images) else np.zeros((0, 26), np.float32)

    def predict_proba(self, inks: np.ndarray | list[np.ndarray]) -> np.ndarray:
        """Probabilities (N, 26) for a stack or list of ink maps (any size each)."""
        if len(inks) == 0:
            return np.zeros((0, 26), np.float32)
        return self.predict_proba_images(np.stack([normalise(i) for i in inks]))


_DEFAULT: LetterModel | None = None


def default_model() -> LetterModel:
    """The shipped model, loaded once."""
    global _DEFAULT
    if _DEFAULT is None:
        _DEFAULT = LetterModel.load()
    return _DEFAULT
