"""Calibration for boards printed without markers (a commercial board): stick ArUco markers
(``DICT_4X4_50``, any of ids 0-3) near the board, photograph it once, and record where each
marker lies relative to the grid. Later reads find the grid through those markers.

The grid is located in the calibration photo by its outline (or by four corners you give).

>>> import numpy as np
>>> cal = {"rows": 2, "cols": 2, "markers": {"0": [[-3, -3], [-1, -3], [-1, -1], [-3, -1]]}}
>>> marker_corners(cal)[0].shape
(4, 2)
"""

from __future__ import annotations

import json
import pathlib

import cv2
import numpy as np

from vision.errors import BoardNotFound
from vision.locate import check_frame, detect_markers, find_outline, order_corners


def calibrate(frame: np.ndarray, rows: int, cols: int, corners: np.ndarray | None = None) -> dict:
    """A calibration record ``{"rows", "cols", "markers": {id: 4 corners in cell units}}``.

    ``corners``: the grid's four outer corners in the photo (any order); found automatically
    from the grid's outline when omitted.
    """
    frame = check_frame(frame)
    gray = cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY)
    if corners is None:
        corners = find_outline(gray)
        if corners is None:
            raise BoardNotFound("the grid's outline is not visible; give its four corners")
    corners = order_corners(np.asarray(corners, np.float64).reshape(4, 2))
    grid = np.array([(0, 0), (cols, 0), (cols, rows), (0, rows)], np.float32)
    to_cells = cv2.getPerspectiveTransform(corners.astype(np.float32), grid)
    markers = {i: c for i, c in detect_markers(gray).items() if i in (0, 1, 2, 3)}
    if len(markers) < 3:
        raise BoardNotFound(f"{len(markers)} of 4 markers visible; stick at least 3 (ids 0-3) around the board")
    cells = {str(i): cv2.perspectiveTransform(c.reshape(-1, 1, 2), to_cells).reshape(4, 2).round(4).tolist()
             for i, c in sorted(markers.items())}
    return {"rows": rows, "cols": cols, "markers": cells, "grid_corners_px": corners.round(2).tolist()}


def marker_corners(calibration: dict) -> dict[int, np.ndarray]:
    """The calibration's markers as ``locate(marker_corners=...)`` wants them."""
    return {int(k): np.asarray(v, np.float64) for k, v in calibration["markers"].items()}


def save(calibration: dict, path: str | pathlib.Path) -> None:
    pathlib.Path(path).write_text(json.dumps(calibration, indent=1) + "\n", encoding="utf-8")


def load(path: str | pathlib.Path) -> dict:
    data = json.loads(pathlib.Path(path).read_text(encoding="utf-8"))
    if not isinstance(data, dict) or "markers" not in data or "rows" not in data:
        raise ValueError(f"{path} is not a calibration file (no 'markers')")
    return data
