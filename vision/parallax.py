"""Where raised tiles' faces are in a top-down image of the board: the camera's pose, from the grid.

A tile stands a few millimetres proud of its square, so in an oblique photo its face is nearer the
camera than the board and, warped top-down through the board's plane, lands off its square: the
more the nearer the camera and the more oblique the view, each square by its own amount. No single
shift fits a whole board.

The board's homography (its squares to the photo's pixels) is a pinhole camera looking at a
plane: ``K [r1 r2 t]`` up to scale, with ``K`` the camera's focal length ``f`` round the photo's
middle. The two columns ``r1``, ``r2`` must be perpendicular and of one length, which gives ``f``
(when the view is too straight to tell, a phone's usual ``f``); then the camera's rotation and
place follow, and a point ``height`` squares above the board (toward the camera) can be projected
and warped back top-down. :class:`RaisedFaces` does that for every square's middle at once;
the tile reader (:mod:`vision.tiles`) tries a few heights and keeps the one where its network
reads the tiles surest.

>>> import numpy as np
>>> k = np.array([[1000.0, 0, 640], [0, 1000.0, 480], [0, 0, 1]])     # a camera 40 squares straight
>>> squares_to_photo = k @ np.array([[1.0, 0, -7.5], [0, 1, -7.5], [0, 0, 40]])   # over the middle
>>> off = RaisedFaces(squares_to_photo, (960, 1280), 15, 15, squares_to_top=np.eye(3)).offsets(0.4)
>>> bool(abs(off[7 * 15 + 7]).max() < 0.01), bool(off[0, 0] < -0.05 < 0.05 < off[-1, 0])   # they spread out
(True, True)
"""

from __future__ import annotations

import numpy as np

#: when the view is too straight for the grid to tell the focal length, this share of the photo's
#: longer side is taken (a phone's main camera, about 26 mm equivalent)
USUAL_FOCAL = 0.85
#: focal lengths outside these shares of the photo's longer side are not believed
FOCAL_RANGE = (0.45, 3.0)


def focal_length(squares_to_photo: np.ndarray, size: tuple[int, int]) -> float:
    """The focal length (pixels) that makes the board's homography a rotation, with the principal
    point in the photo's middle (``size`` is the photo's (height, width)); :data:`USUAL_FOCAL` of
    the longer side when the view is too straight to tell.

    >>> focal_length(np.eye(3), (960, 1280))          # straight down: not told by the grid
    1088.0
    """
    told = told_focal_length(squares_to_photo, size)
    return USUAL_FOCAL * float(max(size)) if told is None else told


def told_focal_length(squares_to_photo: np.ndarray, size: tuple[int, int]) -> float | None:
    """The focal length (pixels) the board's homography tells (see :func:`focal_length`), or
    None when the view is too straight to tell (or the photo was already warped top-down).

    >>> told_focal_length(np.eye(3), (960, 1280)) is None
    True
    """
    h, w = size
    g = np.array([[1, 0, -w / 2], [0, 1, -h / 2], [0, 0, 1]]) @ np.asarray(squares_to_photo, np.float64)
    g = g / np.abs(g).max()
    a1 = g[0, 0] * g[0, 1] + g[1, 0] * g[1, 1]
    b1 = g[2, 0] * g[2, 1]
    a2 = g[0, 0] ** 2 + g[1, 0] ** 2 - g[0, 1] ** 2 - g[1, 1] ** 2
    b2 = g[2, 0] ** 2 - g[2, 1] ** 2
    longer = float(max(h, w))
    denominator = a1 * a1 + a2 * a2
    if denominator <= 0:
        return None
    inverse_square = -(a1 * b1 + a2 * b2) / denominator          # 1 / f**2, least squares of both
    if inverse_square <= 0:
        return None
    f = float(inverse_square ** -0.5)
    low, high = FOCAL_RANGE
    return f if low * longer <= f <= high * longer else None


class RaisedFaces:
    """Where each square's middle, raised toward the camera, lands in the top-down image.

    ``squares_to_photo`` maps board squares (x right, y down, the grid's top-left corner at 0) to
    the photo's pixels, ``size`` is the photo's (height, width), and ``squares_to_top`` maps
    squares to the top-down image the offsets are wanted in (identity: in squares).
    """

    def __init__(self, squares_to_photo: np.ndarray, size: tuple[int, int], rows: int, cols: int,
                 squares_to_top: np.ndarray):
        h, w = size
        told = told_focal_length(squares_to_photo, size)
        #: whether the grid told the camera (False: a straight view, or a photo warped top-down)
        self.told = told is not None
        self.f = USUAL_FOCAL * float(max(h, w)) if told is None else told
        self.principal = np.array([w / 2, h / 2])
        g = np.array([[1, 0, -w / 2], [0, 1, -h / 2], [0, 0, 1]]) @ np.asarray(squares_to_photo, np.float64)
        m = np.diag([1 / self.f, 1 / self.f, 1.0]) @ g
        scale = 2.0 / (np.linalg.norm(m[:, 0]) + np.linalg.norm(m[:, 1]))
        r1, r2, t = m[:, 0] * scale, m[:, 1] * scale, m[:, 2] * scale
        if t[2] < 0:                                  # the board is in front of the camera
            r1, r2, t = -r1, -r2, -t
        normal = np.cross(r1, r2)
        normal /= np.linalg.norm(normal)
        self.up = normal if float(normal @ t) < 0 else -normal       # from the board toward the camera
        self.r1, self.r2, self.t = r1, r2, t
        xs, ys = np.meshgrid(np.arange(cols) + 0.5, np.arange(rows) + 0.5)
        self.middles = np.stack([xs.ravel(), ys.ravel()], 1)
        self.squares_to_top = np.asarray(squares_to_top, np.float64)
        self.photo_to_top = self.squares_to_top @ np.linalg.inv(np.asarray(squares_to_photo, np.float64))
        self.flat = self._to_top(self._photo(0.0))

    def _photo(self, height: float) -> np.ndarray:
        """Every square's middle ``height`` squares above the board, in photo pixels."""
        cam = self.middles[:, :1] * self.r1 + self.middles[:, 1:] * self.r2 + height * self.up + self.t
        return self.f * cam[:, :2] / np.maximum(cam[:, 2:], 1e-6) + self.principal

    def _to_top(self, points: np.ndarray) -> np.ndarray:
        p = np.hstack([points, np.ones((len(points), 1))]) @ self.photo_to_top.T
        return p[:, :2] / p[:, 2:]

    def offsets(self, height: float) -> np.ndarray:
        """(squares, 2): how far each square's raised middle lies from its flat middle, top-down."""
        return self._to_top(self._photo(height)) - self.flat


__all__ = ["RaisedFaces", "focal_length", "told_focal_length", "USUAL_FOCAL"]
