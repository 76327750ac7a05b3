"""Fixtures that build boards, lexicons and games for the rules tests."""

from __future__ import annotations

import pathlib

import pytest

from rules.board import parse_board
from rules.game import GameSetup
from rules.games import new_game
from rules.lexicon import Lexicon

ROOT = pathlib.Path(__file__).resolve().parents[2]


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


@pytest.fixture
def small_board():
    """7x7, every square worth 1, zones by column band (a: cols 0-2, b: 3, c: 4-6), centre D4."""
    return board_from(["1111111"] * 7, ["aaabccc"] * 7)


WORDS = ["cat", "cats", "at", "a", "act", "tab", "bat", "tea", "eat", "ate", "ta", "ab", "ba", "ace",
         "ice", "cream", "ice cream", "dog", "go", "to", "do", "cab", "tee", "bee", "be", "ace", "cot", "tot"]


@pytest.fixture
def lexicon():
    return Lexicon(WORDS, name="test words")


@pytest.fixture
def builtin_board():
    from tabletop.resources import load_board

    return load_board


def make_game(game_id, board, lexicon, players=("Ann", "Ben"), variant=None, seed=0, rounds=None):
    return new_game(GameSetup(game_id, players, variant=variant, seed=seed, rounds=rounds), board, lexicon)


def write(player, text, row, col, direction="across", **extra):
    return {"type": "write", "player": player, "text": text, "row": row, "col": col, "dir": direction, **extra}
