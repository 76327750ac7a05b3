"""scripts/fit_hands.py: each tuning writer's letters cut into remembered and later ones, and the grid read."""

import numpy as np

from tests.helpers import script_module


def _letters(writers: int = 2, each: int = 80, k: int = 5, dim: int = 6):
    rng = np.random.default_rng(3)
    n = writers * each
    labels = rng.integers(0, k, n)
    centre = rng.normal(size=(k, dim))
    features = np.abs(centre[labels][None] + rng.normal(0, 0.4, (2, n, dim))).astype(np.float32)
    scores = (features @ np.abs(centre).T).astype(np.float32)
    read = np.ones((2, n), bool)
    read[1, :3] = False  # three letters lost in the second pass
    return features, scores, read, labels, np.repeat([f"w{i}" for i in range(writers)], each)


def test_each_case_remembers_ten_words_and_reads_the_rest_of_that_writer():
    fit = script_module("fit_hands")
    features, scores, read, labels, writers = _letters()
    cs = fit.cases(features, scores, read, labels, writers, trials=3)
    assert len(cs) == 6
    for mf, ms, my, lf, ls, ly in cs:
        assert len(mf) == len(ms) == len(my) and 30 - 3 <= len(my) <= 50
        assert len(lf) == len(ls) == len(ly) and len(my) + len(ly) <= 80


def test_the_grid_reads_every_setting_and_its_plain_reading_is_the_networks():
    fit = script_module("fit_hands")
    features, scores, read, labels, writers = _letters()
    cs = fit.cases(features, scores, read, labels, writers, trials=2)
    shares = fit.grid(cs)
    assert len(shares) == len(fit.CHANGE_L2S) * len(fit.WEIGHTS) * len(fit.BASES)
    plain = sum(int((ls.argmax(1) == ly).sum()) for *_, ls, ly in cs) / sum(len(c[5]) for c in cs)
    assert shares[(None, 0.0, 0.5)] == plain and all(0 <= v <= 1 for v in shares.values())
