"""The geometry of a Questique board: its four star quadrants, their stars and diamond starts.

A Questique board file has two layers (docs/games/questique.md): ``marks`` (``*`` a star
square, ``D`` a diamond start square) and ``quadrants`` (one character names each of the four
star quadrants, ``.`` a square in none). Quadrants are numbered 0-3 clockwise from the top
left; each has a star at each corner and a start position of diamond squares inside.

>>> layout = QuestiqueLayout(standard_board())
>>> [s.name for s in layout.stars[0]]
['A1', 'I1', 'A9', 'I9']
>>> layout.quadrant_of(Square(4, 4)), layout.centre[0].name, layout.opposite(0), layout.right_of(3)
(0, 'E5', 2, 0)
>>> [s.name for s in layout.outer_stars(0)]
['A1', 'I1', 'A9']
>>> sorted(s.name for s in layout.back_stars(0))
['A1', 'I1', 'K1', 'S1']
>>> layout.most_diamonds(3), layout.most_diamonds(2), layout.most_diamonds(1)
(3, 2, 1)
"""

from __future__ import annotations

import functools

from rules import errors
from rules.board import Board, parse_board
from rules.squares import Square

#: the layers a Questique board file must have
LAYERS = ("marks", "quadrants")
#: quadrant numbers clockwise from the top left, and the names people use for them
QUADRANT_NAMES = ("top left", "top right", "bottom right", "bottom left")
#: the most letters a first word may have (a board's row is rarely longer)
_LONGEST = 40


class QuestiqueLayout:
    """Where a Questique board's stars, quadrants and diamond starts are.

    Raises :class:`~rules.errors.BoardFormatError` for a board that is not a Questique board:
    not four quadrants one in each corner area, a quadrant without a star at each corner or
    without diamond squares, a star or diamond outside every quadrant.
    """

    def __init__(self, board: Board):
        self.board = board
        source = board.name
        if "quadrants" not in board.layers or "marks" not in board.layers:
            raise errors.BoardFormatError("a Questique board needs the layers 'marks' and 'quadrants'", source)
        found: dict[str, list[Square]] = {}
        for square in board.squares():
            ch = board.cell("quadrants", square)
            if ch != ".":
                found.setdefault(ch, []).append(square)
            elif board.mark(square) in "*D":
                raise errors.BoardFormatError(
                    f"{square.name} is a star or diamond square outside every star quadrant", source)
        if len(found) != 4:
            raise errors.BoardFormatError(f"a Questique board has four star quadrants, not {len(found)}", source)
        by_place: dict[int, list[Square]] = {}
        for members in found.values():
            by_place[self._place(members)] = members
        if sorted(by_place) != [0, 1, 2, 3]:
            raise errors.BoardFormatError("the four star quadrants must lie one in each corner of the board", source)
        #: quadrant number -> its squares
        self.squares: tuple[frozenset[Square], ...] = tuple(frozenset(by_place[k]) for k in range(4))
        self._quadrant = {sq: k for k, squares in enumerate(self.squares) for sq in squares}
        stars: list[tuple[Square, ...]] = []
        diamonds: list[frozenset[Square]] = []
        centres: list[Square] = []
        for k, squares in enumerate(self.squares):
            rows = [s.row for s in squares]
            cols = [s.col for s in squares]
            corners = [Square(r, c) for r in (min(rows), max(rows)) for c in (min(cols), max(cols))]
            own_stars = sorted(s for s in squares if board.mark(s) == "*")
            if sorted(corners) != own_stars:
                raise errors.BoardFormatError(
                    f"the {QUADRANT_NAMES[k]} star quadrant must have a star square at each of its four corners "
                    f"and no others ({', '.join(s.name for s in corners)})", source)
            own_diamonds = sorted(s for s in squares if board.mark(s) == "D")
            if not own_diamonds:
                raise errors.BoardFormatError(f"the {QUADRANT_NAMES[k]} star quadrant has no diamond start squares", source)
            stars.append(tuple(own_stars))
            diamonds.append(frozenset(own_diamonds))
            centres.append(_middle(diamonds[-1]))
        #: quadrant number -> its four star squares in reading order
        self.stars: tuple[tuple[Square, ...], ...] = tuple(stars)
        #: quadrant number -> its diamond start squares
        self.diamonds: tuple[frozenset[Square], ...] = tuple(diamonds)
        #: quadrant number -> the middle of its diamond start (the diamond with most diamond neighbours)
        self.centre: tuple[Square, ...] = tuple(centres)
        #: every star square of the board
        self.all_stars: frozenset[Square] = frozenset(s for stars in self.stars for s in stars)

    def _place(self, squares: list[Square]) -> int:
        """0-3: which corner area of the board a quadrant's middle lies in (clockwise from top left)."""
        mid_r = sum(s.row for s in squares) / len(squares) - (self.board.rows - 1) / 2
        mid_c = sum(s.col for s in squares) / len(squares) - (self.board.cols - 1) / 2
        if mid_r < 0:
            return 0 if mid_c < 0 else 1
        return 3 if mid_c < 0 else 2

    # -- lookups ---------------------------------------------------------------------------------
    def quadrant_of(self, square: Square) -> int | None:
        """The number of the quadrant ``square`` lies in, or ``None``."""
        return self._quadrant.get(square)

    @staticmethod
    def opposite(quadrant: int) -> int:
        """The quadrant diagonally opposite."""
        return (quadrant + 2) % 4

    @staticmethod
    def right_of(quadrant: int) -> int:
        """The quadrant to the right: the next one clockwise (a choice; the rule text is silent)."""
        return (quadrant + 1) % 4

    def outer_stars(self, quadrant: int) -> tuple[Square, ...]:
        """A quadrant's three outer stars: all but the one nearest the board's middle."""
        mid_r, mid_c = (self.board.rows - 1) / 2, (self.board.cols - 1) / 2
        inner = min(self.stars[quadrant], key=lambda s: abs(s.row - mid_r) + abs(s.col - mid_c))
        return tuple(s for s in self.stars[quadrant] if s != inner)

    def back_stars(self, quadrant: int) -> frozenset[Square]:
        """The back four stars of the half of the board a two-player game gives the player who
        starts in ``quadrant``: that quadrant and the one to its right; the back is the board
        edge both share (top for the top-left start)."""
        half = (quadrant, self.right_of(quadrant))
        stars = [s for k in half for s in self.stars[k]]
        mid_r, mid_c = (self.board.rows - 1) / 2, (self.board.cols - 1) / 2
        dr = sum(s.row - mid_r for s in stars)
        dc = sum(s.col - mid_c for s in stars)
        return frozenset(sorted(stars, key=lambda s: -((s.row - mid_r) * dr + (s.col - mid_c) * dc))[:4])

    def most_diamonds(self, length: int, quadrant: int = 0) -> int:
        """The most diamond squares of ``quadrant`` a straight word of ``length`` letters can cover."""
        return _most_diamonds(self.diamonds[quadrant], length)


