"""Letter recognition: an ink map of one square -> a probability for each capital of the language.

The model is a small convolutional network run by ONNX Runtime (:mod:`vision.onnxnet`) on the size-normalised
28x28 ink: ``vision/models/letters.onnx`` for the 26 Latin capitals, ``letters-uk.onnx`` for the
33 Ukrainian ones (:func:`model_for` picks it by language; ``scripts/train_letters_uk.py`` trains
it on CoMNIST, CC BY-SA 4.0). ``scripts/train_letters.py`` trains the Latin one on
real handwriting (every UNIPEN and UJI writer's capitals, CC BY 4.0, and CoMNIST's capitals drawn
like a Latin one, CC BY-SA 4.0: see the README's credits) and on the project's own rendered
handwriting, written on the printed boards and photographed. The benchmark reads its writers with
``letters-heldout.onnx`` (:data:`HELDOUT_MODEL_PATH`), a network that never learnt from them. Besides
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

import contextlib
import pathlib
import threading
from collections.abc import Iterator

import cv2
import numpy as np

from vision.errors import ModelMissing
from vision.onnxnet import OnnxNet

ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
#: the 33 letters of the Ukrainian alphabet, in its order: the Ukrainian letter network's classes
UK_ALPHABET = "АБВГҐДЕЄЖЗИІЇЙКЛМНОПРСТУФХЦЧШЩЬЮЯ"
MODEL_PATH = pathlib.Path(__file__).resolve().parent / "models" / "letters.onnx"
#: the Ukrainian letter network (CC BY-SA 4.0: trained on CoMNIST; vision/models/NOTICE)
UK_MODEL_PATH = MODEL_PATH.with_name("letters-uk.onnx")
#: the benchmark's Latin network: one that never learnt from the benchmark's writers
#: (:data:`vision.synth.realdata.HELD_OUT_CONTRIBUTORS`; the shipped network learnt from every
#: writer), so that ``tabletop bench vision`` reads writers it never saw; never used at the table
HELDOUT_MODEL_PATH = MODEL_PATH.with_name("letters-heldout.onnx")
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
    """A letter network. Input: normalised images (N, 28, 28), ink 1 and paper 0. Output: class
    scores (one for each letter of :attr:`alphabet`) already divided by the softmax temperature
    fitted on writers unseen by it (or, for a network that learnt from every writer, by the
    network it learnt on from), so that :func:`softmax` of them is an honest probability, and
    the letters' features.

    >>> model = LetterModel.load()
    >>> features, scores = model.outputs(np.zeros((2, 28, 28), np.float32))
    >>> features.shape[0], scores.shape, model.alphabet == ALPHABET
    (2, (2, 26), True)
    """

    def __init__(self, path: str | pathlib.Path = MODEL_PATH, alphabet: str = ALPHABET):
        self.path = pathlib.Path(path)
        self.alphabet = alphabet  #: the letters the class scores are of, in order
        self.net = OnnxNet(self.path, "letter model", "run scripts/train_letters.py")
        self._lock = threading.Lock()  # one network, possibly several reading threads

    @classmethod
    def load(cls, path: str | pathlib.Path = MODEL_PATH, alphabet: str = ALPHABET) -> "LetterModel":
        """The model saved at ``path`` (the shipped Latin one by default), whose classes are ``alphabet``."""
        return cls(path, alphabet)

    def outputs(self, images: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """(features (N, F), scores (N, letters)) for normalised images (N, 28, 28)."""
        x = np.ascontiguousarray(np.asarray(images, np.float32)[:, None])
        if len(x) == 0:
            return np.zeros((0, 0), np.float32), np.zeros((0, len(self.alphabet)), np.float32)
        with self._lock:
            features, scores = self.net.run(x, ["features", "scores"])
        if scores.shape[1] != len(self.alphabet):
            raise ModelMissing(f"{self.path} tells {scores.shape[1]} letters apart, not the {len(self.alphabet)} "
                               f"of {self.alphabet[:3]}...")
        return np.asarray(features, np.float32), np.asarray(scores, np.float32)

    def predict_proba_images(self, images: np.ndarray) -> np.ndarray:
        """Probabilities (N, letters) for normalised 28x28 images."""
        return softmax(self.outputs(images)[1]) if len(images) else np.zeros((0, len(self.alphabet)), np.float32)

    def predict_proba(self, inks: np.ndarray | list[np.ndarray]) -> np.ndarray:
        """Probabilities (N, letters) for a stack or list of ink maps (any size each)."""
        if len(inks) == 0:
            return np.zeros((0, len(self.alphabet)), np.float32)
        return self.predict_proba_images(np.stack([normalise(i) for i in inks]))


#: each language's letter network and its letters: Latin capitals (CC BY 4.0 data) and the
#: Ukrainian alphabet (trained on CoMNIST: the model file is CC BY-SA 4.0; vision/models/NOTICE)
MODELS = {"en": (MODEL_PATH, ALPHABET), "uk": (UK_MODEL_PATH, UK_ALPHABET)}
LANGUAGES = tuple(MODELS)

_LOADED: dict[str, LetterModel] = {}


class UnknownLanguage(ModelMissing):
    """No letter network reads this language's handwriting."""

    def __init__(self, language: str):
        super().__init__(f"there is no letter model for handwriting in {language!r}; "
                         f"the languages read are {', '.join(LANGUAGES)}")
        self.language = language


