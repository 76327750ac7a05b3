#!/usr/bin/env python3
"""Train the shipped letter model from the project's own synthetic handwriting.

    scripts/fetch_fonts.sh
    .venv/bin/python scripts/train_letters.py --out vision/models/letters.npz \
        --check ../shared/data/handwriting/unipen_1b_uppercase_strokes.npz

(the defaults, two networks of 1,600 scenes and 5 epochs each, half the scenes in handwriting
fonts, are how the shipped model was made)

Every training image is made here: letters from the stroke skeletons of
``vision/strokefont.py`` (jittered, bowed, joined, slanted, marker-thick) or from handwriting
fonts (``vision/fontink.py``, thinned or thickened to a marker's width) are written on the
built-in boards, photographed by the scene simulator (perspective, uneven light, glare, blur,
noise) and cut out by the reader itself (:mod:`vision.synth.letterdata`). A small convolutional
network is trained on them with PyTorch (training only: the shipped weights run in NumPy) and
its batch normalisation is folded into the convolutions on export.

The real UNIPEN strokes (research-only licence) never train the model: ``--check FILE`` only
reports accuracy on the *tuning* contributors so that settings can be compared.
"""

from __future__ import annotations

import argparse
import functools
import os
import pathlib
import sys
import time
from multiprocessing import Pool, get_context

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")  # before NumPy loads: rendering runs in worker processes

import numpy as np  # noqa: E402

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[1]))

from vision.letters import ALPHABET, LetterModel  # noqa: E402

BOARDS = ("extradiction", "extradiction-sp", "15x15")
FONT_SHARE = 0.5  #: of the training scenes written in handwriting fonts (vision/fontink.py)


@functools.lru_cache(maxsize=None)
def _reader(name: str):
    """One reader per built-in board and worker process (building one draws the board's reference look)."""
    from tabletop.resources import load_board
    from vision.reader import BoardReader

    if name == "15x15":
        from tabletop.benchmarks.vision import board_15

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


def _real_job(job) -> tuple[np.ndarray, np.ndarray]:
    seed, letters, strokes = job
    from vision.synth.letterdata import StrokeQueue, scene_letter_images

    return scene_letter_images(_reader(BOARDS[seed % len(BOARDS)]), letters, seed, StrokeQueue(strokes))


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


def real_check_set(path: str, workers: int, log=print) -> tuple[np.ndarray, np.ndarray]:
    """The UNIPEN tuning contributors' letters, written on boards and photographed (for --check only)."""
    from vision.synth.realdata import TUNING_CONTRIBUTORS, load_strokes

    data = load_strokes(path)
    tune = data.subset(np.isin(data.contributor, TUNING_CONTRIBUTORS))
    order = np.random.default_rng(1).permutation(len(tune.labels))
    jobs = [(900_000 + k, "".join(tune.labels[order[k:k + 120]]), [tune.strokes[i] for i in order[k:k + 120]])
            for k in range(0, len(order), 120)]
    return _run_jobs(_real_job, jobs, workers, log)


