"""``tabletop score PHOTO --pieces tiles``: the letter tiles on a board, read from one photo.

The board is the game's printed one (found by its markers) or any board given as a TOML file
with ``--board``; a boxed board without markers is found by its grid (its lines, and the colours
of its ``premiums`` layer where the file has one: :mod:`vision.gridfind`), and the corners used
are printed; ``--corners``, the grid's four outer corners in the photo from its top-left
clockwise, override that (a photo where no grid is found is refused, never read at a guess). The output is DESIGN.md's grid (``.`` empty,
a capital letter, ``?`` a blank tile), the words the tiles make, and as ``score`` the number of
star squares covered (a board without stars scores 0).
"""

from __future__ import annotations

import json
import sys
from typing import Any

import numpy as np

from tabletop.errors import UserError

CORNERS_HELP = "--corners takes four X,Y pixel pairs, from the grid's top-left corner clockwise, e.g. " \
               "--corners 102,80 1180,95 1210,900 70,880"


def parse_corners(values: list[str] | None) -> np.ndarray | None:
    """``["X,Y", ...]`` (four of them) as a (4, 2) array; a readable error for anything else.

    >>> parse_corners(["1,2", "30,2", "30,40", "1,40"]).tolist()
    [[1.0, 2.0], [30.0, 2.0], [30.0, 40.0], [1.0, 40.0]]
    >>> parse_corners(["1,2", "oops"])
    Traceback (most recent call last):
    ...
    tabletop.errors.UserError: --corners takes four X,Y pixel pairs, from the grid's top-left corner clockwise, e.g. --corners 102,80 1180,95 1210,900 70,880
    """
    if values is None:
        return None
    try:
        corners = np.array([[float(v) for v in c.split(",")] for c in values], np.float64)
    except ValueError:
        raise UserError(CORNERS_HELP) from None
    if corners.shape != (4, 2) or not np.isfinite(corners).all():
        raise UserError(CORNERS_HELP)
    return corners


def corners_text(corners: Any) -> str:
    """Four corners as ``--corners`` takes them.

    >>> corners_text(np.array([[102.4, 80], [1180, 95.2], [1210, 900], [70, 880]]))
    '102,80 1180,95 1210,900 70,880'
    """
    return " ".join(f"{x:.0f},{y:.0f}" for x, y in np.asarray(corners, float).reshape(4, 2))


def score_tiles(args: Any, board_name: str | None) -> int:
    """Read the tiles of ``args.photo`` and print the grid and words (``--json``: one object)."""
    from rules.questique_tiles import TILES, alphabet
    from vision.errors import VisionError
    from vision.tiles import TileReader

    from tabletop.files import read_image
    from tabletop.lexicons import builtin_lexicon, load_wordlist, reading_index
    from tabletop.resources import load_board

    if args.language not in TILES:
        raise UserError(f"letter tiles come in {', '.join(TILES)}, not {args.language!r}")
    if not (args.board or board_name):
        raise UserError("give the board with --board FILE.toml (its rows and cols are read)")
    board = load_board(str(args.board or board_name), required=())
    corners = parse_corners(args.corners)
    image = read_image(args.photo)
    lexicon = load_wordlist(args.lexicon) if args.lexicon else builtin_lexicon(args.language)
    index = reading_index(lexicon, args.language, alphabet(args.language))
    try:
        read = TileReader(board, args.language, corners=corners, index=index).read(image)
    except VisionError as error:
        raise UserError(str(error), exit_code=3) from None
    used = corners_text(read.located.corners)
    marks = board.layers.get("marks")
    stars = [[r, c] for r in range(board.rows) for c in range(board.cols)
             if marks and marks[r][c] == "*" and read.rows[r][c] != "."]
    if args.json:
        print(json.dumps({"grid": list(read.rows), "words": [w.to_json() for w in read.words], "score": len(stars),
                          "stars": stars, "unsure": [[s.row, s.col] for s in read.unsure],
                          "confirm": bool(read.unsure), "found_by": read.located.method,
                          "corners": np.round(np.asarray(read.located.corners, float), 1).tolist()},
                         ensure_ascii=False))
        return 0
    print(f"{board.name}: read by {read.located.method}")
    if read.located.method == "grid":
        print(f"grid found at --corners {used} (give --corners to use others)")
    for r, row in enumerate(read.rows):
        print(f"{r + 1:>3} {' '.join(row)}")
    for word in read.words:
        note = "" if word.in_lexicon else "  (not in the dictionary)"
        print(f"  {word.text} at {word.squares[0].name} {word.direction.value}{note}")
    if marks:
        print(f"stars covered: {len(stars)}")
    if read.unsure:
        names = ", ".join(s.name for s in read.unsure[:12]) + (" ..." if len(read.unsure) > 12 else "")
        print(f"warning: {len(read.unsure)} squares read unsure, please check: {names}", file=sys.stderr)
    return 0
