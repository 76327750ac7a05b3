"""Finding a boxed board's grid without corners: ``tabletop bench grid [--quick] [--json]``.

Synthetic 2048x1536 (3 MP) photos of 15x15 boxed boards (:func:`vision.synth.tilescene.tile_scene`,
commercial style) from seeds kept for this benchmark (never used while the finder was tuned):
board colours from green to black and wood, light tiles and dark tiles with light letters, the
camera tilted up to 45 degrees, the board spanning 40-95% of the photo's shorter side, things on
the table round it, a hand over the board in a quarter of them, a side in shadow, glare, blur,
noise and JPEG. Then photos the finder must refuse: a table with no board, a board cut by the
photo's edge, and a board of another size (19x19).

Measured (issue 24): the grid found within a quarter of a square (each corner) in >= 95% of the
boards; wrong finds (found, but off by more) ~0; refusals of the photos without a whole 15x15
board 100%; the time of a find on one core (goal: ~100 ms).
"""

from __future__ import annotations

import json
import statistics
import time
from typing import Any, Callable

import numpy as np

from tabletop.benchmarks.stats import ms_since, percentile, progress_log

TARGETS = {"found": 0.95, "wrong": 0.0, "negatives_refused": 1.0, "ms_median": 100.0}
SEED = 50_000  #: the benchmark's seeds start here (the finder was tuned on seeds below 10 000)
SIZE = (2048, 1536)
#: board colours beside tilescene's own (BGR): light wood, dark wood, black, navy, white, wine
BOARDS = ((120, 170, 215), (50, 85, 130), (35, 35, 35), (90, 40, 20), (235, 235, 235), (50, 40, 110))


def _look(rng: np.random.Generator) -> Any:
    """A tile set: the usual boxed ones, or dark tiles with light letters."""
    from vision.synth import tilefonts
    from vision.synth.tilescene import TileLook, commercial_look

    if rng.random() < 0.7:
        return commercial_look(rng, "en", tilefonts.HELD_OUT)
    fonts = tilefonts.available("en", tilefonts.HELD_OUT)
    face = tuple(int(v) for v in rng.uniform(20, 70, 3))
    ink = tuple(int(v) for v in rng.uniform(200, 250, 3))
    return TileLook(face, ink, fonts[int(rng.integers(len(fonts)))], height=float(rng.uniform(0.1, 0.3)),  # type: ignore[arg-type]
                    size=float(rng.uniform(0.88, 0.96)), values=bool(rng.random() < 0.7))


def scene(seed: int, kind: str = "board") -> tuple[np.ndarray, np.ndarray | None]:
    """One photo and the grid's true corners (None for a photo that must be refused).

    ``kind``: ``board`` (a whole 15x15 board), ``none`` (no board), ``cut`` (a board cut by the
    photo's edge), ``other`` (a 19x19 board)."""
    from rules.board import parse_board
    from vision.synth.tilescene import BOARD_COLOURS, tile_scene

    rng = np.random.default_rng([seed, 31])
    n = 19 if kind == "other" else 15
    board = parse_board(f"rows = {n}\ncols = {n}\n[layers]\n", "grid bench", required=())
    colours = BOARD_COLOURS + BOARDS
    offset = (0.0, 0.0)
    if kind == "none":
        offset = (5.0, 5.0)
    elif kind == "cut":
        side = float(rng.choice([-1, 1])) * float(rng.uniform(0.3, 0.5))
        offset = (side, 0.0) if rng.random() < 0.5 else (0.0, side)
    options = {"tilt_deg": float(rng.uniform(0, 45)), "size": SIZE, "look": _look(rng), "hand": bool(rng.random() < 0.25),
               "fill": float(rng.uniform(0.4, 0.95)), "board_colour": colours[int(rng.integers(len(colours)))],
               "clutter": int(rng.integers(0, 7))}
    tiles = _played(n, rng)
    for _ in range(4):
        shot = tile_scene(board, tiles, seed=seed, style="commercial", offset=offset, **options)
        if kind != "cut" or _cut(shot.corners):
            break
        offset = (offset[0] * 1.4, offset[1] * 1.4)          # the grid itself must be cut, not just the board's edge
    return shot.frame, (shot.corners if kind == "board" else None)


def _played(n: int, rng: np.random.Generator) -> dict[Any, str]:
    """Tiles as a game in progress leaves them: runs across and down, covering 5-40% of an
    ``n`` x ``n`` board."""
    from rules.squares import Square

    tiles: dict[Any, str] = {}
    goal = rng.uniform(0.05, 0.4) * n * n
    while len(tiles) < goal:
        r, c, length, down = int(rng.integers(n)), int(rng.integers(n)), int(rng.integers(2, 8)), rng.random() < 0.5
        for k in range(length):
            sq = Square(r + k, c) if down else Square(r, c + k)
            if sq.row < n and sq.col < n:
                tiles[sq] = "ABCDEFGHIJKLMNOPRSTUW"[int(rng.integers(21))]
    return tiles


