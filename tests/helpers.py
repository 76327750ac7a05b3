"""Helpers the tests share: builders of boards, games and events, and a polling wait.

Imported as ``from tests.helpers import ...`` (conftest files keep only fixtures).
"""

from __future__ import annotations

import importlib.util
import pathlib
import time
from types import ModuleType

from rules.board import parse_board
from rules.game import GameSetup
from rules.games import new_game

ROOT = pathlib.Path(__file__).resolve().parents[1]
#: the handwriting font Debian's fonts-humor-sans installs (the vision tests draw with it)
HUMOR_SANS = pathlib.Path("/usr/share/fonts/truetype/humor-sans")


def script_module(name: str) -> ModuleType:
    """The script ``scripts/NAME.py`` loaded as a module (the scripts are not a package), e.g.
    ``script_module("train_letters").build_net``."""
    spec = importlib.util.spec_from_file_location(name, ROOT / "scripts" / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def board_from(values: list[str], zones: list[str] | None = None, marks: list[str] | None = None, center=None):
    """A board from its layers (zones default to one zone 'a'; marks to plain)."""
    rows, cols = len(values), len(values[0])
    zones = zones or ["a" * cols] * rows
    text = f"rows = {rows}\ncols = {cols}\n"
    if center is not None:
        text += f"center = [{center[0]}, {center[1]}]\n"
    text += "[layers]\n"
    text += "values = [" + ", ".join(f'"{r}"' for r in values) + "]\n"
    text += "zones = [" + ", ".join(f'"{r}"' for r in zones) + "]\n"
    if marks:
        text += "marks = [" + ", ".join(f'"{r}"' for r in marks) + "]\n"
    return parse_board(text, "test board")


#: someone else's Questique board: 9x9, four 4x4 star quadrants, a 2x2 diamond start in each
POCKET_QUESTIQUE = """name = "Pocket Questique"
rows = 9
cols = 9
[layers]
marks = ["*..*.*..*", ".DD...DD.", ".DD...DD.", "*..*.*..*", ".........",
         "*..*.*..*", ".DD...DD.", ".DD...DD.", "*..*.*..*"]
quadrants = ["1111.2222", "1111.2222", "1111.2222", "1111.2222", ".........",
             "4444.3333", "4444.3333", "4444.3333", "4444.3333"]
"""


def make_game(game_id, board, lexicon, players=("Ann", "Ben"), variant=None, seed=0, rounds=None):
    return new_game(GameSetup(game_id, players, variant=variant, seed=seed, rounds=rounds), board, lexicon)


def write(player, text, row, col, direction="across", **extra):
    return {"type": "write", "player": player, "text": text, "row": row, "col": col, "dir": direction, **extra}


def wait_for(condition, timeout=3.0):
    """Poll ``condition`` until it holds or ``timeout`` seconds pass; whether it held."""
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            return False
        time.sleep(0.01)
    return True