@functools.lru_cache(maxsize=1024)
def _most_diamonds(diamonds: frozenset[Square], length: int) -> int:
    """Worked out once per diamond start and length, outside the layout (which never changes)."""
    best = 0
    for start in diamonds:
        for dr, dc in ((0, 1), (1, 0)):
            for back in range(min(length, _LONGEST)):
                first = Square(start.row - dr * back, start.col - dc * back)
                run = {Square(first.row + dr * i, first.col + dc * i) for i in range(length)}
                best = max(best, len(run & diamonds))
    return best


def standard_board_toml(quadrant: int = 9) -> str:
    """The built-in board's TOML (``tabletop/data/boards/questique.toml`` is this text).

    Four identical ``quadrant`` x ``quadrant`` star quadrants in the corners of a square board,
    a one-square cross between them; a star at each quadrant's corners and a five-square diamond
    start (a plus) at each quadrant's middle.

    >>> standard_board_toml().splitlines()[4:7]
    ['name = "Questique"', 'rows = 19', 'cols = 19']
    """
    n, middle = 2 * quadrant + 1, quadrant // 2
    marks = [["."] * n for _ in range(n)]
    quadrants = [["."] * n for _ in range(n)]
    for number, (r0, c0) in zip("1234", ((0, 0), (0, quadrant + 1), (quadrant + 1, quadrant + 1), (quadrant + 1, 0))):
        for r in range(quadrant):
            for c in range(quadrant):
                quadrants[r0 + r][c0 + c] = number
        for r, c in ((0, 0), (0, quadrant - 1), (quadrant - 1, 0), (quadrant - 1, quadrant - 1)):
            marks[r0 + r][c0 + c] = "*"
        for dr, dc in ((-1, 0), (0, -1), (0, 0), (0, 1), (1, 0)):
            marks[r0 + middle + dr][c0 + middle + dc] = "D"
    lines = ["# The built-in Questique board (rules.questique_layout.standard_board_toml; docs/games/questique.md).",
             "# quadrants: the four star quadrants, 1-4 clockwise from the top left ('.' in none).",
             "# marks: '*' star squares (each quadrant's corners), 'D' the diamond start squares.",
             "",
             'name = "Questique"', f"rows = {n}", f"cols = {n}", f"center = [{n // 2}, {n // 2}]", "", "[layers]"]
    for name, layer in (("marks", marks), ("quadrants", quadrants)):
        lines += [f"{name} = ["] + [f'  "{"".join(row)}",' for row in layer] + ["]"]
    return "\n".join(lines) + "\n"


def standard_board() -> Board:
    """The built-in board (:func:`standard_board_toml`), parsed."""
    return parse_board(standard_board_toml(), source="questique", required=LAYERS)


def _middle(diamonds: frozenset[Square]) -> Square:
    """The diamond with the most diamond neighbours (the top left one of equals)."""
    def neighbours(square: Square) -> int:
        return sum(Square(square.row + dr, square.col + dc) in diamonds for dr, dc in ((0, 1), (1, 0), (0, -1), (-1, 0)))
    return min(diamonds, key=lambda s: (-neighbours(s), s))