def _cut(corners: np.ndarray) -> bool:
    """Whether at least a square's worth of the grid lies outside the photo."""
    cell = float(np.linalg.norm(corners[1] - corners[0])) / 15
    return bool((corners < -cell).any() or (corners[:, 0] > SIZE[0] + cell).any() or
                (corners[:, 1] > SIZE[1] + cell).any())


def measure(boards: int, negatives: int, seed: int = SEED, log: Callable[..., None] = print) -> dict[str, Any]:
    """Find the grid in ``boards`` board photos and ``negatives`` photos of each kind to refuse."""
    import cv2

    from vision.gridfind import GridNotFound, corner_error, find_grid

    from tabletop.resources import load_board

    cv2.setNumThreads(1)
    premiums = load_board("examples/boards/boxed-15x15.toml", required=()).layers["premiums"]
    counts = {"boards": 0, "found": 0, "refused": 0, "wrong": 0, "negatives": 0, "negatives_refused": 0}
    ms: list[float] = []
    cpu: list[float] = []                       # this process's CPU time: a busy machine's wait left out
    errors: list[float] = []
    missed: list[str] = []
    jobs = [("board", seed + k) for k in range(boards)] + \
           [(kind, seed + 20_000 + k) for kind in ("none", "cut", "other") for k in range(negatives)]
    for kind, s in jobs:
        frame, truth = scene(s, kind)
        start, cpu_start = time.perf_counter(), time.process_time()
        try:
            found = find_grid(frame, 15, 15, premiums)
        except GridNotFound:
            found = None
        ms.append(ms_since(start))
        cpu.append((time.process_time() - cpu_start) * 1000)
        if truth is None:
            counts["negatives"] += 1
            counts["negatives_refused"] += found is None
            if found is not None:
                missed.append(f"{kind} {s}: found a grid")
            continue
        counts["boards"] += 1
        if found is None:
            counts["refused"] += 1
            missed.append(f"board {s}: refused")
            continue
        error = corner_error(found.corners, truth)
        errors.append(error)
        if error <= 0.25:
            counts["found"] += 1
        else:
            counts["wrong"] += 1
            missed.append(f"board {s}: off by {error:.2f} squares")
    log(f"grid: {counts['boards']} boards, {counts['negatives']} photos to refuse")
    boards_n, neg_n = max(1, counts["boards"]), max(1, counts["negatives"])
    return {"boards": counts["boards"], "found": counts["found"] / boards_n, "refused": counts["refused"] / boards_n,
            "wrong": counts["wrong"] / boards_n, "negatives": counts["negatives"],
            "negatives_refused": counts["negatives_refused"] / neg_n,
            "error_median": statistics.median(errors) if errors else None,
            "ms_median": statistics.median(ms) if ms else None, "ms_p95": percentile(ms, 0.95) if ms else None,
            "cpu_ms_median": statistics.median(cpu) if cpu else None,
            "cpu_ms_p95": percentile(cpu, 0.95) if cpu else None,
            "missed": missed}


def print_lines(m: dict[str, Any]) -> None:
    print(f"  grid found without corners ({m['boards']} boxed 15x15 boards, {m['negatives']} photos to refuse; "
          f"{SIZE[0]}x{SIZE[1]})")
    print(f"    found within 1/4 square                    {m['found']:>10.4f}   target >= {TARGETS['found']}")
    print(f"    refused though the board is whole          {m['refused']:>10.4f}")
    print(f"    wrong (found, off by more)                 {m['wrong']:>10.4f}   target {TARGETS['wrong']} (~0)")
    print(f"    refused: no board, cut board, 19x19 board  {m['negatives_refused']:>10.4f}   "
          f"target >= {TARGETS['negatives_refused']}")
    err = m["error_median"]
    print(f"    corner error of those found (median)       {'-' if err is None else f'{err:.3f}':>10} squares")
    print(f"    ms per find (median / p95)                 {m['ms_median']:>6.1f} / {m['ms_p95']:.1f}   "
          f"target <= {TARGETS['ms_median']:.0f}")
    print(f"    CPU ms per find (median / p95)             {m['cpu_ms_median']:>6.1f} / {m['cpu_ms_p95']:.1f}   "
          "(the process's own time: on a busy machine the wall time above waits for others)")
    for line in m["missed"][:20]:
        print(f"    {line}")


def run(args: Any) -> int:
    quick, as_json = bool(getattr(args, "quick", False)), bool(getattr(args, "json", False))
    boards, negatives = (12, 3) if quick else (150, 25)
    result = measure(boards, negatives, log=progress_log(as_json))
    if as_json:
        print(json.dumps({"targets": TARGETS, "grid": result}))
        return 0
    print("grid benchmark (one core)")
    print_lines(result)
    return 0
