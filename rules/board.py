"""Board layouts: the layered-grid TOML format of DESIGN.md, parsed into a :class:`Board`.

Parsing is pure: it takes the file's text (reading the file is the caller's business).

>>> board = parse_board('''
... name = "tiny"
... rows = 2
... cols = 3
... [layers]
... values = ["123", "045"]
... zones  = ["aab", "..b"]
... ''', source="tiny.toml")
>>> board.value(Square(1, 2)), board.zone(Square(0, 0)), board.zone(Square(1, 0)), board.center
(5, 'a', None, Square(row=1, col=1))
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass, field
from typing import Iterator, Mapping

from rules.errors import BoardFormatError
from rules.squares import Square

#: marks layer: plain, chance square, star square, diamond start square, not playable.
MARKS = {".": "plain", "!": "chance", "*": "star", "D": "diamond", "#": "not playable"}
#: layers every board must have; others (marks, letters, colors, ...) are optional.
REQUIRED_LAYERS = ("values", "zones")


@dataclass(frozen=True)
class Board:
    """A printed board: its size, centre square and per-square layers (one string per row)."""

    name: str
    rows: int
    cols: int
    center: Square
    layers: Mapping[str, tuple[str, ...]] = field(repr=False)
    tables: Mapping[str, object] = field(default_factory=dict, repr=False, compare=False)

    def __contains__(self, square: object) -> bool:
        return (
            isinstance(square, tuple)
            and len(square) == 2
            and 0 <= square[0] < self.rows
            and 0 <= square[1] < self.cols
        )

    def label(self, square: Square) -> str:
        """The square as printed on this board (``'F8'``); one off it is named by its row and
        column counted from 1, and said to be off the board (no ``'[-1][0]'``, no ``'CV100'``
        that reads like a square of a bigger board).

        >>> board = Board("a 19x19 board", 19, 19, Square(9, 9), {})
        >>> board.label(Square(7, 5)), board.label(Square(-1, -1)), board.label(Square(99, 99))
        ('F8', 'row 0, column 0 (off the board, whose squares run from A1 to S19)', 'row 100, column 100 (off the board, whose squares run from A1 to S19)')
        """
        if square in self:
            return square.name
        last = Square(self.rows - 1, self.cols - 1).name
        return f"row {square[0] + 1}, column {square[1] + 1} (off the board, whose squares run from A1 to {last})"

    def squares(self) -> Iterator[Square]:
        """Every square in row-major order (row 0 first)."""
        for r in range(self.rows):
            for c in range(self.cols):
                yield Square(r, c)

    def cell(self, layer: str, square: Square) -> str:
        """The character of ``layer`` at ``square``."""
        return self.layers[layer][square[0]][square[1]]

    def value(self, square: Square) -> int:
        """The square's printed value (stars or points), 0-9 (0 on a board without a values layer)."""
        values = self.layers.get("values")
        return int(values[square[0]][square[1]]) if values else 0

    def zone(self, square: Square) -> str | None:
        """The zone's name (any character), or ``None`` for a square in no zone (or no zones layer)."""
        zones = self.layers.get("zones")
        if not zones:
            return None
        ch = zones[square[0]][square[1]]
        return None if ch == "." else ch

    def mark(self, square: Square) -> str:
        """The square's mark character: ``. ! * D #`` (``.`` when the board has no marks layer)."""
        marks = self.layers.get("marks")
        return marks[square[0]][square[1]] if marks else "."

    def is_chance(self, square: Square) -> bool:
        return self.mark(square) == "!"

    def is_playable(self, square: Square) -> bool:
        return square in self and self.mark(square) != "#"

    def zone_names(self) -> list[str]:
        """Every zone name used on the board, in reading order of first appearance."""
        seen: dict[str, None] = {}
        for row in self.layers["zones"]:
            for ch in row:
                if ch != ".":
                    seen.setdefault(ch, None)
        return list(seen)

    def to_toml(self) -> str:
        """The board in the DESIGN.md TOML format (round-trips through :func:`parse_board`)."""
        lines = [f"name = {_toml_string(self.name)}", f"rows = {self.rows}", f"cols = {self.cols}",
                 f"center = [{self.center.row}, {self.center.col}]", "", "[layers]"]
        for layer, rows in self.layers.items():
            lines.append(f"{layer} = [")
            lines.extend(f"  {_toml_string(row)}," for row in rows)
            lines.append("]")
        return "\n".join(lines) + "\n"


