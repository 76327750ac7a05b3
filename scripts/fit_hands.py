#!/usr/bin/env python3
"""Fit how a player's own letters sway the reading of their later ones (``vision.hands``: the
weight and base of the likeness, and ``vision.writer_fit.CHANGE_L2``, how firmly the player's own
last layer is held to the shipped one) on the *tuning* writers of both languages, never on the
writers the benchmark reads:

* Latin: the tenth of the training contributors' writers that ``scripts/train_letters.py`` keeps
  apart (:func:`train_letters.split_writers`, same seed);
* Ukrainian: the CoMNIST tuning run of :func:`vision.synth.cyrillic.tuning_split` (its sessions'
  own letters; the І and Ї made from Latin writers' I are left out, as the benchmark leaves them).

    .venv/bin/python scripts/fit_hands.py [--passes 3] [--trials 20]

Each tuning letter is written ``--passes`` times into photographed scenes on the eXtraDICTION
board (at a marker's width) and cut out by the reader, as ``bench vision`` does. Then for each
writer, ``--trials`` times: their letters in a new order, the first ones (as many as 10 words of
3-5 letters hold) remembered from one pass, the rest read from another; every setting on the
grid reads them. The settings are ranked by the mean of the two languages' shares right; paste
the best into vision/hands.py and vision/writer_fit.py.
"""

from __future__ import annotations

import argparse
import os
import pathlib
import sys
import time

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

import numpy as np  # noqa: E402

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))

CHANGE_L2S = (None, 0.3, 1.0, 3.0, 10.0, 30.0)  # None: no layer of the player's own
WEIGHTS = (0.0, 2.0, 4.0, 8.0, 16.0)
BASES = (0.5, 0.6)
WORDS = 10


def tuning_writers(language: str):
    """The tuning writers' letters of ``language`` (never the held-out ones)."""
    if language == "en":
        from train_letters import split_writers
        from vision.synth.realdata import DEFAULT_PATHS, TRAINING_CONTRIBUTORS, load_handwriting

        return split_writers(load_handwriting(DEFAULT_PATHS).of(TRAINING_CONTRIBUTORS), 0.1, 2026)[1]
    from vision.synth.cyrillic import tuning_split

    tuning = tuning_split()[1]
    return tuning.subset(~np.isin(tuning.made, ["І", "Ї"]))


def rendered(language: str, passes: int, log=print):
    """(features, scores, read, letter indices, writers): each tuning letter cut from ``passes``
    photographed scenes (features (passes, n, F), scores (passes, n, letters), read (passes, n))."""
    from tabletop.benchmarks.hands import _scenes
    from tabletop.resources import load_board
    from vision.letters import tuning_model
    from vision.reader import BoardReader

    data = tuning_writers(language)
    # read with a network that never learnt from the tuning writers
    reader = BoardReader(load_board("extradiction"), language=language, model=tuning_model(language))
    rng = np.random.default_rng([2026, 71])
    n = len(data.labels)
    images = np.zeros((passes, n, 28, 28), np.uint8)
    read = np.zeros((passes, n), bool)
    for p in range(passes):
        at = 0
        for got, _truth, _seen, _ in _scenes(reader, data, list(range(n)), rng):
            for k, image in enumerate(got or [None] * len(_truth)):
                if image is not None:
                    images[p, at + k], read[p, at + k] = image, True
            at += len(_truth)
        log(f"  {language}: pass {p + 1} of {passes}: {int(read[p].sum())} of {n} letters cut out")
    features, scores = reader.model.outputs(images.reshape(-1, 28, 28).astype(np.float32) / 255)
    labels = np.array([reader.alphabet.index(str(ch)) for ch in data.labels])
    return (features.reshape(passes, n, -1), scores.reshape(passes, n, -1), read, labels,
            np.asarray(data.writer).astype(str))


def cases(features, scores, read, labels, writers, trials: int, seed: int = 11):
    """Per writer and trial: (memory features, scores, letters; later features, scores, letters)."""
    rng = np.random.default_rng(seed)
    out = []
    for name in np.unique(writers):
        mine = np.nonzero(writers == name)[0]
        for _ in range(trials):
            order = mine[rng.permutation(len(mine))]
            first = int(rng.integers(3, 6, WORDS).sum())
            later = order[first:first + 240]
            if len(later) < 10:
                break
            pm, pl = rng.choice(len(features), 2, replace=False)
            memory = order[:first][read[pm, order[:first]]]
            later = later[read[pl, later]]
            out.append((features[pm, memory], scores[pm, memory], labels[memory],
                        features[pl, later], scores[pl, later], labels[later]))
    return out


def grid(cs) -> dict[tuple, float]:
    """The share of later letters read right at every setting of the grid."""
    from vision.hands import _unit, with_likeness
    from vision.writer_fit import fit_correction

    right: dict[tuple, int] = {}
    total = sum(len(c[5]) for c in cs)
    for mf, ms, my, lf, ls, ly in cs:
        remembered = _unit(mf)
        for l2 in CHANGE_L2S:
            base_scores = ls if l2 is None or not len(my) else fit_correction(mf, ms, my, l2).apply(lf, ls)
            for weight in WEIGHTS:
                for base in BASES:
                    got = with_likeness(base_scores, lf, remembered, my, weight, base) if len(my) else base_scores
                    key = (l2, weight, base)
                    right[key] = right.get(key, 0) + int((got.argmax(1) == ly).sum())
    return {k: v / max(1, total) for k, v in right.items()}


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--passes", type=int, default=3, help="scenes each tuning letter is cut from")
    ap.add_argument("--trials", type=int, default=20, help="orders of each writer's letters")
    args = ap.parse_args(argv)
    import cv2

    cv2.setNumThreads(1)
    t0 = time.time()
    results = {}
    for language in ("en", "uk"):
        cs = cases(*rendered(language, args.passes), trials=args.trials)
        print(f"{language}: {len(cs)} cases, {sum(len(c[5]) for c in cs)} later letters")
        results[language] = grid(cs)
    mean = {k: (results["en"][k] + results["uk"][k]) / 2 for k in results["en"]}
    plain = (None, 0.0, BASES[0])
    print(f"without the hand: en {results['en'][plain]:.4f}, uk {results['uk'][plain]:.4f}")
    print("change_l2  weight  base    en      uk      mean")
    for key in sorted(mean, key=lambda k: -mean[k])[:12]:
        l2, weight, base = key
        print(f"{str(l2):>9} {weight:>7} {base:>5}  {results['en'][key]:.4f}  {results['uk'][key]:.4f}  {mean[key]:.4f}")
    from vision.hands import LIKENESS_ALONE, LIKENESS_BASE, LIKENESS_WEIGHT
    from vision.writer_fit import CHANGE_L2

    for what, key in (("likeness alone (the memory before)", (None, *LIKENESS_ALONE)),
                      ("shipped", (CHANGE_L2, LIKENESS_WEIGHT, LIKENESS_BASE))):
        if key in mean:
            print(f"{what}: en {results['en'][key]:.4f}, uk {results['uk'][key]:.4f}, mean {mean[key]:.4f}")
    best = max(mean, key=lambda k: mean[k])
    print(f"best: CHANGE_L2 = {best[0]}, LIKENESS_WEIGHT = {best[1]}, LIKENESS_BASE = {best[2]} ({time.time() - t0:.0f} s)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