def build_net(width: int):
    import torch.nn as nn

    c1, c2, c3, hidden = width, 2 * width, 4 * width, 8 * width
    return nn.Sequential(
        nn.Conv2d(1, c1, 3, padding=1), nn.BatchNorm2d(c1), nn.ReLU(), nn.MaxPool2d(2),
        nn.Conv2d(c1, c2, 3, padding=1), nn.BatchNorm2d(c2), nn.ReLU(), nn.MaxPool2d(2),
        nn.Conv2d(c2, c3, 3, padding=1), nn.BatchNorm2d(c3), nn.ReLU(), nn.MaxPool2d(2, ceil_mode=True),
        nn.Flatten(), nn.Dropout(0.3), nn.Linear(c3 * 16, hidden), nn.ReLU(), nn.Dropout(0.3), nn.Linear(hidden, 26))


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
          check: tuple[np.ndarray, np.ndarray] | None = None):
    import torch
    import torch.nn.functional as F

    torch.manual_seed(seed)
    torch.set_num_threads(1)  # more threads thrash when the other core is busy
    x = torch.tensor(images).float().div(255).unsqueeze(1)
    y = torch.tensor(labels).long()
    net = build_net(width)
    batch = 256
    steps = max(1, epochs * (len(x) // batch))
    opt = torch.optim.AdamW(net.parameters(), 2e-3, weight_decay=5e-4)
    sched = torch.optim.lr_scheduler.OneCycleLR(opt, 3e-3, total_steps=steps)
    t0 = time.time()
    for epoch in range(epochs):
        net.train()
        order = torch.randperm(len(x))
        total, count = 0.0, 0
        for start in range(0, max(1, len(x) - batch + 1), batch):
            idx = order[start:start + batch]
            loss = F.cross_entropy(net(augment(x[idx])), y[idx], label_smoothing=0.1)
            opt.zero_grad()
            loss.backward()
            opt.step()
            if sched.last_epoch + 1 < steps:
                sched.step()
            total, count = total + loss.item(), count + 1
        note = ""
        if check is not None:
            note = f", tuning accuracy {accuracy(export(net), *check):.4f}"
        log(f"epoch {epoch + 1}/{epochs}: loss {total / max(1, count):.3f}{note} ({time.time() - t0:.0f} s)")
    return net


def _train_member(job) -> LetterModel:
    x, y, width, epochs, seed, check, k = job
    return export(train(x, y, width, epochs, seed, check=check, log=lambda line: print(f"member {k + 1}: {line}", flush=True)))


def export(net, temperature: float = 1.0) -> LetterModel:
    """The trained network as a NumPy :class:`LetterModel` (batch norm folded into each convolution)."""
    import torch.nn as nn

    params: dict[str, np.ndarray] = {}
    layers = list(net)
    convs = [(layers[i], layers[i + 1]) for i in range(len(layers) - 1) if isinstance(layers[i], nn.Conv2d)]
    for k, (conv, bn) in enumerate(convs):
        w = conv.weight.detach().numpy()
        b = conv.bias.detach().numpy()
        scale = (bn.weight / (bn.running_var + bn.eps).sqrt()).detach().numpy()
        shift = bn.bias.detach().numpy() - bn.running_mean.detach().numpy() * scale
        params[f"conv{k}_w"] = (w * scale[:, None, None, None]).transpose(2, 3, 1, 0)  # 3, 3, in, out
        params[f"conv{k}_b"] = b * scale + shift
    dense = [m for m in layers if isinstance(m, nn.Linear)]
    for k, lin in enumerate(dense):
        params[f"fc{k}_w"] = lin.weight.detach().numpy().T
        params[f"fc{k}_b"] = lin.bias.detach().numpy()
    params["temperature"] = np.float32(temperature)
    return LetterModel(params)


def accuracy(model: LetterModel, images: np.ndarray, labels: np.ndarray) -> float:
    probs = np.concatenate([model.predict_proba_images(images[i:i + 2000].astype(np.float32) / 255)
                            for i in range(0, len(images), 2000)])
    return float((probs.argmax(1) == labels).mean())


def fit_temperature(model: LetterModel, images: np.ndarray, labels: np.ndarray) -> float:
    """The softmax temperature that makes the probabilities honest (least log-loss) on a check set;
    word decoding weighs letters by these probabilities."""
    z = model.logits(images.astype(np.float32) / 255)

    def log_loss(t: float) -> float:
        zt = z / t
        zt = zt - zt.max(1, keepdims=True)
        return float(-(zt[np.arange(len(labels)), labels] - np.log(np.exp(zt).sum(1))).mean())

    return min(np.arange(0.5, 4.01, 0.1), key=log_loss).round(2).item()


def fit_class_bias(model: LetterModel, images: np.ndarray, labels: np.ndarray, steps: int = 300) -> np.ndarray:
    """One score offset per letter, added after the temperature, that makes the model's average
    probability for each letter match how often it is right there, on a check set: synthetic
    training leaves small leanings (an O read as D more often than the reverse). Every letter
    weighs the same, so the check set's own letter frequencies are not learnt."""
    z = model.logits(images.astype(np.float32) / 255) / model.temperature
    counts = np.bincount(labels, minlength=26)
    weight = 1.0 / (26 * np.maximum(counts, 1)[labels])
    onehot = np.eye(26)[labels]
    bias = np.zeros(26)
    for _ in range(steps):  # gradient descent on the letter-balanced log-loss (convex in the offsets)
        zb = z + bias
        zb -= zb.max(1, keepdims=True)
        p = np.exp(zb)
        p /= p.sum(1, keepdims=True)
        bias -= 13.0 * (weight[:, None] * (p - onehot)).sum(0)
    return (bias - bias.mean()).astype(np.float32)


def confusions(model: LetterModel, images: np.ndarray, labels: np.ndarray, worst: int = 8) -> list:
    """The letters most often misread: (errors, letter, what it was most often read as)."""
    pred = model.predict_proba_images(images.astype(np.float32) / 255).argmax(1)
    table = np.zeros((26, 26), int)
    np.add.at(table, (labels, pred), 1)
    np.fill_diagonal(table, 0)
    rows = sorted(range(26), key=lambda i: -table[i].sum())[:worst]
    return [(int(table[i].sum()), ALPHABET[i], ALPHABET[int(table[i].argmax())]) for i in rows]


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", default="vision/models/letters.npz")
    ap.add_argument("--scenes", type=int, default=1600, help="photographed boards of synthetic letters (160 each)")
    ap.add_argument("--epochs", type=int, default=5)
    ap.add_argument("--width", type=int, default=24, help="channels of the first convolution")
    ap.add_argument("--members", type=int, default=2, help="networks in the shipped ensemble, each trained "
                    "on its own scenes from its own seed; their class scores are averaged")
    ap.add_argument("--font-share", type=float, default=FONT_SHARE, help="share of the scenes written in "
                    "handwriting fonts instead of stroke skeletons (0 to 1)")
    ap.add_argument("--fonts", default=None, metavar="DIR", help="where the handwriting fonts are "
                    "(default .fonts/, filled by scripts/fetch_fonts.sh)")
    ap.add_argument("--seed", type=int, default=2026)
    ap.add_argument("--workers", type=int, default=os.cpu_count() or 1)
    ap.add_argument("--temperature", type=float, help="softmax temperature stored with the model "
                    "(default: fitted on the --check set, else 1)")
    ap.add_argument("--check", metavar="NPZ", help="UNIPEN strokes file: report accuracy on the TUNING contributors only")
    args = ap.parse_args(argv)
    if args.check and not pathlib.Path(args.check).is_file():
        print(f"--check: no such file {args.check} (the UNIPEN strokes .npz)", file=sys.stderr)
        return 2
    if args.members < 1:
        print("--members must be at least 1", file=sys.stderr)
        return 2
    if not 0.0 <= args.font_share <= 1.0:
        print("--font-share must be between 0 and 1", file=sys.stderr)
        return 2
    font_dir = None
    if args.font_share > 0:
        from vision.synth.fontink import FONT_DIR, NoFontsFound

        font_dir = str(args.fonts or FONT_DIR)
        try:  # loaded here once: the rendering workers (forked) start with the fonts read
            families = len(_fonts(font_dir))
        except NoFontsFound:
            print(f"no handwriting fonts in {font_dir}: run scripts/fetch_fonts.sh (or pass --font-share 0)",
                  file=sys.stderr)
            return 2
        print(f"{families} handwriting font families in {font_dir} write {args.font_share:.0%} of the scenes")
    try:
        import torch  # noqa: F401
    except ImportError:
        print("training needs PyTorch: .venv/bin/pip install -e '.[train]'", file=sys.stderr)
        return 2
    t0 = time.time()
    seeds = [args.seed + 100 * k for k in range(args.members)]
    sets = []
    for k, seed in enumerate(seeds):
        print(f"member {k + 1}/{args.members}: rendering {args.scenes} scenes of synthetic handwriting ...")
        sets.append(synthetic_set(args.scenes, seed, args.workers, font_share=args.font_share, font_dir=font_dir))
    xv, yv = synthetic_set(max(2, args.scenes // 20), args.seed + 1, args.workers, log=lambda *a: None,
                           font_share=args.font_share, font_dir=font_dir)
    print(f"{sum(len(y) for _, y in sets)} training images in {time.time() - t0:.0f} s")
    check = real_check_set(args.check, args.workers, log=lambda *a: None) if args.check else None
    jobs = [(x, y, args.width, args.epochs, seed, check, k) for k, ((x, y), seed) in enumerate(zip(sets, seeds))]
    if args.members > 1 and args.workers > 1:  # one PyTorch thread each, side by side
        with get_context("spawn").Pool(min(args.members, args.workers)) as pool:  # fresh processes: no forked torch
            members = pool.map(_train_member, jobs)
    else:
        members = [_train_member(job) for job in jobs]
    if check is not None and len(members) > 1:
        for k, m in enumerate(members):
            print(f"member {k + 1}: tuning contributors {accuracy(m, *check):.4f}")
    model = LetterModel.ensemble(members, 1.0)
    temperature = args.temperature
    if temperature is None:
        temperature = fit_temperature(model, *check) if check is not None else 1.0
    model.params["temperature"] = np.float32(temperature)
    if check is not None:
        before = accuracy(model, *check)
        model.params["class_bias"] = fit_class_bias(model, *check)
        print(f"tuning contributors: {before:.4f} before the letter offsets; offsets "
              + " ".join(f"{ch}{b:+.2f}" for ch, b in zip(ALPHABET, model.params["class_bias"])))
    print(f"synthetic validation accuracy {accuracy(model, xv, yv):.4f} on {len(yv)}; temperature {temperature}")
    if check is not None:
        print(f"tuning contributors: {accuracy(model, *check):.4f} on {len(check[1])}")
        print("most misread (errors, letter, read as):", confusions(model, *check))
    out = pathlib.Path(args.out)
    out.parent.mkdir(parents=True, exist_ok=True)
    model.save(out)
    print(f"wrote {out} ({out.stat().st_size // 1024} kB) in {time.time() - t0:.0f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