def _toml_string(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


def _check_layer(name: str, rows_value: object, board_rows: int, board_cols: int, source: str) -> tuple[str, ...]:
    if not isinstance(rows_value, list) or not all(isinstance(r, str) for r in rows_value):
        raise BoardFormatError(f"layer '{name}' must be a list of strings, one per row", source)
    if len(rows_value) != board_rows:
        raise BoardFormatError(
            f"layer '{name}' has {len(rows_value)} rows but the board has rows = {board_rows}", source
        )
    for r, row in enumerate(rows_value):
        if len(row) != board_cols:
            raise BoardFormatError(
                f"layer '{name}' row is {len(row)} characters long but the board has cols = {board_cols} (ragged row)",
                source, row=r,
            )
        for c, ch in enumerate(row):
            problem = _bad_character(name, ch)
            if problem:
                raise BoardFormatError(f"layer '{name}': {problem}", source, row=r, col=c)
    return tuple(rows_value)


def _bad_character(layer: str, ch: str) -> str | None:
    if layer == "values" and ch not in "0123456789":
        return f"{ch!r} is not a digit 0-9"
    if layer == "letters" and not (ch == "." or "A" <= ch <= "Z"):
        return f"{ch!r} is not a capital letter A-Z ('.' for a square without a picture)"
    if layer == "zones" and ch.isspace():
        return "a zone must be named by a non-space character ('.' for no zone)"
    if layer == "marks" and ch not in MARKS:
        return f"{ch!r} is not a mark; use one of " + ", ".join(f"'{k}' {v}" for k, v in MARKS.items())
    return None


def _positive_int(data: dict[str, object], key: str, source: str) -> int:
    value = data.get(key)
    if value is None:
        raise BoardFormatError(f"missing '{key}'", source)
    if not isinstance(value, int) or isinstance(value, bool) or value <= 0:
        raise BoardFormatError(f"'{key}' must be a positive whole number, not {value!r}", source)
    return value


def parse_board(text: str, source: str = "<board>", required: tuple[str, ...] = REQUIRED_LAYERS) -> Board:
    """Parse a board from the TOML text of DESIGN.md; ``source`` names it in error messages,
    ``required`` are the layers its game reads (``Game.board_layers``).

    Raises :class:`BoardFormatError` naming the file, layer, row and column of the first problem:
    ragged rows, unknown characters, missing layers, a centre off the board.
    """
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as error:
        raise BoardFormatError(f"not valid TOML ({error})", source) from None
    except RecursionError:
        raise BoardFormatError("nests too deeply to be a board", source) from None
    rows = _positive_int(data, "rows", source)
    cols = _positive_int(data, "cols", source)
    name = data.get("name", source)
    if not isinstance(name, str):
        raise BoardFormatError("'name' must be a string", source)
    raw_layers = data.get("layers")
    if not isinstance(raw_layers, dict):
        raise BoardFormatError("missing the [layers] table", source)
    for layer in required:
        if layer not in raw_layers:
            raise BoardFormatError(f"missing layer '{layer}' in [layers]", source)
    layers = {key: _check_layer(key, value, rows, cols, source) for key, value in raw_layers.items()}
    center_value = data.get("center", [rows // 2, cols // 2])
    if (
        not isinstance(center_value, list)
        or len(center_value) != 2
        or not all(isinstance(v, int) and not isinstance(v, bool) for v in center_value)
    ):
        raise BoardFormatError(f"'center' must be [row, col], not {center_value!r}", source)
    center = Square(*center_value)
    if not (0 <= center.row < rows and 0 <= center.col < cols):
        raise BoardFormatError(f"centre {list(center)} is off the {rows}x{cols} board", source)
    tables = {k: v for k, v in data.items() if k not in ("name", "rows", "cols", "center", "layers")}
    return Board(name=name, rows=rows, cols=cols, center=center, layers=layers, tables=tables)
