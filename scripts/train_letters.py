#!/usr/bin/env python3
"""Train the shipped letter model from the project's own synthetic handwriting.

    .venv/bin/python scripts/train_letters.py --out vision/models/letters.npz

Every training image is rendered here from the stroke skeletons in ``vision/strokefont.py``
(jittered strokes, random slant/aspect, marker thickness, camera blur, faded ink, noise). The
real UNIPEN strokes (research-only licence) are *not* used for training; ``--check DIR`` only
reports accuracy on the tuning contributors so that settings can be compared.
"""

from __future__ import annotations

import argparse
import os
import pathlib
import sys
import time

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")  # before NumPy loads: the machine is shared

import cv2  # noqa: E402
import numpy as np  # noqa: E402

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[1]))

from vision.handwriting import render_letter  # noqa: E402
from vision.letters import ALPHABET, LetterModel, features, normalise  # noqa: E402


def camera_like(ink: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """What the reader's ink map of a square looks like: blurred, faded, noisy, resampled."""
    size = ink.shape[0]
    if rng.random() < 0.7:
        ink = cv2.GaussianBlur(ink, (0, 0), rng.uniform(0.3, 1.3))
    ink = ink * rng.uniform(0.45, 1.0)
    ink = ink + rng.normal(0, rng.uniform(0, 0.06), ink.shape).astype(np.float32)
    if rng.random() < 0.2:  # a glare patch washing part of the letter out
        cx, cy, r = rng.uniform(0, size, 2).tolist() + [rng.uniform(0.1, 0.3) * size]
        yy, xx = np.mgrid[:size, :size]
        ink = ink * (1 - 0.7 * np.exp(-((xx - cx) ** 2 + (yy - cy) ** 2) / (2 * r * r)))
    ink = np.clip(ink / max(float(ink.max()), 1e-3), 0, 1)
    ink[ink < 0.15] = 0
    return ink.astype(np.float32)


def make_set(n_per_letter: int, rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray]:
    imgs, labels = [], []
    for k, letter in enumerate(ALPHABET):
        for _ in range(n_per_letter):
            size = int(rng.integers(22, 56))
            ink = render_letter(letter, size, rng, amount=float(rng.uniform(0.6, 1.8)))
            imgs.append(normalise(camera_like(ink, rng)))
            labels.append(k)
    return features(np.stack(imgs)), np.array(labels)


def train(x: np.ndarray, y: np.ndarray, hidden: int, epochs: int, rng: np.random.Generator,
          lr: float = 2e-3, decay: float = 1e-4, log=print) -> LetterModel:
    mean, std = x.mean(0), x.std(0) + 1e-3
    xs = (x - mean) / std
    d = x.shape[1]
    p = {"w1": rng.normal(0, np.sqrt(2 / d), (d, hidden)).astype(np.float32), "b1": np.zeros(hidden, np.float32),
         "w2": rng.normal(0, np.sqrt(2 / hidden), (hidden, 26)).astype(np.float32), "b2": np.zeros(26, np.float32)}
    m = {k: np.zeros_like(v) for k, v in p.items()}
    v = {k: np.zeros_like(v) for k, v in p.items()}
    step, batch = 0, 128
    for epoch in range(epochs):
        order = rng.permutation(len(xs))
        rate = lr * 0.5 * (1 + np.cos(np.pi * epoch / epochs))
        loss_sum = 0.0
        for start in range(0, len(order), batch):
            idx = order[start:start + batch]
            xb, yb = xs[idx], y[idx]
            xb = xb * (rng.random(xb.shape) > 0.1) / 0.9  # input dropout
            h = np.maximum(xb @ p["w1"] + p["b1"], 0)
            mask = (rng.random(h.shape) > 0.3) / 0.7
            hd = h * mask
            z = hd @ p["w2"] + p["b2"]
            z -= z.max(1, keepdims=True)
            prob = np.exp(z)
            prob /= prob.sum(1, keepdims=True)
            loss_sum += -np.log(prob[np.arange(len(yb)), yb] + 1e-9).sum()
            g = prob
            g[np.arange(len(yb)), yb] -= 1
            g /= len(yb)
            grads = {"w2": hd.T @ g + decay * p["w2"], "b2": g.sum(0)}
            gh = (g @ p["w2"].T) * mask * (h > 0)
            grads["w1"] = xb.T @ gh + decay * p["w1"]
            grads["b1"] = gh.sum(0)
            step += 1
            for k in p:
                m[k] = 0.9 * m[k] + 0.1 * grads[k]
                v[k] = 0.999 * v[k] + 0.001 * grads[k] ** 2
                mh, vh = m[k] / (1 - 0.9 ** step), v[k] / (1 - 0.999 ** step)
                p[k] -= (rate * mh / (np.sqrt(vh) + 1e-8)).astype(np.float32)
        log(f"epoch {epoch + 1}/{epochs}: loss {loss_sum / len(xs):.3f}")
    p.update(mean=mean.astype(np.float32), std=std.astype(np.float32), temperature=np.float32(1.0))
    return LetterModel(p)


def accuracy(model: LetterModel, x: np.ndarray, y: np.ndarray) -> float:
    return float((model.predict_proba_features(x).argmax(1) == y).mean())


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", default="vision/models/letters.npz")
    ap.add_argument("--per-letter", type=int, default=3500, help="training images per letter")
    ap.add_argument("--epochs", type=int, default=18)
    ap.add_argument("--hidden", type=int, default=512)
    ap.add_argument("--seed", type=int, default=2026)
    ap.add_argument("--temperature", type=float, default=3.0, help="softmax temperature stored with the model (3 was tuned on the tuning contributors)")
    ap.add_argument("--check", metavar="NPZ", help="UNIPEN strokes file: report accuracy on the TUNING contributors only")
    args = ap.parse_args(argv)
    rng = np.random.default_rng(args.seed)
    t0 = time.time()
    x, y = make_set(args.per_letter, rng)
    xv, yv = make_set(max(20, args.per_letter // 10), np.random.default_rng(args.seed + 1))
    print(f"rendered {len(x)} training images in {time.time() - t0:.0f} s")
    model = train(x, y, args.hidden, args.epochs, rng)
    model.params["temperature"] = np.float32(args.temperature)
    print(f"synthetic validation accuracy {accuracy(model, xv, yv):.4f}")
    if args.check:
        from vision.realdata import TUNING_CONTRIBUTORS, load_strokes, render_sample

        data = load_strokes(args.check)
        tune = data.subset(np.isin(data.contributor, TUNING_CONTRIBUTORS))
        r = np.random.default_rng(5)
        inks = [camera_like(render_sample(s, int(r.integers(28, 48)), r), r) for s in tune.strokes]
        pred = model.predict_proba(inks).argmax(1)
        truth = np.array([ALPHABET.index(c) for c in tune.labels])
        print(f"tuning contributors ({', '.join(TUNING_CONTRIBUTORS)}): {(pred == truth).mean():.4f} on {len(truth)}")
        conf = np.zeros((26, 26), int)
        np.add.at(conf, (truth, pred), 1)
        worst = sorted(((conf[i].sum() - conf[i, i]) / max(1, conf[i].sum()), ALPHABET[i],
                        ALPHABET[int(np.argsort(conf[i])[-2] if conf[i].argmax() == i else conf[i].argmax())])
                       for i in range(26))[-8:]
        print("worst letters (error, letter, most confused with):", [(round(e, 3), a, b) for e, a, b in worst])
    out = pathlib.Path(args.out)
    out.parent.mkdir(parents=True, exist_ok=True)
    model.save(out)
    print(f"wrote {out} ({out.stat().st_size // 1024} kB) in {time.time() - t0:.0f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
