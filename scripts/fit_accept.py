#!/usr/bin/env python3
"""Fit when a read word is taken without asking (:mod:`vision.acceptance`) for the shipped letter
network, on the tuning writers: the tenth of the training contributors' writers that
``scripts/train_letters.py`` keeps apart (never the held-out ones the benchmark reads). Only a
network that never learnt from them can be fitted so: the shipped Latin ``letters.onnx`` learnt
from every writer (``train_letters.py --everyone``), so the words are read with, and the file is
fitted for, the benchmark's network (:func:`vision.letters.tuning_model`:
``vision/models/letters-heldout.accept.json``); carry the file over (docs/vision.md).

    .venv/bin/python scripts/fit_accept.py [--scenes 320] [--target 0.995] [--dry-run] [--cache FILE]
    .venv/bin/python scripts/fit_accept.py --language uk --scenes 800   # the Ukrainian network (letters-uk.accept.json)

Words (half drawn from the dictionary's common words, half from all its 3-7 letter words) are
written by those writers on the 15x15 board and read in full (camera scene, cells, letters,
dictionary decoding). A logistic model of "the reading is right" is fitted on each word's
features (:func:`vision.acceptance.features`, by Newton's method with a little L2), and the
threshold on its probability is the lowest at which the accepted words are ``--target`` right
(by default the language's :data:`TARGETS`);
so is a threshold on the posterior share alone, and the share alone is kept unless the model asks
about :data:`MIN_GAIN` fewer words. The same is done with the letters' log-probabilities divided by each of :data:`TEMPERATURES`
before decoding (kept on the same terms against temperature 1). The trade-off (share asked
against accepted words right) is printed for other thresholds, and
the result is written beside the network (``vision/models/letters.accept.json``; with
``--language uk``, fitted on the tuning run of CoMNIST's training sessions that
``scripts/train_letters_uk.py`` keeps apart, ``letters-uk.accept.json``) with the
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

from tabletop.benchmarks.stats import wilson  # noqa: E402
from train_letters import split_writers  # noqa: E402
from vision.acceptance import FEATURES, Acceptance, accept_path, features, file_sha256  # noqa: E402
from vision.synth.realdata import DEFAULT_PATHS, TRAINING_CONTRIBUTORS, load_handwriting  # noqa: E402

#: the floor on the posterior share under which no word is accepted, whatever the model says
MIN_SHARE = 0.5
L2 = 1e-2
#: a fitted model or another temperature replaces the plainest only when it asks this share fewer
#: (on about a thousand words, less is within what another draw of scenes changes)
MIN_GAIN = 0.02
#: the letters' temperatures tried for decoding words (1: the letter network's own probabilities)
TEMPERATURES = (1.0, 0.7, 1.4, 2.0, 3.0)
#: the share of the tuning writers' accepted words that must be right, per language (issue 25's
#: target is 99.5 % on the held-out writers). Ukrainian keeps a margin: its tuning run is 7 CoMNIST
#: sessions, its letters are read less well, and at 99.5 % on them its held-out writers came out
#: below the target (1 wrong of 181, 99.45 %); at 99.8 % the 95 % interval of 3,000 tuning words
#: taken stays above 99.5 %
TARGETS = {"en": 0.995, "uk": 0.998}


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
    (words of equal ``prob`` are taken or left together; 1.0, asking about every word, when no
    threshold reaches ``target``)."""
    best = 1.0
    for t in np.unique(prob)[::-1]:
        taken = prob >= t
        if right[taken].mean() >= target:
            best = float(t)
    return best


def tradeoff(prob: np.ndarray, right: np.ndarray, thresholds) -> list[tuple[float, float, float, int]]:
    """(threshold, share asked, accepted right, accepted wrong) for each threshold."""
    out = []
    for t in thresholds:
        taken = prob >= t
        out.append((float(t), float(1 - taken.mean()), float(right[taken].mean()) if taken.any() else float("nan"),
                    int((taken & ~right).sum())))
    return out


