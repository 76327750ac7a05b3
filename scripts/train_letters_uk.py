#!/usr/bin/env python3
"""Train the Ukrainian letter network (``vision/models/letters-uk.onnx``, CC BY-SA 4.0: it learns
from CoMNIST) on the 33 Ukrainian capitals.

    .venv/bin/python scripts/train_letters_uk.py --cache /tmp/letters-uk    # the shipped model
    .venv/bin/python scripts/train_letters_uk.py --cache /tmp/letters-uk --held-out   # and its held-out figures
    .venv/bin/python scripts/train_letters_uk.py --cache /tmp/letters-uk --init vision/models/letters-uk.onnx \
        --epochs 8 --peak 6e-4 --out /tmp/letters-uk/on.onnx    # learn on from the shipped network
    .venv/bin/python scripts/train_letters_uk.py --cache /tmp/letters-uk --transfer vision/models/letters-heldout.onnx \
        --head-epochs 1 --epochs 6 --peak 1.5e-3 --out /tmp/letters-uk/latin.onnx    # start from the Latin network
    scripts/fetch_fonts.sh uk && .venv/bin/python scripts/train_letters_uk.py --cache /tmp/letters-uk \
        --font-scenes 100 ...    # and capitals in handwriting fonts (docs/vision.md: neither was shipped)

The letters are CoMNIST's images of the *training* sessions, with Ґ Є І Ї made from real letters
(:mod:`vision.synth.cyrillic`). The training sessions are cut once more
(:func:`vision.synth.cyrillic.tuning_split`): a run of about a tenth of them (and the Latin
tuning writers' I for І and Ї) is the *tuning* set, on which recipes are compared and the softmax
temperature is fitted; the held-out sessions of ``vision/synth/comnist-split.txt`` are read only
with ``--held-out``, to report on.

Each letter is written ``--passes`` times on a built-in board, photographed by the scene
simulator (perspective, light, glare, blur, noise) and cut out by the reader itself, as the Latin
network's training does (``scripts/train_letters.py``, whose network, augmentation and export this
script shares). Half the passes draw CoMNIST's lines as they were drawn (a finger's or mouse's
thin brush), half re-draw them at a marker's width (:func:`vision.synth.cyrillic.at_width`), so the
network reads both. The recorded Latin capitals of the training contributors that are drawn like a
Ukrainian letter (А В Е К М Н О Р С Т Х, pen strokes as marker ink) are added as that letter
(``--homoglyphs``). The cut-outs are rendered once and kept (``--cache``); the network then learns
from them for many epochs with cheap augmentations (:func:`train_letters.augment`), label
smoothing, AdamW and a one-cycle schedule.

``--transfer`` starts from another alphabet's exported network of the same shape (the Latin
``letters-heldout.onnx``, which never saw a CoMNIST letter nor the І and Ї writers) with a new last
layer (:func:`transferred`), fitted alone first (:func:`head_first`), then learns on as ``--init``
does. ``--font-scenes`` adds boards of random capitals written in handwriting fonts with the 33
Ukrainian capitals (:func:`font_set`; synthetic letters, kept apart in the cache).

``--init`` learns on from an exported network of the same shape (:func:`train_letters.from_onnx`; the export
folded its batch norms into the convolutions, so they stay frozen as the identity), with a lower
one-cycle peak (``--peak``), reading the tuning run after each epoch and keeping the best epoch
(written to ``--out`` as soon as it is the best). The shipped network never learnt from the tuning
run nor the held-out writers, so learning on from it leaks neither.

At the end it reports the tuning sessions' letters read right in camera scenes, as drawn and at a
marker's width, per letter (and, with ``--held-out``, the same for the held-out writers, isolated
and in scenes), with the constructed letters apart.
"""

from __future__ import annotations

import argparse
import functools
import os
import pathlib
import sys
import time

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

import numpy as np  # noqa: E402

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))

from train_letters import (BOARDS, _reader, _run_jobs, accuracy, confusions, export,  # noqa: E402
                           fit_temperature, from_onnx, logits, one_epoch, train)
