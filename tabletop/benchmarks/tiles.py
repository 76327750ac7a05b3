"""Letter tiles read from photos: ``tabletop bench tiles [--quick] [--json]`` (also part of
``bench vision``).

Two sets of synthetic photos (vision.synth.tilescene), never seen in training (other seeds):

* **printed**: the Questique board as ``print-board questique`` prints it, with the tiles of
  ``print-tiles`` on it (English and Ukrainian sets, blanks among them), found by its markers;
* **boxed**: 15x15 boards without markers (coloured bonus squares with labels, a star), raised
  wooden or plastic tiles with letter values, in typefaces kept out of training
  (``tilefonts.HELD_OUT``), read through ``--corners`` given a little off (as a person clicks
  them), a side of the board darker in a third of them.

Both at 1280x960, tilted up to 35 degrees, with glare, warm or cold light, blur, noise and JPEG.
Measured per set: squares right, tiles right (the letter, or blank), empty/tile right, whole
boards right and ms per read on one core; Tesseract (``--psm 10``, the set's letters only) on
the same tiles as the baseline. Real photos are measured with ``--photos DIR`` instead
(:mod:`tabletop.benchmarks.tile_photos`): the project ships no photos, only answer files for
some (``examples/real-tile-photos/``).

Targets (issue 16): tiles >= 99.5% right on the printed board; >= 97% per tile on boxed boards;
empty/tile >= 99.9%; <= 50 ms a read.
"""

from __future__ import annotations

import json
import statistics
import time
from pathlib import Path
from typing import Any, Callable

import numpy as np

from tabletop.benchmarks.stats import ms_since, percentile_lower, progress_log

TARGETS = {"printed_per_tile": 0.995, "boxed_per_tile": 0.97, "empty_or_tile": 0.999, "ms_per_read": 50.0}


def _tiles(board, letters: str, rng: np.random.Generator) -> dict:
    """Words across and down and a few loose tiles, a blank now and then, as a game leaves them."""
    from rules.squares import Square

    tiles: dict = {}
    while len(tiles) < rng.uniform(0.1, 0.35) * board.rows * board.cols:
        across, length = rng.random() < 0.5, int(rng.integers(1, 8))
        r, c = int(rng.integers(board.rows)), int(rng.integers(board.cols))
        for k in range(length):
            sq = Square(r, c + k) if across else Square(r + k, c)
            if sq.row < board.rows and sq.col < board.cols:
                tiles[sq] = "?" if rng.random() < 0.03 else letters[int(rng.integers(len(letters)))]
    return tiles


def measure(style: str, photos: int, seed: int, tesseract_tiles: int) -> dict:
    import cv2

    from rules.board import parse_board
    from rules.questique_tiles import alphabet
    from tabletop.resources import load_board
    from vision.errors import VisionError
    from vision.synth.tilefonts import HELD_OUT
    from vision.synth.tilescene import tile_scene
    from vision.tiles import TileReader

    cv2.setNumThreads(1)
    if style == "printed":
        board = load_board("questique", required=("marks",))
    else:
        board = parse_board("rows = 15\ncols = 15\n[layers]\n", "boxed 15x15", required=())
    rng = np.random.default_rng(seed)
    count: dict[str, int] = {"squares": 0, "right": 0, "tiles": 0, "tiles_right": 0, "presence_right": 0, "boards_right": 0,
             "not_found": 0}
    confusions: dict[str, int] = {}
    ms: list[float] = []
    tess: dict[str, Any] = {"total": 0, "right": 0, "ours": 0, "ms": []}
    for k in range(photos):
        language = "uk" if k % 2 else "en"
        letters = alphabet(language)
        tiles = _tiles(board, letters, rng)
        shot = tile_scene(board, tiles, seed=seed + k, style="printed" if style == "printed" else "commercial",
                          language=language, faces=HELD_OUT)
        corners = None
        if style != "printed":
            cell = np.linalg.norm(shot.corners[1] - shot.corners[0]) / board.cols
            corners = shot.corners + rng.normal(0, 0.06 * cell, (4, 2))
        reader = TileReader(board, language, corners=corners)
        start = time.perf_counter()
        try:
            read = reader.read(shot.frame)
        except VisionError:
            count["not_found"] += 1
            continue
        finally:
            ms.append(ms_since(start))
        wrong = 0
        for r, (want_row, got_row) in enumerate(zip(shot.rows, read.rows)):
            for c, (want, got) in enumerate(zip(want_row, got_row)):
                count["squares"] += 1
                count["right"] += want == got
                count["presence_right"] += (want == ".") == (got == ".")
                if want != ".":
                    count["tiles"] += 1
                    count["tiles_right"] += want == got
                if want != got:
                    wrong += 1
                    confusions[f"{want}->{got}"] = confusions.get(f"{want}->{got}", 0) + 1
        count["boards_right"] += wrong == 0
        if tess["total"] < tesseract_tiles:
            _tesseract(shot, read, reader, language, tess, tesseract_tiles)
    squares, n_tiles = max(1, count["squares"]), max(1, count["tiles"])
    return {"style": style, "photos": photos, "squares": count["squares"], "tiles": count["tiles"],
            "per_square": count["right"] / squares, "per_tile": count["tiles_right"] / n_tiles,
            "empty_or_tile": count["presence_right"] / squares, "boards_right": count["boards_right"],
            "board_not_found": count["not_found"], "confusions": dict(sorted(confusions.items(), key=lambda kv: -kv[1])[:8]),
            "ms_per_read": statistics.median(ms), "ms_per_read_p95": percentile_lower(ms, 0.95),
            "tesseract_tiles": tess["total"], "tesseract_per_tile": tess["right"] / max(1, tess["total"]),
            "ours_on_tesseract_tiles": tess["ours"] / max(1, tess["total"]),
            "tesseract_ms_per_tile": statistics.median(tess["ms"]) if tess["ms"] else None}


