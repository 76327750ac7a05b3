"""Letter recognition: an ink map of one square -> a probability for each of the 26 capitals.

The model is a pair of small convolutional networks whose scores are averaged, evaluated with
NumPy alone on the size-normalised 28x28 ink.
Weights ship in ``vision/models/letters.npz``, produced by ``scripts/train_letters.py`` from
the project's own synthetic handwriting (:mod:`vision.synth.handwriting`) only.

>>> model = LetterModel.load()
>>> from vision.synth.handwriting import render_letter
>>> ink = render_letter("K", 40, np.random.default_rng(3))
>>> probs = model.predict_proba(np.stack([ink]))
>>> probs.shape, ALPHABET[int(probs[0].argmax())]
((1, 26), 'K')
"""

from __future__ import annotations

import pathlib

import cv2
import numpy as np

from vision import arraycache

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


def _conv3x3(x: np.ndarray, w: np.ndarray, b: np.ndarray) -> np.ndarray:
    """3x3 convolution, 'same' padding, on NHWC images; ``w`` is (3, 3, C_in, C_out).
    The nine shifted copies are gathered into one matrix and multiplied once."""
    n, h, wd, c = x.shape
    xp = np.pad(x, ((0, 0), (1, 1), (1, 1), (0, 0)))
    cols = np.empty((n, h, wd, 3, 3, c), np.float32)
    for dy in range(3):
        for dx in range(3):
            cols[:, :, :, dy, dx, :] = xp[:, dy:dy + h, dx:dx + wd, :]
    return (cols.reshape(n * h * wd, 9 * c) @ w.reshape(9 * c, -1) + b).reshape(n, h, wd, -1)


def _maxpool2(x: np.ndarray) -> np.ndarray:
    """2x2 max pooling of NHWC images; an odd side keeps its last row/column (ceil mode).
    Four strided views and three elementwise maxima (a reshaped ``max`` over two axes is slower)."""
    n, h, w, c = x.shape
    if h % 2 or w % 2:
        x = np.pad(x, ((0, 0), (0, h % 2), (0, w % 2), (0, 0)), constant_values=-np.inf)
    out = np.maximum(x[:, 0::2, 0::2], x[:, 0::2, 1::2])
    np.maximum(out, x[:, 1::2, 0::2], out=out)
    np.maximum(out, x[:, 1::2, 1::2], out=out)
    return out


