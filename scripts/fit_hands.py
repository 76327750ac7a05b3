#!/usr/bin/env python3
"""Fit how strongly a player's own letters sway the reading of their later ones
(``vision.hands.LIKENESS_WEIGHT`` and ``LIKENESS_BASE``) on the calibration writers: the tenth of
the training contributors' writers that ``scripts/train_letters.py`` keeps apart (never the
held-out contributors the benchmark reads).

    .venv/bin/python scripts/fit_hands.py [--model vision/models/letters.onnx]

For each calibration writer, the first letters (as many as 10 words of 3-5 letters hold) are
remembered and the rest are read, for every pair on a grid; the pair that reads most of them
right is printed (paste it into vision/hands.py).
"""

from __future__ import annotations

import argparse
import os
import pathlib
import sys

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

import numpy as np  # noqa: E402

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))

from train_letters import real_set, split_writers  # noqa: E402
from vision.hands import HandMemory  # noqa: E402
from vision.letters import MODEL_PATH, LetterModel, softmax  # noqa: E402
from vision.synth.realdata import DEFAULT_PATHS, TRAINING_CONTRIBUTORS, load_handwriting  # noqa: E402

WEIGHTS = (0.0, 2.0, 4.0, 6.0, 8.0, 12.0, 16.0, 24.0)
BASES = (0.5, 0.6, 0.65, 0.7, 0.75, 0.8, 0.85, 0.9)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--model", default=str(MODEL_PATH))
    ap.add_argument("--seed", type=int, default=2026, help="the seed train_letters.py split the writers with")
    ap.add_argument("--calibration-share", type=float, default=0.1)
    ap.add_argument("--workers", type=int, default=os.cpu_count() or 1)
    args = ap.parse_args(argv)
    model = LetterModel.load(args.model)
    _learn, calibrate = split_writers(load_handwriting(DEFAULT_PATHS).of(TRAINING_CONTRIBUTORS),
                                      args.calibration_share, args.seed)
    rng = np.random.default_rng(17)
    cases = []  # per writer: (memory images, memory labels, later images, later labels)
    for writer in np.unique(calibrate.writer):
        own = calibrate.subset(calibrate.writer == writer)
        x, y = real_set(own, 1, 70_000 + len(cases), args.workers, log=lambda *a: None, vary=False)
        first = int(rng.integers(3, 6, 10).sum())
        if len(y) - first < 5:
            continue
        cases.append((x[:first], y[:first], x[first:], y[first:]))
    print(f"{len(cases)} calibration writers, {sum(len(c[3]) for c in cases)} later letters")
    results = {}
    for weight in WEIGHTS:
        for base in BASES:
            right = total = 0
            for mx, my, lx, ly in cases:
                hand = HandMemory(model, weight=weight, base=base)
                hand.learn(mx, "".join(chr(65 + int(v)) for v in my))
                features, scores = model.outputs(lx.astype(np.float32) / 255)
                read = softmax(hand.adjust(features, scores)).argmax(1)
                right += int((read == ly).sum())
                total += len(ly)
            results[(weight, base)] = right / max(1, total)
            if weight == 0.0:
                break
    plain = results[(0.0, BASES[0])]
    best = max(results, key=lambda k: results[k])
    print(f"without the hand: {plain:.4f}")
    for (weight, base), acc in sorted(results.items(), key=lambda kv: -kv[1])[:8]:
        print(f"  weight {weight:<5} base {base:<5} {acc:.4f}")
    print(f"best: LIKENESS_WEIGHT = {best[0]}, LIKENESS_BASE = {best[1]} ({results[best]:.4f})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
