"""Train the plain letter dice networks (vision/plaindice.py) on real photos of dice trays.

    .venv/bin/python scripts/train_plain_dice.py --write-split
    .venv/bin/python scripts/train_plain_dice.py finder [--minutes 9]
    .venv/bin/python scripts/train_plain_dice.py faces [--minutes 9]
    .venv/bin/python scripts/train_plain_dice.py faces --resume --lr 1e-3 --minutes 12   # the first round's last
    .venv/bin/python scripts/train_plain_dice.py faces --resume --shake --lr 1e-3 --minutes 15 --seed 5   # the second round (shipped until the sixth)
    .venv/bin/python scripts/train_plain_dice.py finder --harder --resume --lr 1e-3 --minutes 12 --seed 11   # tried, not kept
    .venv/bin/python scripts/train_plain_dice.py faces --resume --shake --turned-trays --lr 1e-3 --minutes 10 --seed 13   # tried, not kept
    .venv/bin/python scripts/train_plain_dice.py faces --resume --shake --weigh S,B,D,O --lr 1e-3 --minutes 7 --seed 22   # tried, not kept
    .venv/bin/python scripts/train_plain_dice.py faces --resume --shake --tall --weigh S,B,D,O --lr 1e-3 --minutes 6 --seed 22   # tried, not kept
    .venv/bin/python scripts/train_plain_dice.py faces --resume --shake --lr 1e-3 --minutes 40 --wall-minutes 47 --seed 31   # the sixth round's first run
    .venv/bin/python scripts/train_plain_dice.py faces --resume --shake --finder-boxes 0.5 --lr 5e-4 --minutes 13 --wall-minutes 14 --seed 33   # on from it: the shipped network
    .venv/bin/python scripts/train_plain_dice.py faces --resume --shake --finder-boxes 0.5 --with-val --lr 5e-4 --minutes 13 --seed 35   # the eleventh round, on train and val: tried, not kept

The photos are the Boggle Boards photos in shared/data/dice/boggle-boards (Public Domain, by the
makers of BoardBoss through Roboflow; vision/models/NOTICE). Only the ``train`` part of the split
written in vision/models/plaindice-split.json is trained on (``--write-split`` writes it, once,
by the rule of vision.synth.realdice, before any training); ``val`` is printed after each round
to choose the rounds and thresholds; ``test`` is never opened here.

The finder learns, on the photos stretched to 384x384 and turned, flipped, cropped, shrunk and
recoloured, a map of die centres (a Gaussian a face) and the faces' sizes. The face reader learns
each die's face from cuts made exactly as the reader cuts them (vision.plaindice.face_cut), turned
any angle, the box a little off in place, size and aspect, and spoilt by chance as a worse photo
would show them (:func:`spoil`: dim, far, shaken, blurred, a rough JPEG; ``--no-spoil`` to
train without, ``--shake`` to shake more often and longer, as the worst photos are); the photos' few ``Q`` labels are Qu faces and are learnt as ``QU``. With
``--turned-trays`` 40 % of the real cuts are made as from the photo turned up to 40 degrees, the
box the upright box round the turned face; ``--harder`` the finder's views are also turned up to
35 degrees, tilted, zoomed further out and spoilt (both tried in issue 24's third round, neither
kept: docs/vision.md). ``--weigh S,B,D,O`` draws those faces' real cuts ``--weigh-by`` (3) times
more often (:func:`draw_chances`), and ``--tall`` cuts 40 % of the flat faces (a tray seen low)
from boxes up to 2.7 times taller, as the finder boxes them (both tried in the fifth round, not
kept). ``--finder-boxes 0.5`` cuts half the real faces the shipped reader finds on their train
photo from the box the reader gives them (:func:`finder_boxes`), the box put off half as far, as
the reader cuts faces from its finds' boxes (the sixth round's kept run). ``--wall-minutes`` ends a
face run by a wall-clock deadline (the learning rate's schedule follows it), else three times
``--minutes``. With
``--resume`` a run goes on from the last run's weights (``OUT.pt``, else the network at ``OUT``
itself, unfolded from its ONNX file), best with a lower ``--lr``.
Its second output is the quarter turn
the cut was given relative to the photo (learnt on faces whose upright the label fixes only
modulo the die's own turn, so it is trained on synthetic upright faces too: letters drawn in the
system's sans-serif fonts on white squares). PyTorch trains (one thread); the networks are
exported to ONNX for ONNX Runtime (torch is never imported at run time).
"""

from __future__ import annotations

import argparse
import json
import pathlib
import sys
import time

import cv2
import numpy as np

ROOT = pathlib.Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from vision import plaindice as pd  # noqa: E402
from vision.synth import realdice  # noqa: E402

SIGMA_SHARE = 0.12  #: the centre Gaussian's spread, a share of the face's size


def load(part: str) -> list[tuple[np.ndarray, realdice.LabelledPhoto]]:
    """The photos of one part of the split (never ``test`` here), with their images."""
    if part == "test":
        raise SystemExit("the test photos are read only by 'tabletop bench dice'")
    return [(cv2.imread(str(p.path())), p) for p in realdice.photos_of(part)]


