"""Fixtures for the vision tests: small boards with every kind of printed mark."""

from __future__ import annotations


import pytest

from rules.board import parse_board


#: one real handwriting font, from Debian's fonts-humor-sans (scripts/apt-packages.txt)


def make_board(rows=9, cols=9):
    values = ["".join(str((r * 3 + c * 5) % 6) for c in range(cols)) for r in range(rows)]
    zones = ["".join("AB"[c * 2 // cols] if r < rows // 2 else ("." if c % 3 == 0 else "C") for c in range(cols)) for r in range(rows)]
    marks = ["".join(".!*D.#"[(r + 2 * c) % 6] if (r * c) % 4 == 1 else "." for c in range(cols)) for r in range(rows)]
    text = f"name = 'marks'\nrows = {rows}\ncols = {cols}\n[layers]\nvalues = {values}\nzones = {zones}\nmarks = {marks}\n"
    return parse_board(text.replace("'", '"'), source="test")


@pytest.fixture(scope="session")
def marks_board():
    """A 9x9 board with every value colour, zone lines, '!', '*', 'D' and '#' squares."""
    return make_board()


@pytest.fixture(scope="session")
def sp_board():
    from tabletop.resources import load_board

    return load_board("extradiction-sp")


@pytest.fixture(scope="session")
def small_board():
    from tabletop.resources import load_board

    return load_board("extradiction")
