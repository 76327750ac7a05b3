"""Chips on the printed Sequence Letters board: ``tabletop bench chips [--quick] [--json]`` (also
part of ``bench vision``).

The board is printed as ``tabletop print-board sequence-letters`` prints it; chips of the three
colours (a rim, a highlight, a shadow, a little off centre, any colour on any picture, the red
apple and the red yo-yo included) are put on a random third of its pictures or fewer, and the
page is photographed at 1280x960 in perspective (tilt up to 35 degrees), with light falling off
to one side, a glare spot, blur, noise and JPEG. Measured: squares read right (no chip, or the
chip's colour), whole boards right, and milliseconds per read on one core.

Targets (the Sequence Letters issue): >= 99.9 % per square, <= 50 ms a full read.
"""

from __future__ import annotations

import json
import statistics
import time
from typing import Callable

import numpy as np

TARGETS = {"per_square": 0.999, "ms_per_read": 50.0}


def measure(photos: int, seed: int = 2026) -> dict:
    import cv2

    from rules.squares import Square
    from tabletop.resources import load_board
    from vision.chips import ChipReader
    from vision.errors import VisionError
    from vision.synth.chipscene import chip_scene

    cv2.setNumThreads(1)
    board = load_board("sequence-letters", required=("letters", "colors"))
    reader = ChipReader(board)
    squares = [Square(r, c) for r in range(board.rows) for c in range(board.cols) if board.cell("letters", Square(r, c)) != "."]
    rng = np.random.default_rng(seed)
    right = boards_right = not_found = 0
    ms: list[float] = []
    confusions: dict[str, int] = {}
    for k in range(photos):
        chosen = rng.choice(len(squares), int(rng.integers(0, len(squares) // 3 + 1)), replace=False)
        chips = {squares[i]: str(rng.choice(["r", "b", "g"])) for i in chosen}
        photo = chip_scene(board, chips, seed=seed + k)
        start = time.perf_counter()
        try:
            rows = reader.read(photo).rows
        except VisionError:
            not_found += 1
            continue
        finally:
            ms.append((time.perf_counter() - start) * 1000)
        wrong = 0
        for sq in squares:
            want, got = chips.get(sq, "."), rows[sq.row][sq.col]
            if want == got:
                right += 1
            else:
                wrong += 1
                confusions[f"{want}->{got}"] = confusions.get(f"{want}->{got}", 0) + 1
        boards_right += wrong == 0
    return {"photos": photos, "squares": photos * len(squares), "per_square": right / max(1, photos * len(squares)),
            "boards_right": boards_right, "board_not_found": not_found, "confusions": confusions,
            "ms_per_read": statistics.median(ms), "ms_per_read_p95": sorted(ms)[int(0.95 * (len(ms) - 1))]}


def measure_all(quick: bool, log: Callable[..., None] = print) -> dict:
    log("chips: reading photos of the printed Sequence Letters board ...")
    return measure(8 if quick else 120)


def print_lines(r: dict) -> None:
    print(f"  chips right per square ({r['squares']} squares, {r['photos']} photos)  {r['per_square']:>10.4f}"
          "   target >= 0.999")
    print(f"    whole boards right                           {r['boards_right']:>6} of {r['photos']}"
          f"   (board not found: {r['board_not_found']}; errors: {r['confusions'] or 'none'})")
    print(f"    ms per read (median / p95)                   {r['ms_per_read']:>6.1f} / {r['ms_per_read_p95']:.1f}"
          "   target <= 50")


def run(args) -> int:
    quick, as_json = bool(getattr(args, "quick", False)), bool(getattr(args, "json", False))
    result = measure_all(quick, (lambda *a, **k: None) if as_json else print)
    if as_json:
        print(json.dumps({"targets": TARGETS, "chips": result}))
        return 0
    print("chips benchmark (one core, 1280x960 synthetic photos of the printed board)")
    print_lines(result)
    return 0
