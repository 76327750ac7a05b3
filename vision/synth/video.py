"""Synthetic scenes as a video file a browser's fake camera plays: YUV4MPEG2 (``.y4m``), what
Chromium's ``--use-file-for-fake-video-capture`` reads (the camera page's tests, the README's
screenshot of it).

>>> import io, numpy as np
>>> out = io.BytesIO()
>>> write_y4m(out, [(np.zeros((4, 6, 3), np.uint8), 1.0)], fps=2)
>>> out.getvalue()[:44]
b'YUV4MPEG2 W6 H4 F2:1 Ip A1:1 C420jpeg\\nFRAME\\n'
>>> len(out.getvalue()) == 38 + 2 * (6 + 6 * 4 * 3 // 2)
True
"""

from __future__ import annotations

from typing import BinaryIO, Iterable

import cv2
import numpy as np


def write_y4m(out: BinaryIO, scenes: Iterable[tuple[np.ndarray, float]], fps: int = 2) -> None:
    """``scenes``, each a BGR frame (even width and height) shown for so many seconds, written to
    ``out`` as a 4:2:0 YUV4MPEG2 video at ``fps`` frames a second."""
    header = False
    for frame, seconds in scenes:
        height, width = frame.shape[:2]
        if not header:
            out.write(f"YUV4MPEG2 W{width} H{height} F{fps}:1 Ip A1:1 C420jpeg\n".encode())
            header = True
        planes = cv2.cvtColor(frame, cv2.COLOR_BGR2YUV_I420).tobytes()
        for _ in range(max(1, round(seconds * fps))):
            out.write(b"FRAME\n" + planes)
