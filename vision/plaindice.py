"""Reading plain letter dice (a family's box, a Boggle-style tray) from a photo: each die's face,
its centre, and the tray's rows.

Two small networks, trained by ``scripts/train_plain_dice.py`` on real photos (the Boggle Boards
photos, Public Domain: vision/models/NOTICE) and run by ONNX Runtime (:mod:`vision.onnxnet`):

* the *finder* (``plaindice-finder.onnx``) sees the photo stretched to :data:`FIND_SIDE` square
  and gives, every :data:`STRIDE` pixels, how likely a die's top face is centred there and the
  face's size; the peaks are the dice;
* the *reader* (``plaindice-faces.onnx``) sees each die's face cut from the full photo (its box
  and a margin, stretched to :data:`CROP` square, grey, evened out) and gives a probability for
  each of :data:`FACES`, in any rotation (it was trained on faces turned every way), and the
  face's quarter turn (0, 90, 180, 270 degrees clockwise from upright).

Between them, the tray helps: its dice are one size (:func:`even_sizes`), and a cell of its grid
the finder was unsure of still holds a die (:func:`fill_holes`); a face read with little
probability gets a second look, cut also a little tighter and looser, each cut turned each
quarter (:data:`SECOND_LOOK`), and, in a tray, read again from the box the tray's grid gives it
(:func:`grid_boxes`: where its cell is and how large, from the tray's perspective), the surer
reading kept.

A dice set (each die's six faces) settles what one face cannot: the dice are matched to the set's
dice (each die once) so that the faces read are the likeliest the set allows; an M with no W in
the set stays an M. Without a set, a face whose best reading is not clearly ahead of the next is
reported unsure (``?``) rather than guessed. :func:`tray_rows` orders the dice of a tray in rows,
read upright when most dice agree on their quarter turn (:func:`upright_turn`), else as the photo
shows them (shaken dice lie turned every way in their cells: then no side of the tray is its top).
"""

from __future__ import annotations

import functools
import pathlib
import threading
from dataclasses import dataclass, field
from typing import Callable

import cv2
import numpy as np

from vision.errors import VisionError
from vision.onnxnet import OnnxNet

#: the faces the reader tells apart (upper case as printed; ``*`` the wild face)
FACES = tuple("ABCDEFGHIJKLMNOPQRSTUVWXYZ") + ("QU", "AN", "IN", "ER", "TH", "HE", "*")
_Q, _QU = FACES.index("Q"), FACES.index("QU")
#: the finder sees the photo stretched to this square (the training photos are 416x416 stretched)
FIND_SIDE = 384
#: a photo whose light near its brightest (:func:`brightest`) is under this is brightened for the finder
LIGHT_TOP = 230
#: the finder's map has a cell every STRIDE pixels of its input
STRIDE = 4
#: the reader's input: a CROP x CROP grey cut of one face
CROP = 32
#: the cut is the die's box grown by this factor (a margin round the face)
MARGIN = 1.2
#: the finder's size outputs are the box's sides in pixels of its input divided by this
SIZE_UNIT = 32.0
#: a face read with less probability than this is read again cut a little tighter and looser
#: (:data:`SECOND_SCALES`), each cut turned each quarter (the mean of the twelve readings is kept)
SECOND_LOOK = 0.8
#: the second look's other cuts: the box's side times these
SECOND_SCALES = (0.9, 1.12)
#: an empty cell of a tray's grid gets a die when the finder's map is at least this high there
HOLE_HEAT = 0.1
#: a find's side more than this (as a log) off the tray's median side is set to the median
SIZE_OFF = 0.15
#: dice under this side (pixels of the finder's input) get a closer look (:func:`zoom_window`)
ZOOM_BELOW = 24.0
#: the closer look is taken when it makes the dice at least this much larger
ZOOM_GAIN = 1.4
#: a find at least this likely is sure; one less sure must sit on the sure finds' grid (:func:`off_lattice`)
SURE_FIND = 0.5
#: a find further than this share of a cell from the grid's crossings is off it
OFF_CELL = 0.35
#: a doubtful face is read again from the box the tray's grid gives it (:func:`grid_boxes`) when
#: that box's centre is within this share of a cell of the find's
GRID_LOOK_OFF = 0.5
#: :func:`grid_boxes` fits the tray's perspective again through the finds within this share of a
#: cell of their cells (a homography through a tray's finds can bend to a corner find a third of a
#: cell off and still keep it within RANSAC's reach), when at least :data:`GRID_FIT_MIN` are
GRID_NEAR = 0.1
GRID_FIT_MIN = 8
#: the face reader reads its cuts this many at a time (:func:`forward_in_batches`): one blob of
#: a photo's hundreds of second looks outgrows the processor's cache (about 1.0 ms of CPU a cut
#: against 0.6 in eights), and each cut's outputs are the same whatever its batch
FACE_BATCH = 8
MODELS = pathlib.Path(__file__).resolve().parent / "models"
FINDER_PATH = MODELS / "plaindice-finder.onnx"
FACES_PATH = MODELS / "plaindice-faces.onnx"


class NoDiceFound(VisionError):
    """The finder saw no die in the photo."""

    def __init__(self) -> None:
        super().__init__("no dice found in the photo: are the dice in the picture, lit and in focus?")


def finder_input(image: np.ndarray) -> np.ndarray:
    """A BGR photo as the finder's input: (3, FIND_SIDE, FIND_SIDE) float32 in 0..1.

    A dim photo (its brightest, :func:`brightest`, under :data:`LIGHT_TOP`) is brightened until it is
    that bright: the finder misses dice in a dim room that it finds once the light is raised.
    A photo more than twice that size is first resampled (bilinear) to twice the finder's side,
    then halved (each pixel the mean of four): nearly the mean over each input pixel's area, at
    a twentieth of the time (a 3 MP photo: 3 ms rather than 60).

    >>> finder_input(np.zeros((30, 40, 3), np.uint8)).shape
    (3, 384, 384)
    >>> finder_input(np.zeros((1536, 2048, 3), np.uint8)).shape
    (3, 384, 384)
    >>> dim = np.full((40, 40, 3), 100, np.uint8); dim[:20] = 50
    >>> round(float(finder_input(dim).max() * 255))
    230
    """
    if min(image.shape[:2]) > 2 * FIND_SIDE:
        image = cv2.resize(image, (2 * FIND_SIDE, 2 * FIND_SIDE), interpolation=cv2.INTER_LINEAR)
    small = cv2.resize(image, (FIND_SIDE, FIND_SIDE), interpolation=cv2.INTER_AREA)
    out = np.empty((3, FIND_SIDE, FIND_SIDE), np.float32)
    for channel in range(3):                # channel by channel: a third faster than a transposed copy
        out[channel] = small[..., channel]
    out /= 255.0
    top = brightest(small)
    if top < LIGHT_TOP:
        out *= LIGHT_TOP / max(top, 12)
    return out


