"""Reading the chips on a printed Sequence Letters board: per picture square, no chip or a chip
of one of the sides' colours, whatever picture is printed under it.

The board is found by its four markers (:func:`vision.locate.locate`, with the picture board's
layout) and warped top-down. The reader knows what the printed board looks like there (it
draws the same page, :func:`vision.picture_board.draw_picture_board`), so a square is judged by
how its middle differs from the printed picture, after matching the square's brightness and
colour balance to the print by its white paper: a chip hides most of the middle under one
colour, the picture under it does not matter (a red chip on the red apple differs from the apple
in shape, shading and hue). The chip's colour is the nearest of the chip colours (in Lab's
a*, b*) of the pixels that changed most.

>>> from tabletop.resources import load_board
>>> from rules.squares import Square
>>> from vision.synth.chipscene import chip_scene
>>> board = load_board("sequence-letters", required=("letters", "colors"))
>>> read = ChipReader(board).read(chip_scene(board, {Square(0, 0): "r", Square(2, 5): "b"}, seed=2))
>>> read.rows[0], read.rows[2]
('r.......', '.....b..')
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from rules.board import Board
from rules.squares import Square
from vision.layout import MARKER_IDS, Layout, grid_squares
from vision.locate import MARGIN, Located, locate
from vision.picture_board import GAP_CELLS, MARKER_CELLS, draw_picture_board

#: a square's paper is the brightest of its paper band: this percentile of it
PAPER_PERCENTILE = 50
#: a square's paper this much darker than its neighbours' in a colour is a chip on it, not light
ODD_LIGHT = 0.15
#: chip colours (BGR, as printed plastic looks under white light), by code: red, blue, green
CHIP_COLOURS = {"r": (45, 45, 205), "b": (190, 95, 35), "g": (70, 160, 40)}
#: a chip's core (a disc this share of a square in radius) is where it is looked for
CHIP_CORE = 0.2
#: a chip lies where this share of such a disc changed to a chip's colour
CHIP_DENSITY = 0.8
#: a chip found explains the changes this share of a square round its core (its side, its shadow)
EXPLAINED = 0.5
#: a chip's core is the highest density this share of a square round it
PEAK = 0.3
#: a chip's core is searched this share of a square round the square's centre
SEARCH = 0.36
#: a square without a chip is covered (``?``) when this share of its middle differs from the print
CHIP_SHARE = 0.12
#: a pixel differs from the print by this much (Lab distance, 0..~300)
CHANGED = 55.0
#: changed pixels further than this (Lab a*b*) from every chip colour are no chip: a hand, a
#: sleeve, a card put down on the board (the square reads ``?``, occluded)
MAX_AB_DISTANCE = 40.0
#: both the print and the photo are blurred this much (pixels of a 48-pixel square) before they
#: are compared: the print's fine lines never line up to the pixel; a chip is a large blot
BLUR = 2.5


#: a square covered by something that is no chip
OCCLUDED = "?"


@dataclass(frozen=True)
class ChipsRead:
    """What is on the board: ``rows`` as DESIGN.md's grid (``.`` or a chip's code, ``?`` for a
    square covered by something else), per square the share of its middle that changed
    (``coverage``), and where the board was found."""

    rows: tuple[str, ...]
    coverage: np.ndarray
    located: Located

    def chip(self, square: Square) -> str | None:
        code = self.rows[square.row][square.col]
        return None if code in (".", OCCLUDED) else code

    @property
    def occluded(self) -> list[Square]:
        """The squares covered by something that is no chip (a hand over the board)."""
        return [Square(r, c) for r, row in enumerate(self.rows) for c, code in enumerate(row) if code == OCCLUDED]


class ChipReader:
    """Reads the chips on one printed picture board (see the module docstring)."""

    def __init__(self, board: Board, colours: dict[str, tuple[int, int, int]] | None = None, *, cell: int = 48):
        self.board, self.cell = board, cell
        self.colours = dict(colours or CHIP_COLOURS)
        self.markers = self.markers_for(board)
        from rules.sequence_letters import picture_names

        width, height = int(round((board.cols + 2 * MARGIN) * cell)), int(round((board.rows + 2 * MARGIN) * cell))
        reference = np.full((height, width, 3), 255, np.uint8)
        draw_picture_board(board, picture_names(board), float(cell), (MARGIN * cell, MARGIN * cell), reference)
        self.reference = cv2.GaussianBlur(reference, (0, 0), BLUR * cell / 48)
        self._reference_lab = cv2.cvtColor(self.reference, cv2.COLOR_BGR2LAB).astype(np.float32)
        yy, xx = np.mgrid[0:cell, 0:cell]
        centre = (cell - 1) / 2
        self._middle = (xx - centre) ** 2 + (yy - centre) ** 2 <= (0.27 * cell) ** 2
        self._paper = np.zeros((cell, cell), bool)           # white paper: the band right of the letter's square
        self._paper[int(cell * 0.06):int(cell * 0.3), int(cell * 0.36):int(cell * 0.92)] = True
        chips = np.array([list(v) for v in self.colours.values()], np.uint8).reshape(-1, 1, 3)
        self._chip_ab = cv2.cvtColor(chips, cv2.COLOR_BGR2LAB).reshape(-1, 3)[:, 1:].astype(np.float32)
        self._codes = list(self.colours)
        radius = CHIP_CORE * cell
        size = int(np.ceil(radius)) * 2 + 1
        yy, xx = np.mgrid[0:size, 0:size] - size // 2
        disc = (xx ** 2 + yy ** 2 <= radius ** 2).astype(np.float32)
        self._disc = disc / disc.sum()

    @staticmethod
    def markers_for(board: Board) -> dict[int, np.ndarray]:
        """Where the picture board's markers are printed, in cells from the grid's top left."""
        layout = Layout(board.rows, board.cols, marker=MARKER_CELLS, gap=GAP_CELLS)
        return {i: layout.marker_corners(i) for i in MARKER_IDS}

    def read(self, frame: np.ndarray) -> ChipsRead:
        """The chips in ``frame`` (BGR). Raises :class:`vision.errors.BoardNotFound` when the
        board's markers are not seen, :class:`vision.errors.BadImage` for what is no image."""
        located = locate(frame, self.board.rows, self.board.cols, cell=self.cell, marker_corners=self.markers)
        top = cv2.GaussianBlur(located.warp(frame), (0, 0), BLUR * self.cell / 48)
        rows_n, cols_n, c, m = self.board.rows, self.board.cols, self.cell, int(MARGIN * self.cell)
        seen = grid_squares(top, c, rows_n, cols_n, m).astype(np.float32)
        printed = grid_squares(self.reference, c, rows_n, cols_n, m).astype(np.float32)
        # each square's brightness and colour balance matched to the print by its white paper;
        # where that differs much from its neighbours', theirs (a chip off its centre may lie on it)
        # (its brightest pixels there: a chip is darker than paper)
        gain = np.percentile(seen[:, :, self._paper], PAPER_PERCENTILE, axis=2) / \
            np.maximum(np.percentile(printed[:, :, self._paper], PAPER_PERCENTILE, axis=2), 1)
        around = _neighbourhood_median(gain)
        odd = (gain < (1 - ODD_LIGHT) * around).any(2)
        gain[odd] = around[odd]
        balanced = np.clip(seen / np.maximum(gain, 0.05)[:, :, None, None, :], 0, 255).astype(np.uint8)
        lab = cv2.cvtColor(_image(balanced), cv2.COLOR_BGR2LAB).astype(np.float32)
        diff = np.linalg.norm(lab - self._reference_lab[m:m + rows_n * c, m:m + cols_n * c], axis=2)
        changed_image = diff > CHANGED
        changed = grid_squares(changed_image, c, rows_n, cols_n, 0) & self._middle
        coverage = changed.sum(axis=(2, 3)) / self._middle.sum()
        # chip-coloured changes, averaged over a disc: a chip is where that average is high,
        # searched round each square's centre (a chip may lie up to a third of a square off it)
        ab = lab[..., 1:]
        a_star, b_star = np.ascontiguousarray(ab[..., 0]), np.ascontiguousarray(ab[..., 1])
        near = np.min([(a_star - ca) ** 2 + (b_star - cb) ** 2 for ca, cb in self._chip_ab], axis=0)
        chipish = (changed_image & (near <= MAX_AB_DISTANCE ** 2)).astype(np.float32)
        density = cv2.filter2D(chipish, -1, self._disc, borderType=cv2.BORDER_CONSTANT)
        reach = int(round(SEARCH * c))
        # a chip's core is a peak: the flank of a neighbour's chip at the window's edge is none
        span = 2 * int(PEAK * c) + 1
        peaks = cv2.dilate(density, np.ones((span, span), np.uint8))
        lab_cells = grid_squares(lab, c, rows_n, cols_n, 0)
        found: dict[tuple[int, int], tuple[int, int]] = {}       # square -> where its chip's core is
        for r in range(rows_n):
            for col in range(cols_n):
                if self.board.cell("letters", Square(r, col)) == ".":
                    continue
                cy, cx = r * c + c // 2, col * c + c // 2
                y0, x0 = max(0, cy - reach), max(0, cx - reach)
                window = density[y0:cy + reach + 1, x0:cx + reach + 1]
                at = np.unravel_index(int(np.argmax(window)), window.shape)
                if window[at] >= CHIP_DENSITY and window[at] >= peaks[y0 + at[0], x0 + at[1]] - 1e-6:
                    found[(r, col)] = (y0 + int(at[0]), x0 + int(at[1]))
        # what a chip found explains (its top, its side, its shadow) is no cover on a neighbour
        explained = np.zeros_like(changed_image)
        for y, x in found.values():
            cv2.circle(explained.view(np.uint8), (x, y), int(EXPLAINED * c), 1, -1)
        covered = grid_squares(changed_image & ~explained, c, rows_n, cols_n, 0) & self._middle
        uncovered = covered.sum(axis=(2, 3)) / self._middle.sum()
        rows: list[str] = []
        core = int(0.25 * c)
        for r in range(rows_n):
            line = []
            for col in range(cols_n):
                if self.board.cell("letters", Square(r, col)) == ".":
                    line.append(".")
                elif (r, col) in found:
                    y, x = found[(r, col)]
                    box = (slice(max(0, y - core), y + core + 1), slice(max(0, x - core), x + core + 1))
                    colour = np.median(ab[box][chipish[box] > 0], axis=0)
                    line.append(self._codes[int(np.argmin(np.linalg.norm(self._chip_ab - colour, axis=1)))])
                elif uncovered[r, col] >= CHIP_SHARE:    # a chip on a picture of its colour, or no chip
                    colour = np.median(lab_cells[r, col][covered[r, col]][:, 1:], axis=0)
                    distance = np.linalg.norm(self._chip_ab - colour, axis=1)
                    best = int(np.argmin(distance))
                    line.append(self._codes[best] if distance[best] <= MAX_AB_DISTANCE else OCCLUDED)
                else:
                    line.append(".")
            rows.append("".join(line))
        return ChipsRead(tuple(rows), coverage, located)


def _neighbourhood_median(values: np.ndarray, reach: int = 2) -> np.ndarray:
    """Per square (``values``: rows x cols x channels), the median of the squares at most
    ``reach`` rows and columns from it (itself included)."""
    rows, cols = values.shape[:2]
    padded = np.pad(values.astype(np.float64), ((reach, reach), (reach, reach), (0, 0)), constant_values=np.nan)
    side = 2 * reach + 1
    stack = np.stack([padded[dr:dr + rows, dc:dc + cols] for dr in range(side) for dc in range(side)])
    return np.asarray(np.nanmedian(stack, axis=0))


def _image(cells: np.ndarray) -> np.ndarray:
    """A grid image from its squares, (rows, cols, cell, cell, channels): the inverse of
    :func:`vision.layout.grid_squares`."""
    rows, cols, cell, _, channels = cells.shape
    return np.ascontiguousarray(cells.transpose(0, 2, 1, 3, 4).reshape(rows * cell, cols * cell, channels))
