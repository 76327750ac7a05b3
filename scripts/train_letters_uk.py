#!/usr/bin/env python3
"""Train the Ukrainian letter network (``vision/models/letters-uk.onnx``, CC BY-SA 4.0: it learns
from CoMNIST) on the 33 Ukrainian capitals.

    .venv/bin/python scripts/train_letters_uk.py          # the shipped model (the defaults made it)

The letters are CoMNIST's images of the *training* sessions, with Ґ Є І Ї made from real letters
(:mod:`vision.synth.cyrillic`); the held-out sessions of ``vision/synth/comnist-split.txt`` (and
their guard sessions) are never read here except to report on: a tenth of the training sessions
is kept apart to fit the softmax temperature on. Each letter is written ``--passes`` times on a
built-in board, photographed by the scene simulator (perspective, light, glare, blur, noise) and
cut out by the reader itself, exactly as the Latin network's training does
(``scripts/train_letters.py``, whose network, augmentation and export this script shares).

At the end it reports, on the held-out writers, the share of letters read right: isolated (the
CoMNIST image normalised as the reader normalises a square's ink) and in camera scenes, per
letter, with the constructed letters apart.
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

from train_letters import (BOARDS, _reader, _run_jobs, accuracy, confusions, export, fit_temperature, logits,  # noqa: E402
                           train)
from vision.letters import UK_ALPHABET, UK_MODEL_PATH, normalise  # noqa: E402
from vision.synth.cyrillic import CONSTRUCTED, LetterImages, ukrainian_letters  # noqa: E402


def _scene_job(job) -> tuple[np.ndarray, np.ndarray]:
    """One photographed board of letter images."""
    seed, letters, images = job
    from vision.synth.cyrillic import ImageQueue
    from vision.synth.letterdata import scene_letter_images

    return scene_letter_images(_reader(BOARDS[seed % len(BOARDS)]), letters, seed, ImageQueue(images), UK_ALPHABET)


def scene_set(data: LetterImages, passes: int, seed: int, workers: int, log=print) -> tuple[np.ndarray, np.ndarray]:
    """Every letter of ``data`` written ``passes`` times, each time in another scene."""
    jobs = []
    for p in range(passes):
        order = np.random.default_rng([seed, p]).permutation(len(data))
        for k in range(0, len(order), 120):
            part = order[k:k + 120]
            jobs.append((seed * 7919 + p * 100_003 + k, "".join(data.labels[part]), data.images[part]))
    return _run_jobs(_scene_job, jobs, workers, log)


def isolated_set(data: LetterImages) -> tuple[np.ndarray, np.ndarray]:
    """Every letter of ``data`` normalised straight from its image (no scene)."""
    images = np.stack([np.round(normalise(i.astype(np.float32) / 255) * 255) for i in data.images]).astype(np.uint8)
    return images, np.array([UK_ALPHABET.index(ch) for ch in data.labels])


def capped(data: LetterImages, most: int, seed: int) -> LetterImages:
    """At most ``most`` letters of each kind (the Latin I's outnumber any CoMNIST letter)."""
    rng = np.random.default_rng([seed, 5])
    keep = np.zeros(len(data), bool)
    for ch in set(data.labels):
        idx = np.nonzero(data.labels == ch)[0]
        keep[rng.choice(idx, min(most, len(idx)), replace=False)] = True
    return data.subset(keep)


def per_letter(net, images: np.ndarray, labels: np.ndarray) -> dict[str, tuple[int, int]]:
    """(right, total) for each letter."""
    pred = logits(net, images).argmax(1).numpy()
    return {ch: (int(((pred == k) & (labels == k)).sum()), int((labels == k).sum()))
            for k, ch in enumerate(UK_ALPHABET) if (labels == k).any()}


def report(name: str, table: dict[str, tuple[int, int]]) -> None:
    real = [v for ch, v in table.items() if ch not in CONSTRUCTED]
    made = [v for ch, v in table.items() if ch in CONSTRUCTED]
    r, n = sum(v[0] for v in real), sum(v[1] for v in real)
    print(f"{name}: CoMNIST's 29 letters {r / max(1, n):.4f} of {n}", end="")
    r2, n2 = sum(v[0] for v in made), sum(v[1] for v in made)
    print(f"; the 4 constructed {r2 / max(1, n2):.4f} of {n2}; all 33 {(r + r2) / max(1, n + n2):.4f} of {n + n2}")
    print("  " + " ".join(f"{ch} {v[0] / v[1]:.3f}" for ch, v in table.items()))


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", default=str(UK_MODEL_PATH))
    ap.add_argument("--passes", type=int, default=4, help="times each training letter is written into a scene")
    ap.add_argument("--epochs", type=int, default=15)
    ap.add_argument("--width", type=int, default=32, help="channels of the first convolution")
    ap.add_argument("--most", type=int, default=450, help="training letters of each kind at most")
    ap.add_argument("--seed", type=int, default=2026)
    ap.add_argument("--workers", type=int, default=2, help="processes rendering scenes")
    ap.add_argument("--threads", type=int, default=1, help="PyTorch threads while training")
    args = ap.parse_args(argv)
    t0 = time.time()
    learn_all = ukrainian_letters(held_out=False, seed=args.seed)
    sessions = np.unique(learn_all.writer[np.char.startswith(learn_all.writer, "comnist/")])
    aside = np.random.default_rng(args.seed).choice(sessions, max(1, len(sessions) // 10), replace=False)
    calibrate = np.isin(learn_all.writer, aside)
    learn = capped(learn_all.subset(~calibrate), args.most, args.seed)
    check_data = learn_all.subset(calibrate)
    held = ukrainian_letters(held_out=True, seed=args.seed)
    print(f"letters: {len(learn)} to learn from, {len(check_data)} of {len(aside)} sessions kept apart for "
          f"calibration, {len(held)} of the held-out writers ({time.time() - t0:.0f} s)")
    x, y = scene_set(learn, args.passes, args.seed, args.workers)
    check = scene_set(check_data, 1, args.seed + 1, args.workers, log=lambda *a: None)
    print(f"{len(y)} training images, {len(check[1])} calibration images ({time.time() - t0:.0f} s)")
    net = train(x, y, args.width, args.epochs, args.seed, check=check, threads=args.threads, classes=len(UK_ALPHABET))
    temperature = fit_temperature(net, *check)
    print(f"calibration sessions: {accuracy(net, *check):.4f} of {len(check[1])}; temperature {temperature}")
    out = pathlib.Path(args.out)
    export(net, temperature, out)
    print(f"wrote {out} ({out.stat().st_size // 1024} kB) in {time.time() - t0:.0f} s")
    print("held-out writers (never trained on):")
    report("  isolated letters", per_letter(net, *isolated_set(held)))
    scenes = scene_set(held, 1, 90_000, args.workers, log=lambda *a: None)
    report("  letters in camera scenes", per_letter(net, *scenes))
    print("  most misread in scenes (errors, letter, read as):", confusions(net, *scenes, alphabet=UK_ALPHABET))
    return 0


if __name__ == "__main__":
    sys.exit(main())
