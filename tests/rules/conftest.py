"""Fixtures that build boards, lexicons and games for the rules tests."""

from __future__ import annotations

import pathlib

import pytest

from rules.lexicon import Lexicon
from tests.helpers import board_from

ROOT = pathlib.Path(__file__).resolve().parents[2]


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


