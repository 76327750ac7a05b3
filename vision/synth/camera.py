"""What a camera does to a picture of the table (tests and benchmarks only): light falling off
to one side, a glare spot, blur, sensor noise and JPEG compression, each drawn from ``rng``.

>>> import numpy as np
>>> shot = camera_finish(np.full((48, 64, 3), 200, np.float32), np.random.default_rng(1))
>>> shot.shape, shot.dtype
((48, 64, 3), dtype('uint8'))
"""

from __future__ import annotations

import cv2
import numpy as np


def camera_finish(photo: np.ndarray, rng: np.random.Generator, *, dim: float = 0.3,
                  glare_radius: tuple[float, float] = (0.05, 0.12), glare: tuple[float, float] = (30, 80),
                  blur: tuple[float, float] = (0.5, 1.3), jpeg: tuple[int, int] = (55, 92)) -> np.ndarray:
    """``photo`` (float BGR, already in perspective) as a camera gives it back (uint8): the far
    side up to ``dim`` darker, a glare spot (radius a share of the width, brightness in grey
    levels), a Gaussian blur (sigma in pixels), noise of 3 grey levels, JPEG at a quality in
    ``jpeg``."""
    h, w = photo.shape[:2]
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    photo = photo * (1 - dim + dim * (xx / w if rng.random() < 0.5 else 1 - xx / w))[..., None]
    gx, gy, gr = rng.uniform(0.2, 0.8) * w, rng.uniform(0.2, 0.8) * h, rng.uniform(*glare_radius) * w
    photo += rng.uniform(*glare) * np.exp(-((xx - gx) ** 2 + (yy - gy) ** 2) / (2 * gr * gr))[..., None]
    blurred = np.asarray(cv2.GaussianBlur(photo.astype(np.float32), (0, 0), rng.uniform(*blur)), np.float32)
    shot = np.clip(blurred + 3 * rng.standard_normal(blurred.shape, dtype=np.float32), 0, 255).astype(np.uint8)
    ok, data = cv2.imencode(".jpg", shot, [cv2.IMWRITE_JPEG_QUALITY, int(rng.integers(*jpeg))])
    return np.asarray(cv2.imdecode(data, cv2.IMREAD_COLOR)) if ok else shot
