"""One writer's correction of the letter network's last layer, fitted on their confirmed letters.

The network's class scores are a linear function of a letter's *features* (its last hidden
layer). For one writer, :func:`fit_correction` finds a small change of that last layer, ``delta``
(features x letters) and ``bias`` (one a letter), that makes the writer's confirmed letters read
as what they were: regularised logistic regression on their features, started at the shipped
layer (no change) and held to it by an L2 penalty on the change. The features are taken as unit
vectors times :data:`FEATURE_SCALE`, so one penalty suits any network.

The change is fitted by gradient steps in the span of the writer's own letters (the fitted
``delta`` is a weighted sum of their features: the minimiser of an L2-penalised loss always is),
a fixed number of steps from zero, so the same letters always give the same correction: a
resumed game, learning the journalled lessons again, reads as the game did.

>>> rng = np.random.default_rng(0)
>>> features = rng.normal(size=(6, 8))
>>> scores = np.zeros((6, 3)); labels = np.array([0, 1, 2, 0, 1, 2])
>>> fix = fit_correction(features, scores, labels)
>>> (fix.apply(features, scores).argmax(1) == labels).all()
np.True_
>>> Correction.none(8, 3).apply(features, scores) is scores
True
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

#: the length of the unit feature vectors the correction is fitted on
FEATURE_SCALE = 4.0
#: how firmly the change of the last layer is held to the shipped layer (fitted by scripts/fit_hands.py)
CHANGE_L2 = 3.0
#: how firmly the change of the letters' biases is held to none (a writer's 40 letters say little
#: about how often they write each letter)
BIAS_L2 = 100.0
#: gradient steps of a fit (from no change: the same letters always give the same correction)
STEPS = 200


@dataclass(frozen=True)
class Correction:
    """A change of the last layer: ``scores + unit(features) * FEATURE_SCALE @ delta + bias``."""

    delta: np.ndarray  #: (features, letters)
    bias: np.ndarray   #: (letters,)

    @classmethod
    def none(cls, n_features: int, n_letters: int) -> "Correction":
        """No change at all."""
        return cls(np.zeros((n_features, n_letters), np.float32), np.zeros(n_letters, np.float32))

    def is_none(self) -> bool:
        """Whether this changes nothing."""
        return not (self.delta.any() or self.bias.any())

    def apply(self, features: np.ndarray, scores: np.ndarray) -> np.ndarray:
        """``scores`` (n, letters) of letters with ``features`` (n, F), corrected (the very
        ``scores`` when the correction changes nothing)."""
        if self.is_none() or len(scores) == 0:
            return scores
        moved = scaled_unit(features) @ self.delta + self.bias
        return (np.asarray(scores, np.float32) + moved).astype(np.float32)


def scaled_unit(features: np.ndarray) -> np.ndarray:
    """Each row of ``features`` as a vector of length :data:`FEATURE_SCALE` (zero rows stay zero).

    >>> scaled_unit(np.array([[3.0, 4.0], [0.0, 0.0]])).tolist()
    [[2.4, 3.2], [0.0, 0.0]]
    """
    x = np.asarray(features, np.float64)
    return FEATURE_SCALE * x / np.maximum(np.linalg.norm(x, axis=1, keepdims=True), 1e-9)


def fit_correction(features: np.ndarray, scores: np.ndarray, labels: np.ndarray, change_l2: float = CHANGE_L2,
                   bias_l2: float = BIAS_L2, steps: int = STEPS) -> Correction:
    """The correction that makes the letters with ``features`` (n, F) and the network's
    ``scores`` (n, letters) read as ``labels`` (n letter indices): ``steps`` gradient steps on
    their cross-entropy plus ``change_l2``/2 times the squared change of the last layer and
    ``bias_l2``/2 times the squared change of its biases. No letters: no change."""
    scores = np.asarray(scores, np.float64)
    n, k = scores.shape
    if n == 0:
        return Correction.none(np.asarray(features).shape[1] if np.ndim(features) == 2 else 0, k)
    x = scaled_unit(features)
    gram = x @ x.T
    target = np.eye(k)[np.asarray(labels, int)]
    step = 1.0 / (change_l2 + 0.25 * float(np.linalg.eigvalsh(gram)[-1]))  # within the loss's curvature
    bias_step = 1.0 / (bias_l2 + 0.25 * n)
    weights = np.zeros((n, k))  # delta = x.T @ weights
    bias = np.zeros(k)
    for _ in range(steps):
        z = scores + gram @ weights + bias
        z -= z.max(axis=1, keepdims=True)
        p = np.exp(z)
        error = p / p.sum(axis=1, keepdims=True) - target
        weights -= step * (error + change_l2 * weights)
        bias -= bias_step * (error.sum(axis=0) + bias_l2 * bias)
    return Correction((x.T @ weights).astype(np.float32), bias.astype(np.float32))
