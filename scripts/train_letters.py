#!/usr/bin/env python3
"""Train the shipped letter network (``vision/models/letters.onnx``) on real and rendered handwriting.

    scripts/fetch_fonts.sh
    .venv/bin/python scripts/train_letters.py            # a network from scratch (the defaults)
    .venv/bin/python scripts/train_letters.py --cache var/letters.npz --render-only   # render once ...
    .venv/bin/python scripts/train_letters.py --cache var/letters.npz --init OLD.onnx # ... learn on from a network
    .venv/bin/python scripts/train_letters.py --cache var/letters.npz --everyone --comnist 200 \
        --init vision/models/letters-heldout.onnx        # every writer: the shipped network (docs/vision.md)
    .venv/bin/python scripts/train_letters.py --folds    # each fold of contributors held out in turn
    .venv/bin/python scripts/train_letters.py --cache var/letters.npz --everyone --comnist 200 --except-fold 1 \
        --init vision/models/letters-heldout.onnx --out var/but1.onnx   # that step without fold 1 ...
    .venv/bin/python scripts/train_letters.py --folds 1 --read-with var/but1.onnx       # ... read on fold 1

Real handwriting: the recorded UNIPEN and UJI capitals in ``shared/data/handwriting`` (CC BY 4.0,
credited in the README) of the *training* contributors (:data:`vision.synth.realdata.TRAINING_CONTRIBUTORS`),
each letter written into several photographed scenes, slanted, turned and stretched afresh each
time; a tenth of their writers (the *tuning* writers) is kept apart to fit the softmax temperature
on. The *held-out* contributors are the benchmark's: ``tabletop bench vision`` measures on them
with ``vision/models/letters-heldout.onnx``, a network made this way, which never read them.

``--everyone`` then learns on from such a network (``--init``) with every writer added: the
tuning writers' and the benchmark's letters written into scenes too, and with ``--comnist N``
up to N of each of CoMNIST's capitals drawn exactly like a Latin one (CC BY-SA 4.0: the model
file is then CC BY-SA 4.0, ``vision/models/NOTICE``). No writer is left unseen to fit a
temperature or an acceptance on, so both are kept from the ``--init`` network (its acceptance
file is carried over, tied to the new network's digest): an assumption, written down in
``docs/vision.md``. ``--folds`` measures whole contributors held out in turn
(:data:`vision.synth.realdata.FOLDS`; table in ``docs/letters-folds.md``).

Rendered handwriting: letters from the stroke skeletons of ``vision/synth/strokefont.py``
(jittered, bowed, joined, slanted, marker-thick) or from handwriting fonts
(``vision/synth/fontink.py``).

Every letter is written on a built-in board with a marker's thickness and one of the ink
colours, photographed by the scene simulator (perspective, uneven light, glare, blur, noise) and
cut out by the reader itself (:mod:`vision.synth.letterdata`), so the network learns exactly the
input it gets at the table. The network is trained with PyTorch (training only) and exported to
ONNX, which ONNX Runtime runs at the table (:class:`vision.letters.LetterModel`).

Rendering the scenes is most of the cost on a small machine: ``--cache`` keeps the cut-out
letters (training and tuning writers'; with ``--everyone`` the other writers' in
``CACHE-everyone.npz`` and CoMNIST's in ``CACHE-comnist.npz``) and reads them back when the
settings match, so several networks learn from the very same images; ``--init`` learns on from an
exported network (one that never learnt from the tuning writers: the temperature and every fit
are made on them; with ``--everyone`` they are kept from it instead).
"""

from __future__ import annotations

import argparse
import functools
import os
import pathlib
import sys
import time
from multiprocessing import Pool

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")  # before NumPy loads: rendering runs in worker processes

import numpy as np  # noqa: E402

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[1]))

from vision.letters import ALPHABET  # noqa: E402
from vision.synth.realdata import (CONTRIBUTORS, DEFAULT_PATHS, FOLDS, HELD_OUT_CONTRIBUTORS,  # noqa: E402
                                   TRAINING_CONTRIBUTORS, load_handwriting)

ROOT = pathlib.Path(__file__).resolve().parents[1]
FOLDS_DOC = ROOT / "docs" / "letters-folds.md"  #: the fold table --folds writes (and .json beside it)

BOARDS = ("extradiction", "extradiction-sp", "15x15")
FONT_SHARE = 0.5  #: of the training scenes written in handwriting fonts (vision/fontink.py)


@functools.lru_cache(maxsize=None)
def _reader(name: str):
    """One reader per built-in board and worker process (building one draws the board's reference look)."""
    from tabletop.resources import load_board
    from vision.reader import BoardReader

    if name == "15x15":
        from tabletop.benchmarks.scenes import board_15

        return BoardReader(board_15())
    return BoardReader(load_board(name))


@functools.lru_cache(maxsize=None)
def _fonts(font_dir: str):
    from vision.synth.fontink import HandwritingFonts
    from vision.synth.handwriting import TRAINING_HAND

    return HandwritingFonts.find([font_dir], hand=TRAINING_HAND)


def _synthetic_job(job: tuple[int, int, str | None]) -> tuple[np.ndarray, np.ndarray]:
    """One photographed board of random letters: in stroke-skeleton handwriting, or (when the
    job names a font folder) in handwriting fonts."""
    seed, count, font_dir = job
    from vision.synth.letterdata import scene_letter_images

    from vision.synth.handwriting import TRAINING_HAND, render_letter

    rng = np.random.default_rng(seed)
    letters = "".join(ALPHABET[i] for i in rng.integers(0, 26, count))

    def wandering_hand(letter: str, size: int, r: np.random.Generator) -> np.ndarray:
        return render_letter(letter, size, r, amount=float(r.uniform(0.6, 1.7)), hand=TRAINING_HAND)

    hand = _fonts(font_dir) if font_dir else wandering_hand
    return scene_letter_images(_reader(BOARDS[seed % len(BOARDS)]), letters, seed, hand)


