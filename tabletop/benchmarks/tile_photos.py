"""Tiles read from real photos that someone has answered: ``tabletop bench tiles --photos DIR``.

``DIR`` holds photos (``.jpg``, ``.jpeg``, ``.png``) and, beside each, an answer file of the
same name ending in ``.json``::

    {"corners": [[372, 726], [2690, 703], [2725, 3049], [343, 3060]],
     "language": "en",
     "rows": ["...............", "......MISIU....", "..."]}

``corners`` are the grid's four outer corners in the photo, from its top-left clockwise (as
``tabletop score --corners`` takes them); they may be left out: the photo is then read as
``score`` reads it without ``--corners`` (the grid found by :mod:`vision.gridfind`). Where they
are given, the grid is found without them as well and how far off it is (in squares) is
reported beside the read through them; ``premiums`` (optional, strings like ``rows``) is the
board's premium layout the finder may use (as a board file's ``premiums`` layer). ``rows`` say what each square holds: ``.`` empty, a
letter, ``?`` a blank. A tile whose letter is not in the language's alphabet (a Polish Ł on a
Polish board read as English) counts for empty/tile but not per tile: the reader cannot name it.
Photos without an answer file are listed and skipped. The photos are read as ``tabletop score``
reads them, their words with the answer's language's built-in dictionary
(:mod:`vision.tilewords`); with ``dictionary=False`` (``--no-dictionary``) each square is read on
its own.

Example::

    >>> from pathlib import Path
    >>> measure_photos(Path("/nonexistent"))["photos"]
    0
"""

from __future__ import annotations

import statistics
import time
from pathlib import Path
from typing import Any

from tabletop.benchmarks.answered import AnswerError, answer_object, answered
from tabletop.benchmarks.stats import ms_since

def load_answer(path: Path) -> dict[str, Any]:
    """The answer file ``path`` checked: four corners (or none), rows of one length, a language."""
    answer = answer_object(path)
    corners, rows = answer.get("corners"), answer.get("rows")
    if corners is not None and not (isinstance(corners, list) and len(corners) == 4 and all(isinstance(p, list) and len(p) == 2 for p in corners)):
        raise AnswerError(f"{path.name}: 'corners' must be four [x, y] points, top-left first, clockwise")
    if not (isinstance(rows, list) and rows and all(isinstance(r, str) for r in rows) and len({len(r) for r in rows}) == 1):
        raise AnswerError(f"{path.name}: 'rows' must be strings of one length, one a row of the grid")
    premiums = answer.get("premiums")
    if premiums is not None and not (isinstance(premiums, list) and len(premiums) == len(rows) and
                                     all(isinstance(r, str) and len(r) == len(rows[0]) for r in premiums)):
        raise AnswerError(f"{path.name}: 'premiums' must be strings like 'rows', one a row of the board's layout")
    from rules.questique_tiles import TILES

    language = str(answer.get("language", "en"))
    if language not in TILES:
        raise AnswerError(f"{path.name}: 'language' must be one of {', '.join(TILES)}, not {language!r}")
    return {"corners": corners, "rows": rows, "language": language, "premiums": premiums}


def measure_photos(folder: Path, dictionary: bool = True) -> dict[str, Any]:
    """Read every answered photo in ``folder`` through ``--corners`` and count what is right."""
    import cv2
    import numpy as np

    from rules.board import parse_board
    from rules.questique_tiles import alphabet
    from tabletop.lexicons import builtin_lexicon, reading_index
    from vision.errors import VisionError
    from vision.tiles import TileReader

    cv2.setNumThreads(1)
    pairs, unanswered = answered(folder)
    count = {"photos": 0, "squares": 0, "presence_right": 0, "tiles": 0, "tiles_right": 0, "foreign": 0, "not_read": 0}
    confusions: dict[str, int] = {}
    per_photo: list[dict[str, Any]] = []
    ms: list[float] = []
    grids: list[float] = []
    indexes: dict[str, Any] = {}
    for photo, answer_path in pairs:
        answer = load_answer(answer_path)
        rows = answer["rows"]
        layout = "" if answer["premiums"] is None else "premiums = [" + ", ".join(f'"{r}"' for r in answer["premiums"]) + "]\n"
        board = parse_board(f"rows = {len(rows)}\ncols = {len(rows[0])}\n[layers]\n{layout}", photo.name, required=())
        frame = cv2.imread(str(photo))
        count["photos"] += 1
        given = None if answer["corners"] is None else np.array(answer["corners"], np.float64)
        language = answer["language"]
        if dictionary and language not in indexes:             # one a language, as a table keeps its reader's
            indexes[language] = reading_index(builtin_lexicon(language), language, alphabet(language))
        index = indexes.get(language) if dictionary else None
        reader = TileReader(board, language, corners=given, index=index)
        grid = _grid_check(frame, given, reader) if given is not None and frame is not None else None   # found without them
        if grid is not None:
            grids.append(grid)
        start = time.perf_counter()
        try:
            if frame is None:
                raise VisionError(f"{photo.name} is not an image OpenCV can read")
            read = reader.read(frame)
        except VisionError:
            count["not_read"] += 1
            per_photo.append({"photo": photo.name, "read": False, "grid": grid})
            continue
        finally:
            ms.append(ms_since(start))
        mine: dict[str, Any] = {"photo": photo.name, "read": True, "grid": grid, "tiles": 0, "tiles_right": 0,
                                "false_tiles": 0, "missed_tiles": 0, "empty": sum(r.count(".") for r in rows),
                                "ms": ms[-1], "megapixels": round(frame.shape[0] * frame.shape[1] / 1e6, 1),
                                "shift": round(read.shift, 2)}
        for want_row, got_row in zip(rows, read.rows):
            for want, got in zip(want_row, got_row):
                count["squares"] += 1
                count["presence_right"] += (want == ".") == (got == ".")
                mine["false_tiles"] += want == "." and got != "."
                mine["missed_tiles"] += want != "." and got == "."
                if want == ".":
                    continue
                if want != "?" and want not in reader.letters:
                    count["foreign"] += 1
                    continue
                count["tiles"] += 1
                mine["tiles"] += 1
                count["tiles_right"] += want == got
                mine["tiles_right"] += want == got
                if want != got:
                    confusions[f"{want}->{got}"] = confusions.get(f"{want}->{got}", 0) + 1
        per_photo.append(mine)
    return {"folder": str(folder), "dictionary": dictionary, "photos": count["photos"], "unanswered": unanswered, "not_read": count["not_read"],
            "squares": count["squares"], "tiles": count["tiles"], "foreign_tiles": count["foreign"],
            "per_tile": count["tiles_right"] / max(1, count["tiles"]),
            "empty_or_tile": count["presence_right"] / max(1, count["squares"]),
            "ms_per_read": statistics.median(ms) if ms else None,
            "confusions": dict(sorted(confusions.items(), key=lambda kv: -kv[1])[:10]), "per_photo": per_photo,
            "grid_checked": len(grids), "grid_found": sum(1 for g in grids if g != -1.0 and g <= 0.25),
            "grid_refused": sum(1 for g in grids if g == -1.0),
            "grid_wrong": sum(1 for g in grids if g > 0.25)}


