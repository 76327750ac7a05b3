"""The search over candidates: each plane's lattice guesses (:func:`_first_search`), the
likeliest grids moved by a square or two (:func:`_shifts`), each axis at the other's spacing
(:func:`_crossed`), and the planes' windows (:func:`_windows`)."""

from __future__ import annotations

from typing import Callable

import cv2
import numpy as np

from vision.gridfind.check import _refine_and_check
from vision.gridfind.found import PATTERN_CLEAR, GridFound
from vision.gridfind.geometry import CELL, _canonical, _grid
from vision.gridfind.lattice import PlaneView, _lattice_guesses, _window_guesses
from vision.gridfind.planes import _planes

#: the candidates of a plane refined (the best by their first check)
REFINED = 3
#: how many squares a likely grid is moved each way when none is convincing, if its lines'
#: share is this much at least (else nothing there looks like a grid)
SHIFT, GRID_LIKE = 2, 0.35
#: the method's tag of a grid first guessed with an axis at the other's spacing (:func:`_crossed`)
CROSS = "+cross"


def _first_search(small: np.ndarray, gray: np.ndarray, rows: int, cols: int, layout: np.ndarray | None
                  ) -> tuple[GridFound | None, list[PlaneView], list[np.ndarray], list[GridFound]]:
    """The first search: each candidate plane's lattice guesses checked, the likeliest refined;
    the best bounded grid (None: none), the planes looked at, the guesses seen (their corners)
    and each plane's likeliest first check (for :func:`_shifts`). It stops at a sure grid."""
    best: GridFound | None = None
    seen: list[np.ndarray] = []
    tried: list[GridFound] = []
    planes: list[PlaneView] = []
    for method, plane, size in _planes(gray):
        view = PlaneView(small, method, plane, size)      # its edges kept for the searches after this one
        planes.append(view)
        quick = []
        for guess in _lattice_guesses(view, rows, cols):
            if _seen_before(guess, seen):
                continue
            seen.append(guess)
            first = _refine_and_check(small, guess, rows, cols, layout, method, refine=0)
            if first is not None:
                quick.append(first)
        quick.sort(key=lambda f: -f.score)
        tried.extend(quick[:1])
        for first in quick[:REFINED]:                   # the likeliest few refined and checked again
            found = _refine_and_check(small, first.corners, rows, cols, layout, method)
            if found is not None and found.bounded and (best is None or found.score > best.score):
                best = found
            if best is not None and best.sure:
                break                                    # a clear grid: the others need not be looked at
        if best is not None and best.sure:
            break
    return best, planes, seen, tried


def _seen_before(guess: np.ndarray, seen: list[np.ndarray]) -> bool:
    """Whether a grid at ``guess`` (its corners) was seen already: every corner within two
    pixels of one in ``seen``.

    >>> _seen_before(np.zeros((4, 2)), [np.ones((4, 2)) * 5, np.ones((4, 2))])
    True
    """
    return bool(seen) and bool((np.abs(np.asarray(seen) - guess).max(axis=(1, 2)) < 2.0).any())


def _better(found: GridFound | None, best: GridFound | None) -> bool:
    """Whether ``found`` is kept over ``best`` when searching again: it ends at its outer lines,
    and is convincing (with every line seen, :attr:`GridFound.every_line_seen`, first) where
    ``best`` is not, or as convincing with a higher score; one first
    guessed at the other axis's spacing (:func:`_crossed`) only where its premium squares follow
    the layout clearly."""
    if found is None or not found.bounded:
        return False
    if CROSS in found.method and found.pattern is not None and found.pattern < PATTERN_CLEAR:
        return False
    return best is None or (found.every_line_seen, found.convincing, found.score) > \
        (best.every_line_seen, best.convincing, best.score)


