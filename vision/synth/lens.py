"""A lens and a sensor unlike :mod:`vision.synth.camera`'s (for the solid-scene renderers
:mod:`vision.synth.dice3d` and :mod:`vision.synth.chips3d`): defocus as a disc, camera shake as
a streak, light falling off towards the corners, noise and JPEG."""

from __future__ import annotations

import cv2
import numpy as np


def lens_finish(image: np.ndarray, rng: np.random.Generator, defocus: float, shake: float) -> np.ndarray:
    """The lens and the sensor: a disc blur of radius ``defocus`` pixels, a streak ``shake``
    pixels long, light falling off towards the corners, noise, JPEG."""
    h, w = image.shape[:2]
    if defocus > 0.3:
        r = defocus * 4
        size = int(np.ceil(defocus)) * 2 + 1
        disc = np.zeros((size * 4, size * 4), np.float32)
        cv2.circle(disc, (size * 2, size * 2), int(r * 4), 1.0, -1, cv2.LINE_AA)
        kernel = cv2.resize(disc, (size, size), interpolation=cv2.INTER_AREA)
        image = cv2.filter2D(image, -1, kernel / kernel.sum())
    if shake > 0.3:
        size = int(np.ceil(shake)) * 2 + 1
        streak = np.zeros((size * 4, size * 4), np.float32)
        a = rng.uniform(0, np.pi)
        d = np.array([np.cos(a), np.sin(a)]) * shake * 2
        c = np.array([size * 2, size * 2])
        cv2.line(streak, tuple(np.round(c - d).astype(int)), tuple(np.round(c + d).astype(int)), 1.0, 2, cv2.LINE_AA)
        kernel = cv2.resize(streak, (size, size), interpolation=cv2.INTER_AREA)
        image = cv2.filter2D(image, -1, kernel / kernel.sum())
    yy, xx = np.ogrid[0:h, 0:w]
    yy, xx = yy.astype(np.float32), xx.astype(np.float32)
    falloff = 1 - rng.uniform(0.1, 0.35) * (((xx - w / 2) / w) ** 2 + ((yy - h / 2) / h) ** 2) * 2
    image = image * falloff[..., None] * rng.uniform(0.8, 1.15)
    image = np.clip(image + 2.5 * rng.standard_normal(image.shape, dtype=np.float32), 0, 255).astype(np.uint8)
    ok, data = cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, int(rng.integers(60, 93))])
    return np.asarray(cv2.imdecode(data, cv2.IMREAD_COLOR)) if ok else image
