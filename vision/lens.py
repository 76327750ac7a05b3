"""A phone lens's radial distortion: one coefficient about the photo's middle.

A phone lens bends straight lines: a barrel (``k > 0``) shows things far from the photo's middle
drawn in toward it (a board's sides bulge out, its corners come in), a pincushion (``k < 0``)
pushes them out (the sides sag in, the corners reach out). One coefficient about the photo's
middle describes most of it: a point seen at ``d`` (from the photo's middle, in half-diagonals)
is where a lens without distortion would have put ``d * (1 + k * |d|^2)``. :mod:`vision.gridfind` fits ``k`` with a board's grid
(its lines straighten) and reports the grid through it; :mod:`vision.synth.gridscene` draws
its ``lens`` photos with the same model.

>>> lens = Lens(-0.08, 2048, 1536)                      # a pincushion: the corners reach out
>>> seen = lens.distort(np.array([[100.0, 80.0], [1024.0, 768.0]]))
>>> seen.round(1).tolist()
[[24.1, 23.5], [1024.0, 768.0]]
>>> bool(np.abs(lens.undistort(seen) - [[100, 80], [1024, 768]]).max() < 1e-6)
True
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np


#: where :func:`warp` looks for the points a lens sends out of sight (far outside any photo: its
#: ``border``), instead of the NaN :meth:`Lens.distort` gives them
OUT_OF_SIGHT = -1.0e6


@dataclass(frozen=True)
class Lens:
    """Radial distortion ``k`` of a ``width`` x ``height`` photo (0: none, > 0 barrel, < 0 pincushion)."""

    k: float
    width: int
    height: int

    @property
    def _middle(self) -> np.ndarray:
        return np.array([self.width / 2, self.height / 2])

    @property
    def _radius(self) -> float:
        return float(np.hypot(self.width, self.height) / 2)

    def undistort(self, points: np.ndarray) -> np.ndarray:
        """Where points seen in the photo (n, 2) would be without the distortion."""
        d = (np.asarray(points, np.float64) - self._middle) / self._radius
        return self._middle + d * (1 + self.k * (d * d).sum(-1, keepdims=True)) * self._radius

    @property
    def reach(self) -> float:
        """How far from the photo's middle (in half-diagonals) the undistorted view goes: a
        pincushion (``k < 0``) pushes points out only up to ``d = 1 / sqrt(-3k)``, where
        ``d * (1 + k * d^2)`` is largest, and no point of the photo is seen beyond that in the
        undistorted view (infinite for a barrel or none).

        >>> round(Lens(-0.1, 800, 600).reach, 3), Lens(0.05, 800, 600).reach
        (1.217, inf)
        """
        return float("inf") if self.k >= 0 else float(2 / 3 / np.sqrt(-3 * self.k))

    def distort(self, points: np.ndarray) -> np.ndarray:
        """Where points (n, 2) of the undistorted view are seen in the photo; NaN for those beyond
        the lens's :attr:`reach` (no point of the photo is seen there: the lens would send them
        to infinity).

        >>> Lens(-0.1, 800, 600).distort(np.array([[400.0, 300.0], [400.0 + 800, 300.0]])).tolist()
        [[400.0, 300.0], [nan, nan]]
        """
        u = (np.asarray(points, np.float64) - self._middle) / self._radius
        rho = np.sqrt((u * u).sum(-1, keepdims=True))
        beyond = rho > self.reach
        rho = np.where(beyond, 0.0, rho)
        r = rho.copy()
        for _ in range(8):                                   # r (1 + k r^2) = rho, by Newton's steps
            r = r - (r + self.k * r ** 3 - rho) / np.maximum(1 + 3 * self.k * r * r, 0.1)
        seen = self._middle + u * np.where(rho > 0, r / np.maximum(rho, 1e-300), 1.0) * self._radius
        return np.where(beyond, np.nan, seen)


def warp(image: np.ndarray, homography: np.ndarray, size: tuple[int, int], lens: Lens | None = None,
         border: int = cv2.BORDER_CONSTANT, interpolation: int = cv2.INTER_LINEAR) -> np.ndarray:
    """``image`` warped by ``homography`` (from the undistorted view) to ``size`` (width, height),
    through ``lens``: each pixel of the result shows where the lens put the point the homography
    sends there (``border``: OpenCV's border mode beyond ``image``; ``interpolation``: how a pixel
    is resampled, an OpenCV ``INTER_*`` flag); a point beyond the lens's :attr:`Lens.reach` is
    beyond ``image`` too. Without a lens (or ``k`` 0), :func:`cv2.warpPerspective` itself.

    >>> img = np.arange(100, dtype=np.uint8).reshape(10, 10)
    >>> same = warp(img, np.eye(3), (10, 10), Lens(0.0, 10, 10))
    >>> bool((same == cv2.warpPerspective(img, np.eye(3), (10, 10))).all())
    True
    """
    if lens is None or lens.k == 0:
        return cv2.warpPerspective(image, homography, size, flags=interpolation, borderMode=border)
    w, h = size
    step = 4                                                  # the map is smooth: worked out every 4 pixels
    ys, xs = np.mgrid[0:h + step:step, 0:w + step:step].astype(np.float64)
    at = cv2.perspectiveTransform(np.stack([xs, ys], -1).reshape(-1, 1, 2), np.linalg.inv(homography)).reshape(-1, 2)
    coarse = lens.distort(at)
    coarse[~np.isfinite(coarse)] = OUT_OF_SIGHT                # beyond the lens's reach: nothing seen there
    coarse = coarse.astype(np.float32).reshape(xs.shape + (2,))
    big = cv2.resize(coarse, (coarse.shape[1] * step, coarse.shape[0] * step), interpolation=cv2.INTER_LINEAR)
    half = step // 2 - 0.5                                    # resize puts coarse point j at pixel j*step + half
    shift = np.array([[1, 0, -half], [0, 1, -half]], np.float32)
    seen = cv2.warpAffine(big, shift, (w, h), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
    return cv2.remap(image, seen[..., 0], seen[..., 1], interpolation, borderMode=border)


__all__ = ["Lens", "warp"]
