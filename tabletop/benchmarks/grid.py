"""Finding a boxed board's grid without corners: ``tabletop bench grid [--quick] [--json]``.

Synthetic 2048x1536 (3 MP) photos of 15x15 boxed boards in families that each push one
difficulty (:mod:`vision.synth.gridscene`): ``plain``, ``small`` (the board spans 30-55% of the
photo's shorter side), ``oblique`` (tilted 35-50°), ``turned`` (any angle), ``covered`` (tiles
on 30-60% of the squares), ``dark`` (dark boards, dark tiles), ``busy`` (a textured table,
things round the board, a hand, strong glare) and ``lens`` (barrel or pincushion distortion);
and ``mixed``, the first benchmark's photos (:func:`vision.synth.tilescene.tile_scene`: tilt up to
45°, 40-95% of the photo, hands, clutter). Then photos the finder must refuse: no board, a grid
cut by the photo's edge, a board of another size (13x13, 19x19, 21x21).

Each family is measured on eight sets of seeds: ``tuning`` (the seeds the finder was tuned on),
``held-out`` (seeds looked at only to make the sureness checks and the lens step),
``held-out-2`` (measured once after the lens step, then looked at), ``held-out-3`` (measured once,
after the guessed lens was made to earn its place; measured again after the third round),
``held-out-4`` (measured once after the third round's arm, cut-lattice, other-spacing and
faint-line changes, then looked at to fix a wrong find), ``held-out-5`` (measured once after
that fix, then its wrong find looked at), ``held-out-6`` (measured once after the outer-lines
rule, :data:`vision.gridfind.found.OUTER_SEEN`, then its misses looked at) and ``held-out-7``
(measured once after the fourth round: more families of lines, a frame beside an outer line).
Targets (issue 24): the grid found within a quarter of a square (each corner) in >= 95% of the
boards where a person can see it, none wrong (found, but off by more), every photo without a
whole 15x15 board refused, ~100 ms a find on one core (CPU time of this process). A board photo
with a corner of its grid hidden (under a hand, or out of the photo: :data:`IN_VIEW`, decided from
the scene, never from the finder) is counted apart as ``hidden``: refused or found, never wrong.
``--quick``: 2 boards a family and 1 photo of each kind to refuse in each set;
the full run: 20 and 8 (several minutes: most of it drawing the photos).
"""

from __future__ import annotations

import json
import statistics
import time
from typing import Any, Callable

import numpy as np

from tabletop.benchmarks.stats import percentile, progress_log

TARGETS = {"found": 0.95, "wrong": 0.0, "negatives_refused": 1.0, "ms_median": 100.0}
#: the first seed of each set: the finder was tuned on "tuning"'s; "held-out"'s (90000-90019) were
#: looked at while its sureness checks and lens were made; "held-out-2"'s (90020-90039) were
#: measured once after the lens step, then looked at to make a guessed lens earn its place;
#: "held-out-3"'s (90040-90059) were measured once, after that, and again after the third round;
#: "held-out-4"'s (90060-90079) were measured once after the third round's changes, then looked at
#: to fix a wrong find; "held-out-5"'s (90080-90099) were measured once after that fix, then its wrong
#: find looked at; "held-out-6"'s (90100-90119) were measured once after the outer-lines rule, then its misses
#: looked at; "held-out-7"'s (90120-90139) were measured once after the fourth round (docs/vision.md)
SPLITS = {"tuning": 1000, "held-out": 90_000, "held-out-2": 90_020, "held-out-3": 90_040, "held-out-4": 90_060,
          "held-out-5": 90_080, "held-out-6": 90_100, "held-out-7": 90_120}
#: the first benchmark's held-out seeds (its photos' family is "mixed"), for each held-out set
MIXED_HELD_OUT = {"held-out": 50_000, "held-out-2": 50_020, "held-out-3": 50_040, "held-out-4": 50_060,
                  "held-out-5": 50_080, "held-out-6": 50_100, "held-out-7": 50_120}
SIZE = (2048, 1536)
#: a board photo with a grid corner less than this much in view (its two outer lines' first square
#: from it under a hand, or out of the photo: :func:`vision.synth.gridscene.corners_in_view`,
#: measured on the scene, never on the finder's answer) is one where a person cannot see where the
#: grid ends: it is counted apart (``hidden``), where a refusal is right and a grid found off is
#: wrong, and left out of the boards that must be found
IN_VIEW = 0.5
#: board colours beside tilescene's own (BGR): light wood, dark wood, black, navy, white, wine
BOARDS = ((120, 170, 215), (50, 85, 130), (35, 35, 35), (90, 40, 20), (235, 235, 235), (50, 40, 110))


def families() -> tuple[str, ...]:
    """The board families measured, then the kinds of photo to refuse."""
    from vision.synth.gridscene import FAMILIES

    return (*FAMILIES, "mixed")


