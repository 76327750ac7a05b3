"""The premium squares' colours: how well a candidate grid's squares follow the board's premium
layout, tiles left out."""

from __future__ import annotations

from functools import lru_cache
from typing import NamedTuple

import cv2
import numpy as np

from vision.gridfind.geometry import PAD

#: the pattern is measured on the premium squares not covered by tiles, as if at most this share were
COVERED_AT_MOST = 0.5


def _layout_classes(premiums: tuple[str, ...] | None, rows: int, cols: int) -> np.ndarray | None:
    """The premium layout as class numbers (0 plain), or None when it has no premium squares."""
    if not premiums or len(premiums) != rows or any(len(r) != cols for r in premiums):
        return None
    kinds = sorted({ch for row in premiums for ch in row} - {"."})
    if not kinds:
        return None
    return np.array([[0 if ch == "." else 1 + kinds.index(ch) for ch in row] for row in premiums])


class _Turn(NamedTuple):
    """One turn of a premium layout, as :func:`_pattern` uses it: each square's class, the classes
    (0 first, if any square is plain), each class's squares, the premium squares, and which pairs
    of squares are of one class and how common each square's class is (:func:`_tile_like`)."""

    classes: np.ndarray
    kinds: np.ndarray
    members: tuple[np.ndarray, ...]
    premium: np.ndarray
    same: np.ndarray
    share: np.ndarray


@lru_cache(maxsize=8)
def _turns(cells: bytes, rows: int, cols: int) -> tuple[_Turn, ...]:
    """The distinct turns of the layout whose class numbers are ``cells`` (``rows`` x ``cols``,
    int64), each worked out once for every candidate grid checked against it."""
    layout = np.frombuffer(cells, np.int64).reshape(rows, cols)
    turns: list[np.ndarray] = []
    for turn in range(4 if rows == cols else 1):                 # a symmetric layout's turns once each
        turned = np.rot90(layout, turn)
        if not any(np.array_equal(turned, t) for t in turns):
            turns.append(turned)
    out = []
    for turned in turns:
        classes = turned.ravel().copy()
        kinds = np.unique(classes)
        out.append(_Turn(classes, kinds, tuple(classes == k for k in kinds), classes > 0,
                         classes[:, None] == classes[None, :], (np.bincount(classes) / len(classes))[classes]))
    return tuple(out)


def _median_rows(values: np.ndarray) -> np.ndarray:
    """Each column's median of ``values`` (n, k), as :func:`np.median` ``axis=0`` gives it (the
    middle value, or the mean of the two middle ones in ``values``' own type), without its overhead.

    >>> values = np.array([[3, 1], [1, 2], [2, 8], [9, 4]], np.float32)
    >>> bool((_median_rows(values) == np.median(values, axis=0)).all()), bool((_median_rows(values[:3]) == np.median(values[:3], axis=0)).all())
    (True, True)
    """
    ordered = np.sort(values, axis=0)
    half = len(ordered) // 2
    return ordered[half] if len(ordered) % 2 else (ordered[half - 1] + ordered[half]) / 2


def _pattern(top: np.ndarray, layout: np.ndarray) -> float:
    """How well the squares' colours follow ``layout`` (best of its four turns): the share of
    premium squares whose colour is nearer their own class's typical colour than any other's,
    the squares that look covered by a tile left out (:func:`_tile_like`)."""
    rows, cols = layout.shape
    means = cv2.resize(top, (cols + 2 * PAD, rows + 2 * PAD), interpolation=cv2.INTER_AREA)[PAD:-PAD, PAD:-PAD]
    b, g, r = (means.reshape(-1, 3).astype(np.float32) / 255.0).T
    # brightness (weighed down: light and shade vary it) and two colour-opponent axes
    small = np.stack([0.5 * (b + g + r) / 3, r - g, (r + g) / 2 - b], 1)
    squared = (small * small).sum(1)
    apart = np.sqrt(np.maximum(squared[:, None] + squared[None] - 2 * small @ small.T, 0))
    best = 0.0
    for turn in _turns(np.ascontiguousarray(layout, np.int64).tobytes(), rows, cols):
        classes, kinds, premium = turn.classes, turn.kinds, turn.premium
        typical = np.array([_median_rows(small[members]) for members in turn.members])
        use = ~_tile_like(apart, turn, typical)
        if (use & premium).sum() < max(4, 0.25 * premium.sum()):
            use[:] = True                                        # no colour of a class's own: all squares
        typical = np.array([_median_rows(small[members & use]) if (members & use).any()
                            else typical[i] for i, members in enumerate(turn.members)])
        dist = np.linalg.norm(small[:, None, :] - typical[None], axis=2)
        nearest = kinds[dist.argmin(1)]
        scored = premium & use
        right = float((nearest[scored] == classes[scored]).sum())
        best = max(best, right / max(scored.sum(), (1 - COVERED_AT_MOST) * premium.sum()))
    return best


def _tile_like(apart: np.ndarray, turn: _Turn, typical: np.ndarray) -> np.ndarray:
    """The squares whose colour is found as often in every class as chance has it: a tile's
    colour (tiles lie on plain and premium squares alike), where a square's own colour is
    shared with its class only. ``apart``: the squares' colour distances; ``turn``: the layout's
    classes; ``typical``: the classes' typical colours (the first the plain squares')."""
    gaps = np.linalg.norm(typical[1:] - typical[0], axis=1)
    radius = max(0.03, 0.4 * float(np.median(gaps))) if len(gaps) else 0.03
    near = apart < radius
    np.fill_diagonal(near, False)
    count = near.sum(1)
    other = (near & ~turn.same).sum(1) / np.maximum(count, 1)
    return (count >= 3) & (other > 0.5 * (1 - turn.share))