def collect(data, scenes: int, seed: int, language: str = "en", marker=None) -> tuple[list[np.ndarray], list[str], object]:
    """The letter log-probabilities of each word ``data``'s writers wrote in ``scenes`` scenes
    and was read as a run of its own squares, the words, and the dictionary index (``marker``:
    letter images re-drawn at a marker's width, :func:`tabletop.benchmarks.scenes.word_scenes`)."""
    from tabletop.benchmarks.scenes import board_15, common_draw, word_scenes
    from tabletop.lexicons import builtin_lexicon, reading_index

    index = reading_index(builtin_lexicon(language), language)
    rng = np.random.default_rng(seed)
    pool = [w for n in range(3, 8) for w in index.words(n)]
    everyday = common_draw(pool, 4000, rng, language) or []
    dictionary = [pool[i] for i in rng.choice(len(pool), 4000, replace=False)]
    logps: list[np.ndarray] = []
    written: list[str] = []

    read_empty = [0]  # words with a written square read empty: no acceptance can take them right

    def keep(reader, read, word, squares):
        if any(w.squares == squares for w in read.words):
            logps.append(read.logp(squares))
            written.append(word)
        else:
            read_empty[0] += 1

    refused = [0]  # words of reads the reader refuses (glare, blur): the table takes nothing from them
    for words, part in ((everyday, scenes // 2), (dictionary, scenes - scenes // 2)):
        if words:
            word_scenes(board_15(), data, words, part, rng, index, lambda *a: None, each=keep, refused=refused,
                        language=language, marker=marker)
    print(f"{refused[0]} words in reads refused as unreadable, left out; {read_empty[0]} words with a square read "
          "empty, left out (bench vision counts them asked when a word read across them is asked, else taken and wrong)")
    return logps, written, index


def judge(logps: list[np.ndarray], written: list[str], index, temperature: float):
    """Features, shares and right/wrong of the words as decoded at ``temperature`` (words
    decoded outside the dictionary are left out: they are always asked about)."""
    from vision.words import decode

    rows, shares, right = [], [], []
    for logp, word in zip(logps, written):
        found = decode(logp / temperature, index)
        if found.in_lexicon:
            rows.append(features(found))
            shares.append(found.confidence)
            right.append(found.text == word)
    return np.array(rows), np.array(shares), np.array(right, bool)


def tuning_writers(language: str, seed: int):
    """The tuning writers' letters of ``language``: for ``en`` the tenth of the training
    contributors' writers that ``scripts/train_letters.py`` keeps apart; for ``uk`` the tuning run
    of CoMNIST's training sessions (:func:`vision.synth.cyrillic.tuning_split`, with the Latin
    tuning writers' І and Ї), which ``scripts/train_letters_uk.py`` keeps apart."""
    if language == "uk":
        from vision.synth.cyrillic import tuning_split

        return tuning_split(seed=seed)[1]
    return split_writers(load_handwriting(DEFAULT_PATHS).of(TRAINING_CONTRIBUTORS), 0.1, seed)[1]


def main(argv=None) -> int:
    from vision.letters import MODELS, LetterModel, alphabet_of, standing_in, tuning_model

    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--language", default="en", choices=sorted(MODELS),
                    help="whose letter network and dictionary (uk: CoMNIST's tuning sessions, letters at a "
                         "marker's width)")
    ap.add_argument("--scenes", type=int, default=320, help="word scenes (7 words each)")
    ap.add_argument("--target", type=float, default=None,
                    help="share of accepted words that must be right (default: the language's, "
                         + ", ".join(f"{k} {v}" for k, v in TARGETS.items()) + ")")
    ap.add_argument("--seed", type=int, default=2026, help="the seed train_letters.py split the writers with")
    ap.add_argument("--model", default=None,
                    help="the letter network the words are read with and the file is fitted for (default: the "
                         "language's that never learnt from its tuning writers, vision.letters.tuning_model)")
    ap.add_argument("--dry-run", action="store_true", help="print, write nothing")
    ap.add_argument("--cache", help="keep the words read in this .npz (and read them from it the next time)")
    args = ap.parse_args(argv)
    if args.model is None:
        args.model = str(tuning_model(args.language).path)
    if args.target is None:
        args.target = TARGETS.get(args.language, TARGETS["en"])
    tuning = tuning_writers(args.language, args.seed)
    if args.cache and pathlib.Path(args.cache).is_file():
        from tabletop.lexicons import builtin_lexicon, reading_index

        kept = np.load(args.cache, allow_pickle=False)
        logps = [kept[f"logp{k}"] for k in range(len(kept["words"]))]
        written, index = [str(w) for w in kept["words"]], reading_index(builtin_lexicon(args.language), args.language)
    else:
        marker = None
        if args.language == "uk":
            from vision.synth.handwriting import TABLE_HAND

            marker = TABLE_HAND
        # the words are read with the network the file is fitted for
        with standing_in(LetterModel.load(args.model, alphabet_of(args.language)), args.language):
            logps, written, index = collect(tuning, args.scenes, 99, args.language, marker)
        if args.cache:
            np.savez(args.cache, words=np.array(written), **{f"logp{k}": lp for k, lp in enumerate(logps)})
    print(f"{len(written)} words of {len(set(tuning.writer))} tuning writers read as runs of their squares")
    best: tuple | None = None  # (asked, order, model, taken, right, shares)
    for order, temperature in enumerate(TEMPERATURES):
        x, shares, right = judge(logps, written, index, temperature)
        n_all = len(written)
        weights, bias = fit_logistic(x, right.astype(float))
        z = bias + x @ weights
        prob = np.where(shares >= MIN_SHARE, 1 / (1 + np.exp(-np.clip(z, -60, 60))), 0.0)
        accept_at = lowest_threshold(prob, right, args.target)
        share_at = max(MIN_SHARE, lowest_threshold(shares, right, args.target))
        # words decoded outside the dictionary are asked about too: shares of all words read
        asked_model = 1 - float((prob >= accept_at).sum()) / n_all
        asked_share = 1 - float((shares >= share_at).sum()) / n_all
        print(f"temperature {temperature}: {right.mean():.4f} of the dictionary readings right; the model asks "
              f"{asked_model:.3f} (at {accept_at:.4f}), the share alone {asked_share:.3f} (at {share_at:.4f})")
        print("  weights: " + ", ".join(f"{n} {w:+.3f}" for n, w in zip(FEATURES, weights)) + f", bias {bias:+.3f}")
        for (t, asked, acc, wrong), (s_t, asked_s, acc_s, wrong_s) in zip(
                tradeoff(prob, right, [0.9, 0.95, 0.98, 0.99, 0.995]), tradeoff(shares, right, [0.9, 0.95, 0.98, 0.99, 0.995])):
            print(f"    at {t}: model asks {asked:.3f}, accepted right {acc:.4f} ({wrong} wrong);   "
                  f"share asks {asked_s:.3f}, accepted right {acc_s:.4f} ({wrong_s} wrong)")
        candidates = [(asked_share, 2 * order, Acceptance((), 0.0, 1.0, share_at, temperature=temperature), shares >= share_at),
                      (asked_model, 2 * order + 1, Acceptance(tuple(float(w) for w in weights), bias, accept_at, MIN_SHARE,
                                                              temperature=temperature), prob >= accept_at)]
        for asked, rank, model, taken in candidates:
            # the plainest (temperature 1, the share alone) unless another asks MIN_GAIN fewer
            if best is None or asked <= best[0][0] - MIN_GAIN:
                best = ((asked, rank), model, taken, right)
    assert best is not None
    (asked, _rank), model, taken, right = best
    n_taken, n_right = int(taken.sum()), int((taken & right).sum())
    low, high = wilson(n_right, n_taken)
    print(f"kept: temperature {model.temperature}, " + ("the share alone at " + f"{model.min_share:.4f}" if not model.weights
                                                         else f"the model at {model.accept_at:.4f}") + f" (asks {asked:.3f}; "
          f"{n_right} of {n_taken} taken right, 95 % {low:.4f}-{high:.4f}; target {args.target})")
    flag = "" if args.language == "en" else f"--language {args.language} "
    notes = {"fitted_on": f"{len(written)} words of the {len(set(tuning.writer))} tuning writers (scripts/fit_accept.py "
                          f"{flag}--scenes {args.scenes}), never the held-out ones",
             "tuning_asked": asked, "tuning_accepted_right": round(float(right[taken].mean()) if taken.any() else 1.0, 4),
             "tuning_accepted_right_95ci": [round(low, 4), round(high, 4)], "target": args.target}
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
