"""Ukrainian handwritten capitals: CoMNIST's images, the writers held apart, and the four letters
CoMNIST lacks, made honestly from real ones.

CoMNIST (Gregory Vial, CC BY-SA 4.0; ``shared/data/handwriting/comnist_cyrillic_capitals.npz``)
holds the 33 Russian capitals drawn by about 120 volunteers: 29 of the 33 Ukrainian letters.
The other four are *constructed* and marked so (:attr:`LetterImages.made`), and every figure
reports them apart:

* ``Є`` is a real ``Э`` mirrored left to right (the two are each other's mirror image);
* ``Ґ`` is a real ``Г`` with an up-stroke drawn at the right end of its bar, in the writer's
  stroke width;
* ``І`` is a real Latin capital I (UNIPEN and UJI pen strokes, CC BY 4.0) drawn at a CoMNIST
  writer's stroke width;
* ``Ї`` is such an ``І`` with two dots above it, in that stroke width.

Writers are split once, in the file :data:`SPLIT_PATH`: CoMNIST names no writers, only drawing
sessions, so whole runs of consecutive sessions are held out (a writer who paused between two
sessions is most likely in the next one), and the session on either side of a held-out run is
a *guard*, used neither for training nor for the figures. The Latin I of ``І`` and ``Ї`` comes
from :data:`~vision.synth.realdata.TRAINING_CONTRIBUTORS` for training and from
:data:`~vision.synth.realdata.HELD_OUT_CONTRIBUTORS` for the figures.

>>> UK_ALPHABET[:6], len(UK_ALPHABET), CONSTRUCTED
('АБВГҐД', 33, 'ҐЄІЇ')
>>> held, guard = split_sessions()
>>> len(held) >= 20, not (held & guard)
(True, True)
"""

from __future__ import annotations

import pathlib
from dataclasses import dataclass

import cv2
import numpy as np

from vision.letters import UK_ALPHABET
from vision.synth.handwriting import Hand, draw_strokes, letter_box
from vision.synth.realdata import DATA_DIR

COMNIST_PATH = DATA_DIR / "comnist_cyrillic_capitals.npz"
#: the held-out and guard sessions, one a line (``comnist/s0123 held-out``)
SPLIT_PATH = pathlib.Path(__file__).resolve().parent / "comnist-split.txt"
#: the Ukrainian letters CoMNIST lacks, made from real ones
CONSTRUCTED = "ҐЄІЇ"
SIDE = 70  #: CoMNIST's image side: every letter image here is SIDE x SIDE, 255 = ink
#: how each letter that CoMNIST lacks is made (for reports)
HOW_MADE = {"Ґ": "a real Г with an up-stroke", "Є": "a real Э mirrored",
            "І": "a real Latin I (UNIPEN/UJI strokes)", "Ї": "a real Latin I with two dots"}


@dataclass
class LetterImages:
    """Letter images (N, 70, 70 uint8, 255 ink), their letters, writers, and how each was made
    ('' for a CoMNIST image as drawn, else a key of :data:`HOW_MADE`)."""

    images: np.ndarray
    labels: np.ndarray
    writer: np.ndarray
    made: np.ndarray

    def __len__(self) -> int:
        return len(self.labels)

    def subset(self, mask: np.ndarray) -> "LetterImages":
        """The letters where ``mask`` is true."""
        return LetterImages(self.images[mask], self.labels[mask], self.writer[mask], self.made[mask])

    @staticmethod
    def join(parts: list["LetterImages"]) -> "LetterImages":
        """One set holding all of ``parts``' letters, in order."""
        return LetterImages(*(np.concatenate([getattr(p, k) for p in parts]) for k in ("images", "labels", "writer", "made")))


