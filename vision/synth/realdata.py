"""Loading recorded real pen strokes (the UNIPEN capitals in ``shared/data/handwriting``) for
*validation only*: the set's licence is research-only, so it never trains the shipped model
and never enters the repository. This module only reads a file the caller points to.

Contributors are split once, here, into a *tuning* group (used while developing the reader)
and a *held-out* group whose writers the reader never saw: accuracy is reported on those.
"""

from __future__ import annotations

import pathlib
from dataclasses import dataclass

import numpy as np

from vision.synth.handwriting import draw_strokes, letter_box

DEFAULT_PATH = pathlib.Path("/work/shared/data/handwriting/unipen_1b_uppercase_strokes.npz")
TUNING_CONTRIBUTORS = ("apa", "aga", "imp", "cea", "ceb", "lou")
HELD_OUT_CONTRIBUTORS = ("ibm", "val", "apb", "app", "tos", "syn", "pri")


@dataclass
class StrokeSet:
    strokes: list[list[np.ndarray]]  #: per sample, its strokes scaled to a unit-ish box
    labels: np.ndarray  #: letters 'A'..'Z'
    contributor: np.ndarray
    writer: np.ndarray

    def subset(self, mask: np.ndarray) -> "StrokeSet":
        idx = np.nonzero(mask)[0]
        return StrokeSet([self.strokes[i] for i in idx], self.labels[idx], self.contributor[idx], self.writer[idx])


def load_strokes(path: str | pathlib.Path = DEFAULT_PATH) -> StrokeSet:
    """Every sample's pen-down strokes, aspect-corrected by tablet resolution, normalised by bbox."""
    with np.load(path) as d:
        pts, sptr, optr = d["points"].astype(np.float64), d["stroke_ptr"], d["sample_ptr"]
        labels = np.array([chr(65 + int(v)) for v in d["labels"]])
        xr, yr = d["x_points_per_inch"], d["y_points_per_inch"]
        contributor, writer = d["contributor"], d["writer"]
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
    return StrokeSet(samples, labels, np.asarray(contributor), np.asarray(writer))


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
