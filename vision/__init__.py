"""Camera reading of printed word-game boards with handwritten dry-erase letters.

A pure library (OpenCV + NumPy; it imports :mod:`rules`, never :mod:`tabletop`). The public API:

* :func:`vision.printing.print_board` / :func:`~vision.printing.save_print` — a printable page
  with four ArUco markers and the JSON sidecar of square boxes.
* :func:`vision.synth.scene.render_scene` — a synthetic camera frame of a board with handwriting,
  perspective, uneven light, glare, blur, noise and optionally a hand.
* :class:`vision.reader.BoardReader` — ``BoardReader(board, lexicon).read(frame)`` gives a
  :class:`~vision.reader.BoardRead` (grid rows, per-square states, letter probabilities,
  confidences, decoded words) or raises :class:`vision.errors.BoardNotFound`.
* :class:`vision.tracker.Tracker` — ``Tracker(reader).feed(frame, t)`` returns
  :class:`~vision.tracker.WriteDetection` objects whose ``to_event()`` is a DESIGN.md write event.
* :func:`vision.words.verify` — is the clue card's expected answer what is written?
* :func:`vision.calibration.calibrate` — stick-on markers round a board printed without them.

>>> import vision
>>> from rules.board import parse_board
>>> from rules.squares import Square
>>> board = parse_board("rows = 5\\ncols = 5\\n[layers]\\nvalues = %s\\nzones = %s" % (["11111"] * 5, ["....."] * 5))
>>> frame = vision.render_scene(board, {Square(2, 1): "D", Square(2, 2): "O", Square(2, 3): "G"}, seed=3, tilt_deg=20)
>>> vision.BoardReader(board, lexicon=["DOG", "DIG", "CAT"]).read(frame).rows[2]
'.DOG.'
"""

from __future__ import annotations

from typing import Any

from vision.errors import BadImage, BoardNotFound, VisionError
from vision.reader import BoardRead, BoardReader
from vision.tracker import Tracker, WriteDetection
from vision.words import verify

__all__ = ["BadImage", "BoardNotFound", "BoardRead", "BoardReader", "Tracker", "VisionError", "WriteDetection",
           "render_scene", "verify"]


def __getattr__(name: str) -> Any:
    if name == "render_scene":           # test and demo data: imported only when asked for
        from vision.synth.scene import render_scene
        return render_scene
    raise AttributeError(f"module 'vision' has no attribute {name!r}")