from vision.letters import UK_ALPHABET, UK_MODEL_PATH, normalise  # noqa: E402
from vision.synth.cyrillic import CONSTRUCTED, LetterImages, tuning_split, ukrainian_letters  # noqa: E402

#: the Latin capitals drawn exactly like a Ukrainian one: recorded pen strokes of these Latin
#: letters (UNIPEN, UJI) are written as the Ukrainian letter too
HOMOGLYPHS = {"A": "А", "B": "В", "C": "С", "E": "Е", "H": "Н", "K": "К", "M": "М", "O": "О", "P": "Р", "T": "Т",
              "X": "Х"}


class MixedQueue:
    """An ink renderer writing, in order, letter images (:class:`vision.synth.cyrillic.ImageQueue`,
    re-drawn at a marker's width when ``marker`` is set) and recorded pen strokes (a list of strokes)."""

    def __init__(self, items, marker: bool):
        from vision.synth.cyrillic import ImageQueue
        from vision.synth.handwriting import TABLE_HAND

        self.items = list(items)
        self.images = ImageQueue([], TABLE_HAND if marker else None)

    def __call__(self, letter: str, size: int, rng: np.random.Generator) -> np.ndarray:
        from vision.synth.realdata import render_sample

        item = self.items.pop(0)
        if isinstance(item, np.ndarray):
            self.images.images.append(item)
            return self.images(letter, size, rng)
        return render_sample(item, size, rng)


def _scene_job(job) -> tuple[np.ndarray, np.ndarray]:
    """One photographed board of letter images (and pen strokes)."""
    seed, letters, items, marker = job
    from vision.synth.letterdata import scene_letter_images

    return scene_letter_images(_reader(BOARDS[seed % len(BOARDS)]), letters, seed, MixedQueue(items, marker), UK_ALPHABET)


def scene_set(labels: np.ndarray, items: list, passes: int, seed: int, workers: int, log=print,
              marker: tuple[bool, ...] = (False,)) -> tuple[np.ndarray, np.ndarray]:
    """Every letter of ``labels`` (its image or pen strokes in ``items``) written ``passes`` times,
    each time in another scene; pass ``p`` re-draws the images at a marker's width when
    ``marker[p % len(marker)]``."""
    jobs = []
    for p in range(passes):
        order = np.random.default_rng([seed, p]).permutation(len(labels))
        for k in range(0, len(order), 120):
            part = order[k:k + 120]
            jobs.append((seed * 7919 + p * 100_003 + k, "".join(labels[part]), [items[i] for i in part],
                         marker[p % len(marker)]))
    return _run_jobs(_scene_job, jobs, workers, log)


#: where ``scripts/fetch_fonts.sh uk`` puts the handwriting fonts with Cyrillic capitals
#: (scripts/handwriting-fonts-uk.txt): apart from the Latin training's .fonts/, which they would join
UK_FONT_DIR = pathlib.Path(__file__).resolve().parents[1] / ".fonts-uk"


@functools.lru_cache(maxsize=None)
def _uk_fonts(font_dir: str):
    """The handwriting fonts under ``font_dir`` that draw all 33 Ukrainian capitals (their Cyrillic
    web-font files), read once per rendering process."""
    from vision.synth.fontink import HandwritingFonts
    from vision.synth.handwriting import TRAINING_HAND

    return HandwritingFonts.find([font_dir], hand=TRAINING_HAND, alphabet=UK_ALPHABET, subset="cyrillic")


def _font_job(job) -> tuple[np.ndarray, np.ndarray]:
    """One photographed board of random Ukrainian capitals in handwriting fonts."""
    seed, count, font_dir = job
    from vision.synth.letterdata import scene_letter_images

    rng = np.random.default_rng([seed, 17])
    letters = "".join(UK_ALPHABET[i] for i in rng.integers(0, len(UK_ALPHABET), count))
    return scene_letter_images(_reader(BOARDS[seed % len(BOARDS)]), letters, seed, _uk_fonts(font_dir), UK_ALPHABET)


