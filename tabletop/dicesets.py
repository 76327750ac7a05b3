"""A box's own letter dice, from a small TOML file (``examples/dice/classic-16.toml``)::

    name = "classic 16-dice tray"
    dice = ["A A E E G N", "A B B J O O", ...]

Each die is its six faces separated by spaces (or six one-letter faces written together:
``"AAEEGN"``), upper case as printed: ``QU`` is one face, ``*`` a wild face. The plain dice
reader (:mod:`vision.plaindice`) matches the dice it sees to these, which settles what a face
alone cannot (an M with no W in the box).

>>> parse_dice_set('dice = ["A A E E G N", "HIMNQU", "H I M N Qu U"]', "box.toml")
(('A', 'A', 'E', 'E', 'G', 'N'), ('H', 'I', 'M', 'N', 'Q', 'U'), ('H', 'I', 'M', 'N', 'QU', 'U'))
"""

from __future__ import annotations

import os
import pathlib
import tomllib

from tabletop.errors import UserError

#: the faces a die has
SIDES = 6


def _faces(die: object, number: int, source: str) -> tuple[str, ...]:
    if isinstance(die, str):
        faces = die.split() if len(die.split()) > 1 else list(die.strip())
    elif isinstance(die, list) and all(isinstance(f, str) for f in die):
        faces = [f.strip() for f in die]
    else:
        raise UserError(f"{source}: die {number} must be a text of its six faces, like \"A A E E G N\"")
    faces = [f.upper() for f in faces]
    if len(faces) != SIDES or not all(faces):
        raise UserError(f"{source}: die {number} has {len(faces)} faces, not {SIDES}")
    return tuple(faces)


def parse_dice_set(text: str, source: str = "the dice set") -> tuple[tuple[str, ...], ...]:
    """The dice of a dice-set file's text; a :class:`UserError` naming what is wrong.

    >>> parse_dice_set('dice = ["AB"]', "box.toml")
    Traceback (most recent call last):
    ...
    tabletop.errors.UserError: box.toml: die 1 has 2 faces, not 6
    """
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as error:
        raise UserError(f"{source} is not a TOML file: {error}") from None
    dice = data.get("dice")
    if not isinstance(dice, list) or not dice:
        raise UserError(f"{source} has no dice: write dice = [\"A A E E G N\", ...], one text a die")
    return tuple(_faces(die, number, source) for number, die in enumerate(dice, start=1))


def load_dice_set(path: str | os.PathLike) -> tuple[tuple[str, ...], ...]:
    """The dice of a dice-set file (see the module's example)."""
    from tabletop.files import check_regular_file

    path = pathlib.Path(path)
    check_regular_file(path, "dice set", 1 << 20)
    try:
        text = path.read_text(encoding="utf-8")
    except UnicodeDecodeError:
        raise UserError(f"{path} is not a text file") from None
    return parse_dice_set(text, str(path))
