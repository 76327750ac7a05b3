#!/usr/bin/env python3
"""Choose when a read word is sure enough to accept without asking the host
(``vision.words.CONFIRM_BELOW``: the fallback of a network with no fitted acceptance, see
``scripts/fit_accept.py``), on the calibration writers: the tenth of the training
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
    ap.add_argument("--answers", action="store_true", help="instead: the clue card answer's prior (ANSWER_LOG_PRIOR)")
    args = ap.parse_args(argv)
    from vision.letters import standing_in, tuning_model

    # the readers read with a network that never learnt from the calibration writers
    with standing_in(tuning_model("en")):
        return fit(args)


def fit(args) -> int:
    """Print the trade-off of each threshold (or, with ``--answers``, of each answer prior)."""
    from tabletop.benchmarks.scenes import board_15, common_draw, word_scenes
    from tabletop.lexicons import builtin_lexicon, reading_index

    _learn, calibrate = split_writers(load_handwriting(DEFAULT_PATHS).of(TRAINING_CONTRIBUTORS), 0.1, args.seed)
    index = reading_index(builtin_lexicon("en"), "en")
    rng = np.random.default_rng(99)
    words = common_draw([w for n in range(3, 8) for w in index.words(n)], 4000, rng) or []
    if args.answers:
        return fit_answer_prior(calibrate, words, args.scenes, index)
    outcomes: list = []
    word_scenes(board_15(), calibrate, words, args.scenes, rng, index, print, outcomes)
    conf = np.array([c for c, _ in outcomes])
    right = np.array([r for _, r in outcomes])
    print(f"{len(outcomes)} words, {right.mean():.4f} right after decoding")
    for t in THRESHOLDS:
        sure = conf >= t
        print(f"  accept at >= {t:<5} asked {1 - sure.mean():.3f}  accepted right "
              f"{right[sure].mean() if sure.any() else float('nan'):.4f} ({int(sure.sum())} words, "
              f"{int((sure & ~right).sum())} wrong)")
    return 0


def fit_answer_prior(calibrate, words: list[str], scenes: int, index) -> int:
    """For each prior, how many written answers are verified without asking, and how many other
    words are taken for the answer (the threshold is CONFIRM_BELOW)."""
    from tabletop.benchmarks.answers import one_letter_away
    from tabletop.benchmarks.scenes import word_scenes
    from tabletop.resources import load_board

    cases: list = []  # (logp, word, another word of its length)
    by_length: dict[int, list[str]] = {}
    for w in words:
        by_length.setdefault(len(w), []).append(w)
    pick = np.random.default_rng(5)

    def keep(reader, read, word, squares):
        pool = [w for w in by_length[len(word)] if w != word]
        cases.append((read.logp(squares), word, pool[int(pick.integers(len(pool)))]))

    word_scenes(load_board("extradiction-sp"), calibrate, words, scenes, np.random.default_rng(98), index, print, each=keep)
    from vision.words import verify

    def near(word: str) -> str | None:
        """A dictionary word one letter away (the player wrote it; the card says ``word``)."""
        same = one_letter_away(word, index)
        return same[int(pick.integers(len(same)))] if same else None

    nears = [(lp, n) for lp, w, _o in cases if (n := near(w)) is not None]
    for prior in (0.0, 2.0, 4.0, 6.0, 8.0, 10.0, 12.0):
        sure = [verify(lp, w, index, prior) for lp, w, _o in cases]
        wrong = [verify(lp, o, index, prior) for lp, _w, o in cases]
        close = [verify(lp, n, index, prior) for lp, n in nears]
        verified = sum(v.matches and not v.needs_confirmation for v in sure)
        false = sum(v.matches and not v.needs_confirmation for v in wrong)
        false_near = sum(v.matches and not v.needs_confirmation for v in close)
        print(f"  prior {prior:<4} verified {verified / len(cases):.4f} of {len(cases)}, other words taken: {false}, "
              f"words one letter away taken: {false_near} of {len(close)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
