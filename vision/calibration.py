"""Calibration for boards printed without markers (a commercial board): stick ArUco markers
(``DICT_4X4_50``, any of ids 0-3) near the board, photograph it once, and record where each
marker lies relative to the grid. Later reads find the grid through those markers.

The grid is located in the calibration photo by its outline (or by four corners you give). An
outline is taken only where the board's grid lines are seen inside it: the paper's edge or a
table's edge is refused, and the error says to give the corners (``--corners``).

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
from vision.locate import MARGIN, FrameSampler, check_frame, detect_markers, grid_line_score, order_corners, outline_candidates

#: how clearly the grid lines must show inside an outline for it to be taken as the grid
MIN_LINE_SCORE = 0.02


def calibrate(frame: np.ndarray, rows: int, cols: int, corners: np.ndarray | None = None) -> dict:
    """A calibration record ``{"rows", "cols", "markers": {id: 4 corners in cell units}}``.

    ``corners``: the grid's four outer corners in the photo (any order); found automatically
    from the grid's outline when omitted.
    """
    frame = check_frame(frame)
    gray = cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY)
    if corners is None:
        corners = grid_outline(gray, rows, cols)
        if corners is None:
            raise BoardNotFound(f"no outline in the photo has the {rows}x{cols} grid's lines inside it (the paper's "
                                f"or the table's edge is not the grid); give the grid's four corners, top-left "
                                f"first, clockwise: --corners X,Y X,Y X,Y X,Y")
    corners = order_corners(np.asarray(corners, np.float64).reshape(4, 2))
    grid = np.array([(0, 0), (cols, 0), (cols, rows), (0, rows)], np.float32)
    to_cells = cv2.getPerspectiveTransform(corners.astype(np.float32), grid)
    markers = {i: c for i, c in detect_markers(gray).items() if i in (0, 1, 2, 3)}
    if len(markers) < 3:
        raise BoardNotFound(f"{len(markers)} of 4 markers visible; stick at least 3 (ids 0-3) around the board")
    cells = {str(i): cv2.perspectiveTransform(c.reshape(-1, 1, 2), to_cells).reshape(4, 2).round(4).tolist()
             for i, c in sorted(markers.items())}
    return {"rows": rows, "cols": cols, "markers": cells, "grid_corners_px": corners.round(2).tolist()}


def grid_outline(gray: np.ndarray, rows: int, cols: int, cell: int = 24) -> np.ndarray | None:
    """The outline whose inside shows a ``rows`` x ``cols`` grid's lines (largest first), or None."""
    target = ((np.array([(0, 0), (cols, 0), (cols, rows), (0, rows)], np.float64) + MARGIN) * cell).astype(np.float32)
    for quad in outline_candidates(gray):
        h = cv2.getPerspectiveTransform(order_corners(quad).astype(np.float32), target)
        try:
            score = grid_line_score(FrameSampler(gray, np.linalg.inv(h)), rows, cols, cell)
        except (np.linalg.LinAlgError, cv2.error):
            continue
        if score >= MIN_LINE_SCORE:
            return quad
    return None


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