def font_set(scenes: int, seed: int, font_dir: str, workers: int, log=print) -> tuple[np.ndarray, np.ndarray]:
    """``scenes`` photographed boards of 120 random Ukrainian capitals each, written in the
    handwriting fonts under ``font_dir`` (synthetic letters: no writer's)."""
    return _run_jobs(_font_job, [(seed * 104_729 + k, 120, font_dir) for k in range(scenes)], workers, log)


def homoglyph_strokes(most: int, seed: int) -> tuple[np.ndarray, list]:
    """(letters, strokes): the Latin training contributors' recorded capitals drawn like a
    Ukrainian one, as that Ukrainian letter, at most ``most`` of each (their tuning writers left out)."""
    from train_letters import split_writers
    from vision.synth.realdata import TRAINING_CONTRIBUTORS, load_handwriting

    data, _tuning = split_writers(load_handwriting().of(TRAINING_CONTRIBUTORS), 0.1, seed)
    rng = np.random.default_rng([seed, 9])
    letters, strokes = [], []
    for latin, cyr in HOMOGLYPHS.items():
        idx = np.nonzero(data.labels == latin)[0]
        for i in rng.choice(idx, min(most, len(idx)), replace=False):
            letters.append(cyr)
            strokes.append(data.strokes[i])
    return np.array(letters), strokes


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


def cached(path: pathlib.Path | None, make, log=print) -> tuple[np.ndarray, np.ndarray]:
    """``make()``'s (images, labels), kept in ``path`` (.npz) and read from it the next time."""
    if path is not None and path.is_file():
        with np.load(path) as kept:
            return kept["x"], kept["y"]
    x, y = make()
    if path is not None:
        path.parent.mkdir(parents=True, exist_ok=True)
        np.savez_compressed(path, x=x, y=y)
        log(f"kept {len(y)} images in {path}")
    return x, y


