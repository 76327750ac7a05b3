"""``tabletop score PHOTO --game sequence-letters``: the chips on the picture board (the ``chips``
kind of piece, :mod:`tabletop.pieces.chips`)."""

from __future__ import annotations

import json
from typing import Any

from tabletop.errors import UserError


def score_chips(args: Any, game: Any) -> int:
    """``score --game sequence-letters``: each picture's chip (DESIGN.md's grid), and the line of
    four when one is on the board."""
    from rules.sequence_letters import four_in_a_row
    from vision.chips import ChipReader
    from vision.errors import VisionError

    from tabletop.files import read_image
    from tabletop.games import spec
    from tabletop.resources import load_board

    rules = spec(args.game).rules
    board = load_board(args.board or spec(args.game).board or args.game, required=rules.board_layers)
    image = read_image(args.photo)
    try:
        read = ChipReader(board).read(image)
    except VisionError as error:
        raise UserError(str(error), exit_code=3) from None
    code, line = four_in_a_row(read.rows)
    if args.json:
        data: dict[str, Any] = {"grid": list(read.rows)}
        if code:
            data.update(winner=code, sequence=[[sq.row, sq.col] for sq in line])
        print(json.dumps(data))
    else:
        print(f"{board.name}: read by {read.located.method}")
        for r, row in enumerate(read.rows):
            print(f"{r + 1:>3} {' '.join(row)}")
        print(f"four in a row: {code} on " + ", ".join(sq.name for sq in line) if code else "no four in a row")
    return 0
