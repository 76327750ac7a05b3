"""Synthetic photos of letter dice on a table (tests and the benchmark only).

Each die is a coloured square with its printed label (:func:`vision.dicelabels.label_image`, the
face of die ``k`` for the ``k``-th face given) stuck on top, a little off centre and askew,
placed anywhere, turned any way (some touching when asked), on a wood-like table; the photo is
taken in perspective, with light falling off to one side, a glare spot, blur and noise, and
optionally a hand (a skin-coloured blob) over part of the table.

>>> dice_scene(("A", "B"), seed=1).shape
(960, 1280, 3)
"""

from __future__ import annotations

from typing import Callable

import cv2
import numpy as np

from vision.synth.camera import camera_finish


def dice_scene(faces: tuple[str, ...], *, seed: int = 0, size: tuple[int, int] = (1280, 960), tilt_deg: float = 35.0,
               hand: bool = False, touching: bool = False, moving: bool = False,
               labels: Callable[[str, int, int], np.ndarray] | None = None) -> np.ndarray:
    """A BGR photo of dice showing ``faces`` (die ``k`` shows ``faces[k]``); see the module
    docstring. ``moving`` smears the dice as a roll still tumbling would; ``labels(face, die,
    side)`` gives a label's grey picture (default :func:`vision.dicelabels.label_image`; the
    benchmark cuts them out of the printed sheet instead)."""
    from vision.dicelabels import label_image

    labels = labels or label_image

    rng = np.random.default_rng(seed)
    table_w, table_h = 1600, 1200
    wood = (np.array([70, 110, 160]) + rng.normal(0, 6, 3)).astype(np.float32)
    grain = (np.sin(np.linspace(0, rng.uniform(30, 60), table_w)) * 8).astype(np.float32)
    table = 3 * rng.standard_normal((table_h, table_w, 1), dtype=np.float32) + grain[None, :, None]
    table = table + wood
    die_px = int(rng.uniform(75, 150))
    placed: list[tuple[float, float]] = []
    for k, face in enumerate(faces):
        for _ in range(200):
            if touching and placed and k % 2 == 1:
                px, py = placed[-1]
                angle = rng.uniform(0, 2 * np.pi)
                cx, cy = px + np.cos(angle) * die_px * 1.2, py + np.sin(angle) * die_px * 1.2
            else:
                cx, cy = rng.uniform(die_px, table_w - die_px), rng.uniform(die_px, table_h - die_px)
            if all(np.hypot(cx - x, cy - y) > die_px * 1.18 for x, y in placed) and \
                    die_px < cx < table_w - die_px and die_px < cy < table_h - die_px:
                break
        placed.append((cx, cy))
        colour = np.array(rng.choice([[235, 235, 235], [60, 60, 200], [200, 120, 40], [60, 160, 60], [30, 30, 30],
                                      [90, 140, 190]]), np.float32)
        side = int(die_px * rng.uniform(0.72, 0.84))
        label = cv2.cvtColor(labels(face, k, side), cv2.COLOR_GRAY2BGR).astype(np.float32)
        label *= np.array([rng.uniform(0.9, 1.0), rng.uniform(0.93, 1.0), 1.0], np.float32)   # paper's tint
        body = np.full((die_px, die_px, 3), colour, np.float32)
        stick = cv2.getRotationMatrix2D((side / 2, side / 2), rng.uniform(-6, 6), 1.0)
        stick[:, 2] = stick[:, 2] + (die_px - side) / 2 + rng.uniform(-0.04, 0.04, 2) * die_px
        paper = cv2.warpAffine(np.ones((side, side), np.float32), stick, (die_px, die_px))[..., None]
        body = body * (1 - paper) + cv2.warpAffine(label, stick, (die_px, die_px)) * paper
        angle = rng.uniform(0, 360)
        # drawn in a window round the die only (the table is large; the die is not)
        x0, y0 = int(cx - die_px), int(cy - die_px)
        win = (2 * die_px, 2 * die_px)
        rot = cv2.getRotationMatrix2D((die_px / 2, die_px / 2), angle, 1.0)
        rot[:, 2] += (cx - x0 - die_px / 2, cy - y0 - die_px / 2)
        mask = cv2.warpAffine(np.ones((die_px, die_px), np.float32), rot, win)
        layer = cv2.warpAffine(body, rot, win)
        if moving:                                   # a tumbling die: smeared along its path
            streak = np.zeros((31, 31), np.float32)
            cv2.line(streak, (15, 15), (15 + int(14 * np.cos(angle)), 15 + int(14 * np.sin(angle))), 1.0, 2)
            streak /= streak.sum()
            mask, layer = cv2.filter2D(mask, -1, streak), cv2.filter2D(layer, -1, streak)
        shadow = cv2.GaussianBlur(cv2.warpAffine(np.ones((die_px, die_px), np.float32), rot + [[0, 0, 8], [0, 0, 8]],
                                                 win), (0, 0), 6)
        patch = table[y0:y0 + win[1], x0:x0 + win[0]]
        patch *= (1 - 0.35 * shadow)[..., None]
        patch[:] = patch * (1 - mask[..., None]) + layer * mask[..., None]
    if hand:
        cx, cy = placed[int(rng.integers(len(placed)))]
        skin = np.array([120, 150, 200], np.float32)
        blob = np.zeros((table_h, table_w), np.float32)
        cv2.ellipse(blob, (int(cx), int(cy)), (die_px * 2, die_px), float(rng.uniform(0, 180)), 0, 360, 1.0, -1)
        cv2.rectangle(blob, (int(cx), int(cy) - die_px // 2), (table_w, int(cy) + die_px // 2), 1.0, -1)
        blob = np.asarray(cv2.GaussianBlur(blob, (0, 0), 4), np.float32)
        table = table * (1 - blob[..., None]) + skin * blob[..., None]
    w, h = size
    t = np.radians(tilt_deg * rng.uniform(0.5, 1.0))
    shrink = 0.5 * np.sin(t) * rng.uniform(0.3, 0.9)
    src = np.array([(0, 0), (table_w, 0), (table_w, table_h), (0, table_h)], np.float32)
    margin_x, margin_y = w * 0.04, h * 0.04
    dst = np.array([(margin_x + w * shrink * 0.5, margin_y), (w - margin_x - w * shrink * 0.5, margin_y),
                    (w - margin_x, h - margin_y), (margin_x, h - margin_y)], np.float32)
    dst += rng.normal(0, w * 0.01, dst.shape).astype(np.float32)
    photo = cv2.warpPerspective(table, cv2.getPerspectiveTransform(src, dst), (w, h), borderValue=(50, 60, 70))
    return camera_finish(photo, rng)
