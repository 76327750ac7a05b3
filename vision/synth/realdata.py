"""Recorded real pen strokes: the UNIPEN and UJI capitals in ``shared/data/handwriting`` (both
CC BY 4.0: training and shipping a model made from them is allowed, with the credit in the
README). The data stay in ``shared/``; this module only reads the files it is pointed to.

Contributors are split once, here. The shipped letter network (``vision/models/letters.onnx``)
learns from every one of :data:`CONTRIBUTORS`; it is measured by :data:`FOLDS`, whole
contributors held out in turn (``scripts/train_letters.py --folds``, table in
``docs/letters-folds.md``). The first fold, :data:`HELD_OUT_CONTRIBUTORS` (whole institutions and
the UJI writers, on other tablets in other years), is ``tabletop bench vision``'s: the bench reads
them with a network that learnt from :data:`TRAINING_CONTRIBUTORS` only
(``vision/models/letters-heldout.onnx``), so its figures are of writers that network never saw.

>>> sorted(set(TRAINING_CONTRIBUTORS) & set(HELD_OUT_CONTRIBUTORS))
[]
>>> sorted(c for fold in FOLDS for c in fold) == sorted(CONTRIBUTORS)
True
"""

from __future__ import annotations

import os
import pathlib
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from vision.synth.handwriting import draw_strokes, letter_box



def _data_dir() -> pathlib.Path:
    """``$TABLETOP_HANDWRITING_DATA``, else ``shared/data/handwriting`` beside the checkout, else /work/shared's."""
    if os.environ.get("TABLETOP_HANDWRITING_DATA"):
        return pathlib.Path(os.environ["TABLETOP_HANDWRITING_DATA"])
    beside = pathlib.Path(__file__).resolve().parents[3] / "shared" / "data" / "handwriting"
    return beside if beside.is_dir() else pathlib.Path("/work/shared/data/handwriting")


DATA_DIR = _data_dir()
UNIPEN_PATH = DATA_DIR / "unipen_1b_uppercase_strokes.npz"
UJI_PATH = DATA_DIR / "uji1_uppercase_strokes.npz"
DEFAULT_PATHS = (UNIPEN_PATH, UJI_PATH)
#: UNIPEN institutions the benchmark's network learns from (apa, apb and app are one institution's
#: three sets, cea and ceb another's: an institution is never split between training and held out)
TRAINING_CONTRIBUTORS = ("ibm", "apa", "apb", "app", "aga", "imp", "cea", "ceb", "lou")
#: the benchmark's writers: its network (``letters-heldout.onnx``) never learnt from them
HELD_OUT_CONTRIBUTORS = ("val", "tos", "syn", "pri", "uji")
#: every contributor: what the shipped network learns from
CONTRIBUTORS = TRAINING_CONTRIBUTORS + HELD_OUT_CONTRIBUTORS
#: the contributors held out in turn by ``scripts/train_letters.py --folds`` (an institution is
#: never split between folds); the first is the benchmark's
FOLDS = (HELD_OUT_CONTRIBUTORS, ("apa", "apb", "app"), ("ibm", "aga", "imp", "cea", "ceb", "lou"))


@dataclass
class StrokeSet:
    """Recorded letters: per sample its strokes (scaled into a unit box), letter, contributor, writer."""

    strokes: list[list[np.ndarray]]  #: per sample, its strokes scaled to a unit-ish box
    labels: np.ndarray  #: letters 'A'..'Z'
    contributor: np.ndarray
    writer: np.ndarray

    def subset(self, mask: np.ndarray) -> "StrokeSet":
        """The samples where ``mask`` is true."""
        idx = np.nonzero(mask)[0]
        return StrokeSet([self.strokes[i] for i in idx], self.labels[idx], self.contributor[idx], self.writer[idx])

    def of(self, contributors: Sequence[str]) -> "StrokeSet":
        """The samples of these contributors."""
        return self.subset(np.isin(self.contributor, list(contributors)))

    def __len__(self) -> int:
        return len(self.labels)

    @staticmethod
    def join(sets: Sequence["StrokeSet"]) -> "StrokeSet":
        """One set holding all of ``sets``' samples, in order."""
        return StrokeSet([s for part in sets for s in part.strokes], np.concatenate([p.labels for p in sets]),
                         np.concatenate([p.contributor for p in sets]), np.concatenate([p.writer for p in sets]))