class Budget:
    """A training run's time: ``minutes`` of this process's CPU time (the machine is shared, so
    the wall clock would say little), and never more than ``wall_minutes`` on the wall clock (three
    times ``minutes`` unless told: ``--wall-minutes``, to end by a deadline on a loaded machine).
    The learning rate's schedule follows whichever of the two runs out first.

    >>> Budget(10).wall, Budget(10, wall_minutes=12).wall
    (1800, 720)
    """

    def __init__(self, minutes: float, wall_minutes: float | None = None):
        self.cpu, self.wall = minutes * 60, (3 * minutes if wall_minutes is None else wall_minutes) * 60
        self.cpu0, self.wall0 = time.process_time(), time.time()

    def share(self) -> float:
        return min(1.0, max((time.process_time() - self.cpu0) / self.cpu, (time.time() - self.wall0) / self.wall))

    def left(self) -> bool:
        return self.share() < 1.0

    def __str__(self) -> str:
        return f"{time.process_time() - self.cpu0:.0f} s CPU, {time.time() - self.wall0:.0f} s"


def descend(opt, loss, clock: Budget, step: int, top: float | None = None) -> None:
    """One step down ``loss`` at the learning rate of a cosine schedule over the time budget
    (``top`` at the start, 0 when the time is up); every 100 steps, a line of progress."""
    lr = (top or TOP_LR) * 0.5 * (1 + np.cos(np.pi * clock.share()))
    for group in opt.param_groups:
        group["lr"] = lr
    opt.zero_grad()
    loss.backward()
    opt.step()
    if step % 100 == 0:
        print(f"step {step} loss {loss.item():.3f} lr {lr:.5f} ({clock})", flush=True)


def resume(net, out: str, batch=None) -> None:
    """Go on from the weights of an earlier run when ``--resume`` asks: ``OUT.pt``, else the
    network ``OUT`` itself (an ONNX file, its batch norms folded into the convolutions: see
    :func:`weights_from_onnx`; ``batch``, some inputs, sets the batch norms' statistics)."""
    import torch

    if RESUME and pathlib.Path(out + ".pt").is_file():
        net.load_state_dict(torch.load(out + ".pt"))
        print(f"resumed from {out}.pt")
    elif RESUME and pathlib.Path(out).is_file() and batch is not None:
        weights_from_onnx(net, out, batch)
        print(f"resumed from {out}")


def weights_from_onnx(net, path: str, batch) -> None:
    """``net``'s weights from its ONNX export at ``path``. The export folded each batch norm
    into the convolution before it (unnamed weights, in the order the network runs them); they
    are unfolded so that, on ``batch``, the batch norm in training (the batch's own statistics)
    gives what the folded convolution gives: its scale the spread of the convolution's output,
    its shift the mean plus the folded bias."""
    import onnx
    import torch
    from onnx import numpy_helper

    weights = {i.name: torch.from_numpy(numpy_helper.to_array(i).copy()) for i in onnx.load(path).graph.initializer}
    folded = [w for name, w in weights.items() if name.startswith("onnx::")]
    pairs = [(m, n) for m, n in zip(net.modules(), list(net.modules())[1:])
             if isinstance(m, torch.nn.Conv2d) and isinstance(n, torch.nn.BatchNorm2d)]
    if len(folded) != 2 * len(pairs):
        raise SystemExit(f"{path} does not hold this network's weights")
    shifts = {}
    for (conv, norm), weight, bias in zip(pairs, folded[0::2], folded[1::2]):
        if conv.weight.shape != weight.shape:
            raise SystemExit(f"{path} does not hold this network's weights")
        conv.weight.data = weight
        shifts[norm] = bias
    for name, value in weights.items():
        if not name.startswith("onnx::"):
            net.get_parameter(name).data = value

    def unfold(norm, inputs, output):
        mean, var = output.mean((0, 2, 3)), output.var((0, 2, 3), unbiased=False)
        norm.running_mean.copy_(mean)
        norm.running_var.copy_(var)
        norm.weight.data = torch.sqrt(var + norm.eps)
        norm.bias.data = mean + shifts[norm]
    hooks = [conv.register_forward_hook(lambda c, i, o, norm=norm: unfold(norm, i, o)) for conv, norm in pairs]
    net.eval()
    with torch.no_grad():
        net(batch)
    for hook in hooks:
        hook.remove()


RESUME = False
TOP_LR = 2e-3  #: the learning rate at the start of a run (``--lr``; lower to go on from earlier weights)

# ---------------------------------------------------------------- the finder


def finder_net():
    import torch
    from torch import nn

    def block(i, o, s=1, d=1):
        return nn.Sequential(nn.Conv2d(i, o, 3, s, d, dilation=d, bias=False), nn.BatchNorm2d(o), nn.ReLU(inplace=True))

    class Finder(nn.Module):
        def __init__(self):
            super().__init__()
            self.s2 = block(3, 16, 2)
            self.s4 = nn.Sequential(block(16, 24, 2), block(24, 24))
            self.s8 = nn.Sequential(block(24, 40, 2), block(40, 40))
            self.s16 = nn.Sequential(block(40, 64, 2), block(64, 64, d=2), block(64, 64, d=4))
            self.up8 = block(64 + 40, 40)
            self.up4 = block(40 + 24, 32)
            self.head = nn.Conv2d(32, 3, 1)

        def forward(self, x):
            a = self.s4(self.s2(x))
            b = self.s8(a)
            c = self.s16(b)
            b = self.up8(torch.cat([nn.functional.interpolate(c, scale_factor=2.0, mode="nearest"), b], 1))
            a = self.up4(torch.cat([nn.functional.interpolate(b, scale_factor=2.0, mode="nearest"), a], 1))
            out = self.head(a)
            return torch.cat([torch.sigmoid(out[:, :1]), out[:, 1:]], 1)

    return Finder()