class LetterModel:
    """One small convolutional network, or an ensemble of several whose class scores are
    averaged, evaluated in NumPy. Each network: three blocks of (3x3 convolution with batch
    normalisation folded in, ReLU, 2x2 max pooling), then dense -> ReLU -> dense.

    ``params`` come from ``scripts/train_letters.py``: one network's ``conv0_w`` ... ``fc1_b``,
    or several networks' under ``m0.``, ``m1.``, ... prefixes; one softmax ``temperature`` and,
    optionally, a ``class_bias`` per letter added to the scaled scores (both calibrated on the
    tuning writers: synthetic training leans a little towards some letters, D over O say).

    >>> shipped = LetterModel.load()
    >>> twice = LetterModel.ensemble([shipped, shipped])
    >>> blank = np.zeros((1, 28, 28))
    >>> twice.members == 2 * shipped.members, bool(np.allclose(twice.logits(blank), shipped.logits(blank), atol=1e-4))
    (True, True)
    """

    def __init__(self, params: dict[str, np.ndarray]):
        self.params = {k: np.asarray(v, np.float32) for k, v in params.items()}
        prefixes = sorted({k.split(".", 1)[0] for k in self.params if "." in k})
        if prefixes:
            self._nets = [{k.split(".", 1)[1]: v for k, v in self.params.items() if k.startswith(f"{m}.")}
                          for m in prefixes]
        else:
            self._nets = [{k: v for k, v in self.params.items() if k not in ("temperature", "class_bias")}]

    @classmethod
    def ensemble(cls, models: list["LetterModel"], temperature: float | None = None) -> "LetterModel":
        """Several trained models as one whose scores are the mean of theirs."""
        nets = [net for m in models for net in m._nets]
        params = {f"m{i}.{k}": v for i, net in enumerate(nets) for k, v in net.items()}
        params["temperature"] = np.asarray(temperature if temperature is not None else models[0].temperature, np.float32)
        if temperature is None and "class_bias" in models[0].params:
            params["class_bias"] = models[0].params["class_bias"]
        return cls(params)

    @property
    def members(self) -> int:
        """How many networks vote."""
        return len(self._nets)

    @property
    def temperature(self) -> float:
        return float(self.params.get("temperature", np.float32(1.0)))

    @classmethod
    def load(cls, path: str | pathlib.Path = MODEL_PATH, cache: pathlib.Path | None = None) -> "LetterModel":
        """The model saved at ``path``. With ``cache`` (a folder), its weights are kept there as
        float32 arrays, keyed by the file's content, and memory-mapped on later loads instead of
        being inflated and converted again."""
        def weights() -> dict[str, np.ndarray]:
            with np.load(path) as data:
                return {k: np.asarray(data[k], np.float32) for k in data.files}

        if cache is None:
            return cls(weights())
        key = arraycache.source_key("letters", pathlib.Path(path))
        return cls(arraycache.arrays(cache, f"letters-{key}", weights))

    def save(self, path: str | pathlib.Path) -> None:
        """Weights stored as float16 (half the size; the accuracy change is nil), biases float32."""
        arrays = {k: v.astype(np.float16) if k.endswith("_w") else v for k, v in self.params.items()}
        np.savez_compressed(path, **arrays)  # type: ignore[arg-type]  # numpy's stub mixes **kwds with allow_pickle

    @staticmethod
    def _net_logits(p: dict[str, np.ndarray], x: np.ndarray) -> np.ndarray:
        depth = sum(1 for k in p if k.startswith("conv") and k.endswith("_w"))
        for k in range(depth):
            x = np.maximum(_maxpool2(_conv3x3(x, p[f"conv{k}_w"], p[f"conv{k}_b"])), 0)  # ReLU after the pool: same, on a quarter
        x = x.transpose(0, 3, 1, 2).reshape(len(x), -1)  # channel-major, as the trainer flattens
        h = np.maximum(x @ p["fc0_w"] + p["fc0_b"], 0)
        return h @ p["fc1_w"] + p["fc1_b"]

    def logits(self, images: np.ndarray) -> np.ndarray:
        """Raw class scores (N, 26) for normalised 28x28 images (N, 28, 28), averaged over members."""
        x = np.asarray(images, np.float32)[:, :, :, None]
        return np.asarray(sum(self._net_logits(net, x) for net in self._nets) / len(self._nets))

    def predict_proba_images(self, images: np.ndarray) -> np.ndarray:
        """Probabilities (N, 26) for normalised 28x28 images."""
        z = self.logits(images) / self.temperature
        if "class_bias" in self.params:
            z = z + self.params["class_bias"]
        z = z - z.max(1, keepdims=True)
        e = np.exp(z)
        return e / e.sum(1, keepdims=True)

    def predict_proba(self, inks: np.ndarray | list[np.ndarray]) -> np.ndarray:
        """Probabilities (N, 26) for a stack or list of ink maps (any size each)."""
        if len(inks) == 0:
            return np.zeros((0, 26), np.float32)
        return self.predict_proba_images(np.stack([normalise(i) for i in inks]))


_DEFAULT: LetterModel | None = None


def default_model(cache: pathlib.Path | None = None) -> LetterModel:
    """The shipped model, loaded once (memory-mapped from ``cache`` when given: :meth:`LetterModel.load`)."""
    global _DEFAULT
    if _DEFAULT is None:
        _DEFAULT = LetterModel.load(cache=cache)
    return _DEFAULT
