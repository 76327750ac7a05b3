"""Letter recognition: an ink map of one square -> a probability for each of the 26 capitals.

The model is a small multilayer perceptron evaluated with NumPy on two kinds of features of
the size-normalised ink (the 28x28 image itself and HOG orientation histograms at two scales, computed in NumPy).
Weights ship in ``vision/models/letters.npz``, produced by ``scripts/train_letters.py`` from
the project's own synthetic handwriting (:mod:`vision.handwriting`) only.

>>> model = LetterModel.load()
>>> from vision.handwriting import render_letter
>>> ink = render_letter("K", 40, np.random.default_rng(3))
>>> probs = model.predict_proba(np.stack([ink]))
>>> probs.shape, ALPHABET[int(probs[0].argmax())]
((1, 26), 'K')
"""

from __future__ import annotations

import pathlib

import cv2
import numpy as np

ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
MODEL_PATH = pathlib.Path(__file__).resolve().parent / "models" / "letters.npz"
NORM = 28  #: side of the normalised letter image


def normalise(ink: np.ndarray, threshold: float = 0.25) -> np.ndarray:
    """Crop the ink to its bounding box, scale the longer side to 20 px (aspect kept) and centre
    it in a 28x28 float32 image (the MNIST convention)."""
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


def hog(images: np.ndarray, cell: int = 7, bins: int = 9) -> np.ndarray:
    """Histograms of unsigned gradient orientation, 7x7-pixel cells, L2-normalised over 2x2 blocks
    (a NumPy HOG: 3x3 blocks x 4 cells x 9 bins = 324 numbers for a 28x28 image)."""
    n, h, w = images.shape
    pad = np.pad(images, ((0, 0), (1, 1), (1, 1)), mode="edge")
    gx = pad[:, 1:-1, 2:] - pad[:, 1:-1, :-2]
    gy = pad[:, 2:, 1:-1] - pad[:, :-2, 1:-1]
    mag = np.hypot(gx, gy)
    pos = (np.arctan2(gy, gx) % np.pi) / np.pi * bins - 0.5
    lo = np.floor(pos).astype(int)
    frac = pos - lo
    ch, cw = h // cell, w // cell
    hist = np.zeros((n, ch, cw, bins), np.float32)
    cy = np.repeat(np.arange(h) // cell, w).reshape(h, w)
    cx = np.tile(np.arange(w) // cell, h).reshape(h, w)
    ii = np.broadcast_to(np.arange(n)[:, None, None], mag.shape)
    cyb, cxb = np.broadcast_to(cy, mag.shape), np.broadcast_to(cx, mag.shape)
    np.add.at(hist, (ii, cyb, cxb, lo % bins), mag * (1 - frac))
    np.add.at(hist, (ii, cyb, cxb, (lo + 1) % bins), mag * frac)
    blocks = np.concatenate([hist[:, :-1, :-1], hist[:, 1:, :-1], hist[:, :-1, 1:], hist[:, 1:, 1:]], axis=3)
    blocks = blocks / np.sqrt((blocks ** 2).sum(3, keepdims=True) + 1e-3)
    return blocks.reshape(n, -1)


def features(norm_images: np.ndarray) -> np.ndarray:
    """Feature rows for a stack of normalised 28x28 images: pixels (784) + HOG on 7-pixel cells
    (324) + HOG on 4-pixel cells (1296)."""
    norm_images = np.asarray(norm_images, np.float32)
    return np.hstack([norm_images.reshape(len(norm_images), -1), hog(norm_images),
                      hog(norm_images, cell=4)]).astype(np.float32)


class LetterModel:
    """A 2-layer perceptron: standardise -> dense -> ReLU -> dense -> softmax."""

    def __init__(self, params: dict[str, np.ndarray]):
        self.params = {k: np.asarray(v, np.float32) for k, v in params.items()}

    @classmethod
    def load(cls, path: str | pathlib.Path = MODEL_PATH) -> "LetterModel":
        with np.load(path) as data:
            return cls({k: data[k] for k in data.files})

    def save(self, path: str | pathlib.Path) -> None:
        """Weights stored as float16 (half the size; the accuracy change is nil), rest float32."""
        np.savez_compressed(path, **{k: v.astype(np.float16) if k.startswith("w") else v for k, v in self.params.items()})

    def logits(self, feats: np.ndarray) -> np.ndarray:
        p = self.params
        x = (feats - p["mean"]) / p["std"]
        # einsum, not BLAS: multithreaded BLAS on a few rows is slower than a plain loop on a busy Pi
        h = np.maximum(np.einsum("ij,jk->ik", x, p["w1"]) + p["b1"], 0)
        return np.einsum("ij,jk->ik", h, p["w2"]) + p["b2"]

    def predict_proba_features(self, feats: np.ndarray) -> np.ndarray:
        z = self.logits(feats) / float(self.params.get("temperature", np.float32(1.0)))
        z = z - z.max(1, keepdims=True)
        e = np.exp(z)
        return e / e.sum(1, keepdims=True)

    def predict_proba(self, inks: np.ndarray | list[np.ndarray]) -> np.ndarray:
        """Probabilities (N, 26) for a stack or list of ink maps (any size each)."""
        if len(inks) == 0:
            return np.zeros((0, 26), np.float32)
        return self.predict_proba_features(features(np.stack([normalise(i) for i in inks])))


_DEFAULT: LetterModel | None = None


def default_model() -> LetterModel:
    """The shipped model, loaded once."""
    global _DEFAULT
    if _DEFAULT is None:
        _DEFAULT = LetterModel.load()
    return _DEFAULT
