"""``tabletop score PHOTO --game letter-dice``: the faces the dice show (the ``dice`` kind of
piece, :mod:`tabletop.pieces.dice`).

Two kinds of dice: dice with the labels ``tabletop print-dice`` prints (the default: the set is
the language's, ``--language``), and plain letter dice, a family's box or a Boggle-style tray
(``--plain``, or ``--dice SET.toml`` naming the box's own dice; :mod:`vision.plaindice`).
"""

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

    if getattr(args, "plain", False) or getattr(args, "dice", None):
        return score_plain_dice(args)
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


def score_plain_dice(args: Any) -> int:
    """``score --pieces dice --plain`` (or ``--dice SET.toml``): each plain die's face and centre,
    and a tray's rows read upright."""
    from vision.errors import VisionError
    from vision.plaindice import default_reader

    from tabletop.dicesets import load_dice_set
    from tabletop.files import read_image

    dice_set = load_dice_set(args.dice) if getattr(args, "dice", None) else None
    image = read_image(args.photo)
    try:
        read = default_reader().read(image, dice_set)
    except VisionError as error:
        raise UserError(str(error), exit_code=3) from None
    if args.json:
        print(json.dumps(read.to_json(), ensure_ascii=False))
        return 0
    for number, die in enumerate(read.dice, start=1):
        x, y = die.centre
        if die.face == "?":
            print(f"die {number} at ({x:.0f}, {y:.0f}): unsure, {' or '.join(die.candidates)}")
        else:
            print(f"die {number} at ({x:.0f}, {y:.0f}): {die.face}  (probability {die.confidence:.2f})")
    if read.grid is not None:
        print("the tray, upright:")
        for row in read.grid:
            print("  " + " ".join(f"{face:<2}" for face in row))
    return 0