def _slanted(strokes: list[np.ndarray], rng: np.random.Generator) -> list[np.ndarray]:
    """A recorded letter as the same writer might write it on another day: slanted (sheared),
    turned a little and stretched, and re-fitted into the unit box."""
    shear, turn = rng.normal(0, 0.12), rng.normal(0, 0.05)
    stretch = np.exp(rng.normal(0, 0.08))
    c, s = np.cos(turn), np.sin(turn)
    matrix = np.array([[c * stretch, -s], [s * stretch, c]]) @ np.array([[1.0, -shear], [0.0, 1.0]])
    moved = [st @ matrix.T for st in strokes]
    allp = np.vstack(moved)
    lo, span = allp.min(0), max(float((allp.max(0) - allp.min(0)).max()), 1e-6)
    return [(st - lo) / span for st in moved]


def _real_job(job) -> tuple[np.ndarray, np.ndarray]:
    """One photographed board of recorded letters (slanted afresh when ``vary`` is set)."""
    seed, letters, strokes, vary = job
    from vision.synth.letterdata import StrokeQueue, scene_letter_images

    rng = np.random.default_rng([seed, 11])
    if vary:
        strokes = [_slanted(s, rng) for s in strokes]
    return scene_letter_images(_reader(BOARDS[seed % len(BOARDS)]), letters, seed, StrokeQueue(strokes))


def _comnist_job(job) -> tuple[np.ndarray, np.ndarray]:
    """One photographed board of CoMNIST letter images (re-drawn at a marker's width when ``marker``)."""
    seed, letters, images, marker = job
    from vision.synth.cyrillic import ImageQueue
    from vision.synth.handwriting import TABLE_HAND
    from vision.synth.letterdata import scene_letter_images

    return scene_letter_images(_reader(BOARDS[seed % len(BOARDS)]), letters, seed,
                               ImageQueue(images, TABLE_HAND if marker else None))