def photo(family: str, seed: int) -> tuple[np.ndarray, np.ndarray | None]:
    """One photo of ``family`` (a gridscene family, ``mixed``, or a kind to refuse: ``none``,
    ``cut``, ``other``) and its grid's true corners (None for a photo to refuse)."""
    frame, corners, _in_view = seen_photo(family, seed)
    return frame, corners


def seen_photo(family: str, seed: int) -> tuple[np.ndarray, np.ndarray | None, float]:
    """:func:`photo`, and how much of its grid's least visible corner is in view (in the photo, not
    under a hand: :func:`vision.synth.gridscene.corners_in_view`; 1.0 for a photo to refuse)."""
    from vision.synth.gridscene import grid_scene

    if family == "mixed":
        return _mixed(seed, "board")
    shot = grid_scene(seed, family, size=SIZE)
    return shot.frame, shot.corners, shot.in_view


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
    """One photo of the first benchmark (the ``mixed`` family) and the grid's true corners (None
    for a photo that must be refused).

    ``kind``: ``board`` (a whole 15x15 board), ``none`` (no board), ``cut`` (a board cut by the
    photo's edge), ``other`` (a 19x19 board)."""
    frame, corners, _in_view = _mixed(seed, kind)
    return frame, corners


def _mixed(seed: int, kind: str) -> tuple[np.ndarray, np.ndarray | None, float]:
    """:func:`scene`, and how much of the grid's least visible corner is in view: where a hand was
    drawn, the same photo is drawn again without it (the hand has its own random draws, so all
    else is the same) and the pixels that differ are the hand's."""
    from vision.synth.gridscene import corners_in_view

    shot, hand = _mixed_shot(seed, kind)
    if kind != "board":
        return shot.frame, None, 1.0
    cover = None
    if hand:
        bare, _hand = _mixed_shot(seed, kind, hand=False)
        cover = (np.abs(shot.frame.astype(np.int16) - bare.frame.astype(np.int16)).max(2) > 40).astype(np.float32)
    return shot.frame, shot.corners, corners_in_view(shot.corners, cover, SIZE)


def _mixed_shot(seed: int, kind: str, hand: bool | None = None) -> tuple[Any, bool]:
    """The ``mixed`` photo's scene (:func:`vision.synth.tilescene.tile_scene`) and whether a hand
    is in it (``hand``: drawn with or without one instead of as the seed says)."""
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
    if hand is not None:
        options["hand"] = hand
    tiles = _played(n, rng)
    for _ in range(4):
        shot = tile_scene(board, tiles, seed=seed, style="commercial", offset=offset, **options)
        if kind != "cut" or _cut(shot.corners):
            break
        offset = (offset[0] * 1.4, offset[1] * 1.4)          # the grid itself must be cut, not just the board's edge
    return shot, bool(options["hand"])


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


def _row(outcomes: list[tuple[str, float, float]], board: bool) -> dict[str, Any]:
    """A family's numbers from its (outcome, error, ms) triples: outcome ``found``, ``refused``
    or ``wrong`` for boards, ``refused`` or ``found`` for photos to refuse."""
    n = len(outcomes)
    ms = [o[2] for o in outcomes]
    out: dict[str, Any] = {"photos": n, "ms_median": statistics.median(ms) if ms else None,
                           "ms_p95": percentile(ms, 0.95) if ms else None}
    if board:
        errors = [o[1] for o in outcomes if o[0] != "refused"]
        out.update({kind: sum(o[0] == kind for o in outcomes) / max(1, n) for kind in ("found", "refused", "wrong")})
        out["error_median"] = statistics.median(errors) if errors else None
    else:
        out["refused"] = sum(o[0] == "refused" for o in outcomes) / max(1, n)
    return out