def finder_sample(image: np.ndarray, boxes: np.ndarray, rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray]:
    """One augmented photo (stretched to FIND_SIDE) and its target map (3, S/4, S/4). With
    ``--harder`` the view is also turned any angle up to :data:`TURN_MOST`, tilted (its corners
    moved up to :data:`TILT_MOST` of the side), zoomed further out, and spoilt as a worse photo
    would show it (:func:`spoil_photo`); a box is then the upright box round its turned corners,
    as the photos' labels box a turned die."""
    h, w = image.shape[:2]
    side = pd.FIND_SIDE
    # a random view: zoomed in (a crop) or out (a border), shifted, turned a quarter, flipped
    zoom = float(np.exp(rng.uniform(np.log(0.6), np.log(1.5)) if not HARDER else rng.uniform(np.log(0.4), np.log(1.6))))
    cw, ch = w / zoom * rng.uniform(0.85, 1.15), h / zoom * rng.uniform(0.85, 1.15)
    cx, cy = w / 2 + rng.uniform(-0.25, 0.25) * w, h / 2 + rng.uniform(-0.25, 0.25) * h
    sx, sy = side / cw, side / ch
    m = np.array([[sx, 0, side / 2 - sx * cx], [0, sy, side / 2 - sy * cy], [0, 0, 1]], np.float64)
    if HARDER and rng.random() < 0.7:
        corners = np.float32([[0, 0], [side, 0], [side, side], [0, side]])
        t = np.deg2rad(rng.uniform(-TURN_MOST, TURN_MOST))
        turn = np.array([[np.cos(t), -np.sin(t)], [np.sin(t), np.cos(t)]])
        moved = (corners - side / 2) @ turn.T + side / 2 + rng.uniform(-TILT_MOST, TILT_MOST, (4, 2)) * side
        m = cv2.getPerspectiveTransform(corners, np.float32(moved)) @ m
    fill = tuple(int(v) for v in rng.integers(0, 256, 3))
    view = cv2.warpPerspective(image, m, (side, side), flags=cv2.INTER_AREA if zoom < 1 else cv2.INTER_LINEAR,
                               borderMode=cv2.BORDER_CONSTANT if HARDER or rng.random() < 0.5 else cv2.BORDER_REFLECT,
                               borderValue=fill)   # (reflected, a tray far off is repeated unlabelled)
    quads = np.stack([boxes[:, [0, 1]], boxes[:, [2, 1]], boxes[:, [2, 3]], boxes[:, [0, 3]]], 1).astype(np.float64)
    quads = cv2.perspectiveTransform(quads.reshape(1, -1, 2), m).reshape(-1, 4, 2)
    b = np.concatenate([quads.min(1), quads.max(1)], 1)
    k = int(rng.integers(4))
    for _ in range(k):                                  # a quarter turn clockwise: (x, y) -> (S - y, x)
        view = cv2.rotate(view, cv2.ROTATE_90_CLOCKWISE)
        b = np.stack([side - b[:, 3], b[:, 0], side - b[:, 1], b[:, 2]], 1)
    if rng.random() < 0.5:
        view = view[:, ::-1]
        b = np.stack([side - b[:, 2], b[:, 1], side - b[:, 0], b[:, 3]], 1)
    view = recolour(np.ascontiguousarray(view), rng)
    if HARDER:
        view = spoil_photo(view, rng)
    cells = side // pd.STRIDE
    target = np.zeros((3, cells, cells), np.float32)
    ys, xs = np.mgrid[0:cells, 0:cells].astype(np.float32)
    for x0, y0, x1, y1 in b:
        mx, my = (x0 + x1) / 2 / pd.STRIDE, (y0 + y1) / 2 / pd.STRIDE
        if not (0 <= mx < cells and 0 <= my < cells):
            continue
        sigma = max(0.6, SIGMA_SHARE * max(x1 - x0, y1 - y0) / pd.STRIDE)
        g = np.exp(-((xs - mx) ** 2 + (ys - my) ** 2) / (2 * sigma ** 2))
        target[0] = np.maximum(target[0], g)
        r, c = int(my), int(mx)
        target[0, r, c] = 1.0
        target[1, r, c], target[2, r, c] = (x1 - x0) / pd.SIZE_UNIT, (y1 - y0) / pd.SIZE_UNIT
    return np.ascontiguousarray(view.transpose(2, 0, 1), np.float32) / 255.0, target


HARDER = False  #: ``--harder``: the finder's views turned, tilted, further off and spoilt (:func:`finder_sample`)
TURN_MOST = 35.0  #: the most a harder view is turned (degrees, either way; quarter turns besides)
TILT_MOST = 0.08  #: the most a harder view's corner is moved (a share of its side), as a tilted camera shows it


