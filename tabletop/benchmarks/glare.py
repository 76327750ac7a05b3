"""No word from nothing, measured: the printed boards under strong glare spots and a dark side
(:func:`vision.synth.scene.harsh_light`), empty or with words in rendered handwriting; every
empty square must read empty, and the tracker must emit no write from an empty board whose
light keeps changing."""

from __future__ import annotations

import numpy as np

from rules.squares import Square
from tabletop.benchmarks.stats import report_line, wilson


def measure_glare(boards, n_scenes: int, n_sequences: int, rng: np.random.Generator) -> dict:
    """Empty squares right and written squares found under harsh light; writes from glare."""
    from vision.cells import INK
    from vision.reader import BoardReader
    from vision.synth.scene import harsh_light, make_scene
    from vision.tracker import Tracker

    readers = {board.name: BoardReader(board) for board in boards}  # each draws its board's printed look once
    empty_right = empty_total = found = written = 0
    for k in range(n_scenes):
        board = boards[k % len(boards)]
        letters: dict[Square, str] = {}
        if k % 2:  # every other scene holds a few words across
            for row in rng.choice(board.rows, 3, replace=False):
                length = int(rng.integers(3, 7))
                col = int(rng.integers(0, board.cols - length + 1))
                letters.update({Square(int(row), col + j): "ABCDEFGHIJKLMNOPQRSTUVWXYZ"[int(rng.integers(26))]
                                for j in range(length)})
        seed = int(rng.integers(1 << 30))
        read = readers[board.name].read(harsh_light(make_scene(board, letters, seed=seed).frame, seed))
        truth = np.zeros((board.rows, board.cols), bool)
        for sq in letters:
            truth[sq] = True
        empty_right += int(((read.states != INK) & ~truth).sum())
        empty_total += int((~truth).sum())
        found += int(((read.states == INK) & truth).sum())
        written += int(truth.sum())
    emitted = 0
    for k in range(n_sequences):
        board = boards[k % len(boards)]
        tracker = Tracker(readers[board.name], still_seconds=0.2)
        seed = int(rng.integers(1 << 30))
        for i in range(12):
            emitted += len(tracker.feed(harsh_light(make_scene(board, {}, seed=seed, frame_no=i).frame, seed + i // 3), 0.25 * i))
    return {"scenes": n_scenes, "empty_right": empty_right / max(1, empty_total), "empty_squares": empty_total,
            "empty_right_95ci": wilson(empty_right, empty_total), "empty_read_written": empty_total - empty_right,
            "written_found": found / max(1, written), "written": written, "sequences": n_sequences,
            "writes_from_glare": emitted}


def print_lines(result: dict) -> None:
    """The benchmark's lines for :func:`measure_glare`' result."""
    report_line(f"empty squares right, glare and dark side ({result['empty_squares']})", result["empty_right"], ">= 0.9995",
         ci=result["empty_right_95ci"])
    report_line(f"  written squares found there ({result['written']})", result["written_found"])
    report_line(f"writes from glare on an empty board ({result['sequences']} seq.)", result["writes_from_glare"], "0", fmt="{}")