def _tesseract(shot, read, reader, language: str, tess: dict, limit: int) -> None:
    """Tesseract on this photo's letter tiles: each square's top-down window, as our network sees
    it (shifted like ours where tiles stand proud), enlarged, one character, the set's letters."""
    import cv2
    import pytesseract

    from vision.tiles import even_light

    top = even_light(read.located.warp(shot.frame), reader.cell).mean(2)
    grey = np.clip(top * 255, 0, 255).astype(np.uint8)
    letters = reader.letters
    for r, row in enumerate(shot.rows):
        for c, want in enumerate(row):
            if want in ".?" or tess["total"] >= limit:
                continue
            x, y = reader.middles[r * reader.board.cols + c]
            patch = cv2.getRectSubPix(grey, (reader.cell, reader.cell), (float(x), float(y)))
            big = cv2.copyMakeBorder(cv2.resize(patch, None, fx=3, fy=3, interpolation=cv2.INTER_CUBIC),
                                     12, 12, 12, 12, cv2.BORDER_REPLICATE)
            start = time.perf_counter()
            text = pytesseract.image_to_string(big, lang="eng" if language == "en" else "ukr",
                                               config=f"--psm 10 -c tessedit_char_whitelist={letters}")
            tess["ms"].append(ms_since(start))
            tess["total"] += 1
            tess["right"] += text.strip()[:1] == want
            tess["ours"] += read.rows[r][c] == want


def measure_all(quick: bool, log: Callable[..., None] = print) -> dict:
    log("tiles: reading photos of the printed Questique board and of boxed 15x15 boards ...")
    photos, tess = (6, 40) if quick else (60, 400)
    return {"printed": measure("printed", photos, 7100, tess), "boxed": measure("boxed", photos, 8100, tess)}


def print_lines(r: dict) -> None:
    for key, what, target in (("printed", "printed board, printed tiles", TARGETS["printed_per_tile"]),
                              ("boxed", "boxed 15x15 boards, held-out typefaces", TARGETS["boxed_per_tile"])):
        m = r[key]
        print(f"  tiles, {what} ({m['photos']} photos, {m['tiles']} tiles)")
        print(f"    tiles right (letter or blank)              {m['per_tile']:>10.4f}   target >= {target}")
        print(f"    empty/tile right ({m['squares']} squares){'':<{max(0, 17 - len(str(m['squares'])))}}"
              f"{m['empty_or_tile']:>10.4f}   target >= {TARGETS['empty_or_tile']}")
        print(f"    squares right / whole boards right         {m['per_square']:>10.4f}   {m['boards_right']} of "
              f"{m['photos']} (board not found: {m['board_not_found']})")
        print(f"    ms per read (median / p95)                 {m['ms_per_read']:>6.1f} / {m['ms_per_read_p95']:.1f}"
              f"   target <= {TARGETS['ms_per_read']:.0f}")
        tess_ms = m["tesseract_ms_per_tile"]
        print(f"    tesseract on {m['tesseract_tiles']} of the same tiles            {m['tesseract_per_tile']:>10.4f}"
              f"   (ours on them {m['ours_on_tesseract_tiles']:.4f}; tesseract "
              f"{'-' if tess_ms is None else f'{tess_ms:.0f}'} ms a tile)")
        if m["confusions"]:
            print(f"    most frequent errors (truth->read): {m['confusions']}")
    print("  tiles on real photos of boxed boards: not measured here (the project ships none; "
          "measure yours with `tabletop bench tiles --photos DIR`)")


def run(args) -> int:
    quick, as_json = bool(getattr(args, "quick", False)), bool(getattr(args, "json", False))
    photos = getattr(args, "photos", None)
    if photos is not None:
        return _run_photos(Path(photos), as_json)
    result = measure_all(quick, progress_log(as_json))
    if as_json:
        print(json.dumps({"targets": TARGETS, "tiles": result}, ensure_ascii=False))
        return 0
    print("tiles benchmark (one core, 1280x960 synthetic photos)")
    print_lines(result)
    return 0


def _run_photos(folder: Path, as_json: bool) -> int:
    from tabletop.benchmarks.tile_photos import AnswerError, measure_photos, print_photo_lines
    from tabletop.errors import UserError

    if not folder.is_dir():
        raise UserError(f"--photos {folder}: no such folder")
    try:
        result = measure_photos(folder)
    except AnswerError as error:
        raise UserError(f"--photos {folder}: {error}") from None
    if as_json:
        print(json.dumps({"targets": TARGETS, "photos": result}, ensure_ascii=False))
        return 0
    print("tiles benchmark on real photos (one core)")
    print_photo_lines(result, TARGETS)
    return 0
