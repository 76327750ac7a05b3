#!/usr/bin/env python3
"""Choose when a read word is sure enough to accept without asking the host
(``vision.words.CONFIRM_BELOW``), on the calibration writers: the tenth of the training
contributors' writers that ``scripts/train_letters.py`` keeps apart (never the held-out ones).

    .venv/bin/python scripts/fit_confirm.py [--scenes 60]

Everyday words written by those writers on the 15x15 board are read in full (camera scene,
cells, letters, lexicon decoding); for each threshold it prints how many words would be
accepted without asking and how many of those are right.
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

from train_letters import split_writers  # noqa: E402
from vision.synth.realdata import DEFAULT_PATHS, TRAINING_CONTRIBUTORS, load_handwriting  # noqa: E402

THRESHOLDS = (0.5, 0.6, 0.7, 0.8, 0.85, 0.9, 0.93, 0.95, 0.97, 0.98, 0.99)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--scenes", type=int, default=60)
    ap.add_argument("--seed", type=int, default=2026, help="the seed train_letters.py split the writers with")
    args = ap.parse_args(argv)
    from tabletop.benchmarks.vision import _common_draw, _word_scenes, board_15
    from tabletop.lexicons import builtin_lexicon, reading_index

    _learn, calibrate = split_writers(load_handwriting(DEFAULT_PATHS).of(TRAINING_CONTRIBUTORS), 0.1, args.seed)
    index = reading_index(builtin_lexicon("en"), "en")
    rng = np.random.default_rng(99)
    words = _common_draw([w for n in range(3, 8) for w in index.words(n)], 4000, rng) or []
    outcomes: list = []
    _word_scenes(board_15(), calibrate, words, args.scenes, rng, index, print, outcomes)
    conf = np.array([c for c, _ in outcomes])
    right = np.array([r for _, r in outcomes])
    print(f"{len(outcomes)} words, {right.mean():.4f} right after decoding")
    for t in THRESHOLDS:
        sure = conf >= t
        print(f"  accept at >= {t:<5} asked {1 - sure.mean():.3f}  accepted right "
              f"{right[sure].mean() if sure.any() else float('nan'):.4f} ({int(sure.sum())} words, "
              f"{int((sure & ~right).sum())} wrong)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