def alphabet_of(language: str) -> str:
    """The letters handwriting in ``language`` is read as (A-Z for a language without a model of its own).

    >>> alphabet_of("uk")[-3:], alphabet_of("en")[:3], alphabet_of("fr")[:3]
    ('ЬЮЯ', 'ABC', 'ABC')
    """
    return MODELS[language][1] if language in MODELS else ALPHABET


def model_for(language: str = "en") -> LetterModel:
    """The shipped letter network for handwriting in ``language`` (``en``: A-Z, ``uk``: the 33
    Ukrainian capitals), loaded once.

    >>> model_for("uk").alphabet[:5], len(model_for("uk").alphabet)
    ('АБВГҐ', 33)
    >>> model_for("fr")
    Traceback (most recent call last):
    ...
    vision.letters.UnknownLanguage: there is no letter model for handwriting in 'fr'; the languages read are en, uk
    """
    if language not in MODELS:
        raise UnknownLanguage(language)
    if language not in _LOADED:
        path, alphabet = MODELS[language]
        _LOADED[language] = LetterModel.load(path, alphabet)
    return _LOADED[language]


@contextlib.contextmanager
def standing_in(model: LetterModel, language: str = "en") -> Iterator[LetterModel]:
    """Inside the block, :func:`model_for` gives ``model`` for ``language`` (readers built there
    read with it, and take the acceptance fitted for it); afterwards the shipped one again. The
    benchmark reads its writers this way with a network that never learnt from them
    (:data:`HELDOUT_MODEL_PATH`).

    >>> other = LetterModel.load()
    >>> with standing_in(other):
    ...     model_for("en") is other
    True
    >>> model_for("en") is other
    False
    """
    if language not in MODELS:
        raise UnknownLanguage(language)
    before = _LOADED.get(language)
    _LOADED[language] = model
    try:
        yield model
    finally:
        if before is None:
            _LOADED.pop(language, None)
        else:
            _LOADED[language] = before


def tuning_model(language: str = "en") -> LetterModel:
    """The network for ``language`` that never learnt from its tuning writers, the one the fitting
    scripts (``scripts/fit_*.py``) must read them with: :data:`HELDOUT_MODEL_PATH` for Latin (the
    shipped ``letters.onnx`` learnt from every writer), the shipped network otherwise (the
    Ukrainian one keeps its tuning sessions apart).

    >>> tuning_model("en").alphabet == model_for("en").alphabet, tuning_model("uk") is model_for("uk")
    (True, True)
    """
    if language == "en" and HELDOUT_MODEL_PATH.is_file():
        return LetterModel.load(HELDOUT_MODEL_PATH)
    return model_for(language)


def default_model() -> LetterModel:
    """The shipped Latin model, loaded once."""
    return model_for("en")