def load_strokes(path: str | pathlib.Path = UNIPEN_PATH) -> StrokeSet:
    """Every sample's pen-down strokes in one file (UNIPEN's or UJI's format), aspect-corrected by
    tablet resolution where the file states it, normalised by its bounding box. A file without
    a ``contributor`` column (UJI) takes its contributor from the writer's prefix (``uji/w01``)."""
    with np.load(path) as d:
        pts, sptr, optr = d["points"].astype(np.float64), d["stroke_ptr"], d["sample_ptr"]
        labels = np.array([chr(65 + int(v)) for v in d["labels"]])
        writer = np.asarray(d["writer"]).astype(str)
        contributor = (np.asarray(d["contributor"]).astype(str) if "contributor" in d.files
                       else np.array([w.split("/", 1)[0] for w in writer]))
        xr = d["x_points_per_inch"] if "x_points_per_inch" in d.files else np.zeros(len(labels))
        yr = d["y_points_per_inch"] if "y_points_per_inch" in d.files else np.zeros(len(labels))
    samples = []
    for i in range(len(labels)):
        strokes = [pts[sptr[k]:sptr[k + 1]].copy() for k in range(optr[i], optr[i + 1])]
        strokes = [s for s in strokes if len(s)]
        if xr[i] > 0 and yr[i] > 0:
            for s in strokes:
                s[:, 0] /= xr[i]
                s[:, 1] /= yr[i]
        allp = np.vstack(strokes)
        lo, span = allp.min(0), max(float((allp.max(0) - allp.min(0)).max()), 1e-6)
        samples.append([(s - lo) / span for s in strokes])
    return StrokeSet(samples, labels, contributor, writer)


def load_handwriting(paths: Sequence[pathlib.Path] = DEFAULT_PATHS) -> StrokeSet:
    """The recorded letters of every file in ``paths`` that exists (an empty set when none does)."""
    present = [load_strokes(p) for p in paths if pathlib.Path(p).is_file()]
    if not present:
        return StrokeSet([], np.array([], "<U1"), np.array([], "<U3"), np.array([], "<U8"))
    return StrokeSet.join(present)


def is_lone_bar(strokes: list[np.ndarray], tolerance: float = 0.1) -> bool:
    """Is this recording one straight stroke (no point further from the stroke's main axis than
    ``tolerance`` of its length along it)? For any capital but I, a stroke is then missing from
    the recording: an H that is one dash, a Y that is one slash. The UNIPEN set says it holds a
    few such samples; they are 6.7 % of contributor ibm's and at most 0.6 % of any other's.

    >>> is_lone_bar([np.array([[0.0, 0.0], [0.5, 0.02], [1.0, 0.0]])])
    True
    >>> is_lone_bar([np.array([[0.0, 0.0], [0.5, 0.02], [1.0, 0.0]]), np.array([[0.5, 0.0], [0.5, 1.0]])])
    False
    """
    if len(strokes) != 1:
        return False
    s = np.asarray(strokes[0], np.float64)
    centred = s - s.mean(axis=0)
    _, _, axes = np.linalg.svd(centred, full_matrices=False)
    along, across = centred @ axes[0], centred @ axes[-1]
    return float(np.ptp(across)) <= tolerance * float(np.ptp(along)) + 1e-9


def render_sample(strokes: list[np.ndarray], size: int, rng: np.random.Generator,
                  thickness: float | None = None) -> np.ndarray:
    """A recorded letter as marker ink in a ``size``-pixel square (same placement as ours)."""
    if thickness is None:
        thickness = size * rng.uniform(0.06, 0.12)
    return draw_strokes(strokes, size, letter_box(size, rng), thickness)
