"""``tabletop score PHOTO --game letter-dice``: the faces the dice show (the ``dice`` kind of
piece, :mod:`tabletop.pieces.dice`)."""

from __future__ import annotations

import json
from typing import Any

from tabletop.errors import UserError


def score_dice(args: Any, game: Any) -> int:
    """``score --game letter-dice``: the faces the dice show, one a die in the set's order."""
    from rules.letter_dice_sets import DICE
    from vision.dice import DiceReader
    from vision.errors import VisionError

    from tabletop.files import read_image

    if args.language not in DICE:
        raise UserError(f"there are dice for {', '.join(DICE)}, not {args.language!r}")
    image = read_image(args.photo)
    try:
        roll = DiceReader(DICE[args.language]).read(image)
    except VisionError as error:
        raise UserError(str(error), exit_code=3) from None
    if args.json:
        print(json.dumps(roll.to_json(), ensure_ascii=False))
    else:
        for die, (face, sure) in enumerate(zip(roll.faces, roll.confidence), start=1):
            print(f"die {die}: {'Joker' if face == '*' else face}  (match {sure:.2f})")
    return 0