def shaken(image: np.ndarray, length: float, angle: float) -> np.ndarray:
    """``image`` (float32) blurred as by a camera moving ``length`` pixels at ``angle`` (radians)
    during the exposure: a straight streak, the photo's edges repeated outward."""
    k = int(np.ceil(length)) | 1
    kernel = np.zeros((k, k), np.float32)
    dx, dy = np.cos(angle) * (length - 1) / 2, np.sin(angle) * (length - 1) / 2
    middle = k / 2 - 0.5
    cv2.line(kernel, (round(middle - dx), round(middle - dy)), (round(middle + dx), round(middle + dy)), 1.0)
    return cv2.filter2D(image, -1, kernel / max(kernel.sum(), 1e-6), borderType=cv2.BORDER_REPLICATE)


def spoil_photo(view: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """A whole view as a worse photo would show it, each by chance: shaken (motion blur up to
    8 px of the finder's input) or out of focus, a dim and noisy room, saved as a rough JPEG."""
    out = view.astype(np.float32)
    if rng.random() < 0.2:
        out = shaken(out, float(rng.uniform(2, 8)), rng.uniform(0, np.pi))
    elif rng.random() < 0.15:
        out = cv2.GaussianBlur(out, (0, 0), rng.uniform(0.8, 2.0))
    if rng.random() < 0.25:
        out = out * rng.uniform(0.25, 0.7) + rng.normal(0, rng.uniform(2, 8), out.shape)
    out = np.clip(out, 0, 255).astype(np.uint8)
    if rng.random() < 0.3:
        ok, data = cv2.imencode(".jpg", out, [cv2.IMWRITE_JPEG_QUALITY, int(rng.integers(30, 85))])
        out = cv2.imdecode(data, cv2.IMREAD_COLOR)
    return out


def recolour(view: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """Other light: brightness, contrast, a colour cast, sometimes a hue turn, blur and noise."""
    out = view.astype(np.float32)
    if rng.random() < 0.3:
        hsv = cv2.cvtColor(view, cv2.COLOR_BGR2HSV)
        hsv[..., 0] = (hsv[..., 0].astype(int) + int(rng.integers(180))) % 180
        out = cv2.cvtColor(hsv, cv2.COLOR_HSV2BGR).astype(np.float32)
    out = out * rng.uniform(0.6, 1.3) * rng.uniform(0.85, 1.15, 3) + rng.uniform(-30, 30)
    if rng.random() < 0.3:
        out = cv2.GaussianBlur(out, (0, 0), rng.uniform(0.5, 1.5))
    out += rng.normal(0, rng.uniform(0, 6), out.shape)
    return np.clip(out, 0, 255).astype(np.uint8)


def finder_loss(pred, target):
    """CenterNet's focal loss on the centre map, L1 on the sizes at the centres."""
    import torch

    heat, want = pred[:, 0].clamp(1e-4, 1 - 1e-4), target[:, 0]
    centre = want.eq(1).float()
    pos = -(torch.log(heat) * (1 - heat) ** 2 * centre)
    neg = -(torch.log(1 - heat) * heat ** 2 * (1 - want) ** 4 * (1 - centre))
    n = centre.sum().clamp(min=1)
    size = (torch.abs(pred[:, 1:] - target[:, 1:]) * centre[:, None]).sum() / n
    return (pos.sum() + neg.sum()) / n + 0.5 * size


def decode(out: np.ndarray, threshold: float) -> list[tuple[float, float, float, float, float]]:
    """(cx, cy, w, h, score) in pixels of the finder's input, from one output (3, cells, cells)."""
    found = []
    for r, c in pd.peaks(out[0], threshold):
        found.append(((c + 0.5) * pd.STRIDE, (r + 0.5) * pd.STRIDE, float(out[1, r, c]) * pd.SIZE_UNIT,
                      float(out[2, r, c]) * pd.SIZE_UNIT, float(out[0, r, c])))
    return found


def match_counts(found, boxes: np.ndarray) -> tuple[int, int, int]:
    """(matched, found, labelled): a find matches an unmatched box whose inside holds its centre."""
    used = set()
    hit = 0
    for cx, cy, *_ in sorted(found, key=lambda f: -f[-1]):
        for i, (x0, y0, x1, y1) in enumerate(boxes):
            if i not in used and x0 <= cx <= x1 and y0 <= cy <= y1:
                used.add(i)
                hit += 1
                break
    return hit, len(found), len(boxes)


def train_finder(minutes: float, out: str, seed: int = 1) -> None:
    import torch

    torch.set_num_threads(1)
    torch.manual_seed(seed)
    rng = np.random.default_rng(seed)
    train, val = load("train"), load("val")
    boxes = [np.array([d.box for d in p.dice], np.float64) for _, p in train]
    net = finder_net()
    resume(net, out, torch.from_numpy(np.stack([finder_sample(img, b, rng)[0] for (img, _), b in zip(train[:16], boxes)])))
    opt = torch.optim.AdamW(net.parameters(), 2e-3, weight_decay=1e-4)
    clock, step, batch = Budget(minutes), 0, 8
    while clock.left():
        net.train()
        picks = rng.integers(len(train), size=batch)
        xs, ts = zip(*(finder_sample(train[i][0], boxes[i], rng) for i in picks))
        loss = finder_loss(net(torch.from_numpy(np.stack(xs))), torch.from_numpy(np.stack(ts)))
        step += 1
        descend(opt, loss, clock, step)
    net.eval()
    torch.save(net.state_dict(), out + ".pt")
    evaluate_finder(net, val)
    torch.onnx.export(net, torch.zeros(1, 3, pd.FIND_SIDE, pd.FIND_SIDE), out, dynamo=False,
                      input_names=["photo"], output_names=["maps"])
    print(f"wrote {out} after {step} steps")


def evaluate_finder(net, photos) -> None:
    import torch

    with torch.no_grad():
        outs = [net(torch.from_numpy(pd.finder_input(img)[None]))[0].numpy() for img, _ in photos]
    for threshold in (0.2, 0.3, 0.4, 0.5):
        hit = found = wanted = 0
        for (img, p), out in zip(photos, outs):
            h, w = img.shape[:2]
            finds = [(cx * w / pd.FIND_SIDE, cy * h / pd.FIND_SIDE, 0, 0, s) for cx, cy, _, _, s in decode(out, threshold)]
            a, b, c = match_counts(finds, np.array([d.box for d in p.dice]))
            hit, found, wanted = hit + a, found + b, wanted + c
        print(f"val threshold {threshold}: recall {hit / wanted:.4f} precision {hit / max(1, found):.4f}")


# ---------------------------------------------------------------- the face reader


def faces_net():
    from torch import nn

    def block(i, o):
        return nn.Sequential(nn.Conv2d(i, o, 3, 1, 1, bias=False), nn.BatchNorm2d(o), nn.ReLU(inplace=True))

    class Faces(nn.Module):
        def __init__(self):
            super().__init__()
            self.body = nn.Sequential(block(1, 16), block(16, 24), nn.MaxPool2d(2),
                                      block(24, 48), block(48, 48), nn.MaxPool2d(2),
                                      block(48, 80), block(80, 80), nn.MaxPool2d(2),
                                      block(80, 128), nn.AvgPool2d(4), nn.Flatten(),
                                      nn.Dropout(0.2))
            self.face = nn.Linear(128, len(pd.FACES))
            self.turn = nn.Linear(128, 4)

        def forward(self, x):
            f = self.body(x)
            return self.face(f), self.turn(f)

    return Faces()


def jittered_cut(grey: np.ndarray, box, angle: float, rng: np.random.Generator, jitter: float = 1.0) -> np.ndarray:
    """A cut as the finder would give it, a little off: the centre shifted, the size and aspect changed."""
    x0, y0, x1, y1 = box
    w, h = x1 - x0, y1 - y0
    if rng.random() < TURNED_TRAYS:        # the photo turned: its box is the upright box round the turned face
        t = np.deg2rad(rng.uniform(0, 40))
        w, h = w * np.cos(t) + h * np.sin(t), w * np.sin(t) + h * np.cos(t)
    if h < FLAT * w and rng.random() < TALL_SHARE:   # a die seen low: the finder's box taller than its flat face
        h *= float(np.exp(rng.uniform(0.0, 1.0)))
    cx = (x0 + x1) / 2 + rng.normal(0, 0.06 * jitter) * w
    cy = (y0 + y1) / 2 + rng.normal(0, 0.06 * jitter) * h
    scale = np.exp(rng.normal(0, 0.08 * jitter))
    aspect = np.exp(rng.normal(0, 0.12 * jitter))
    raw = pd.face_cut(grey, (cx, cy), (w * scale * aspect, h * scale / aspect), angle, raw=True)
    return pd.evened(spoil(raw, rng) if SPOIL else raw)


#: the share of real cuts made as from the photo turned up to 40 degrees (``--turned-trays``: 0.4): the
#: face's box is then the upright box round the turned face, larger, with some of its neighbours
TURNED_TRAYS = 0.0
#: ``--tall``: of the real faces seen low (flatter than ``FLAT``, height to width), this share is cut
#: from a box up to e (2.7) times taller, as the finder boxes a far, low tray's flattened faces
TALL_SHARE, FLAT = 0.0, 0.75
SPOIL = True  #: spoil the real cuts as a worse photo would (``--no-spoil`` trains on them as cut)
#: how often a spoilt cut is shaken (motion blur), and its longest streak in pixels of the cut
#: (``--shake``: 0.3 and 10, a camera shaken as in the worst photos, rather than 0.15 and 6)
BLUR_SHARE, BLUR_LONGEST = 0.15, 6.0
#: faces drawn ``WEIGH_BY`` times more often than their share (``--weigh S,B,D,O``: the pairs the
#: reader confuses most on train's labelled boxes, a blurred S read as B, a D as O)
WEIGH: tuple[str, ...] = ()
WEIGH_BY = 3.0
JITTER = 1.0  #: how far the real cuts' boxes are put off (``--jitter``: a multiple of the usual)
#: ``--finder-boxes``: the share of the real cuts (of dice the shipped finder finds on their train
#: photo) made from the box the reader gives the die rather than its labelled box, put off
#: ``FINDER_JITTER`` as far as a labelled box (the reader cuts faces from its finds' boxes)
FINDER_SHARE, FINDER_JITTER = 0.0, 0.5
#: ``--with-val``: the face reader learns from val's photos too (a final fit once a round's options
#: were chosen on val; val then measures nothing, and only ``bench dice``'s test can)
WITH_VAL = False
WALL_MINUTES: float | None = None  #: the face reader's run ends by this many minutes of wall clock (``--wall-minutes``)


def spoil(cut: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """A grey cut (uint8) as a worse photo would show it: other light (a gamma, a dim and noisy
    room), a die further off (fewer pixels), shaken or out of focus (motion or Gaussian blur),
    saved as a rough JPEG; each by chance."""
    out = cut.astype(np.float32)
    if rng.random() < 0.5:
        out = 255.0 * (out / 255.0) ** float(np.exp(rng.uniform(np.log(0.5), np.log(2.0))))
    if rng.random() < 0.3:
        out = out * rng.uniform(0.12, 1.0) + rng.uniform(0, 40)
        out = np.round(out + rng.normal(0, rng.uniform(0, 5), out.shape))
    if rng.random() < 0.2:
        small = int(rng.integers(10, 22))
        out = cv2.resize(cv2.resize(out, (small, small), interpolation=cv2.INTER_AREA), out.shape[::-1],
                         interpolation=cv2.INTER_LINEAR)
    if rng.random() < BLUR_SHARE:
        out = shaken(out, float(rng.uniform(2, BLUR_LONGEST)), rng.uniform(0, np.pi))
    elif rng.random() < 0.2:
        out = cv2.GaussianBlur(out, (0, 0), rng.uniform(0.4, 1.6 if BLUR_LONGEST <= 6 else 2.4))
    out = np.clip(out, 0, 255).astype(np.uint8)
    if rng.random() < 0.25:
        ok, data = cv2.imencode(".jpg", out, [cv2.IMWRITE_JPEG_QUALITY, int(rng.integers(25, 90))])
        out = cv2.imdecode(data, cv2.IMREAD_GRAYSCALE)
    return out


def blur_noise(cut: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    if rng.random() < 0.3:
        cut = cv2.GaussianBlur(cut, (0, 0), rng.uniform(0.4, 1.2))
    return (cut + rng.normal(0, rng.uniform(0, 0.15), cut.shape)).astype(np.float32)


def synthetic_faces(rng: np.random.Generator, n: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Upright letters drawn in sans-serif fonts on white rounded squares, turned a known quarter
    (plus a little): (cuts, face indices, quarter turns). Underlined as dice underline M W N Z."""
    from PIL import Image, ImageDraw, ImageFont

    fonts = [f for f in SANS_FONTS if pathlib.Path(f).is_file()]
    cuts, labels, turns = [], [], []
    for _ in range(n):
        face = int(rng.integers(len(pd.FACES)))
        text = pd.FACES[face]
        side = 96
        img = Image.new("L", (side, side), int(rng.integers(0, 120)))
        draw = ImageDraw.Draw(img)
        inset = int(rng.integers(6, 14))
        draw.rounded_rectangle((inset, inset, side - inset, side - inset), radius=int(rng.integers(4, 16)),
                               fill=int(rng.integers(190, 256)))
        font = ImageFont.truetype(fonts[int(rng.integers(len(fonts)))], int(rng.integers(34, 50) * (0.75 if len(text) > 1 else 1)))
        shown = "Qu" if text == "QU" else "\u2605" if text == "*" else text.title() if len(text) > 1 else text
        try:
            left, t, r, b = draw.textbbox((0, 0), shown, font=font)
        except Exception:
            continue
        x, y = (side - (r - left)) / 2 - left, (side - (b - t)) / 2 - t
        ink = int(rng.integers(0, 70))
        draw.text((x, y), shown, fill=ink, font=font)
        if text in ("M", "W", "N", "Z"):
            draw.rectangle(((side - (r - left)) / 2, y + b + 3, (side + (r - left)) / 2, y + b + 6), fill=ink)
        grey = np.asarray(img)
        turn = int(rng.integers(4))
        angle = 90.0 * turn + rng.normal(0, 8)
        box = (inset, inset, side - inset, side - inset)
        cuts.append(blur_noise(jittered_cut(grey, box, -angle, rng), rng))
        labels.append(face)
        turns.append(turn)
    return np.stack(cuts), np.array(labels), np.array(turns)


SANS_FONTS = (
    "/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf",
    "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf",
    "/usr/share/fonts/truetype/liberation/LiberationSans-Bold.ttf",
    "/usr/share/fonts/truetype/liberation/LiberationSans-Regular.ttf",
    "/usr/share/fonts/truetype/freefont/FreeSansBold.ttf",
    "/usr/share/fonts/truetype/croscore/Arimo-Bold.ttf",
)


def real_dice(photos) -> list[tuple[np.ndarray, tuple[int, int, int, int], int]]:
    """(grey photo, box, face index) for every die of ``photos``."""
    out = []
    for img, p in photos:
        grey = cv2.cvtColor(img, cv2.COLOR_BGR2GRAY)
        out += [(grey, d.box, pd.FACES.index("QU" if d.face == "Q" else d.face)) for d in p.dice]  # a Q is a Qu mislabelled
    return out


def finder_boxes(reader, photos) -> list[tuple[float, float, float, float] | None]:
    """Each labelled die of ``photos`` (in :func:`real_dice`'s order) boxed as the reader boxes it
    when it reads the photo (``reader.read``: the finder's find, its size evened, a hole filled):
    the box (x0, y0, x1, y1) of the read die whose centre lies in the labelled box, matched as
    ``bench dice`` matches them (the surest read first); None for a die not found.

    >>> from types import SimpleNamespace as NS
    >>> die = NS(centre=(12.0, 10.0), size=(8.0, 6.0), confidence=0.9)
    >>> reader = NS(read=lambda image: NS(dice=[die]))
    >>> photo = NS(dice=[NS(box=(0, 0, 20, 20)), NS(box=(30, 30, 40, 40))])
    >>> finder_boxes(reader, [(None, photo)])
    [(8.0, 7.0, 16.0, 13.0), None]
    """
    from tabletop.benchmarks.plaindice import _matched

    out: list[tuple[float, float, float, float] | None] = []
    for img, p in photos:
        try:
            dice = reader.read(img).dice
        except pd.NoDiceFound:
            dice = []
        taken = _matched([d.centre for d in dice], [d.box for d in p.dice], [d.confidence for d in dice])
        for i in range(len(p.dice)):
            if i in taken:
                (cx, cy), (w, h) = dice[taken[i]].centre, dice[taken[i]].size
                out.append((cx - w / 2, cy - h / 2, cx + w / 2, cy + h / 2))
            else:
                out.append(None)
    return out


def cut_box(labelled, found, rng: np.random.Generator) -> tuple[tuple[float, float, float, float], float]:
    """The box a real cut is made from, and how far to put it off (a multiple of ``JITTER``): the
    finder's box (``found``) for ``FINDER_SHARE`` of the dice the finder found, put off half as far
    (it is already off as the finder is), else the labelled box.

    >>> cut_box((0, 0, 9, 9), None, np.random.default_rng(0))
    ((0, 0, 9, 9), 1.0)
    """
    if found is not None and FINDER_SHARE > 0 and rng.random() < FINDER_SHARE:
        return found, FINDER_JITTER * JITTER
    return labelled, JITTER


def draw_chances(faces: list[int], weigh: tuple[str, ...] = (), by: float = 3.0) -> np.ndarray:
    """How likely each real cut (its face index in ``faces``) is drawn into a batch: a face's cuts
    together as likely as the root of their number (rare faces drawn more often), the faces named
    in ``weigh`` ``by`` times more (the pairs the reader confuses, ``--weigh``).

    >>> e, s = pd.FACES.index("E"), pd.FACES.index("S")
    >>> p = draw_chances([e, e, e, e, s])
    >>> round(float(p[:4].sum() / p[4]), 6)
    2.0
    >>> p = draw_chances([e, e, e, e, s], ("S",), 3.0)
    >>> round(float(p[4] / p[:4].sum()), 6), round(float(p.sum()), 6)
    (1.5, 1.0)
    """
    counts = np.bincount(faces, minlength=len(pd.FACES)).astype(np.float64)
    weight = 1.0 / np.sqrt(np.maximum(counts, 1))
    for face in weigh:
        weight[pd.FACES.index(face)] *= by
    chances = weight[np.asarray(faces)]
    return chances / chances.sum()


def train_faces(minutes: float, out: str, seed: int = 2) -> None:
    import torch
    from torch import nn

    torch.set_num_threads(1)
    torch.manual_seed(seed)
    rng = np.random.default_rng(seed)
    photos = load("train") + (load("val") if WITH_VAL else [])
    train, val = real_dice(photos), real_dice(load("val"))
    found = finder_boxes(pd.PlainDiceReader(), photos) if FINDER_SHARE > 0 else [None] * len(train)
    if FINDER_SHARE > 0:
        print(f"the finder boxes {sum(b is not None for b in found)} of {len(found)} train dice")
    pick_p = draw_chances([f for _, _, f in train], WEIGH, WEIGH_BY)
    net = faces_net()
    some = rng.integers(len(train), size=512)
    resume(net, out, torch.from_numpy(np.stack([jittered_cut(train[i][0], train[i][1], rng.uniform(0, 360), rng, 0.0)
                                                 for i in some])[:, None]))
    opt = torch.optim.AdamW(net.parameters(), 2e-3, weight_decay=1e-4)
    ce = nn.CrossEntropyLoss(label_smoothing=0.05)
    clock, step, batch = Budget(minutes, WALL_MINUTES), 0, 64
    while clock.left():
        net.train()
        picks = rng.choice(len(train), size=batch, p=pick_p)
        angles = rng.uniform(0, 360, batch)
        boxes = [cut_box(train[i][1], found[i], rng) for i in picks]
        x = np.stack([blur_noise(jittered_cut(train[i][0], box, a, rng, jitter), rng)
                      for i, a, (box, jitter) in zip(picks, angles, boxes)])
        y = np.array([train[i][2] for i in picks])
        sx, sy, st = synthetic_faces(rng, batch // 4)
        face_logits, _ = net(torch.from_numpy(x[:, None]))
        s_face, s_turn = net(torch.from_numpy(sx[:, None]))
        loss = ce(face_logits, torch.from_numpy(y)) + 0.3 * ce(s_face, torch.from_numpy(sy)) + ce(s_turn, torch.from_numpy(st))
        step += 1
        descend(opt, loss, clock, step)
    net.eval()
    torch.save(net.state_dict(), out + ".pt")
    with torch.no_grad():
        x = np.stack([pd.face_cut(g, ((b[0] + b[2]) / 2, (b[1] + b[3]) / 2), (b[2] - b[0], b[3] - b[1])) for g, b, _ in val])
        logits, _ = net(torch.from_numpy(x[:, None]))
        pred = logits.argmax(1).numpy()
    y = np.array([f for _, _, f in val])
    print(f"val faces right on the labelled boxes: {(pred == y).mean():.4f} of {len(y)}" +
          (" (trained on: no measure)" if WITH_VAL else ""))
    wrong = [(pd.FACES[a], pd.FACES[b]) for a, b in zip(y, pred) if a != b]
    print("val errors (face, read):", wrong[:40])
    torch.onnx.export(net, torch.zeros(1, 1, pd.CROP, pd.CROP), out, dynamo=False, input_names=["cuts"],
                      output_names=["faces", "turns"], dynamic_axes={"cuts": {0: "n"}, "faces": {0: "n"}, "turns": {0: "n"}})
    print(f"wrote {out} after {step} steps")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("what", nargs="?", choices=("finder", "faces"))
    parser.add_argument("--write-split", action="store_true", help="write the split file (once, before training)")
    parser.add_argument("--minutes", type=float, default=9.0, help="CPU minutes of training")
    parser.add_argument("--finder-boxes", type=float, default=0.0,
                        help="the share of real cuts made from the reader's own box of the die (0-1)")
    parser.add_argument("--wall-minutes", type=float,
                        help="end the face reader's run by this many minutes of wall clock (default: three times --minutes)")
    parser.add_argument("--out")
    parser.add_argument("--resume", action="store_true", help="go on from OUT.pt, the weights of the last run")
    parser.add_argument("--seed", type=int, help="the run's random seed (default: 1 for the finder, 2 for the faces)")
    parser.add_argument("--lr", type=float, default=2e-3, help="the learning rate at the start")
    parser.add_argument("--no-spoil", action="store_true", help="train the face reader on the real cuts unspoilt")
    parser.add_argument("--shake", action="store_true", help="spoil with longer and likelier motion blur")
    parser.add_argument("--harder", action="store_true",
                        help="the finder's views also turned any angle, tilted, further off and spoilt")
    parser.add_argument("--turned-trays", action="store_true",
                        help="cut 40 %% of the real faces as from the photo turned up to 40 degrees")
    parser.add_argument("--weigh", default="", help="faces (comma-separated) drawn more often, e.g. S,B,D,O")
    parser.add_argument("--weigh-by", type=float, default=3.0, help="how many times more often --weigh's faces are drawn")
    parser.add_argument("--tall", action="store_true",
                        help="cut 40 %% of the flat faces (seen low) from boxes up to 2.7 times taller")
    parser.add_argument("--jitter", type=float, default=1.0, help="put the real cuts' boxes this many times further off")
    parser.add_argument("--with-val", action="store_true",
                        help="the face reader learns from the val photos too (a final fit; val then measures nothing)")
    args = parser.parse_args()
    global WITH_VAL, RESUME, TOP_LR, SPOIL, BLUR_SHARE, BLUR_LONGEST, JITTER, WALL_MINUTES, FINDER_SHARE, HARDER, TURNED_TRAYS, WEIGH, WEIGH_BY, TALL_SHARE
    WITH_VAL = args.with_val
    WEIGH = tuple(f.strip().upper() for f in args.weigh.split(",") if f.strip())
    if unknown := [f for f in WEIGH if f not in pd.FACES]:
        parser.error(f"--weigh names faces the reader does not know: {', '.join(unknown)}")
    WEIGH_BY = args.weigh_by
    TALL_SHARE = 0.4 if args.tall else 0.0
    HARDER = args.harder
    TURNED_TRAYS = 0.4 if args.turned_trays else 0.0
    JITTER = args.jitter
    WALL_MINUTES = args.wall_minutes
    if not 0.0 <= args.finder_boxes <= 1.0:
        parser.error(f"--finder-boxes is a share from 0 to 1, not {args.finder_boxes}")
    FINDER_SHARE = args.finder_boxes
    RESUME, TOP_LR, SPOIL = args.resume, args.lr, not args.no_spoil
    if args.shake:
        BLUR_SHARE, BLUR_LONGEST = 0.3, 10.0
    if args.write_split:
        split = realdice.make_split(realdice.load_photos())
        doc = {"source": "Boggle Boards (Public Domain; BoardBoss / Roboflow): shared/data/dice/boggle-boards",
               "rule": "photos grouped by roll (face multisets overlapping >= 0.7, Jaccard); a group goes by the "
                       "SHA-256 of its first file name: < 0.70 train, < 0.85 val, else test "
                       "(vision.synth.realdice.make_split)", **split}
        realdice.SPLIT_PATH.write_text(json.dumps(doc, indent=1) + "\n")
        print({k: len(v) for k, v in split.items()})
    if args.what == "finder":
        train_finder(args.minutes, args.out or str(pd.FINDER_PATH), 1 if args.seed is None else args.seed)
    elif args.what == "faces":
        train_faces(args.minutes, args.out or str(pd.FACES_PATH), 2 if args.seed is None else args.seed)
    return 0


if __name__ == "__main__":
    sys.exit(main())
