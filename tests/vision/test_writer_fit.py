"""A writer's own last layer (vision.writer_fit): fitted towards their letters, held to the shipped layer."""

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from vision.writer_fit import Correction, fit_correction


def _letters(seed: int, n: int, k: int = 5, dim: int = 12):
    rng = np.random.default_rng(seed)
    features = np.abs(rng.normal(size=(n, dim))).astype(np.float32)
    scores = rng.normal(size=(n, k)).astype(np.float32)
    return features, scores, rng.integers(0, k, n)


def _loss(scores, labels) -> float:
    z = scores - scores.max(axis=1, keepdims=True)
    logp = z - np.log(np.exp(z).sum(axis=1, keepdims=True))
    return float(-logp[np.arange(len(labels)), labels].mean())


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 10_000), n=st.integers(1, 40))
def test_the_fit_reads_the_writers_letters_better_and_is_the_same_every_time(seed, n):
    features, scores, labels = _letters(seed, n)
    fix = fit_correction(features, scores, labels)
    assert _loss(fix.apply(features, scores), labels) < _loss(scores, labels)
    again = fit_correction(features, scores, labels)
    assert np.array_equal(fix.delta, again.delta) and np.array_equal(fix.bias, again.bias)


@settings(max_examples=15, deadline=None)
@given(seed=st.integers(0, 10_000))
def test_a_firmer_hold_changes_the_layer_less(seed):
    features, scores, labels = _letters(seed, 20)
    loose, firm = fit_correction(features, scores, labels, 0.3), fit_correction(features, scores, labels, 30.0)
    assert np.linalg.norm(firm.delta) < np.linalg.norm(loose.delta)


def test_no_letters_no_change():
    fix = fit_correction(np.zeros((0, 12), np.float32), np.zeros((0, 5), np.float32), np.zeros(0, int))
    assert fix.is_none() and fix.delta.shape == (12, 5)
    scores = np.ones((2, 5), np.float32)
    assert fix.apply(np.ones((2, 12), np.float32), scores) is scores
    assert Correction.none(3, 4).is_none()