def learn_on(net, images: np.ndarray, labels: np.ndarray, epochs: int, peak: float, seed: int,
             check: tuple[np.ndarray, np.ndarray], out: pathlib.Path, threads: int = 1, log=print):
    """``net`` (from :func:`train_letters.from_onnx`) learning on from its weights for ``epochs`` epochs, the
    learning rate rising to ``peak`` and falling away (one cycle), its batch norms frozen. The
    tuning run ``check`` is read before and after each epoch; the best network so far is exported
    to ``out`` (temperature fitted on ``check``). Returns (the best network, its tuning accuracy,
    the tuning accuracy it started from)."""
    import copy

    import torch

    torch.manual_seed(seed)
    torch.set_num_threads(threads)
    x = torch.tensor(images).float().div(255).unsqueeze(1)
    y = torch.tensor(labels).long()
    batch = 256
    per_epoch = max(1, len(x) // batch)
    steps = epochs * per_epoch
    opt = torch.optim.AdamW(net.parameters(), peak / 10, weight_decay=5e-4)
    sched = torch.optim.lr_scheduler.OneCycleLR(opt, peak, total_steps=steps, pct_start=0.2)
    net.eval()
    first = accuracy(net, *check)
    best, best_net = first, copy.deepcopy(net)
    log(f"epoch 0/{epochs}: tuning run {first:.4f}")
    t0, c0 = time.time(), time.process_time()
    for epoch in range(epochs):
        loss = one_epoch(net, x, y, opt, sched, steps, batch, frozen_norms=True)
        net.eval()
        now = accuracy(net, *check)
        mark = ""
        if now > best:
            best, best_net, mark = now, copy.deepcopy(net), " (best: written)"
            export(best_net, fit_temperature(best_net, *check), out)
        log(f"epoch {epoch + 1}/{epochs}: loss {loss:.3f}, tuning run {now:.4f}{mark} "
            f"({time.time() - t0:.0f} s, {time.process_time() - c0:.0f} s of CPU)")
    return best_net, best, first


def transferred(path: pathlib.Path, classes: int, depth: int = 1):
    """A network of another alphabet's (``path``, exported by :func:`train_letters.export`, e.g.
    the Latin ``letters-heldout.onnx``) with a new, untrained last layer of ``classes`` outputs:
    its convolutions and feature layer (pen strokes, shared across scripts) are kept as the start."""
    import torch.nn as nn

    source = from_onnx(path, classes=26, depth=depth)
    last = source[-1]
    source[-1] = nn.Linear(last.in_features, classes)
    return source


def head_first(net, images: np.ndarray, labels: np.ndarray, epochs: int, peak: float, seed: int,
               threads: int = 1, log=print) -> None:
    """Only ``net``'s last layer learns for ``epochs`` epochs (one cycle peaking at ``peak``), the
    rest held as it is: the new head of :func:`transferred` is fitted before the whole network
    learns on, so that its first random errors do not unsettle the kept layers."""
    import torch

    torch.manual_seed(seed)
    torch.set_num_threads(threads)
    body = list(net.parameters())[:-2]
    for p in body:
        p.requires_grad_(False)
    x = torch.tensor(images).float().div(255).unsqueeze(1)
    y = torch.tensor(labels).long()
    batch = 256
    steps = epochs * max(1, len(x) // batch)
    opt = torch.optim.AdamW(net[-1].parameters(), peak / 10, weight_decay=5e-4)
    sched = torch.optim.lr_scheduler.OneCycleLR(opt, peak, total_steps=steps, pct_start=0.2)
    c0 = time.process_time()
    for epoch in range(epochs):
        loss = one_epoch(net, x, y, opt, sched, steps, batch, frozen_norms=True)
        log(f"head epoch {epoch + 1}/{epochs}: loss {loss:.3f} ({time.process_time() - c0:.0f} s of CPU)")
    for p in body:
        p.requires_grad_(True)
    net.eval()


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", default=str(UK_MODEL_PATH))
    ap.add_argument("--passes", type=int, default=6, help="times each training letter is written into a scene "
                    "(alternately as drawn and at a marker's width)")
    ap.add_argument("--epochs", type=int, default=12)
    ap.add_argument("--width", type=int, default=32, help="channels of the first convolution")
    ap.add_argument("--depth", type=int, default=1, help="convolutions in each of the second and third blocks")
    ap.add_argument("--most", type=int, default=450, help="training letters of each kind at most")
    ap.add_argument("--homoglyphs", type=int, default=200, help="recorded Latin capitals drawn like a Ukrainian "
                    "one (A B C E H K M O P T X) added as that letter, at most this many of each (0: none)")
    ap.add_argument("--font-scenes", type=int, default=0, help="boards of 120 random capitals written in "
                    "handwriting fonts with Cyrillic capitals (scripts/fetch_fonts.sh uk) added (0: none)")
    ap.add_argument("--fonts", type=pathlib.Path, default=UK_FONT_DIR, metavar="DIR",
                    help="where those fonts are (default .fonts-uk/)")
    ap.add_argument("--cache", type=pathlib.Path, default=None, metavar="DIR",
                    help="keep the rendered cut-outs here and read them from here the next time")
    ap.add_argument("--held-out", action="store_true", help="also report on the held-out writers")
    ap.add_argument("--seed", type=int, default=2026)
    ap.add_argument("--workers", type=int, default=2, help="processes rendering scenes")
    ap.add_argument("--threads", type=int, default=1, help="PyTorch threads while training")
    ap.add_argument("--init", type=pathlib.Path, default=None, metavar="ONNX",
                    help="learn on from this exported network (same shape) instead of from scratch")
    ap.add_argument("--peak", type=float, default=6e-4, help="the one-cycle peak learning rate with --init")
    ap.add_argument("--transfer", type=pathlib.Path, default=None, metavar="ONNX",
                    help="start from another alphabet's exported network (same shape; e.g. the Latin "
                    "vision/models/letters-heldout.onnx) with a new last layer: first the last layer alone "
                    "(--head-epochs), then everything with --epochs and --peak")
    ap.add_argument("--head-epochs", type=int, default=1, help="epochs of the new last layer alone with --transfer")
    args = ap.parse_args(argv)
    for option, path in (("--init", args.init), ("--transfer", args.transfer)):
        if path is not None and not path.is_file():   # said now, not after the cut-outs are rendered
            ap.error(f"{option} {path}: no such network file")
    if args.font_scenes and not args.fonts.is_dir():
        ap.error(f"--font-scenes needs the fonts in {args.fonts}: run scripts/fetch_fonts.sh uk")
    t0 = time.time()
    learn_all, tuning = tuning_split(seed=args.seed)
    learn = capped(learn_all, args.most, args.seed)
    print(f"letters: {len(learn)} to learn from, {len(tuning)} of the tuning run ({time.time() - t0:.0f} s)")

    def at(name: str) -> pathlib.Path | None:
        return args.cache / f"{name}-{args.seed}.npz" if args.cache else None

    both = (False, True)
    x, y = cached(at(f"learn-p{args.passes}-m{args.most}"),
                  lambda: scene_set(learn.labels, list(learn.images), args.passes, args.seed, args.workers, marker=both))
    parts = [(x, y)]
    if args.homoglyphs:
        letters, strokes = homoglyph_strokes(args.homoglyphs, args.seed)
        parts.append(cached(at(f"homoglyphs-{args.homoglyphs}"),
                            lambda: scene_set(letters, strokes, 2, args.seed + 3, args.workers)))
    if args.font_scenes:
        families = len(_uk_fonts(str(args.fonts)))
        print(f"{families} handwriting font families with the 33 capitals in {args.fonts}")
        parts.append(cached(at(f"fonts-{args.font_scenes}"),
                            lambda: font_set(args.font_scenes, args.seed + 5, str(args.fonts), args.workers)))
    x, y = np.concatenate([p[0] for p in parts]), np.concatenate([p[1] for p in parts])
    checks = {name: cached(at(f"tuning-{name}"), lambda m=m: scene_set(tuning.labels, list(tuning.images), 2,
                                                                       args.seed + 1, args.workers, log=lambda *a: None,
                                                                       marker=(m,)))
              for name, m in (("drawn", False), ("marker", True))}
    check = (np.concatenate([c[0] for c in checks.values()]), np.concatenate([c[1] for c in checks.values()]))
    print(f"{len(y)} training images, {len(check[1])} tuning images ({time.time() - t0:.0f} s)")
    c0 = time.process_time()
    out = pathlib.Path(args.out)
    if args.init is not None or args.transfer is not None:
        if args.transfer is not None:
            start = transferred(args.transfer, len(UK_ALPHABET), args.depth)
            head_first(start, x, y, args.head_epochs, 3e-3, args.seed, args.threads)
        else:
            start = from_onnx(args.init, len(UK_ALPHABET), args.depth)
        net, best, first = learn_on(start, x, y, args.epochs, args.peak, args.seed, check, out, args.threads)
        if best <= first:
            print(f"no epoch read the tuning run better than {args.init or args.transfer} did; {out} not written")
            return 1
    else:
        net = train(x, y, args.width, args.epochs, args.seed, check=check, threads=args.threads, depth=args.depth,
                    classes=len(UK_ALPHABET))
    print(f"trained in {time.process_time() - c0:.0f} s of CPU")
    temperature = fit_temperature(net, *check)
    print(f"tuning sessions: {accuracy(net, *check):.4f} of {len(check[1])}; temperature {temperature}")
    for name, c in checks.items():
        report(f"  tuning letters in camera scenes, {name}", per_letter(net, *c))
        print("  most misread (errors, letter, read as):", confusions(net, *c, alphabet=UK_ALPHABET))
    export(net, temperature, out)
    print(f"wrote {out} ({out.stat().st_size // 1024} kB) in {time.time() - t0:.0f} s")
    if args.held_out:
        held = ukrainian_letters(held_out=True, seed=args.seed)
        print("held-out writers (never trained on):")
        report("  isolated letters", per_letter(net, *isolated_set(held)))
        for name, m in (("as drawn", False), ("at a marker's width", True)):
            scenes = scene_set(held.labels, list(held.images), 1, 90_000, args.workers, log=lambda *a: None, marker=(m,))
            report(f"  letters in camera scenes, {name}", per_letter(net, *scenes))
            print("  most misread (errors, letter, read as):", confusions(net, *scenes, alphabet=UK_ALPHABET))
    return 0


if __name__ == "__main__":
    sys.exit(main())
