"""Built-in data that ships with the package: boards (and their file paths).

>>> load_board("extradiction-sp").rows
19
"""

from __future__ import annotations

import os
import pathlib

from rules.board import REQUIRED_LAYERS, Board, parse_board
from rules.errors import BoardFormatError
from tabletop.errors import UserError
from tabletop.files import read_user_text

DATA = pathlib.Path(__file__).resolve().parent / "data"
BOARDS = DATA / "boards"


def builtin_boards() -> list[str]:
    """Names of the built-in boards, e.g. ``['extradiction', 'extradiction-sp']``."""
    return sorted(p.stem for p in BOARDS.glob("*.toml"))


def load_board(name_or_path: str | os.PathLike, relative_to: str | os.PathLike | None = None,
               required: tuple[str, ...] = REQUIRED_LAYERS) -> Board:
    """A built-in board by name, or a TOML board file (a relative path is taken from ``relative_to``);
    ``required``: the layers the game reads (default: the crossword games')."""
    text_name = str(name_or_path)
    if text_name in builtin_boards():
        path = BOARDS / f"{text_name}.toml"
    else:
        path = pathlib.Path(name_or_path)
        if relative_to is not None and not path.is_absolute():
            path = pathlib.Path(relative_to) / path
        if not path.exists():
            raise UserError(
                f"no board {text_name!r}: not a built-in board ({', '.join(builtin_boards())}) nor a file ({path})"
            )
    text = read_user_text(path, "board file")
    try:
        return parse_board(text, source=str(path if path.parent != BOARDS else path.name), required=required)
    except BoardFormatError as error:
        raise UserError(str(error)) from None