def _grid_check(frame: Any, corners: Any, reader: Any) -> float:
    """How far (squares) the grid ``reader`` finds without ``corners`` is from them, as `tabletop
    score` finds it; -1.0 when refused."""
    from vision.gridfind import GridNotFound, corner_error

    try:
        found = reader.find_grid(frame)
    except GridNotFound:
        return -1.0
    return corner_error(found.corners, corners, reader.board.rows, reader.board.cols)


def print_photo_lines(m: dict[str, Any], targets: dict[str, float]) -> None:
    """The real-photo lines of ``bench tiles``."""
    print(f"  tiles, real photos in {m['folder']} ({m['photos']} photos, {m['tiles']} tiles, "
          f"{m['foreign_tiles']} tiles of letters outside the alphabet left out)")
    print("    read as `tabletop score` reads them, words with the dictionary" if m.get("dictionary", True) else
          "    each square read on its own, without the dictionary (--no-dictionary)")
    if not m["photos"]:
        print("    no answered photos there (each photo needs an answer file NAME.json beside it)")
        return
    print(f"    tiles right (letter or blank)              {m['per_tile']:>10.4f}   target >= {targets['boxed_per_tile']}")
    print(f"    empty/tile right ({m['squares']} squares){'':<{max(0, 17 - len(str(m['squares'])))}}"
          f"{m['empty_or_tile']:>10.4f}   target >= {targets['empty_or_tile']}")
    print(f"    ms per read (median)                       {m['ms_per_read']:>6.1f}   target <= {targets['ms_per_read_3mp']:.0f} (a 3 MP photo)"
          f"   (not read: {m['not_read']})")
    if m["grid_checked"]:
        print(f"    grid found without corners within 1/4 square {m['grid_found']} of {m['grid_checked']}   "
              f"(refused {m['grid_refused']}, wrong {m['grid_wrong']}; target >= 95% found, ~0 wrong)")
    for p in m["per_photo"]:
        if p.get("grid") is not None:
            g = p["grid"]
            print(f"    {p['photo']:<44} grid found without corners: "
                  f"{'refused' if g == -1.0 else f'{g:.2f} squares off'}")
        if p["read"]:
            share = p["tiles_right"] / max(1, p["tiles"])
            empty = 1 - p["false_tiles"] / max(1, p["empty"])
            tiles = (f"tiles {p['tiles_right']:>3}/{p['tiles']:<3} {share:>7.4f} "
                     f"(>= {targets['boxed_per_tile']} {'ok' if share >= targets['boxed_per_tile'] else 'MISSED'})"
                     if p["tiles"] else "no tiles")
            print(f"    {p['photo']:<44} {tiles}; "
                  f"empty {p['empty'] - p['false_tiles']}/{p['empty']} {empty:.4f} "
                  f"(>= {targets['empty_or_tile']} {'ok' if empty >= targets['empty_or_tile'] else 'MISSED'}); "
                  f"{p['missed_tiles']} tiles read as empty; {p['ms']:.0f} ms for {p['megapixels']} MP "
                  f"(<= {targets['ms_per_read_3mp']:.0f}); faces {p['shift']:.2f} squares off")
        else:
            print(f"    {p['photo']:<44} not read")
    if m["confusions"]:
        print(f"    most frequent errors (truth->read): {m['confusions']}")
    if m["unanswered"]:
        print(f"    without an answer file (skipped): {', '.join(m['unanswered'])}")