def brightest(image: np.ndarray) -> int:
    """The photo's light near its brightest (uint8): the value only a two-hundredth of its pixels
    (any channel) are above; the finder sees a photo darker than :data:`LIGHT_TOP` brightened.

    >>> brightest(np.arange(256, dtype=np.uint8).repeat(10))
    254
    """
    rows = image.reshape(image.shape[0] if image.ndim > 1 else 1, -1)     # a plane: calcHist reads it twice as fast as a column
    hist = cv2.calcHist([rows], [0], None, [256], [0, 256])   # as np.bincount, without its copy of the pixels as int64
    counts = np.cumsum(hist.ravel().astype(np.int64))
    return int(np.searchsorted(counts, 0.995 * counts[-1]))


def face_cut(grey: np.ndarray, centre: tuple[float, float], size: tuple[float, float],
             angle: float = 0.0, raw: bool = False) -> np.ndarray:
    """One face as the reader sees it: the box of ``size`` (w, h) round ``centre``, grown by
    :data:`MARGIN`, stretched to CROP x CROP (turned ``angle`` degrees, for training), its light
    evened (:func:`evened`; ``raw``: the grey pixels as cut, for training to change them first).

    >>> cut = face_cut(np.full((50, 50), 200, np.uint8), (25, 25), (20, 20))
    >>> cut.shape, float(abs(cut).max())
    ((32, 32), 0.0)
    """
    sx, sy = size[0] * MARGIN / CROP, size[1] * MARGIN / CROP
    if angle == 0:                                   # the reader's cuts: the same matrix as below, without its arithmetic
        mid, ax, ay = (CROP - 1) / 2, float(sx), float(sy)
        matrix = np.array([[ax, 0.0, float(centre[0]) - ax * mid], [0.0, ay, float(centre[1]) - ay * mid]], np.float64)
    else:
        t = np.deg2rad(angle)
        rot = np.array([[np.cos(t), -np.sin(t)], [np.sin(t), np.cos(t)]])
        a = np.diag([sx, sy]) @ rot                  # from the cut's pixels (centred) to the photo's
        offset = np.array(centre) - a @ np.array([(CROP - 1) / 2, (CROP - 1) / 2])
        matrix = np.hstack([a, offset[:, None]]).astype(np.float64)
    cut = cv2.warpAffine(grey, matrix, (CROP, CROP), flags=cv2.INTER_LINEAR | cv2.WARP_INVERSE_MAP,
                         borderMode=cv2.BORDER_REPLICATE)
    return cut if raw else evened(cut)


