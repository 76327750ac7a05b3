"""Synthetic marker handwriting: jittered stroke skeletons rendered as thick, soft strokes.

Everything draws *ink maps*: float32 images in [0, 1], 1 = full ink. The same rendering turns
any pen trajectory (ours, or recorded real strokes) into marker-like ink.

>>> rng = np.random.default_rng(0)
>>> ink = render_letter("A", 40, rng)
>>> ink.shape, ink.dtype, bool(0.02 < ink.mean() < 0.5)
((40, 40), dtype('float32'), True)
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from vision.synth.strokefont import GLYPHS, WIDTHS


def _smooth(points: np.ndarray, passes: int = 2) -> np.ndarray:
    """Chaikin corner cutting: rounds corners the way a quick hand does."""
    for _ in range(passes):
        if len(points) < 3:
            return points
        q = 0.75 * points[:-1] + 0.25 * points[1:]
        r = 0.25 * points[:-1] + 0.75 * points[1:]
        inner = np.empty((2 * len(q), 2))
        inner[0::2], inner[1::2] = q, r
        points = np.vstack([points[:1], inner, points[-1:]])
    return points


def jitter_glyph(letter: str, rng: np.random.Generator, amount: float = 1.0) -> list[np.ndarray]:
    """One random handwritten instance of ``letter`` as strokes in (roughly) the unit box.

    On top of the chosen allograph: one global slant/rotation/aspect, a smooth warp of the key
    points, bowed straight segments, strokes that miss each other a little, sometimes strokes
    joined without lifting the pen, tremor, over/undershoot at the ends and rounded corners."""
    variants = GLYPHS[letter]
    strokes = [np.asarray(s, dtype=np.float64) for s in variants[rng.integers(len(variants))]]
    # one global affine: slant, rotation, aspect
    shear = rng.normal(0, 0.18 * amount)
    if rng.random() < 0.15:  # a writer with a strong forward slant
        shear = rng.normal(-0.4, 0.12)
    rot = np.radians(rng.normal(0, 6 * amount))
    sx = WIDTHS[letter] * np.exp(rng.normal(-0.1, 0.25 * amount))
    affine = np.array([[np.cos(rot), -np.sin(rot)], [np.sin(rot), np.cos(rot)]]) @ np.array([[sx, shear], [0, 1]])
    # a smooth random warp of the letter's key points (so shared corners move together)
    warp = rng.normal(0, 0.07 * amount, (3, 3, 2))
    joined = [strokes[0]]
    for s in strokes[1:]:  # sometimes the pen is not lifted between two strokes
        if rng.random() < 0.15 * amount:
            joined[-1] = np.vstack([joined[-1], s])
        else:
            joined.append(s)
    strokes = joined
    out = []
    for p in strokes:
        u, v = np.clip(p[:, 0], 0, 1), np.clip(p[:, 1], 0, 1)
        wu = np.stack([(1 - u) ** 2, 2 * u * (1 - u), u ** 2], 1)
        wv = np.stack([(1 - v) ** 2, 2 * v * (1 - v), v ** 2], 1)
        p = p + np.einsum("ni,nj,ijk->nk", wv, wu, warp)
        p = _bow(p, rng, 0.08 * amount * (0.3 if letter == "D" else 1.0))  # a bowed D is an O
        if len(strokes) > 1:
            p = p + rng.normal(0, 0.025 * amount, 2)  # strokes that do not quite meet
        p = p + rng.normal(0, 0.018 * amount, p.shape)  # per point tremor
        if len(p) >= 2 and rng.random() < 0.5:  # over/undershoot the ends
            for end, nxt in ((0, 1), (-1, -2)):
                d = p[end] - p[nxt]
                n = np.linalg.norm(d)
                if n > 1e-6:
                    p[end] = p[end] + d / n * rng.normal(0.0, 0.05 * amount)
        p = _smooth(_densify(p), 1 + int(rng.integers(3)))
        out.append((p - 0.5) @ affine.T + 0.5)
    return out


def _bow(p: np.ndarray, rng: np.random.Generator, amount: float) -> np.ndarray:
    """Bend each long straight segment sideways through its midpoint: a hand rarely draws a
    ruler-straight line."""
    pts = [p[0]]
    for a, b in zip(p[:-1], p[1:]):
        d = b - a
        n = float(np.hypot(*d))
        if n > 0.25:
            normal = np.array([-d[1], d[0]]) / n
            pts.append((a + b) / 2 + normal * n * rng.normal(0, amount))
        pts.append(b)
    return np.array(pts)


def _densify(p: np.ndarray, step: float = 0.12) -> np.ndarray:
    pts = [p[0]]
    for a, b in zip(p[:-1], p[1:]):
        n = max(1, int(np.linalg.norm(b - a) / step))
        pts.extend(a + (b - a) * (k / n) for k in range(1, n + 1))
    return np.array(pts)


def draw_strokes(strokes: list[np.ndarray], size: int | tuple[int, int], box: tuple[float, float, float, float],
                 thickness: float, canvas: np.ndarray | None = None) -> np.ndarray:
    """Draw strokes (fitted so their bounding box fills ``box`` = x0, y0, x1, y1 in pixels,
    aspect kept) into an ink map of ``size``; ``thickness`` in pixels."""
    h, w = (size, size) if isinstance(size, int) else size
    if canvas is None:
        canvas = np.zeros((h, w), np.float32)
    allp = np.vstack(strokes)
    lo, hi = allp.min(0), allp.max(0)
    span = np.maximum(hi - lo, 1e-6)
    x0, y0, x1, y1 = box
    scale = min((x1 - x0) / span[0], (y1 - y0) / span[1])
    centre = np.array([(x0 + x1) / 2, (y0 + y1) / 2])
    shift = 4  # sub-pixel precision bits
    layer = np.zeros((h, w), np.uint8)
    for s in strokes:
        q = ((s - (lo + hi) / 2) * scale + centre) * (1 << shift)
        q = np.round(q).astype(np.int32).reshape(-1, 1, 2)
        if len(q) == 1:
            q = np.vstack([q, q + 1])
        cv2.polylines(layer, [q], False, 255, max(1, int(round(thickness))), cv2.LINE_AA, shift)
    np.maximum(canvas, layer.astype(np.float32) / 255.0, out=canvas)
    return canvas


@dataclass(frozen=True)
class Hand:
    """How large and how thick a writer's letters are, as shares of the square's side (each a
    range drawn from uniformly)."""

    height: tuple[float, float] = (0.55, 0.9)
    width: tuple[float, float] = (0.45, 0.85)
    thickness: tuple[float, float] = (0.05, 0.14)


#: Marker letters as players write them: what the scene simulator draws.
TABLE_HAND = Hand()
#: Wider for training the letter model: from 40 % of the square to all of it, from a fine pen to
#: a broad marker, so that a letter pasted to fill its square's box in someone else's picture
#: is nothing new to the model (letters filling the square read 3.5 points worse before).
TRAINING_HAND = Hand(height=(0.4, 1.0), width=(0.35, 0.95), thickness=(0.03, 0.14))


def letter_box(size: int, rng: np.random.Generator, hand: Hand = TABLE_HAND) -> tuple[float, float, float, float]:
    """Where a writer puts a letter in a ``size``-pixel square: ``hand.height`` of it (55-90 %
    at the table), a little off-centre.

    >>> x0, y0, x1, y1 = letter_box(100, np.random.default_rng(1))
    >>> 55 <= y1 - y0 <= 90
    True
    """
    hgt = size * rng.uniform(*hand.height)
    wid = size * rng.uniform(*hand.width)
    cx = size / 2 + rng.normal(0, size * 0.05)
    cy = size / 2 + rng.normal(0, size * 0.05)
    return cx - wid / 2, cy - hgt / 2, cx + wid / 2, cy + hgt / 2


def render_letter(letter: str, size: int, rng: np.random.Generator, thickness: float | None = None,
                  amount: float = 1.0, hand: Hand = TABLE_HAND) -> np.ndarray:
    """An ink map of one synthetic handwritten ``letter`` in a ``size`` x ``size`` square;
    ``amount`` scales how much the hand wanders from the skeleton, ``hand`` how large and
    thick it writes."""
    if thickness is None:
        thickness = size * rng.uniform(*hand.thickness)
    return draw_strokes(jitter_glyph(letter, rng, amount), size, letter_box(size, rng, hand), thickness)