def _shifts(small: np.ndarray, tried: list[GridFound], best: GridFound | None, rows: int, cols: int,
            layout: np.ndarray | None) -> GridFound | None:
    """With no convincing grid yet: each plane's likeliest grid moved by up to two squares each
    way (the right spacing, the wrong first line: a board's edge or a row of tiles looked like
    the grid's end), checked, and the likeliest refined."""
    moved = []
    for first in sorted((f for f in tried if f.lines >= GRID_LIKE), key=lambda f: -f.score)[:2]:
        inv = np.linalg.inv(_canonical(first.corners, rows, cols))
        for dy in range(-SHIFT, SHIFT + 1):
            for dx in range(-SHIFT, SHIFT + 1):
                if dx or dy:
                    grid = _grid(rows, cols).astype(np.float64) + np.array([dx, dy]) * CELL
                    corners = cv2.perspectiveTransform(grid.reshape(-1, 1, 2), inv).reshape(4, 2)
                    found = _refine_and_check(small, corners, rows, cols, layout, first.method, refine=0)
                    if found is not None and found.bounded:
                        moved.append(found)
    for first in sorted(moved, key=lambda f: -f.score)[:REFINED]:
        found = _refine_and_check(small, first.corners, rows, cols, layout, first.method)
        if _better(found, best):
            best = found
    return best


def _windows(small: np.ndarray, planes: list[PlaneView], seen: list[np.ndarray], best: GridFound | None,
             rows: int, cols: int, layout: np.ndarray | None, tried: list[GridFound] | None = None) -> GridFound | None:
    """With no convincing grid yet: each plane's windows where lines run both ways
    (:func:`_window_guesses`: a small board on a busy table), their grids checked, and the
    likeliest refined; each plane's likeliest added to ``tried``, if given (for :func:`_shifts`)."""
    return _again(small, planes, seen, best, rows, cols, layout, _window_guesses, "+window", tried)


def _crossed(small: np.ndarray, planes: list[PlaneView], seen: list[np.ndarray], best: GridFound | None,
             rows: int, cols: int, layout: np.ndarray | None, tried: list[GridFound]) -> GridFound | None:
    """With no convincing grid yet: each plane's lattice with one axis's lines at the other's
    spacing (:func:`_lattice_guesses` ``cross``: rows of tiles, or a table's pattern, folded
    best on one axis), their grids checked, and the likeliest refined; each plane's likeliest
    added to ``tried`` (for :func:`_shifts`). A grid found this way is kept only where its
    premium squares follow the layout clearly (:data:`~vision.gridfind.found.PATTERN_CLEAR`): a
    lattice at a spacing not its own's fitted part of a green board 1.06 squares off, its lines
    standing out and its pattern 0.52 (tuning dark 1012)."""
    def guesses(view: PlaneView, rows: int, cols: int) -> list[np.ndarray]:
        return _lattice_guesses(view, rows, cols, cross=True)

    return _again(small, planes, seen, best, rows, cols, layout, guesses, CROSS, tried)


def _again(small: np.ndarray, planes: list[PlaneView], seen: list[np.ndarray], best: GridFound | None, rows: int, cols: int,
           layout: np.ndarray | None, guesses: Callable[..., list[np.ndarray]], tag: str,
           tried: list[GridFound] | None = None) -> GridFound | None:
    """Each plane searched again with other ``guesses`` (their method named with ``tag``): the
    guesses not ``seen`` yet checked, the likeliest refined; the best bounded grid so far. Each
    plane's likeliest first check is added to ``tried``, if given."""
    for view in planes:
        method = view.method
        quick = []
        for guess in guesses(view, rows, cols):
            if _seen_before(guess, seen):
                continue
            seen.append(guess)
            first = _refine_and_check(small, guess, rows, cols, layout, method + tag, refine=0)
            if first is not None:
                quick.append(first)
        quick.sort(key=lambda f: -f.score)
        if tried is not None:
            tried.extend(quick[:1])
        for first in quick[:REFINED]:
            found = _refine_and_check(small, first.corners, rows, cols, layout, first.method)
            if _better(found, best):
                best = found
        if best is not None and best.sure:
            break
    return best