def split_sessions(path: pathlib.Path = SPLIT_PATH) -> tuple[frozenset[str], frozenset[str]]:
    """(held-out sessions, guard sessions) as the split file lists them."""
    held: set[str] = set()
    guard: set[str] = set()
    for line in path.read_text(encoding="utf-8").splitlines():
        line = line.split("#", 1)[0].strip()
        if not line:
            continue
        session, role = line.split()
        if role not in ("held-out", "guard"):
            raise ValueError(f"{path}: {line!r}: a session is 'held-out' or 'guard', not {role!r}")
        (held if role == "held-out" else guard).add(session)
    return frozenset(held), frozenset(guard)


def make_split(writers: np.ndarray, blocks: int = 10, held_blocks: tuple[int, ...] = (2, 7)) -> dict[str, str]:
    """A split of time-ordered ``writers`` (sessions): the letters cut into ``blocks`` runs of
    consecutive sessions with about as many letters each; the runs ``held_blocks`` are held out,
    and the session just outside each end of a held-out run is a guard.

    >>> split = make_split(np.array(["s0", "s0", "s1", "s2", "s3", "s4", "s5", "s6"]), blocks=4, held_blocks=(2,))
    >>> sorted(split.items())
    [('s2', 'guard'), ('s3', 'held-out'), ('s4', 'held-out'), ('s5', 'guard')]
    """
    sessions, counts = np.unique(writers, return_counts=True)
    edges = np.cumsum(counts) / counts.sum() * blocks
    block = np.minimum((edges - counts / counts.sum() * blocks / 2).astype(int), blocks - 1)  # by a session's middle
    roles: dict[str, str] = {}
    for k, s in enumerate(sessions):
        if block[k] in held_blocks:
            roles[str(s)] = "held-out"
    for k, s in enumerate(sessions):
        near = [sessions[j] for j in (k - 1, k + 1) if 0 <= j < len(sessions)]
        if str(s) not in roles and any(roles.get(str(n)) == "held-out" for n in near):
            roles[str(s)] = "guard"
    return roles


def stroke_width(image: np.ndarray) -> float:
    """About how thick the strokes of a letter image are, in pixels (twice its ink area over its
    outline's length).

    >>> img = np.zeros((70, 70), np.uint8); img[10:60, 30:36] = 255
    >>> round(stroke_width(img))  # 6 pixels wide
    6
    """
    ink = (image > 127).astype(np.uint8)
    contours, _ = cv2.findContours(ink, cv2.RETR_LIST, cv2.CHAIN_APPROX_NONE)
    outline = sum(cv2.arcLength(c, True) for c in contours)
    return float(2 * ink.sum() / outline) if outline else 0.0


def refit(ink: np.ndarray, side: int = SIDE, longest: int = 62) -> np.ndarray:
    """The ink of ``ink`` (any size) cropped to its bounding box and centred in a ``side``-pixel
    square, its longer side ``longest`` pixels (aspect kept)."""
    ys, xs = np.nonzero(ink > 20)
    out = np.zeros((side, side), np.uint8)
    if len(xs) == 0:
        return out
    crop = ink[ys.min():ys.max() + 1, xs.min():xs.max() + 1]
    h, w = crop.shape
    scale = longest / max(h, w)
    nw, nh = max(1, int(round(w * scale))), max(1, int(round(h * scale)))
    small = cv2.resize(crop, (nw, nh), interpolation=cv2.INTER_AREA if scale < 1 else cv2.INTER_LINEAR)
    ox, oy = (side - nw) // 2, (side - nh) // 2
    out[oy:oy + nh, ox:ox + nw] = small
    return out


def mirrored(image: np.ndarray) -> np.ndarray:
    """Є from a real Э: the image mirrored left to right."""
    return np.ascontiguousarray(image[:, ::-1])