def face_cuts(grey: np.ndarray, boxes: list[tuple[float, float, float, float]],
              levels: list[np.ndarray] | None = None) -> np.ndarray:
    """The cuts (:func:`face_cut`) of the boxes (cx, cy, w, h): a face many times larger than
    the cut is cut from the photo halved (each pixel the mean of four; again for each further
    halving) until at most twice the cut's size, so that the cut means its pixels rather than
    picking some (a 1.9 MP photo's dice are 100-200 pixels across, the cut 32). ``levels``, when
    given, is the photo and the halvings made so far (``[grey]`` at first), kept for the next call.

    >>> photo = np.zeros((400, 400), np.uint8); photo[::2] = 255      # lines a pixel wide
    >>> big, small = face_cuts(photo, [(200, 200, 300, 300), (200, 200, 30, 30)])
    >>> round(float(big.std()), 2), round(float(small.std()), 2)
    (0.0, 1.0)
    """
    levels = [grey] if levels is None else levels
    cuts = []
    for cx, cy, w, h in boxes:
        level = 0
        while min(w, h) * MARGIN / 2 ** level > 2 * CROP and level < 4:
            level += 1
        while len(levels) <= level:
            levels.append(cv2.resize(levels[-1], (levels[-1].shape[1] // 2, levels[-1].shape[0] // 2),
                                     interpolation=cv2.INTER_AREA))
        f = 2.0 ** level
        cuts.append(face_cut(levels[level], ((cx + 0.5) / f - 0.5, (cy + 0.5) / f - 0.5), (w / f, h / f), raw=True))
    return evened(np.stack(cuts))


def evened(cut: np.ndarray) -> np.ndarray:
    """A cut's light evened out: zero mean, unit spread (all zero when it is flat); of a stack of
    cuts (N, rows, columns), each cut's.

    >>> float(abs(evened(np.array([[0, 2], [0, 2]], np.uint8))).max())
    0.0
    >>> evened(np.array([[0, 20], [0, 20]], np.uint8)).tolist()
    [[-1.0, 1.0], [-1.0, 1.0]]
    >>> evened(np.array([[[0, 20], [0, 20]], [[0, 2], [0, 2]]], np.uint8)).tolist()
    [[[-1.0, 1.0], [-1.0, 1.0]], [[-0.0, 0.0], [-0.0, 0.0]]]
    """
    out = cut.astype(np.float32)
    out -= out.mean(axis=(-2, -1), keepdims=True)
    spread = out.std(axis=(-2, -1), keepdims=True)
    flat = spread <= 2.0
    out /= np.where(flat, np.float32(1.0), spread)
    return np.where(flat, out * 0.0, out)


def peaks(heat: np.ndarray, threshold: float) -> list[tuple[int, int]]:
    """The (row, col) cells of ``heat`` at least ``threshold`` and highest in their 3x3.

    >>> h = np.zeros((5, 5), np.float32); h[1, 1] = 0.9; h[1, 2] = 0.5; h[3, 3] = 0.6
    >>> peaks(h, 0.4)
    [(1, 1), (3, 3)]
    """
    top = cv2.dilate(heat, np.ones((3, 3), np.uint8))
    rows, cols = np.nonzero((heat >= threshold) & (heat >= top))
    return [(int(r), int(c)) for r, c in zip(rows, cols)]


@dataclass(frozen=True)
class ReadDie:
    """One die as read: its face (``?`` when unsure, with ``candidates``), where it lies (its
    centre and box in the photo's pixels), the probability of the face, and its quarter turn
    (0-3, clockwise, of the letter from upright in the photo)."""

    face: str
    centre: tuple[float, float]
    confidence: float
    turn: int
    size: tuple[float, float]
    candidates: tuple[str, ...] = ()

    def to_json(self) -> dict:
        """``{"face", "center", "confidence"}`` (and ``"candidates"`` when unsure).

        >>> ReadDie("QU", (10.04, 20.0), 0.98765, 0, (9.0, 9.0)).to_json()
        {'face': 'QU', 'center': [10.0, 20.0], 'confidence': 0.988}
        """
        out: dict = {"face": self.face, "center": [round(self.centre[0], 1), round(self.centre[1], 1)],
                     "confidence": round(self.confidence, 3)}
        if self.candidates:
            out["candidates"] = list(self.candidates)
        return out


@dataclass(frozen=True)
class PlainRead:
    """The dice of one photo, and the tray's rows read upright when they lie in a full grid."""

    dice: tuple[ReadDie, ...]
    grid: tuple[tuple[str, ...], ...] | None = None
    timings: dict = field(default_factory=dict, compare=False)

    def to_json(self) -> dict:
        """``{"dice": [...]}`` and, for a tray, ``"grid"``: its rows read upright as the word
        grid's ``tray`` event takes them, a row one string (``"ABCD"``), or a list of its faces when
        one has two letters (``["N", "I", "QU", "D"]``).

        >>> PlainRead((ReadDie("A", (1.0, 2.0), 0.9, 0, (5.0, 5.0)),), (("A",),)).to_json()
        {'dice': [{'face': 'A', 'center': [1.0, 2.0], 'confidence': 0.9}], 'grid': ['A']}
        """
        out: dict = {"dice": [d.to_json() for d in self.dice]}
        if self.grid is not None:
            out["grid"] = [list(row) if any(len(f) > 1 for f in row) else "".join(row) for row in self.grid]
        return out


def _net(path: pathlib.Path) -> OnnxNet:
    return OnnxNet(path, "plain dice model", "run scripts/train_plain_dice.py")


def forward_in_batches(net: OnnxNet, blob: np.ndarray, outputs: list[str],
                       size: int = FACE_BATCH) -> list[np.ndarray]:
    """The network's ``outputs`` for a blob of N inputs (N, ...; float32), read ``size`` inputs at
    a time and stacked: the outputs of one forward pass of the whole blob, in less CPU when the
    blob is large (its layers' outputs then outgrow the processor's cache).

    >>> net = _net(FACES_PATH)
    >>> cuts = np.random.default_rng(0).normal(0, 1, (20, 1, CROP, CROP)).astype(np.float32)
    >>> faces, turns = forward_in_batches(net, cuts, ["faces", "turns"])
    >>> faces.shape, turns.shape
    ((20, 33), (20, 4))
    >>> whole = net.run(cuts, ["faces", "turns"])
    >>> bool(np.abs(faces - whole[0]).max() < 1e-5)
    True
    """
    if size < 1 or len(blob) == 0:
        raise ValueError(f"batches of {size} of a blob of {len(blob)} inputs: both must be at least one")
    parts: list[list[np.ndarray]] = [[] for _ in outputs]
    for start in range(0, len(blob), size):
        for part, out in zip(parts, net.run(blob[start:start + size], outputs)):
            part.append(np.asarray(out))
    return [np.concatenate(part) for part in parts]


def _softmax(z: np.ndarray) -> np.ndarray:
    z = z - z.max(1, keepdims=True)
    e = np.exp(z)
    return e / e.sum(1, keepdims=True)


def settle(probs: np.ndarray, dice_set: tuple[tuple[str, ...], ...]) -> list[tuple[str, float] | None]:
    """Each read die's face as the set allows: the dice matched one to one to the set's dice
    (the match that makes the faces read likeliest), each showing its die's likeliest face, its
    confidence the probability of that face among the die's faces.
    ``None`` for a die left over (more dice seen than the set has).

    >>> p = np.zeros((2, len(FACES))); p[0, FACES.index("M")] = 0.6; p[0, FACES.index("W")] = 0.4
    >>> p[1, FACES.index("W")] = 0.9
    >>> settle(p, (("W", "A"), ("M", "B")))
    [('M', 1.0), ('W', 1.0)]
    """
    from scipy.optimize import linear_sum_assignment

    index = [[FACES.index(f) for f in set(die) if f in FACES] for die in dice_set]
    best = np.stack([probs[:, ix].max(1) if ix else np.zeros(len(probs)) for ix in index], 1)
    rows, cols = linear_sum_assignment(-np.log(best + 1e-9))
    out: list[tuple[str, float] | None] = [None] * len(probs)
    for r, c in zip(rows, cols):
        ix = index[c]
        k = ix[int(np.argmax(probs[r, ix]))]
        total = float(probs[r, ix].sum())
        out[r] = (FACES[k], float(probs[r, k]) / max(total, 1e-9) if total > 0 else 0.0)
    return out


class PlainDiceReader:
    """Reads plain letter dice from photos with the shipped networks.

    ``threshold`` is the finder's least peak for a die; ``unsure`` the least probability of a face
    read without a dice set (below it the die is reported as ``?``).
    """

    def __init__(self, finder: pathlib.Path = FINDER_PATH, faces: pathlib.Path = FACES_PATH,
                 threshold: float = 0.3, unsure: float = 0.3, second_look: float = SECOND_LOOK, zoom: bool = True,
                 prune: bool = True, grid_look: bool = True):
        self.finder, self.faces = _net(finder), _net(faces)
        self.threshold, self.unsure, self.second_look = threshold, unsure, second_look
        self.zoom, self.prune, self.grid_look = zoom, prune, grid_look
        self._lock = threading.Lock()

    def maps(self, image: np.ndarray) -> np.ndarray:
        """The finder's maps of a BGR photo: (3, cells, cells), how likely a face is centred in
        each cell, and its width and height (in :data:`SIZE_UNIT` of the finder's input)."""
        with self._lock:
            return np.asarray(self.finder.run(finder_input(image)[None])[0])[0]

    def find(self, image: np.ndarray, maps: np.ndarray | None = None) -> list[tuple[float, float, float, float, float]]:
        """The dice's (cx, cy, w, h, score) in the photo's pixels (from ``maps`` when given)."""
        h, w = image.shape[:2]
        maps = self.maps(image) if maps is None else maps
        fx, fy = w / FIND_SIDE, h / FIND_SIDE
        return [((c + 0.5) * STRIDE * fx, (r + 0.5) * STRIDE * fy, float(maps[1, r, c]) * SIZE_UNIT * fx,
                 float(maps[2, r, c]) * SIZE_UNIT * fy, float(maps[0, r, c]))
                for r, c in peaks(maps[0], self.threshold)]

    def _look(self, colour: np.ndarray, window: tuple[int, int, int, int]
              ) -> tuple[list[tuple[float, float, float, float, float]], Callable[[float, float], float]]:
        """The finds in ``window`` (x0, y0, x1, y1) of the photo, one to a die and one size
        (:func:`keep_tray`, :func:`even_sizes`), in the photo's pixels, and the finder's heat there."""
        x0, y0, x1, y1 = window
        part = colour[y0:y1, x0:x1]              # a view: the finder resizes it, no copy needed
        maps = self.maps(part)
        found = [(cx + x0, cy + y0, w, h, score) for cx, cy, w, h, score in self.find(part, maps)]
        near = _heat_at(maps[0], part.shape[1] / FIND_SIDE, part.shape[0] / FIND_SIDE)
        return even_sizes(keep_tray(found)), lambda x, y: near(x - x0, y - y0)

    def classify(self, grey: np.ndarray, boxes: list[tuple[float, float, float, float]]) -> tuple[np.ndarray, np.ndarray]:
        """(face probabilities (N, len(FACES)), quarter turn probabilities (N, 4)) of the boxes (cx, cy, w, h)."""
        if not boxes:
            return np.zeros((0, len(FACES))), np.zeros((0, 4))
        levels = [grey]
        cuts = face_cuts(grey, boxes, levels)
        faces, turns = self._run(cuts)
        doubtful = np.flatnonzero(faces.max(1) < self.second_look)
        if len(doubtful):                   # a second look: the doubtful cuts, a little tighter and looser, turned each quarter
            near = [boxes[i] for i in doubtful]
            looks = np.concatenate([cuts[doubtful]] + [face_cuts(grey, [(cx, cy, w * s, h * s) for cx, cy, w, h in near], levels)
                                                       for s in SECOND_SCALES])
            turned = np.concatenate([looks[len(doubtful):]] + [np.rot90(looks, k, axes=(1, 2)) for k in (1, 2, 3)])
            more, _ = self._run(turned)     # the cuts as first cut, upright, were read in the first look: not again
            more = np.concatenate([faces[doubtful], more])
            faces[doubtful] = more.reshape(-1, len(doubtful), len(FACES)).mean(0)
        return faces, turns

    def _grid_look(self, grey: np.ndarray, found: list[tuple[float, float, float, float, float]],
                   probs: np.ndarray) -> np.ndarray:
        """The face probabilities with each doubtful face (under :data:`SECOND_LOOK`) of a tray read
        again from the box its grid gives it (:func:`grid_boxes`, when within :data:`GRID_LOOK_OFF`
        of a cell of the find), the surer of the two readings kept."""
        doubtful = np.flatnonzero(probs.max(1) < self.second_look)
        grid = grid_boxes(found) if len(doubtful) else None
        if grid is None:
            return probs
        again = [int(k) for k in doubtful if grid[k][4] <= GRID_LOOK_OFF]
        if not again:
            return probs
        more, _ = self.classify(grey, [grid[k][:4] for k in again])
        out = probs.copy()
        for k, p in zip(again, more):
            if p.max() > out[k].max():
                out[k] = p
        return out

    def _run(self, cuts: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        with self._lock:
            faces, turns = forward_in_batches(self.faces, np.asarray(cuts, np.float32)[:, None], ["faces", "turns"], FACE_BATCH)
        probs = _softmax(np.asarray(faces, np.float64))
        probs[:, _QU] += probs[:, _Q]           # a lone Q is a Qu face mislabelled in the photos learnt from
        probs[:, _Q] = 0.0
        return probs, _softmax(np.asarray(turns, np.float64))

    def read(self, image: np.ndarray, dice_set: tuple[tuple[str, ...], ...] | None = None) -> PlainRead:
        """The dice in ``image`` (BGR or grey), their faces (settled by ``dice_set`` when given)
        and, when they lie in a full grid, the tray's rows read upright.

        Raises :class:`NoDiceFound` when no die is seen, :class:`BadImage` for no image.
        """
        import time

        from vision.dice import as_grey

        started = time.perf_counter()
        grey = as_grey(image)
        colour = cv2.cvtColor(grey, cv2.COLOR_GRAY2BGR) if image.ndim == 2 else image[..., :3]
        colour = np.ascontiguousarray(colour)
        found, heat = self._look(colour, (0, 0, colour.shape[1], colour.shape[0]))
        closer = zoom_window(found, colour.shape[:2]) if self.zoom else None
        if closer is not None:                  # small dice: the finder looks again, closer
            again, near_heat = self._look(colour, closer)
            if len(again) >= len(found):
                found, heat = again, near_heat
        found = fill_holes(off_lattice(found) if self.prune else found, heat)
        found_at = time.perf_counter()
        if not found:
            raise NoDiceFound()
        probs, turns = self.classify(grey, [f[:4] for f in found])
        if self.grid_look:
            probs = self._grid_look(grey, found, probs)
        settled = settle(probs, dice_set) if dice_set else None
        dice = []
        for k, (cx, cy, w, h, _) in enumerate(found):
            order = np.argsort(-probs[k])
            top = float(probs[k, order[0]])
            if settled is not None:
                pick = settled[k]
                face, sure = pick if pick is not None else ("?", 0.0)
                unsure: tuple[str, ...] = () if pick is not None else (FACES[order[0]],)
            elif top < self.unsure:
                face, sure, unsure = "?", top, (FACES[order[0]], FACES[order[1]])
            else:
                face, sure, unsure = FACES[order[0]], top, ()
            dice.append(ReadDie(face, (cx, cy), sure, int(turns[k].argmax()), (w, h), unsure))
        grid = tray_rows([d.centre for d in dice], upright_turn(turns))
        faces = tuple(tuple(dice[i].face for i in row) for row in grid) if grid is not None else None
        done = time.perf_counter()
        return PlainRead(tuple(dice), faces, {"find_ms": (found_at - started) * 1000, "ms": (done - started) * 1000})


def one_a_face(found: list[tuple[float, float, float, float, float]]) -> list[tuple[float, float, float, float, float]]:
    """The finds likeliest first, each kept unless its centre lies within 0.4 of the size of a
    face already kept (two finds of one face: the likelier stays).

    >>> one_a_face([(2, 0, 10, 10, 0.5), (0, 0, 10, 10, 0.9), (12, 0, 10, 10, 0.8)])
    [(0, 0, 10, 10, 0.9), (12, 0, 10, 10, 0.8)]
    """
    ranked = sorted(found, key=lambda f: -f[4])
    at = np.array([f[:4] for f in ranked], np.float64).reshape(-1, 4)
    gaps = np.hypot(at[:, None, 0] - at[None, :, 0], at[:, None, 1] - at[None, :, 1])   # [i, j]: find i from find j
    reach = 0.4 * np.maximum(at[:, 2], at[:, 3])
    chosen: list[int] = []
    for i in range(len(ranked)):                # likeliest first: kept unless on a face already kept
        if (gaps[i, chosen] > reach[chosen]).all():
            chosen.append(i)
    return [ranked[i] for i in chosen]


def keep_tray(found: list[tuple[float, float, float, float, float]]) -> list[tuple[float, float, float, float, float]]:
    """The finds that are dice: of two on one face (centres closer than 0.4 of its size) the
    likelier; and when most finds touch one another (a tray: centres within 1.6 faces), only
    those (the rest are a cloth's pattern, a box's print).

    >>> keep_tray([(0, 0, 10, 10, 0.9), (2, 0, 10, 10, 0.5), (12, 0, 10, 10, 0.8), (24, 0, 10, 10, 0.8),
    ...            (100, 100, 10, 10, 0.4)])
    [(0, 0, 10, 10, 0.9), (12, 0, 10, 10, 0.8), (24, 0, 10, 10, 0.8)]
    """
    kept = one_a_face(found)
    if len(kept) < 4:
        return kept
    pts = np.array([k[:2] for k in kept])
    size = np.array([max(k[2], k[3]) for k in kept])
    near = np.linalg.norm(pts[:, None] - pts[None], axis=2) < 0.8 * (size[:, None] + size[None])
    group = -np.ones(len(kept), int)
    for start in range(len(kept)):
        if group[start] >= 0:
            continue
        group[start], todo = start, [start]
        while todo:
            for j in np.flatnonzero(near[todo.pop()] & (group < 0)):
                group[j] = start
                todo.append(int(j))
    largest = np.bincount(group).argmax()
    if np.sum(group == largest) * 2 < len(kept):
        return kept
    return [k for k, g in zip(kept, group) if g == largest]


def zoom_window(found: list[tuple[float, float, float, float, float]], shape: tuple[int, int],
                small: float = ZOOM_BELOW, gain: float = ZOOM_GAIN) -> tuple[int, int, int, int] | None:
    """The part of a photo (``shape``: rows, columns) for the finder's closer look when the dice
    found are small (their median side, the root of width times height, under ``small`` pixels of
    the finder's input): the finds'
    centres and a margin of two dice each side, with the photo's own proportions (the finder
    learnt the photos' stretch), when that part is at most ``1 / gain`` of the photo's side; else
    ``None``. (x0, y0, x1, y1) in the photo's pixels.

    >>> dice = [(500.0 + 20 * i, 400.0 + 20 * j, 15.0, 15.0, 0.9) for i in range(4) for j in range(4)]
    >>> zoom_window(dice, (1200, 1600))
    (440, 362, 620, 497)
    >>> zoom_window([(d[0], d[1], 200.0, 200.0, 0.9) for d in dice], (1200, 1600)) is None
    True
    """
    if len(found) < 4:
        return None
    rows, cols = shape
    side = float(np.median([np.sqrt(f[2] * FIND_SIDE / cols * f[3] * FIND_SIDE / rows) for f in found]))
    if side >= small:
        return None
    xs, ys = [f[0] for f in found], [f[1] for f in found]
    w = float(np.median([f[2] for f in found]))
    h = float(np.median([f[3] for f in found]))
    half_w, half_h = (max(xs) - min(xs)) / 2 + 2.5 * w, (max(ys) - min(ys)) / 2 + 2.5 * h
    share = max(half_w / cols, half_h / rows)           # the part's side, a share of the photo's
    if 2 * share * gain > 1:
        return None
    cx = min(max((max(xs) + min(xs)) / 2, share * cols), cols - share * cols)
    cy = min(max((max(ys) + min(ys)) / 2, share * rows), rows - share * rows)
    return (int(cx - share * cols), int(cy - share * rows), int(cx + share * cols), int(cy + share * rows))


def _heat_at(heat: np.ndarray, fx: float, fy: float) -> Callable[[float, float], float]:
    """How likely the finder thought a face centred near a point of the photo (its map's highest
    cell within a cell of the point's); ``fx``, ``fy`` the photo's pixels per finder input pixel."""
    def at(x: float, y: float) -> float:
        c, r = int(x / fx / STRIDE), int(y / fy / STRIDE)
        if not (0 <= r < heat.shape[0] and 0 <= c < heat.shape[1]):
            return 0.0
        return float(heat[max(0, r - 1):r + 2, max(0, c - 1):c + 2].max())
    return at


def fill_holes(found: list[tuple[float, float, float, float, float]], heat: Callable[[float, float], float],
               least: float = HOLE_HEAT) -> list[tuple[float, float, float, float, float]]:
    """The finds and, when they lie in a grid of at least 3x3 with a few cells empty (at most a
    third as many as the finds), a die in each empty cell where the finder saw a face at least ``least`` likely
    (``heat(x, y)``; a tray's cells are all full, and a die the finder was unsure of is there).
    The empty cell's centre is where the grid's lines cross (fitted to the finds, an affine map
    from row and column to the photo), its size the finds' median, its score the heat there.

    >>> grid = [(x * 10.0, y * 10.0, 8.0, 8.0, 0.9) for y in range(3) for x in range(3) if (x, y) != (1, 1)]
    >>> fill_holes(grid, lambda x, y: 0.2)[-1]
    (10.0, 10.0, 8.0, 8.0, 0.2)
    >>> len(fill_holes(grid, lambda x, y: 0.01))
    8
    """
    lattice = _lattice(found)
    if lattice is None:
        return found
    fit, cols, rows = lattice
    n, ncols, nrows = len(found), int(cols.max()) + 1, int(rows.max()) + 1
    if not 0 < ncols * nrows - n <= n // 3:
        return found
    taken = np.zeros((nrows, ncols), bool)
    taken[rows, cols] = True
    w, h = float(np.median([f[2] for f in found])), float(np.median([f[3] for f in found]))
    out = list(found)
    for r, c in zip(*np.nonzero(~taken)):
        x, y = np.array([c, r, 1.0]) @ fit
        score = heat(float(x), float(y))
        if score >= least:
            out.append((round(float(x), 6), round(float(y), 6), w, h, score))
    return out


def _lattice(found: list[tuple[float, float, float, float, float]]
             ) -> tuple[np.ndarray, np.ndarray, np.ndarray] | None:
    """The grid the finds lie in, when they lie in one of at least 3x3, a find to a cell: the
    affine map (3x2) from (column, row, 1) to the photo, fitted to the finds, and each find's
    column and row; ``None`` for fewer than six finds, or finds off any such grid.

    It depends on the finds' centres only, and a read asks for it up to three times with the
    same centres (:func:`off_lattice`, :func:`fill_holes`, :func:`grid_boxes`): the last few
    answers are kept (read-only arrays).

    >>> grid = [(x * 10.0, y * 10.0, 8.0, 8.0, 0.9) for y in range(3) for x in range(3)]
    >>> fit, cols, rows = _lattice(grid)
    >>> cols.tolist(), rows.tolist(), _lattice(grid)[0] is fit
    ([0, 1, 2, 0, 1, 2, 0, 1, 2], [0, 0, 0, 1, 1, 1, 2, 2, 2], True)
    """
    return _lattice_of_centres(tuple((float(f[0]), float(f[1])) for f in found))


@functools.lru_cache(maxsize=16)
def _lattice_of_centres(centres: tuple[tuple[float, float], ...]
                        ) -> tuple[np.ndarray, np.ndarray, np.ndarray] | None:
    """:func:`_lattice` of the finds' centres (a tuple, so that the answer can be kept)."""
    n = len(centres)
    if n < 6:
        return None
    pts = np.array(centres, np.float64)
    axes = _lattice_axes(pts)
    if axes is None or abs(np.linalg.det(axes)) < 0.3:
        return None
    coords = pts @ np.linalg.inv(axes).T
    dist = np.linalg.norm(pts[:, None] - pts[None], axis=2) + np.eye(n) * 1e12
    step = float(np.median(dist.min(1)))
    lengths = np.linalg.norm(axes, axis=0)
    cols, rows = _bands(coords[:, 0], step / lengths[0]), _bands(coords[:, 1], step / lengths[1])
    if cols.max() < 2 or rows.max() < 2 or len(set(zip(rows.tolist(), cols.tolist()))) < n:
        return None
    design = np.stack([cols, rows, np.ones(n)], 1).astype(np.float64)
    fit, *_ = np.linalg.lstsq(design, pts, rcond=None)
    if np.median(np.linalg.norm(design @ fit - pts, axis=1)) > 0.25 * step:
        return None
    for kept in (fit, cols, rows):
        kept.flags.writeable = False
    return fit, cols, rows


def grid_boxes(found: list[tuple[float, float, float, float, float]]
               ) -> list[tuple[float, float, float, float, float]] | None:
    """Each find's box as the tray's grid gives it, when the finds lie in one (:func:`_lattice`):
    (cx, cy, w, h, off). The centre is where the find's cell is, by the perspective (a homography,
    robust to a find or two off their cells) from the grid's columns and rows to the photo; the
    size is the cell's upright extent there times the finds' median share of it (a tray's square
    faces are one share of their square cells, nearer cells larger: the box takes the cell's
    proportions, which a tray seen low flattens, rather than each find's); ``off`` is how far the
    find lies from that centre, a share of the cell's side there. ``None`` when the finds lie in no grid.

    >>> grid = [(x * 10.0, y * 10.0, 8.0, 8.0, 0.9) for y in range(3) for x in range(3)]
    >>> grid[4] = (13.0, 10.0, 6.0, 8.0, 0.9)                     # one find off its cell
    >>> [tuple(round(v, 2) for v in box) for box in grid_boxes(grid)[3:5]]
    [(0.0, 10.0, 8.0, 8.0, 0.0), (10.0, 10.0, 8.0, 8.0, 0.3)]
    """
    lattice = _lattice(found)
    if lattice is None:
        return None
    fit, cols, rows = lattice
    cells = np.stack([cols, rows], 1).astype(np.float64)
    pts = np.array([f[:2] for f in found], np.float64)
    step = float(np.median(np.linalg.norm(fit[:2], axis=1)))
    homography, _ = cv2.findHomography(cells, pts, cv2.RANSAC, 0.15 * step)
    if homography is None:
        return None
    at = cv2.perspectiveTransform(cells[None], homography)[0]
    near = np.hypot(*(pts - at).T) < GRID_NEAR * step
    if GRID_FIT_MIN <= near.sum() < len(pts):   # a corner find off its cell can bend the fit to it: again without
        again, _ = cv2.findHomography(cells[near], pts[near], 0)
        if again is not None:
            homography, at = again, cv2.perspectiveTransform(cells[None], again)[0]
    extents, sides = [], []
    for c, r in cells:                      # the cell at (c, r): the homography's derivative there
        x, y, z = homography @ np.array([c, r, 1.0])
        jac = (homography[:2, :2] * z - np.outer([x, y], homography[2, :2])) / z ** 2
        extents.append((abs(jac[0, 0]) + abs(jac[0, 1]), abs(jac[1, 0]) + abs(jac[1, 1])))   # its upright box
        sides.append(float(np.sqrt(abs(np.linalg.det(jac)))))
    share = float(np.median([np.sqrt(f[2] * f[3] / (e[0] * e[1])) for f, e in zip(found, extents)]))
    return [(float(x), float(y), float(share * ew), float(share * eh), float(np.hypot(f[0] - x, f[1] - y) / side))
            for (x, y), (ew, eh), side, f in zip(at, extents, sides, found)]


def off_lattice(found: list[tuple[float, float, float, float, float]], sure: float = SURE_FIND,
                off: float = OFF_CELL) -> list[tuple[float, float, float, float, float]]:
    """The finds without those the tray's grid disowns: when the sure finds (score at least
    ``sure``) lie in a grid (:func:`_lattice`), a find less sure is dropped when it lies off the
    grid's crossings (more than ``off`` of a cell, along a row or a column: a die's side face, a
    pattern between the dice), on a cell a sure find holds, or where it would make the grid
    longer than it is wide (a tray is square: a pattern beside it).

    >>> grid = [(x * 10.0, y * 10.0, 8.0, 8.0, 0.9) for y in range(4) for x in range(4) if (x, y) != (1, 1)]
    >>> side, hole, beyond = (15.0, 35.0, 8.0, 8.0, 0.4), (10.0, 11.0, 8.0, 8.0, 0.4), (10.0, 40.0, 8.0, 8.0, 0.4)
    >>> off_lattice(grid + [side, hole, beyond])[-1]
    (10.0, 11.0, 8.0, 8.0, 0.4)
    >>> len(off_lattice(grid + [side, hole, beyond]))
    16
    """
    firm = [f for f in found if f[4] >= sure]
    lattice = _lattice(firm)
    if lattice is None or len(firm) == len(found):
        return found
    fit, cols, rows = lattice
    held = set(zip(rows.tolist(), cols.tolist()))
    side = max(int(cols.max()), int(rows.max())) + 1
    inverse = np.linalg.inv(np.vstack([fit.T, [0.0, 0.0, 1.0]]))     # the photo's (x, y, 1) to (column, row, 1)
    out = []
    lo_c, hi_c, lo_r, hi_r = 0, int(cols.max()), 0, int(rows.max())
    for f in sorted(found, key=lambda f: -f[4]):
        if f[4] >= sure:
            out.append(f)
            continue
        c, r, _ = inverse @ np.array([f[0], f[1], 1.0])
        ci, ri = int(round(c)), int(round(r))
        wide = max(hi_c, ci) - min(lo_c, ci) + 1
        long = max(hi_r, ri) - min(lo_r, ri) + 1
        if abs(c - ci) > off or abs(r - ri) > off or (ri, ci) in held or max(wide, long) > side:
            continue
        held.add((ri, ci))
        lo_c, hi_c, lo_r, hi_r = min(lo_c, ci), max(hi_c, ci), min(lo_r, ri), max(hi_r, ri)
        out.append(f)
    return [f for f in found if f in out]


def even_sizes(found: list[tuple[float, float, float, float, float]],
               off: float = SIZE_OFF) -> list[tuple[float, float, float, float, float]]:
    """The finds with a side far off the others' (a share ``off`` from their median, as a log) set
    to that median: a tray's dice are one size, and a face cut too wide or too narrow is misread.
    Fewer than four finds are left as they are.

    >>> even_sizes([(0, 0, 10, 10, 0.9), (9, 0, 10, 11, 0.9), (0, 9, 10, 10, 0.9), (9, 9, 14, 10, 0.9)])
    [(0, 0, 10, 10, 0.9), (9, 0, 10, 11, 0.9), (0, 9, 10, 10, 0.9), (9, 9, 10.0, 10, 0.9)]
    """
    if len(found) < 4:
        return found
    mw, mh = float(np.median([f[2] for f in found])), float(np.median([f[3] for f in found]))
    return [(cx, cy, w if abs(np.log(w / mw)) <= off else mw, h if abs(np.log(h / mh)) <= off else mh, score)
            for cx, cy, w, h, score in found]


def upright_turn(turn_probs: np.ndarray) -> int | None:
    """The quarter turn the tray's letters share, from each die's turn probabilities (N, 4): the
    turn with the most probability, when it has at least 40 % of it and half as much again as the
    next; else ``None`` (the dice lie turned every way, as shaken dice do in their cells, and no
    side of the tray is its top).

    >>> upright_turn(np.array([[0.9, 0.1, 0, 0], [0.8, 0, 0.2, 0], [0.1, 0.7, 0.1, 0.1]]))
    0
    >>> upright_turn(np.array([[0.9, 0.1, 0, 0], [0, 0.9, 0.1, 0]])) is None
    True
    """
    if len(turn_probs) == 0:
        return None
    votes = np.asarray(turn_probs, np.float64).sum(0)
    order = np.argsort(-votes)
    if votes[order[0]] >= 0.4 * votes.sum() and votes[order[0]] >= 1.5 * votes[order[1]]:
        return int(order[0])
    return None


def tray_rows(centres: list[tuple[float, float]], turn: int | None) -> list[list[int]] | None:
    """The dice (indices) in rows when they fill a grid of at least 2x2; else ``None``.

    The grid's axes are the commonest direction between neighbours (modulo a quarter turn); its
    rows and columns are the gaps along them. The rows are read so that letters turned ``turn``
    quarter turns clockwise stand upright (``None``: as the photo shows them, its top the top).

    >>> tray_rows([(0, 0), (10, 0), (0, 10), (10, 10)], 0)
    [[0, 1], [2, 3]]
    >>> tray_rows([(0, 0), (10, 0), (0, 10), (10, 10)], 1)
    [[1, 3], [0, 2]]
    """
    n = len(centres)
    if n < 4:
        return None
    pts = np.asarray(centres, np.float64)
    axes = _lattice_axes(pts)
    if axes is None:
        return None
    coords = pts @ np.linalg.inv(axes).T                     # along the rows, along the columns
    dist = np.linalg.norm(pts[:, None] - pts[None], axis=2) + np.eye(n) * 1e12
    step = float(np.median(dist.min(1)))
    lengths = np.linalg.norm(axes, axis=0)
    cols, rows = _bands(coords[:, 0], step / lengths[0]), _bands(coords[:, 1], step / lengths[1])
    ncols, nrows = int(cols.max()) + 1, int(rows.max()) + 1
    grid = np.full((nrows, ncols), -1)
    for i, (r, col) in enumerate(zip(rows, cols)):
        if grid[r, col] != -1:
            break
        grid[r, col] = i
    else:
        if ncols >= 2 and nrows >= 2 and ncols * nrows == n:
            return np.rot90(grid, turn or 0).tolist()
    square = _square_by_corners(coords, pts)
    return None if square is None else np.rot90(square, turn or 0).tolist()


def _square_by_corners(coords: np.ndarray, pts: np.ndarray) -> np.ndarray | None:
    """The dice (indices) in a square grid of k x k (k from 3) when the rows and columns
    found as gaps do not add up (a tray seen in steep perspective, its far rows narrower and
    closer together): its four corners are the dice furthest out along the grid's diagonals
    (``coords``, each die along the rows and along the columns), the perspective that takes them
    to the square's corners takes every die to its cell, within a third of a cell; else ``None``.

    >>> pts = np.array([(x * (10 - y) + 5 * y, 8 * y - 0.3 * y * y) for y in range(3) for x in range(3)], float)
    >>> _square_by_corners(pts, pts).tolist()
    [[0, 1, 2], [3, 4, 5], [6, 7, 8]]
    """
    k = int(round(np.sqrt(len(pts))))
    if k < 3 or k * k != len(pts):
        return None
    u, v = coords[:, 0], coords[:, 1]
    corners = [int(np.argmin(u + v)), int(np.argmax(u - v)), int(np.argmax(u + v)), int(np.argmin(u - v))]
    if len(set(corners)) < 4:
        return None
    square = np.array([(0, 0), (k - 1, 0), (k - 1, k - 1), (0, k - 1)], np.float32)
    warp = cv2.getPerspectiveTransform(pts[corners].astype(np.float32), square)
    cells = cv2.perspectiveTransform(pts[None].astype(np.float32), warp)[0]
    where = np.round(cells).astype(int)
    if np.abs(cells - where).max() > 1 / 3 or where.min() < 0 or where.max() > k - 1:
        return None
    grid = np.full((k, k), -1)
    grid[where[:, 1], where[:, 0]] = np.arange(len(pts))
    return grid if (grid >= 0).all() else None


def _lattice_axes(pts: np.ndarray) -> np.ndarray | None:
    """The grid's two directions (unit columns of a 2x2 matrix: along a row, pointing right; along
    a column, pointing down), from the directions between neighbouring dice. They need not be
    square to each other: a tray seen at a slant, or a photo stretched, shears the grid.

    A read asks for them twice with the same centres (:func:`_lattice`, :func:`tray_rows`): the
    last few answers are kept (read-only arrays).

    >>> _lattice_axes(np.array([(x * 10.0, y * 10.0) for y in range(3) for x in range(3)])).round(6).tolist()
    [[1.0, 0.0], [0.0, 1.0]]
    """
    return _lattice_axes_of(np.ascontiguousarray(pts, np.float64).tobytes())


@functools.lru_cache(maxsize=16)
def _lattice_axes_of(centres: bytes) -> np.ndarray | None:
    """:func:`_lattice_axes` of the centres (x, y) as the bytes of a float64 array, so that the
    answer can be kept."""
    pts = np.frombuffer(centres, np.float64).reshape(-1, 2)
    n = len(pts)
    dist = np.linalg.norm(pts[:, None] - pts[None], axis=2) + np.eye(n) * 1e12
    angle = np.mod(np.degrees(np.arctan2(pts[None, :, 1] - pts[:, None, 1], pts[None, :, 0] - pts[:, None, 0])), 180.0)
    first = _peak(angle[np.arange(n), dist.argmin(1)])          # each die's nearest neighbour
    off = np.abs((angle - first + 90) % 180 - 90) > 35           # the nearest neighbour along the other axis
    other = np.where(off, dist, np.inf).argmin(1)
    if not off.any():
        return None
    second = _peak(angle[np.arange(n), other][off[np.arange(n), other]])
    directions = [np.array([np.cos(np.radians(t)), np.sin(np.radians(t))]) for t in (first, second)]
    along_row, along_col = sorted(directions, key=lambda d: -abs(d[0]))
    along_row = along_row if along_row[0] >= 0 else -along_row
    along_col = along_col if along_col[1] >= 0 else -along_col
    axes = np.stack([along_row, along_col], 1)
    axes.flags.writeable = False
    return axes


def _peak(angles: np.ndarray) -> float:
    """The commonest of ``angles`` (degrees, modulo 180), averaged round its mode.

    >>> round(_peak(np.array([1.0, 179.0, 2.0, 90.0])), 1)
    0.7
    """
    hist = np.bincount(np.round(angles).astype(int) % 180, minlength=180).astype(np.float64)
    mode = int(np.argmax(np.convolve(np.concatenate([hist[-5:], hist, hist[:5]]), np.ones(11), "valid")))
    close = angles[np.abs((angles - mode + 90) % 180 - 90) < 12]
    doubled = np.radians(2 * close)
    return float(np.degrees(np.arctan2(np.sin(doubled).mean(), np.cos(doubled).mean()) / 2)) % 180


def _bands(values: np.ndarray, step: float) -> np.ndarray:
    """Each value's band (0, 1, ...) along one axis: a new band wherever sorted values jump by
    more than half the dice's spacing."""
    order = np.argsort(values)
    band = np.zeros(len(values), int)
    current = 0
    for prev, nxt in zip(order[:-1], order[1:]):
        if values[nxt] - values[prev] > 0.5 * step:
            current += 1
        band[nxt] = current
    return band


_DEFAULT: PlainDiceReader | None = None


def default_reader() -> PlainDiceReader:
    """The shipped networks, loaded once."""
    global _DEFAULT
    if _DEFAULT is None:
        _DEFAULT = PlainDiceReader()
    return _DEFAULT
