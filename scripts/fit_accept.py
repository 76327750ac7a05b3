#!/usr/bin/env python3
"""Fit when a read word is taken without asking (:mod:`vision.acceptance`) for the shipped letter
network, on the tuning writers: the tenth of the training contributors' writers that
``scripts/train_letters.py`` keeps apart (never the held-out ones the benchmark reads).

    .venv/bin/python scripts/fit_accept.py [--scenes 160] [--target 0.995] [--dry-run]

Words (half drawn from the dictionary's common words, half from all its 3-7 letter words) are
written by those writers on the 15x15 board and read in full (camera scene, cells, letters,
dictionary decoding). A logistic model of "the reading is right" is fitted on each word's
features (:func:`vision.acceptance.features`, by Newton's method with a little L2), and the
threshold on its probability is the lowest at which the accepted words are ``--target`` right;
so is a threshold on the posterior share alone, and the one of the two that asks about fewer
words is kept (the share alone when they tie). The trade-off (share asked against accepted words right) is printed for other thresholds, and
the result is written beside the network (``vision/models/letters.accept.json``) with the
network's SHA-256: re-run after retraining the network (the reader falls back to asking below
``vision.words.CONFIRM_BELOW`` when the file is for another network).
"""

from __future__ import annotations

import argparse
import json
import os
import pathlib
import sys

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

import numpy as np  # noqa: E402

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))

from train_letters import split_writers  # noqa: E402
from vision.acceptance import FEATURES, Acceptance, accept_path, features, file_sha256  # noqa: E402
from vision.synth.realdata import DEFAULT_PATHS, TRAINING_CONTRIBUTORS, load_handwriting  # noqa: E402

#: the floor on the posterior share under which no word is accepted, whatever the model says
MIN_SHARE = 0.5
L2 = 1e-2


def fit_logistic(x: np.ndarray, y: np.ndarray, l2: float = L2, steps: int = 50) -> tuple[np.ndarray, float]:
    """Weights and bias of a logistic regression of ``y`` (0/1) on ``x`` (standardised inside,
    returned on the raw scale), by Newton's method with an L2 penalty on the weights."""
    mean, scale = x.mean(0), np.maximum(x.std(0), 1e-6)
    z = np.hstack([(x - mean) / scale, np.ones((len(x), 1))])
    w = np.zeros(z.shape[1])
    penalty = np.full(z.shape[1], l2 * len(x))
    penalty[-1] = 0.0
    for _ in range(steps):
        p = 1 / (1 + np.exp(-np.clip(z @ w, -60, 60)))
        grad = z.T @ (p - y) + penalty * w
        hess = (z * (p * (1 - p))[:, None]).T @ z + np.diag(penalty + 1e-9)
        step = np.linalg.solve(hess, grad)
        w -= step
        if np.abs(step).max() < 1e-8:
            break
    weights = w[:-1] / scale
    return weights, float(w[-1] - (weights * mean).sum())


def lowest_threshold(prob: np.ndarray, right: np.ndarray, target: float) -> float:
    """The lowest threshold on ``prob`` at which the words at or above it are ``target`` right
    (1.0, asking about every word, when none is)."""
    order = np.argsort(-prob)
    wrong_so_far = np.cumsum(~right[order])
    accuracy = 1 - wrong_so_far / np.arange(1, len(order) + 1)
    good = np.nonzero(accuracy >= target)[0]
    if not len(good):
        return 1.0
    k = int(good.max())
    # between this word's probability and the next one's, so that ties are not split
    return float(prob[order[k]])


def tradeoff(prob: np.ndarray, right: np.ndarray, thresholds) -> list[tuple[float, float, float, int]]:
    """(threshold, share asked, accepted right, accepted wrong) for each threshold."""
    out = []
    for t in thresholds:
        taken = prob >= t
        out.append((float(t), float(1 - taken.mean()), float(right[taken].mean()) if taken.any() else float("nan"),
                    int((taken & ~right).sum())))
    return out