def measure(per_family: int, negatives: int, *, only: tuple[str, ...] = (), splits: tuple[str, ...] = tuple(SPLITS),
            log: Callable[..., None] = print) -> dict[str, Any]:
    """Find the grid in ``per_family`` photos of each family and ``negatives`` photos of each
    kind to refuse, for each of ``splits``; ``only`` keeps those families (and kinds)."""
    import cv2

    from tabletop.resources import load_board
    from vision.gridfind import GridNotFound, corner_error
    from vision.tiles import TileReader

    cv2.setNumThreads(1)
    reader = TileReader(load_board("examples/boards/boxed-15x15.toml", required=()))   # finds as `score` does
    kinds = tuple(f for f in (*families(), "none", "cut", "other") if not only or f in only)
    result: dict[str, Any] = {"splits": {}}
    missed: list[str] = []
    for split in splits:
        rows: dict[str, Any] = {}
        hidden: list[tuple[str, float, float]] = []
        for family in kinds:
            board = family not in ("none", "cut", "other")
            first = MIXED_HELD_OUT.get(split, SPLITS[split]) if family == "mixed" else SPLITS[split]
            outcomes: list[tuple[str, float, float]] = []
            for k in range(per_family if board else negatives):
                frame, truth, in_view = seen_photo(family, first + k)
                start = time.process_time()                     # this process's CPU: others' load left out
                try:
                    found = reader.find_grid(frame)
                except GridNotFound:
                    found = None
                ms = (time.process_time() - start) * 1000
                shown = truth is not None and in_view >= IN_VIEW      # the scene says so, not the finder
                into = outcomes if shown or truth is None else hidden
                name = f"{split} {family} {first + k}" + ("" if shown or truth is None else f" (hidden: {in_view:.2f} in view)")
                if found is None:
                    into.append(("refused", 0.0, ms))
                    if shown:
                        missed.append(f"{name}: refused")
                elif truth is None:
                    into.append(("found", 0.0, ms))
                    missed.append(f"{name}: found a grid")
                else:
                    error = corner_error(found.corners, truth)
                    into.append(("found" if error <= 0.25 else "wrong", error, ms))
                    if error > 0.25 or not shown:
                        missed.append(f"{name}: {'off' if error > 0.25 else 'found'} by {error:.2f} squares")
            rows[family] = _row(outcomes, board)
            log(f"grid: {split} {family}: {len(outcomes)} photos")
        if hidden:
            rows["hidden"] = _row(hidden, True)
        result["splits"][split] = {"families": rows, "total": _total(rows)}
    result["missed"] = missed
    return result


def _total(rows: dict[str, Any]) -> dict[str, Any]:
    """All families' boards together, and all photos to refuse together (the ``hidden`` boards
    apart: ``hidden_refused``, ``hidden_wrong``)."""
    boards = {f: r for f, r in rows.items() if "found" in r and f != "hidden"}
    negatives = {f: r for f, r in rows.items() if "found" not in r}
    n = sum(r["photos"] for r in boards.values())
    m = sum(r["photos"] for r in negatives.values())
    out: dict[str, Any] = {"boards": n, "negatives": m}
    for kind in ("found", "refused", "wrong"):
        out[kind] = sum(r[kind] * r["photos"] for r in boards.values()) / max(1, n)
    out["negatives_refused"] = sum(r["refused"] * r["photos"] for r in negatives.values()) / max(1, m)
    if "hidden" in rows:
        out.update({"hidden": rows["hidden"]["photos"], "hidden_refused": rows["hidden"]["refused"],
                    "hidden_wrong": rows["hidden"]["wrong"]})
    return out


def print_lines(m: dict[str, Any]) -> None:
    print(f"  grid found without corners ({SIZE[0]}x{SIZE[1]} photos; CPU ms of this process on one core)")
    print(f"    {'split':10} {'family':8} {'photos':>6} {'found':>6} {'refused':>7} {'wrong':>6} {'ms med':>7} {'ms p95':>7}")
    for split, data in m["splits"].items():
        for family, r in data["families"].items():
            if "found" in r:
                print(f"    {split:10} {family:8} {r['photos']:>6} {r['found']:>6.2f} {r['refused']:>7.2f} {r['wrong']:>6.2f} "
                      f"{r['ms_median']:>7.0f} {r['ms_p95']:>7.0f}")
            else:
                print(f"    {split:10} {family:8} {r['photos']:>6} {'-':>6} {r['refused']:>7.2f} {'-':>6} "
                      f"{r['ms_median']:>7.0f} {r['ms_p95']:>7.0f}")
        t = data["total"]
        print(f"    {split:10} {'boards':8} {t['boards']:>6} {t['found']:>6.2f} {t['refused']:>7.2f} {t['wrong']:>6.2f}   "
              f"target: found >= {TARGETS['found']}, wrong {TARGETS['wrong']}")
        print(f"    {split:10} {'refuse':8} {t['negatives']:>6} {'-':>6} {t['negatives_refused']:>7.2f} {'-':>6}   "
              f"target: refused {TARGETS['negatives_refused']} (no board, a cut grid, another size)")
        if "hidden" in t:
            print(f"    {split:10} {'hidden':8} {t['hidden']:>6} {'-':>6} {t['hidden_refused']:>7.2f} {t['hidden_wrong']:>6.2f}   "
                  f"boards with a corner less than {IN_VIEW:.0%} in view: refused or found, never wrong")
    print(f"    target: ms median <= ~{TARGETS['ms_median']:.0f} a find on one core")
    for line in m["missed"][:30]:
        print(f"    {line}")


def run(args: Any) -> int:
    quick, as_json = bool(getattr(args, "quick", False)), bool(getattr(args, "json", False))
    per_family, negatives = (2, 1) if quick else (20, 8)
    result = measure(per_family, negatives, log=progress_log(as_json))
    if as_json:
        print(json.dumps({"targets": TARGETS, "grid": result}))
        return 0
    print("grid benchmark (one core)")
    print_lines(result)
    return 0