def _run_jobs(fn, jobs, workers: int, log) -> tuple[np.ndarray, np.ndarray]:
    images, labels = [], []
    t0 = time.time()
    pool = Pool(workers) if workers > 1 else None
    try:
        for k, (x, y) in enumerate(pool.imap(fn, jobs) if pool else map(fn, jobs)):
            images.append(x)
            labels.append(y)
            if (k + 1) % max(1, len(jobs) // 10) == 0 or k + 1 == len(jobs):
                log(f"  scenes {k + 1}/{len(jobs)} ({time.time() - t0:.0f} s)")
    finally:
        if pool:
            pool.close()
    return np.concatenate(images), np.concatenate(labels)


def synthetic_set(scenes: int, seed: int, workers: int, log=print, font_share: float = 0.0,
                  font_dir: str | None = None) -> tuple[np.ndarray, np.ndarray]:
    """``scenes`` photographed boards of random synthetic letters (up to 160 letters each);
    ``font_share`` of the boards (spread evenly) are written in the fonts under ``font_dir``."""
    def fonts_for(k: int) -> str | None:
        return str(font_dir) if int((k + 1) * font_share) > int(k * font_share) else None

    jobs = [(seed * 1_000_003 + k, 160, fonts_for(k)) for k in range(scenes)]
    return _run_jobs(_synthetic_job, jobs, workers, log)


def real_set(data, passes: int, seed: int, workers: int, log=print, vary: bool = True) -> tuple[np.ndarray, np.ndarray]:
    """Every recorded letter of ``data`` written ``passes`` times, each time in another scene
    (another board, camera, ink, light) and, with ``vary``, another slant."""
    jobs = []
    for p in range(passes):
        order = np.random.default_rng([seed, p]).permutation(len(data.labels))
        for k in range(0, len(order), 120):
            part = order[k:k + 120]
            jobs.append((seed * 7919 + p * 100_003 + k, "".join(data.labels[part]), [data.strokes[i] for i in part], vary))
    return _run_jobs(_real_job, jobs, workers, log)


def comnist_latin(most: int, seed: int) -> tuple[np.ndarray, np.ndarray]:
    """(letters, images): CoMNIST's capitals drawn exactly like a Latin one (А В Е К М Н О Р С Т Х),
    as that Latin letter, at most ``most`` of each, from the sessions the Ukrainian network may
    learn from (never its held-out or guard sessions: :func:`vision.synth.cyrillic.split_sessions`)."""
    from vision.synth.cyrillic import COMNIST_PATH, split_sessions

    if most <= 0 or not COMNIST_PATH.is_file():
        return np.array([], "<U1"), np.zeros((0, 70, 70), np.uint8)
    held, guard = split_sessions()
    with np.load(COMNIST_PATH) as d:
        latin = np.asarray(d["latin_homoglyph"]).astype(str)
        keep = (latin != "") & ~np.isin(np.asarray(d["writer"]).astype(str), sorted(held | guard))
        images = np.asarray(d["images"])
    rng = np.random.default_rng([seed, 13])
    chosen = np.array(sorted(i for ch in sorted(set(latin[keep])) for i in rng.choice(
        np.nonzero(keep & (latin == ch))[0], min(most, int((keep & (latin == ch)).sum())), replace=False)), int)
    return latin[chosen], images[chosen]


def comnist_set(letters, images, passes: int, seed: int, workers: int, marker_share: float = 0.8,
                log=print) -> tuple[np.ndarray, np.ndarray]:
    """CoMNIST's look-alike letters written ``passes`` times into scenes; ``marker_share`` of the
    scenes re-draw their thin lines at a marker's width (:func:`vision.synth.cyrillic.at_width`)."""
    jobs = []
    for p in range(passes):
        order = np.random.default_rng([seed, p, 3]).permutation(len(letters))
        for k in range(0, len(order), 120):
            part = order[k:k + 120]
            job_seed = seed * 6007 + p * 100_003 + k
            marker = bool(np.random.default_rng([job_seed, 41]).random() < marker_share)
            jobs.append((job_seed, "".join(letters[part]), images[part], marker))
    return _run_jobs(_comnist_job, jobs, workers, log)


def split_writers(data, share: float, seed: int):
    """(learn, calibrate): ``share`` of ``data``'s writers set aside whole, to fit the temperature on."""
    writers = np.unique(data.writer)
    chosen = np.random.default_rng(seed).choice(writers, max(1, int(len(writers) * share)), replace=False)
    aside = np.isin(data.writer, chosen)
    return data.subset(~aside), data.subset(aside)


def build_net(width: int, depth: int = 1, classes: int = 26):
    """Three blocks of (3x3 convolution, batch norm, ReLU) then a 2x2 max pool; the second and
    third blocks have ``depth`` convolutions each. Then a dense layer whose output is the letter's
    *features* (what :class:`vision.hands.HandMemory` compares), then the ``classes`` class scores."""
    import torch.nn as nn

    c1, c2, c3, hidden = width, 2 * width, 4 * width, 8 * width

    def block(c_in: int, c_out: int, convs: int) -> list:
        layers: list = []
        for k in range(convs):
            layers += [nn.Conv2d(c_in if k == 0 else c_out, c_out, 3, padding=1), nn.BatchNorm2d(c_out), nn.ReLU()]
        return layers

    return nn.Sequential(
        *block(1, c1, 1), nn.MaxPool2d(2),
        *block(c1, c2, depth), nn.MaxPool2d(2),
        *block(c2, c3, depth), nn.MaxPool2d(2, ceil_mode=True),
        nn.Flatten(), nn.Dropout(0.3), nn.Linear(c3 * 16, hidden), nn.ReLU(), nn.Dropout(0.3), nn.Linear(hidden, classes))


def augment(x):
    """Random rotation, shear, stretch, shift and smooth elastic bend of a batch (B, 1, 28, 28),
    and sometimes a thicker or thinner line: the hand varies more than the stroke font does."""
    import torch
    import torch.nn.functional as F

    b = x.shape[0]
    angle = (torch.rand(b) - 0.5) * 2 * np.radians(12)
    shear = (torch.rand(b) - 0.5) * 0.5
    sx, sy = torch.exp((torch.rand(b) - 0.5) * 0.4), torch.exp((torch.rand(b) - 0.5) * 0.3)
    c, s = torch.cos(angle), torch.sin(angle)
    theta = torch.zeros(b, 2, 3)
    theta[:, 0, 0], theta[:, 0, 1] = c / sx, (shear - s) / sx
    theta[:, 1, 0], theta[:, 1, 1] = s / sy, c / sy
    theta[:, :, 2] = (torch.rand(b, 2) - 0.5) * 0.15
    grid = F.affine_grid(theta, x.shape, align_corners=False)
    wobble = F.interpolate(torch.randn(b, 2, 4, 4) * 0.06, size=x.shape[2:], mode="bicubic", align_corners=False)
    grid = grid + wobble.permute(0, 2, 3, 1) * (torch.rand(b)[:, None, None, None] < 0.7)  # elastic bend
    x = F.grid_sample(x, grid, align_corners=False)
    pick = torch.rand(b)[:, None, None, None]
    thick, thin = F.max_pool2d(x, 3, 1, 1), -F.max_pool2d(-x, 3, 1, 1)
    return torch.where(pick < 0.15, thick, torch.where(pick > 0.9, thin, x))


def train(images: np.ndarray, labels: np.ndarray, width: int, epochs: int, seed: int, log=print,
          check: tuple[np.ndarray, np.ndarray] | None = None, threads: int = 1, depth: int = 1, classes: int = 26,
          init=None, peak: float = 3e-3):
    """A network trained on ``images`` (N, 28, 28 uint8) to tell ``classes`` letters apart; a
    progress bar per epoch. The learning rate rises to ``peak`` and falls away (one cycle). With
    ``init`` (a network from :func:`from_onnx`) it learns on from those weights, its batch norms frozen."""
    import torch
    from rich.progress import Progress

    torch.manual_seed(seed)
    torch.set_num_threads(threads)
    x = torch.tensor(images).float().div(255).unsqueeze(1)
    y = torch.tensor(labels).long()
    net = init if init is not None else build_net(width, depth, classes)
    batch = 256
    per_epoch = max(1, len(x) // batch)
    steps = epochs * per_epoch
    opt = torch.optim.AdamW(net.parameters(), 2e-3, weight_decay=5e-4)
    sched = torch.optim.lr_scheduler.OneCycleLR(opt, peak, total_steps=steps)

    t0 = time.time()
    with Progress(transient=True) as progress:
        for epoch in range(epochs):
            task = progress.add_task(f"epoch {epoch + 1}/{epochs}", total=per_epoch)
            loss = one_epoch(net, x, y, opt, sched, steps, batch, frozen_norms=init is not None,
                             stepped=lambda: progress.advance(task))
            progress.remove_task(task)
            note = f", calibration writers {accuracy(net, *check):.4f}" if check is not None else ""
            log(f"epoch {epoch + 1}/{epochs}: loss {loss:.3f}{note} ({time.time() - t0:.0f} s)")
    net.eval()
    return net


def one_epoch(net, x, y, opt, sched, steps: int, batch: int, frozen_norms: bool, stepped=lambda: None) -> float:
    """One pass of ``net`` over the tensors ``x`` (N, 1, 28, 28) and ``y`` in a random order,
    ``batch`` at a time with :func:`augment` and label smoothing, ``sched`` stepped until its
    ``steps``; ``frozen_norms`` keeps the batch norms as they are (a network learning on from an
    export, :func:`from_onnx`); ``stepped`` is called after each batch (a progress bar). Returns
    the mean loss."""
    import torch
    import torch.nn as nn
    import torch.nn.functional as F

    net.train()
    for m in net if frozen_norms else ():
        if isinstance(m, nn.BatchNorm2d):
            m.eval()
    order = torch.randperm(len(x))
    total, count = 0.0, 0
    for start in range(0, max(1, len(x) // batch) * batch, batch):
        idx = order[start:start + batch]
        loss = F.cross_entropy(net(augment(x[idx])), y[idx], label_smoothing=0.1)
        opt.zero_grad()
        loss.backward()
        opt.step()
        if sched.last_epoch + 1 < steps:
            sched.step()
        total, count = total + loss.item(), count + 1
        stepped()
    return total / max(1, count)


def logits(net, images: np.ndarray):
    """The network's raw class scores for uint8 images (N, 28, 28), as a tensor."""
    import torch

    net.eval()
    with torch.no_grad():
        return torch.cat([net(torch.tensor(images[i:i + 2048]).float().div(255).unsqueeze(1))
                          for i in range(0, max(1, len(images)), 2048)])


def accuracy(net, images: np.ndarray, labels: np.ndarray) -> float:
    """Share of ``images`` the network reads as ``labels``."""
    return float((logits(net, images).argmax(1).numpy() == labels).mean()) if len(labels) else float("nan")


def fit_temperature(net, images: np.ndarray, labels: np.ndarray) -> float:
    """The softmax temperature that makes the probabilities honest (least log-loss) on writers the
    network did not learn from; word decoding weighs letters by these probabilities."""
    z = logits(net, images).numpy().astype(np.float64)

    def log_loss(t: float) -> float:
        zt = z / t
        zt = zt - zt.max(1, keepdims=True)
        return float(-(zt[np.arange(len(labels)), labels] - np.log(np.exp(zt).sum(1))).mean())

    return min(np.arange(0.3, 4.01, 0.05), key=log_loss).round(2).item()


def confusions(net, images: np.ndarray, labels: np.ndarray, worst: int = 8, alphabet: str = ALPHABET) -> list:
    """The letters most often misread: (errors, letter, what it was most often read as)."""
    pred = logits(net, images).argmax(1).numpy()
    n = len(alphabet)
    table = np.zeros((n, n), int)
    np.add.at(table, (labels, pred), 1)
    np.fill_diagonal(table, 0)
    rows = sorted(range(n), key=lambda i: -table[i].sum())[:worst]
    return [(int(table[i].sum()), alphabet[i], alphabet[int(table[i].argmax())]) for i in rows]


def export(net, temperature: float, out: pathlib.Path) -> None:
    """The network as ONNX (run at the table by ONNX Runtime): input ``images`` (N, 1, 28, 28)
    float in 0..1, outputs ``features`` (the dense layer) and ``scores`` (class scores already
    divided by the temperature: a softmax of them is the letter's probability)."""
    import torch
    import torch.nn as nn

    class Exported(nn.Module):
        def __init__(self) -> None:
            super().__init__()
            self.body, self.head = net[:-1], net[-1]

        def forward(self, x):
            features = self.body(x)
            return features, self.head(features) / temperature

    model = Exported().eval()
    torch.onnx.export(model, torch.zeros(1, 1, 28, 28), str(out), dynamo=False, input_names=["images"],
                      output_names=["features", "scores"],
                      dynamic_axes={"images": {0: "n"}, "features": {0: "n"}, "scores": {0: "n"}})


def training_images(real, args, font_dir, seed: int, log=print) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """``real``'s letters written ``args.passes`` times, and ``args.scenes`` boards of synthetic
    ones: (images, labels, which images are of recorded letters)."""
    parts = []
    if len(real):
        log(f"rendering {len(real)} recorded letters x {args.passes} scenes each ...")
        parts.append(real_set(real, args.passes, seed, args.workers, log))
    if args.scenes:
        log(f"rendering {args.scenes} boards of synthetic handwriting ...")
        parts.append(synthetic_set(args.scenes, seed, args.workers, log, font_share=args.font_share, font_dir=font_dir))
    recorded = np.concatenate([np.full(len(p[1]), k == 0 and len(real) > 0) for k, p in enumerate(parts)])
    return np.concatenate([p[0] for p in parts]), np.concatenate([p[1] for p in parts]), recorded


def read_held_out(predict, data, group, k: int, workers: int) -> dict[str, list[int]]:
    """Each contributor of ``group``: [letters read right, letters], its recorded letters written
    once as recorded into photographed scenes (the seeds of fold ``k``) and their cut-outs read by
    ``predict`` (uint8 images (N, 28, 28) -> letter indices), with no dictionary."""
    by: dict[str, list[int]] = {}
    for name in group:
        held = data.of([name])
        if not len(held):
            continue
        xh, yh = real_set(held, 1, 50_000 + k, workers, log=lambda *a: None, vary=False)
        by[name] = [int((predict(xh) == yh).sum()), len(yh)]
        print(f"  {name}: {by[name][0] / len(yh):.4f} of {len(yh)}")
    return by


def write_fold_table(results: dict, path: pathlib.Path = FOLDS_DOC) -> None:
    """``docs/letters-folds.md`` (and ``.json`` beside it) from each fold's per-contributor
    counts: {fold number: {"held_out": [...], "by_contributor": {code: [right, total]}, "network": "..."}}."""
    import json

    path.with_suffix(".json").write_text(json.dumps(results, indent=1, sort_keys=True) + "\n", encoding="utf-8")
    lines = ["# The Latin letter network, whole contributors held out in turn", "",
             "Written by `scripts/train_letters.py --folds`: for each fold, a network that never learnt from the",
             "fold's contributors reads their recorded letters, each drawn once as marker ink on a printed board,",
             "photographed by the scene simulator and cut out by the reader (no dictionary). Fold 1 is",
             "`tabletop bench vision`'s writers. The last column says which network read the fold: how it was",
             "trained is what the row measures (docs/vision.md, \"How the Latin network is trained and measured\").",
             "", "| fold | held out | letters | read right | network |", "| --- | --- | ---: | ---: | --- |"]
    right_all = total_all = 0
    for k in sorted(results, key=int):
        by = results[k]["by_contributor"]
        right, total = sum(v[0] for v in by.values()), sum(v[1] for v in by.values())
        right_all, total_all = right_all + right, total_all + total
        lines.append(f"| {k} | {', '.join(results[k]['held_out'])} | {total:,} | {right / max(1, total):.1%} | "
                     f"{results[k].get('network', '')} |")
    lines.append(f"| all | every contributor, once | {total_all:,} | {right_all / max(1, total_all):.1%} | |")
    if len({results[k].get("network", "") for k in results}) > 1:
        lines += ["", "The folds were read by networks made in different ways (last column): the *all* row sums "
                  "them as they are."]
    lines += ["", "By contributor:", "", "| contributor | fold | letters | read right |", "| --- | ---: | ---: | ---: |"]
    for k in sorted(results, key=int):
        for name, (r, n) in sorted(results[k]["by_contributor"].items()):
            lines.append(f"| {name} | {k} | {n:,} | {r / max(1, n):.1%} |")
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")


def folds(data, args, font_dir, which) -> int:
    """Each fold of :data:`FOLDS` in ``which`` (1-based) held out in turn: a network trained on
    every other contributor (or, with ``args.read_with``, that exported network as it is) reads
    the fold's letters (:func:`read_held_out`); each fold's row goes into ``args.table``
    (:func:`write_fold_table`). Writes no model."""
    import json

    for k in which:
        group = FOLDS[k - 1]
        print(f"fold {k}/{len(FOLDS)}: holding out {', '.join(group)}")
        if args.read_with:
            from vision.letters import LetterModel

            model = LetterModel.load(args.read_with)

            def predict(x):
                return model.predict_proba_images(x.astype(np.float32) / 255).argmax(1)

            network = f"{pathlib.Path(args.read_with).name}, which never learnt from this fold"
        else:
            rest = [c for c in CONTRIBUTORS if c not in group]
            x, y, _recorded = training_images(data.of(rest), args, font_dir, args.seed + k)
            if args.comnist > 0:
                xc, yc = comnist_set(*comnist_latin(args.comnist, args.seed), args.passes, args.seed + 3, args.workers)
                x, y = np.concatenate([x, xc]), np.concatenate([y, yc])
            init = from_onnx(pathlib.Path(args.init), depth=args.depth) if args.init else None
            net = train(x, y, args.width, args.epochs, args.seed + k, threads=args.threads, depth=args.depth,
                        init=init, peak=args.peak)

            def predict(x):
                return logits(net, x).argmax(1).numpy()

            network = (f"width {args.width}, {args.epochs} epoch{'s' if args.epochs != 1 else ''}, "
                       f"{args.scenes} synthetic boards, {args.passes} passes"
                       + (f", CoMNIST {args.comnist} a letter" if args.comnist > 0 else "")
                       + (f", learnt on from {pathlib.Path(args.init).name}" if args.init else ", from scratch"))
        by = read_held_out(predict, data, group, k, args.workers)
        table_json = args.table.with_suffix(".json")
        results = json.loads(table_json.read_text(encoding="utf-8")) if table_json.is_file() else {}
        results[str(k)] = {"held_out": list(group), "by_contributor": by, "network": network}
        write_fold_table(results, args.table)
        right, total = sum(v[0] for v in by.values()), sum(v[1] for v in by.values())
        print(f"  fold {k}: {right / max(1, total):.4f} of {total}; table in {args.table}")
    return 0


def from_onnx(path: pathlib.Path, classes: int = 26, depth: int = 1):
    """A network (:func:`build_net`) holding the weights of an exported one (``path``, as
    :func:`export` writes it). The export folded each batch norm into its convolution, so here
    the batch norms start as the identity (and :func:`train` keeps them frozen while it learns on)."""
    import onnx
    import torch
    import torch.nn as nn
    from onnx import numpy_helper

    model = onnx.load(str(path))
    weights = {t.name: numpy_helper.to_array(t) for t in model.graph.initializer}
    convs = [n for n in model.graph.node if n.op_type == "Conv"]
    dense = [n for n in model.graph.node if n.op_type in ("Gemm", "MatMul")]
    net = build_net(int(weights[convs[0].input[1]].shape[0]), depth, classes)
    layers = [m for m in net if isinstance(m, nn.Conv2d)] + [m for m in net if isinstance(m, nn.Linear)]
    if len(layers) != len(convs) + len(dense) or any(n.op_type != "Gemm" for n in dense):
        raise ValueError(f"{path} is not a network of build_net's shape (width, depth {depth})")
    with torch.no_grad():
        for layer, node in zip(layers, convs + dense):
            layer.weight.copy_(torch.tensor(weights[node.input[1]]))
            layer.bias.copy_(torch.tensor(weights[node.input[2]]))
        for m in net:
            if isinstance(m, nn.BatchNorm2d):
                m.weight.fill_(1.0)
                m.bias.zero_()
                m.running_mean.zero_()
                m.running_var.fill_(1.0 - m.eps)
    return net


def rendered(learn, calibrate, args, font_dir, log=print) -> tuple[np.ndarray, np.ndarray, tuple[np.ndarray, np.ndarray]]:
    """(images, labels, (tuning images, tuning labels)): the training letters rendered into
    scenes (:func:`training_images`; with ``args.recorded_only`` only the recorded letters' images)
    and the tuning writers' letters written ``args.check_passes`` times as recorded. Loaded from ``args.cache`` when it was rendered with these very settings,
    else rendered (and saved there), so that several networks learn from the same images."""
    key = (f"passes={args.passes} scenes={args.scenes} font_share={args.font_share} seed={args.seed} "
           f"check_passes={args.check_passes} learn={len(learn)} calibrate={len(calibrate)}")
    cache = pathlib.Path(args.cache) if args.cache else None
    if cache is not None and cache.is_file():
        with np.load(cache) as d:
            if str(d["key"]) == key:
                log(f"rendered letters read from {cache}")
                keep = d["recorded"] if args.recorded_only else slice(None)
                return d["x"][keep], d["y"][keep], (d["check_x"], d["check_y"])
        log(f"{cache} holds other settings: rendering afresh")
    if font_dir is None and args.font_share > 0 and args.scenes > 0:
        raise SystemExit("no handwriting fonts to render the synthetic scenes with: run scripts/fetch_fonts.sh "
                         "(or pass --font-share 0)")
    x, y, recorded = training_images(learn, args, font_dir, args.seed, log)
    check = real_set(calibrate, args.check_passes, args.seed + 1, args.workers, log=lambda *a: None, vary=False)
    if cache is not None:
        cache.parent.mkdir(parents=True, exist_ok=True)
        np.savez(cache, x=x, y=y, recorded=recorded, check_x=check[0], check_y=check[1], key=key)
        log(f"rendered letters saved in {cache}")
    keep = recorded if args.recorded_only else slice(None)
    return x[keep], y[keep], check


def onnx_temperature(path: pathlib.Path) -> float:
    """The softmax temperature :func:`export` divided an exported network's class scores by."""
    import onnx
    from onnx import numpy_helper

    model = onnx.load(str(path))
    made = {o: n for n in model.graph.node for o in n.output}
    consts = {t.name: t for t in model.graph.initializer}
    for node in model.graph.node:
        if node.op_type == "Div" and "scores" in node.output:
            source = made.get(node.input[1])
            if source is not None and source.op_type == "Constant":
                return float(numpy_helper.to_array(source.attribute[0].t))
            if node.input[1] in consts:
                return float(numpy_helper.to_array(consts[node.input[1]]))
    raise ValueError(f"{path} divides its scores by no temperature (not written by train_letters.export)")


def everyone_else(data, learn):
    """The letters of ``data``'s writers who are not in ``learn``: the tuning writers and the
    benchmark's (what ``--everyone`` adds)."""
    return data.subset(~np.isin(data.writer, np.unique(learn.writer)))


def kept_render(path: pathlib.Path | None, key: str, what: str, render, log=print) -> tuple[np.ndarray, np.ndarray]:
    """``render()``'s images and labels, read from ``path`` instead when it holds them for ``key``
    (the settings they were rendered with), and saved there after rendering otherwise."""
    if path is not None and path.is_file():
        with np.load(path) as d:
            if str(d["key"]) == key:
                log(f"{what} read from {path}")
                return d["x"], d["y"]
    x, y = render()
    if path is not None:
        path.parent.mkdir(parents=True, exist_ok=True)
        np.savez(path, x=x, y=y, key=key)
        log(f"{what} saved in {path}")
    return x, y


def rendered_rest(rest, args, log=print) -> tuple[np.ndarray, np.ndarray]:
    """``rest``'s letters written ``args.passes`` times into scenes (slanted afresh, as the
    training writers'), kept in ``CACHE-everyone.npz`` beside ``args.cache`` when it is given."""
    key = f"passes={args.passes} seed={args.seed} letters={len(rest)} writers={len(np.unique(rest.writer))}"
    cache = pathlib.Path(args.cache) if args.cache else None
    but = f"-but{args.except_fold}" if getattr(args, "except_fold", None) else ""
    path = cache.with_name(f"{cache.stem}-everyone{but}.npz") if cache is not None else None

    def render() -> tuple[np.ndarray, np.ndarray]:
        log(f"rendering {len(rest)} letters of {len(np.unique(rest.writer))} more writers x {args.passes} scenes each ...")
        return real_set(rest, args.passes, args.seed + 2, args.workers, log)

    return kept_render(path, key, "the other writers' rendered letters", render, log)


def comnist_check(paths, workers: int, seed: int = 77_000) -> int:
    """Each exported Latin network in ``paths`` on CoMNIST's Latin look-alikes from the Ukrainian
    split's *held-out* sessions (never learnt from by a Latin network: :func:`comnist_latin`
    leaves them out), one scene each: accuracy, log-loss, and the factor on its scores that
    would make the log-loss least (1: its temperature suits these writers; above 1: it is less
    sure of itself than it could be)."""
    from vision.letters import LetterModel
    from vision.synth.cyrillic import COMNIST_PATH, split_sessions

    if not COMNIST_PATH.is_file():
        print(f"no CoMNIST at {COMNIST_PATH}", file=sys.stderr)
        return 2
    held, _guard = split_sessions()
    with np.load(COMNIST_PATH) as d:
        latin = np.asarray(d["latin_homoglyph"]).astype(str)
        keep = (latin != "") & np.isin(np.asarray(d["writer"]).astype(str), sorted(held))
        images, letters, sessions = np.asarray(d["images"])[keep], latin[keep], np.asarray(d["writer"])[keep]
    x, y = comnist_set(letters, images, 1, seed, workers, log=lambda *a: None)
    print(f"CoMNIST's held-out sessions: {len(y)} Latin look-alikes of {len(set(sessions))} sessions, one scene each")
    for path in paths:
        z = LetterModel.load(path).outputs(x.astype(np.float32) / 255)[1].astype(np.float64)

        def log_loss(factor: float) -> float:
            zt = z * factor
            zt = zt - zt.max(1, keepdims=True)
            return float(-(zt[np.arange(len(y)), y] - np.log(np.exp(zt).sum(1))).mean())

        best = min(np.arange(0.3, 3.01, 0.02), key=log_loss)
        print(f"  {path}: {(z.argmax(1) == y).mean():.4f} read right, log-loss {log_loss(1.0):.3f}; "
              f"least log-loss {log_loss(best):.3f} with the scores times {best:.2f}")
    return 0


def rendered_comnist(args, log=print) -> tuple[np.ndarray, np.ndarray]:
    """``args.comnist`` of each of CoMNIST's Latin look-alikes (:func:`comnist_latin`) written
    ``args.passes`` times into scenes, kept in ``CACHE-comnist.npz`` beside ``args.cache``."""
    letters, images = comnist_latin(args.comnist, args.seed)
    key = f"passes={args.passes} seed={args.seed} comnist={args.comnist} letters={len(letters)}"
    cache = pathlib.Path(args.cache) if args.cache else None
    path = cache.with_name(cache.stem + "-comnist.npz") if cache is not None else None

    def render() -> tuple[np.ndarray, np.ndarray]:
        log(f"rendering {len(letters)} of CoMNIST's Latin look-alikes x {args.passes} scenes each ...")
        return comnist_set(letters, images, args.passes, args.seed + 3, args.workers, log=log)

    return kept_render(path, key, "CoMNIST's rendered look-alikes", render, log)


def carry_acceptance(init: pathlib.Path, out: pathlib.Path, log=print) -> None:
    """Write ``out``'s acceptance file as ``init``'s (fitted on writers ``init`` never saw) with
    ``out``'s digest and a note saying so: an ``--everyone`` network leaves no unseen writers to
    fit one on (docs/vision.md)."""
    import json

    from vision.acceptance import accept_path, file_sha256

    source = accept_path(init)
    if not source.is_file():
        log(f"no {source.name} to carry over: the reader falls back to asking below vision.words.CONFIRM_BELOW")
        return
    data = json.loads(source.read_text(encoding="utf-8"))
    if data.get("model_sha256") != file_sha256(init):
        log(f"{source.name} was fitted for another network than {init.name}: not carried over")
        return
    data["model_sha256"] = file_sha256(out)
    data["carried_from"] = (f"{source.name}, fitted for {init.name}, which this network learnt on from with every "
                            "writer added (no unseen writers remain to fit on); not re-fitted")
    accept_path(out).write_text(json.dumps(data, indent=1) + "\n", encoding="utf-8")
    log(f"wrote {accept_path(out)} (carried over from {source.name})")


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", default=str(pathlib.Path(__file__).resolve().parents[1] / "vision" / "models" / "letters.onnx"))
    ap.add_argument("--scenes", type=int, default=600, help="photographed boards of synthetic letters (160 each)")
    ap.add_argument("--passes", type=int, default=4, help="times each recorded letter is written into a scene")
    ap.add_argument("--epochs", type=int, default=8)
    ap.add_argument("--width", type=int, default=32, help="channels of the first convolution")
    ap.add_argument("--depth", type=int, default=1, help="convolutions in each of the second and third blocks")
    ap.add_argument("--font-share", type=float, default=FONT_SHARE, help="share of the synthetic scenes written "
                    "in handwriting fonts instead of stroke skeletons (0 to 1)")
    ap.add_argument("--fonts", default=None, metavar="DIR", help="where the handwriting fonts are "
                    "(default .fonts/, filled by scripts/fetch_fonts.sh)")
    ap.add_argument("--data", nargs="*", type=pathlib.Path, default=list(DEFAULT_PATHS),
                    help="recorded handwriting files (default: UNIPEN and UJI in shared/data/handwriting)")
    ap.add_argument("--calibration-share", type=float, default=0.1,
                    help="share of the training contributors' writers kept apart to fit the temperature on")
    ap.add_argument("--folds", nargs="*", type=int, default=None, metavar="K",
                    help="hold these folds of contributors (1-based; all when none is named) out in turn, each "
                    "read by a network trained on the others, and write the table (--table; no model)")
    ap.add_argument("--read-with", default=None, metavar="ONNX", help="with --folds: read the folds with this "
                    "exported network instead of training one (only one that never learnt from them)")
    ap.add_argument("--table", type=pathlib.Path, default=FOLDS_DOC, help="where --folds writes its table (.md "
                    "and .json beside it)")
    ap.add_argument("--cache", default=None, metavar="NPZ", help="keep the rendered letters here (and read them "
                    "back when the settings match), to train several networks on the very same images")
    ap.add_argument("--render-only", action="store_true", help="render the letters into --cache and stop")
    ap.add_argument("--check-passes", type=int, default=1, help="times each tuning writer's letter is written "
                    "into a scene (to fit the temperature and measure on)")
    ap.add_argument("--init", default=None, metavar="ONNX", help="learn on from this exported network's weights "
                    "(only one that never learnt from the tuning writers)")
    ap.add_argument("--everyone", action="store_true", help="learn from every contributor, the tuning writers "
                    "and the benchmark's too (with --init: its temperature and acceptance are carried over, no "
                    "unseen writers remain to fit them on)")
    ap.add_argument("--except-fold", type=int, default=None, metavar="K", help="with --everyone: every writer "
                    "but fold K's (to measure this step on them: --folds K --read-with)")
    ap.add_argument("--comnist", type=int, default=0, help="and CoMNIST's capitals drawn like a Latin one "
                    "(A B C E H K M O P T X), at most this many of each (0: none; with any, the network is "
                    "CC BY-SA 4.0: vision/models/NOTICE)")
    ap.add_argument("--comnist-check", nargs="+", default=None, metavar="ONNX", help="read CoMNIST's Latin "
                    "look-alikes of the Ukrainian split's held-out sessions with these networks and stop")
    ap.add_argument("--recorded-only", action="store_true", help="learn from the recorded letters' images alone "
                    "(rendered all the same, so that the cache serves both)")
    ap.add_argument("--peak", type=float, default=3e-3, help="highest learning rate of the one cycle")
    ap.add_argument("--seed", type=int, default=2026)
    ap.add_argument("--workers", type=int, default=os.cpu_count() or 1, help="processes rendering scenes")
    ap.add_argument("--threads", type=int, default=1, help="PyTorch threads while training")
    args = ap.parse_args(argv)
    if args.depth < 1 or args.width < 1 or args.epochs < 1:
        print("--depth, --width and --epochs must be at least 1", file=sys.stderr)
        return 2
    if args.comnist_check:
        return comnist_check(args.comnist_check, args.workers)
    if args.folds is not None and any(not 1 <= k <= len(FOLDS) for k in args.folds):
        print(f"--folds are numbered 1 to {len(FOLDS)}", file=sys.stderr)
        return 2
    if args.except_fold is not None and not (args.everyone and 1 <= args.except_fold <= len(FOLDS)):
        print(f"--except-fold goes with --everyone and is a fold from 1 to {len(FOLDS)}", file=sys.stderr)
        return 2
    if args.everyone and not args.init:
        print("--everyone learns on from a network (--init): its temperature is kept, as no unseen writers "
              "remain to fit one on", file=sys.stderr)
        return 2
    if not 0.0 <= args.font_share <= 1.0:
        print("--font-share must be between 0 and 1", file=sys.stderr)
        return 2
    missing = [str(p) for p in args.data if not p.is_file()]
    if missing:
        print(f"no handwriting data at {', '.join(missing)}", file=sys.stderr)
        return 2
    font_dir = None
    if args.font_share > 0 and args.scenes > 0 and not (args.folds is not None and args.read_with):
        from vision.synth.fontink import FONT_DIR, NoFontsFound

        font_dir = str(args.fonts or FONT_DIR)
        try:  # loaded here once: the rendering workers (forked) start with the fonts read
            families = len(_fonts(font_dir))
        except NoFontsFound:
            if not (args.cache and pathlib.Path(args.cache).is_file()):
                print(f"no handwriting fonts in {font_dir}: run scripts/fetch_fonts.sh (or pass --font-share 0)",
                      file=sys.stderr)
                return 2
            font_dir = None  # the cache may hold these scenes; rendered() stops if it must render them
        else:
            print(f"{families} handwriting font families in {font_dir} write {args.font_share:.0%} of the "
                  "synthetic scenes")
    try:
        import torch  # noqa: F401
    except ImportError:
        print("training needs PyTorch: .venv/bin/pip install -e '.[train]'", file=sys.stderr)
        return 2
    data = load_handwriting(args.data)
    if args.folds is not None:
        return folds(data, args, font_dir, args.folds or range(1, len(FOLDS) + 1))
    t0 = time.time()
    learn, calibrate = split_writers(data.of(TRAINING_CONTRIBUTORS), args.calibration_share, args.seed)
    if args.everyone:
        print(f"recorded letters: {len(learn)} of the training writers, and below every other writer's")
    else:
        print(f"recorded letters: {len(learn)} to learn from, {len(calibrate)} of {len(np.unique(calibrate.writer))} "
              f"writers kept apart for calibration; never used: {', '.join(HELD_OUT_CONTRIBUTORS)}")
    x, y, check = rendered(learn, calibrate, args, font_dir)
    if args.everyone:
        rest = everyone_else(data, learn)
        if args.except_fold is not None:
            rest = rest.subset(~np.isin(rest.contributor, list(FOLDS[args.except_fold - 1])))
        xr, yr = rendered_rest(rest, args)
        x, y = np.concatenate([x, xr]), np.concatenate([y, yr])
        print(f"and every other writer: {len(rest)} letters of {len(np.unique(rest.writer))} writers "
              f"({', '.join(sorted(set(rest.contributor)))}), {len(yr)} images")
    if args.comnist > 0:
        xc, yc = rendered_comnist(args)
        x, y = np.concatenate([x, xc]), np.concatenate([y, yc])
        print(f"and CoMNIST's Latin look-alikes: {len(yc)} images")
    print(f"{len(y)} training images, {len(check[1])} calibration images ({time.time() - t0:.0f} s)")
    if args.render_only:
        return 0
    init = from_onnx(pathlib.Path(args.init), depth=args.depth) if args.init else None
    net = train(x, y, args.width, args.epochs, args.seed, check=None if args.everyone else check,
                threads=args.threads, depth=args.depth, init=init, peak=args.peak)
    if args.everyone:  # the tuning writers are learnt from too: nothing unseen to fit on
        temperature = onnx_temperature(pathlib.Path(args.init))
        print(f"temperature {temperature}, kept from {args.init}; the tuning writers (now learnt from): "
              f"{accuracy(net, *check):.4f} of {len(check[1])}, no measure of the network")
    else:
        temperature = fit_temperature(net, *check)
        print(f"calibration writers: {accuracy(net, *check):.4f} of {len(check[1])}; temperature {temperature}")
        print("most misread (errors, letter, read as):", confusions(net, *check))
    out = pathlib.Path(args.out)
    out.parent.mkdir(parents=True, exist_ok=True)
    export(net, temperature, out)
    print(f"wrote {out} ({out.stat().st_size // 1024} kB) in {time.time() - t0:.0f} s")
    if args.everyone:
        carry_acceptance(pathlib.Path(args.init), out)
    return 0


if __name__ == "__main__":
    sys.exit(main())