def collect(data, scenes: int, seed: int, language: str = "en") -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Features, posterior shares and right/wrong of the words ``data``'s writers wrote in ``scenes`` scenes."""
    from tabletop.benchmarks.scenes import board_15, common_draw, word_scenes
    from tabletop.lexicons import builtin_lexicon, reading_index

    index = reading_index(builtin_lexicon(language), language)
    rng = np.random.default_rng(seed)
    pool = [w for n in range(3, 8) for w in index.words(n)]
    everyday = common_draw(pool, 4000, rng) or []
    dictionary = [pool[i] for i in rng.choice(len(pool), 4000, replace=False)]
    rows: list[list[float]] = []
    shares: list[float] = []
    right: list[bool] = []

    def keep(reader, read, word, squares):
        found = next((w for w in read.words if w.squares == squares), None)
        if found is None or not found.in_lexicon:
            return  # not read as a word of the dictionary: asked about whatever the model says
        rows.append(features(found))
        shares.append(found.confidence)
        right.append(found.text == word)

    for words, part in ((everyday, scenes // 2), (dictionary, scenes - scenes // 2)):
        if words:
            word_scenes(board_15(), data, words, part, rng, index, lambda *a: None, each=keep)
    return np.array(rows), np.array(shares), np.array(right, bool)


def main(argv=None) -> int:
    from vision.letters import MODEL_PATH

    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--scenes", type=int, default=160, help="word scenes (7 words each)")
    ap.add_argument("--target", type=float, default=0.995, help="share of accepted words that must be right")
    ap.add_argument("--seed", type=int, default=2026, help="the seed train_letters.py split the writers with")
    ap.add_argument("--model", default=str(MODEL_PATH))
    ap.add_argument("--dry-run", action="store_true", help="print, write nothing")
    args = ap.parse_args(argv)
    _learn, tuning = split_writers(load_handwriting(DEFAULT_PATHS).of(TRAINING_CONTRIBUTORS), 0.1, args.seed)
    x, shares, right = collect(tuning, args.scenes, 99)
    print(f"{len(right)} words of {len(set(tuning.writer))} tuning writers read as dictionary words, "
          f"{right.mean():.4f} right")
    weights, bias = fit_logistic(x, right.astype(float))
    print("weights: " + ", ".join(f"{n} {w:+.3f}" for n, w in zip(FEATURES, weights)) + f", bias {bias:+.3f}")
    model = Acceptance(tuple(float(w) for w in weights), bias, 1.0, MIN_SHARE)
    prob = np.array([model.bias + float(np.dot(weights, row)) for row in x])
    prob = 1 / (1 + np.exp(-np.clip(prob, -60, 60)))
    prob = np.where(shares >= MIN_SHARE, prob, 0.0)
    accept_at = lowest_threshold(prob, right, args.target)
    share_at = max(MIN_SHARE, lowest_threshold(shares, right, args.target))
    asked_model, asked_share = float((prob < accept_at).mean()), float((shares < share_at).mean())
    print(f"the model: accept at a probability of being right >= {accept_at:.4f} (asks {asked_model:.3f}); "
          f"the share alone: accept at >= {share_at:.4f} (asks {asked_share:.3f})")
    if asked_model < asked_share:
        model = Acceptance(model.weights, bias, accept_at, MIN_SHARE)
        taken = prob >= accept_at
    else:
        model = Acceptance((), 0.0, 1.0, share_at)
        taken = shares >= share_at
        print("kept: the share alone")
    print("  the trade-off on the tuning words (model / the share alone):")
    for (t, asked, acc, wrong), (_s, asked_s, acc_s, wrong_s) in zip(
            tradeoff(prob, right, [0.9, 0.95, 0.98, 0.99, 0.995, accept_at]),
            tradeoff(shares, right, [0.9, 0.95, 0.98, 0.99, 0.995, share_at])):
        print(f"    at {t:.4f}: asked {asked:.3f}, accepted right {acc:.4f} ({wrong} wrong)   "
              f"share at {_s}: asked {asked_s:.3f}, accepted right {acc_s:.4f} ({wrong_s} wrong)")
    notes = {"fitted_on": f"{len(right)} words of the {len(set(tuning.writer))} tuning writers (scripts/fit_accept.py "
                          f"--scenes {args.scenes}), never the held-out ones",
             "tuning_asked": round(float(1 - taken.mean()), 4),
             "tuning_accepted_right": round(float(right[taken].mean()) if taken.any() else 1.0, 4),
             "target": args.target}
    data = model.to_json(file_sha256(args.model), notes)
    if args.dry_run:
        print(json.dumps(data, indent=1))
        return 0
    path = accept_path(args.model)
    path.write_text(json.dumps(data, indent=1) + "\n", encoding="utf-8")
    print(f"wrote {path}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
