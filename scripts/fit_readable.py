#!/usr/bin/env python3
"""Choose when a board is too small or too blurred in the picture to read
(``vision.readability.MIN_SQUARE_PX`` and ``MAX_BLUR``) on far, tilted, soft camera scenes
(:func:`tabletop.benchmarks.scenes.far_scene`) written by the tuning writers: the tenth of the
training contributors' writers that ``scripts/train_letters.py`` keeps apart (never the
held-out ones the benchmark reads).

    .venv/bin/python scripts/fit_readable.py [--scenes 240]

Each scene is read in full; for each pair of limits it prints how many scenes would be read,
how many letters they would write on empty squares, and how many of their words come out
right. The limits to keep are the loosest at which no scene read writes a letter on an empty
square, with a pixel to spare (paste them into vision/readability.py).
"""

from __future__ import annotations

import argparse
import os
import pathlib
import sys

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

import numpy as np  # noqa: E402

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))

from train_letters import split_writers  # noqa: E402
from vision.synth.realdata import DEFAULT_PATHS, TRAINING_CONTRIBUTORS, load_handwriting  # noqa: E402

PIXELS = (12.0, 13.0, 14.0, 15.0, 16.0, 17.0)
BLURS = (0.22, 0.24, 0.26, 0.27, 0.29, 0.31)


def main(argv=None) -> int:
    import cv2

    from tabletop.benchmarks.scenes import board_15, far_scene
    from tabletop.lexicons import builtin_lexicon, reading_index
    from tabletop.resources import load_board
    from vision.cells import INK
    from vision.reader import BoardReader
    from vision.readability import blur_estimate, square_pixels

    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--scenes", type=int, default=240)
    ap.add_argument("--seed", type=int, default=2026, help="the seed train_letters.py split the writers with")
    args = ap.parse_args(argv)
    cv2.setNumThreads(1)
    _learn, tuning = split_writers(load_handwriting(DEFAULT_PATHS).of(TRAINING_CONTRIBUTORS), 0.1, args.seed)
    index = reading_index(builtin_lexicon("en"), "en")
    words = [w for n in range(3, 8) for w in index.words(n)]
    boards = [load_board("extradiction"), board_15(), load_board("extradiction-sp")]
    readers = {b.name: BoardReader(b, index) for b in boards}
    rng = np.random.default_rng(41)
    seen = []  # (pixels a square, blur, letters on empty squares, words right, words)
    for k in range(args.scenes):
        board = boards[k % len(boards)]
        frame, placed, _camera = far_scene(board, tuning, words, rng)
        try:
            read = readers[board.name].read(frame)
        except Exception:  # noqa: BLE001 - a board not found writes nothing
            continue
        corners = np.asarray(read.located.corners)
        (x0, y0), (x1, y1) = np.maximum(0, corners.min(0).astype(int)), corners.max(0).astype(int) + 1
        truth = np.zeros(read.states.shape, bool)
        for _w, squares in placed:
            for sq in squares:
                truth[sq] = True
        found = {w.squares: w.text for w in read.words}
        seen.append((square_pixels(corners, board.rows, board.cols),
                     blur_estimate(cv2.cvtColor(frame[y0:y1, x0:x1], cv2.COLOR_BGR2GRAY)),
                     int(((read.states == INK) & ~truth).sum()), sum(found.get(s) == w for w, s in placed), len(placed)))
    table = np.array(seen, float)
    print(f"{len(table)} scenes of {len(set(tuning.writer))} tuning writers read")
    safe = []
    for pixels in PIXELS:
        for blur in BLURS:
            read = table[(table[:, 0] >= pixels) & (table[:, 1] <= blur)]
            invented = int(read[:, 2].sum())
            right = read[:, 3].sum() / max(1, read[:, 4].sum())
            print(f"  at least {pixels:4.1f} px, blur at most {blur:.2f}: {len(read):3d} read, "
                  f"{invented:3d} letters on empty squares, words right {right:.3f}")
            if invented == 0:
                safe.append((pixels, blur, len(read)))
    if safe:
        low = min(p for p, _b, _n in safe)
        blur = max(b for p, b, _n in safe if p == low)
        print(f"loosest with no invented letter: {low} px, blur {blur}; keep MIN_SQUARE_PX = {low + 1}, MAX_BLUR = {blur}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