def with_upturn(image: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """Ґ from a real Г: a short up-stroke from the right end of its bar (the rightmost ink in the
    top quarter of the letter), drawn in the letter's own stroke width.

    >>> g = np.zeros((70, 70), np.uint8); g[5:65, 20:26] = 255; g[5:11, 20:55] = 255
    >>> out = with_upturn(g, np.random.default_rng(0))
    >>> out.shape, bool(out[:, 45:].sum() > g[:, 45:].sum() * 0.5)
    ((70, 70), True)
    """
    pad = SIDE // 2
    canvas = np.pad(image, pad).astype(np.uint8)
    ys, xs = np.nonzero(canvas > 127)
    top, height = ys.min(), ys.max() - ys.min() + 1
    band = ys <= top + max(2, height // 4)
    k = int(np.argmax(np.where(band, xs, -1)))
    x_end, y_end = int(xs[k]), int(ys[k])
    width = max(2.0, stroke_width(image))
    rise = height * rng.uniform(0.15, 0.3)
    lean = rise * rng.normal(0.05, 0.12)  # upright, leaning a little either way
    x0 = x_end - width / 2
    tip = (x0 + lean, y_end - rise)
    cv2.line(canvas, (int(round(x0 * 16)), int(round(y_end * 16))), (int(round(tip[0] * 16)), int(round(tip[1] * 16))),
             255, max(1, int(round(width))), cv2.LINE_AA, 4)
    return refit(canvas)


def latin_i(strokes: list[np.ndarray], width: float, rng: np.random.Generator) -> np.ndarray:
    """І from recorded pen strokes of a Latin I: drawn into a 70-pixel image, its height about
    that of a CoMNIST letter, its line ``width`` pixels thick."""
    canvas = np.zeros((SIDE, SIDE), np.float32)
    height = rng.uniform(44, 60)
    box = (SIDE / 2 - height / 2, SIDE / 2 - height / 2, SIDE / 2 + height / 2, SIDE / 2 + height / 2)
    draw_strokes(strokes, SIDE, box, width, canvas)
    return refit(np.round(canvas * 255).astype(np.uint8))


def with_dots(image: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """Ї from a real І: two dots (or short dashes) above it, in the letter's stroke width."""
    pad = SIDE // 2
    canvas = np.pad(image, pad).astype(np.uint8)
    ys, xs = np.nonzero(canvas > 127)
    top, height = int(ys.min()), int(ys.max() - ys.min() + 1)
    centre = float(xs[ys <= top + height // 5].mean())
    width = max(2.0, stroke_width(image))
    apart = height * rng.uniform(0.12, 0.26)
    above = top - height * rng.uniform(0.08, 0.2) - width / 2
    for side in (-1, 1):
        x, y = centre + side * apart + rng.normal(0, height * 0.02), above + rng.normal(0, height * 0.02)
        dash = rng.uniform(0, 1.2) * width * (rng.random() < 0.4)
        turn = rng.uniform(0, np.pi)
        a = (x - dash / 2 * np.cos(turn), y - dash / 2 * np.sin(turn))
        b = (x + dash / 2 * np.cos(turn), y + dash / 2 * np.sin(turn))
        thick = max(2, int(round(width * rng.uniform(1.0, 1.5))))
        cv2.line(canvas, (int(round(a[0] * 16)), int(round(a[1] * 16))), (int(round(b[0] * 16)), int(round(b[1] * 16))),
                 255, thick, cv2.LINE_AA, 4)
    return refit(canvas)


def load_comnist(path: pathlib.Path = COMNIST_PATH) -> LetterImages:
    """CoMNIST's letters of the Ukrainian alphabet, and its Э (for Є), as drawn."""
    with np.load(path) as d:
        labels = np.asarray(d["labels"]).astype(str)
        keep = np.asarray(d["ukrainian"]) | (labels == "Э")
        return LetterImages(np.asarray(d["images"])[keep], labels[keep], np.asarray(d["writer"]).astype(str)[keep],
                            np.full(int(keep.sum()), "", "<U1"))


def construct(comnist: LetterImages, latin_is: list[list[np.ndarray]], latin_writers: np.ndarray,
              seed: int) -> LetterImages:
    """``comnist`` with Є and Ґ made from its Э and Г (which stay as they are; Э is dropped) and
    І and Ї made from the recorded Latin I's ``latin_is`` (each I once as І and once as Ї),
    drawn at the stroke widths of ``comnist``'s letters."""
    rng = np.random.default_rng([seed, 33])
    parts = [comnist.subset(comnist.labels != "Э")]
    e = comnist.subset(comnist.labels == "Э")
    parts.append(LetterImages(np.stack([mirrored(i) for i in e.images]) if len(e) else e.images,
                              np.full(len(e), "Є"), e.writer, np.full(len(e), "Є")))
    g = comnist.subset(comnist.labels == "Г")
    parts.append(LetterImages(np.stack([with_upturn(i, rng) for i in g.images]) if len(g) else g.images,
                              np.full(len(g), "Ґ"), g.writer, np.full(len(g), "Ґ")))
    if latin_is:
        widths = [stroke_width(i) for i in comnist.images[rng.choice(len(comnist), min(400, len(comnist)), replace=False)]]
        plain = np.stack([latin_i(s, float(rng.choice(widths)), rng) for s in latin_is])
        dotted = np.stack([with_dots(i, rng) for i in plain])
        n = len(latin_is)
        parts.append(LetterImages(plain, np.full(n, "І"), latin_writers, np.full(n, "І")))
        parts.append(LetterImages(dotted, np.full(n, "Ї"), latin_writers, np.full(n, "Ї")))
    return LetterImages.join(parts)


def ukrainian_letters(held_out: bool, seed: int = 2026, path: pathlib.Path = COMNIST_PATH) -> LetterImages:
    """Every Ukrainian letter of one side of the split: CoMNIST's held-out sessions with І and
    Ї made from the held-out contributors' Latin I (``held_out``), or the training sessions with
    the training contributors' (guard sessions are in neither)."""
    from vision.synth.realdata import HELD_OUT_CONTRIBUTORS, TRAINING_CONTRIBUTORS, load_handwriting

    held, guard = split_sessions()
    comnist = load_comnist(path)
    mask = np.isin(comnist.writer, sorted(held))
    if not held_out:
        mask = ~mask & ~np.isin(comnist.writer, sorted(guard))
    strokes = load_handwriting().of(HELD_OUT_CONTRIBUTORS if held_out else TRAINING_CONTRIBUTORS)
    i_only = strokes.subset(strokes.labels == "I")
    return construct(comnist.subset(mask), i_only.strokes, i_only.writer, seed + int(held_out))


#: the share of the Latin training contributors' writers (and so of their I's) kept apart for tuning,
#: as ``scripts/train_letters.py`` keeps them apart (same seed, same choice)
TUNING_SHARE = 0.1


def tuning_split(seed: int = 2026, path: pathlib.Path = COMNIST_PATH) -> tuple[LetterImages, LetterImages]:
    """(learn, tuning): the training side of the split cut once more, the way the held-out writers
    were cut off. The training sessions in time order are cut into ten runs; the middle one
    (about a tenth) is the *tuning* run and the session on either side of it a guard, in neither
    part. The tuning part's І and Ї come from the Latin tuning writers (:data:`TUNING_SHARE` of
    the training contributors' writers, chosen as ``scripts/train_letters.py`` chooses them),
    the learning part's from the others. Networks learn from ``learn``; recipes are compared,
    temperatures and acceptance thresholds fitted on ``tuning`` (never on the held-out writers)."""
    from vision.synth.realdata import TRAINING_CONTRIBUTORS, load_handwriting

    held, guard = split_sessions()
    comnist = load_comnist(path)
    training = comnist.subset(~np.isin(comnist.writer, sorted(held | guard)))
    roles = make_split(training.writer, blocks=10, held_blocks=(5,))
    tuning_mask = np.isin(training.writer, [s for s, r in roles.items() if r == "held-out"])
    learn_mask = ~np.isin(training.writer, sorted(roles))
    strokes = load_handwriting().of(TRAINING_CONTRIBUTORS)
    writers = np.unique(strokes.writer)
    chosen = np.random.default_rng(seed).choice(writers, max(1, int(len(writers) * TUNING_SHARE)), replace=False)
    i_only = strokes.subset(strokes.labels == "I")
    aside = np.isin(i_only.writer, chosen)
    learn_i, tuning_i = i_only.subset(~aside), i_only.subset(aside)
    return (construct(training.subset(learn_mask), learn_i.strokes, learn_i.writer, seed),
            construct(training.subset(tuning_mask), tuning_i.strokes, tuning_i.writer, seed + 2))


def at_width(image: np.ndarray, width: float) -> np.ndarray:
    """``image``'s ink re-drawn at about ``width`` pixels thick: its lines widened (or narrowed)
    evenly by the difference from their own width (:func:`stroke_width`). CoMNIST's lines were
    drawn with one thin brush by a finger or a mouse; a marker's are two or three times thicker.

    >>> img = np.zeros((70, 70), np.uint8); img[10:60, 33:37] = 255
    >>> round(stroke_width(img)), 7.5 < stroke_width(at_width(img, 9)) < 10.5
    (4, True)
    """
    own = stroke_width(image)
    change = int(round(width - own))
    if own == 0 or change == 0:
        return image
    pad = abs(change) + 1
    canvas = np.pad(image, pad)
    kernel = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (abs(change) + 1, abs(change) + 1))
    if change > 0:
        out = cv2.dilate(canvas, kernel)
    else:  # never thinner than two pixels, never to nothing
        kernel = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (min(abs(change), max(1, int(own) - 2)) + 1,) * 2)
        out = cv2.erode(canvas, kernel)
        if not (out > 127).any():
            return image
    return out


class ImageQueue:
    """An ink renderer (for :func:`vision.synth.scene.make_scene`) that writes letter images, one
    per call, in order: each cropped to its ink and fitted where a writer puts a letter in the
    square (:func:`vision.synth.handwriting.letter_box`), aspect kept.

    With ``marker`` (a :class:`~vision.synth.handwriting.Hand`), each letter's lines are first
    re-drawn at a marker's thickness drawn from ``marker.thickness`` (a share of the square's
    side, as the Latin strokes are drawn; :func:`at_width`); without it, at the width they were
    drawn in."""

    def __init__(self, images, marker: Hand | None = None):
        self.images = list(images)
        self.marker = marker

    def __call__(self, letter: str, size: int, rng: np.random.Generator) -> np.ndarray:
        image = self.images.pop(0)
        ys, xs = np.nonzero(image > 20)
        out = np.zeros((size, size), np.float32)
        if len(xs) == 0:
            return out
        x0, y0, x1, y1 = letter_box(size, rng)
        if self.marker is not None:
            span = max(ys.max() - ys.min() + 1, xs.max() - xs.min() + 1)
            scale = min(x1 - x0, y1 - y0) / span  # about: square pixels per image pixel
            image = at_width(image, size * rng.uniform(*self.marker.thickness) / scale)
            ys, xs = np.nonzero(image > 20)
        crop = image[ys.min():ys.max() + 1, xs.min():xs.max() + 1].astype(np.float32) / 255
        h, w = crop.shape
        scale = min((x1 - x0) / w, (y1 - y0) / h)
        nw, nh = max(1, int(round(w * scale))), max(1, int(round(h * scale)))
        small = cv2.resize(crop, (nw, nh), interpolation=cv2.INTER_AREA if scale < 1 else cv2.INTER_LINEAR)
        ox = int(np.clip(round((x0 + x1) / 2 - nw / 2), 0, size - nw))
        oy = int(np.clip(round((y0 + y1) / 2 - nh / 2), 0, size - nh))
        out[oy:oy + nh, ox:ox + nw] = np.clip(small, 0, 1)
        return out


__all__ = ["UK_ALPHABET", "CONSTRUCTED", "HOW_MADE", "LetterImages", "ImageQueue", "at_width", "construct", "load_comnist",
           "make_split", "split_sessions", "tuning_split", "ukrainian_letters"]
