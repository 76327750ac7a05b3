"""Where a simulated player writes a word: the best legal placement the rules accept.

Candidates are the squares that let the word cross a letter already written (or, for the first
word, use the centre square), then, if none is legal, every square (a floating word). Each is
checked with the game's own :meth:`~rules.crossword.CrosswordGame.analyse_write`, so the
planner never disagrees with the referee. Deterministic: ties go to the top-left square.
"""

from __future__ import annotations

from rules import errors
from rules.events import parse_event
from rules.lexicon import normalise
from rules.squares import Square


def _try(game, player: str, text: str, row: int, col: int, direction: str):
    if row < 0 or col < 0:
        return None
    last = (row, col + len(text) - 1) if direction == "across" else (row + len(text) - 1, col)
    if last[0] >= game.board.rows or last[1] >= game.board.cols:
        return None
    event = {"type": "write", "player": player, "text": text, "row": row, "col": col, "dir": direction}
    try:
        placement = game.analyse_write(parse_event(event))
    except (errors.Rejection, errors.EventFormatError):
        return None
    score = sum(w.score for w in game.score_write(placement))
    return score, event


def placements(game, player: str, word: str, *, limit_float: int = 400) -> list[tuple[int, dict]]:
    """Legal ``write`` events for ``word`` with their scores, best first."""
    text = normalise(word)
    directions = ("across",) if game.policy.across_only else ("across", "down")
    grid, board = game.grid, game.board
    starts: set[tuple[int, int, str]] = set()
    filled = list(grid)
    if filled:
        for square in filled:
            letter = grid[square]
            for i, ch in enumerate(text):
                if ch == letter:
                    starts.add((square.row, square.col - i, "across"))
                    starts.add((square.row - i, square.col, "down"))
    elif game.policy.require_centre:
        centre = board.center
        for i in range(len(text)):
            starts.add((centre.row, centre.col - i, "across"))
            starts.add((centre.row - i, centre.col, "down"))
    found = []
    for row, col, direction in sorted(starts):
        if direction not in directions:
            continue
        tried = _try(game, player, text, row, col, direction)
        if tried:
            found.append(tried)
    if not found:
        n = 0
        for square in board.squares():
            for direction in directions:
                tried = _try(game, player, text, square.row, square.col, direction)
                n += 1
                if tried:
                    found.append(tried)
            if n > limit_float and found:
                break
    found.sort(key=lambda se: (-se[0], se[1]["row"], se[1]["col"], se[1]["dir"]))
    return found


def best_placement(game, player: str, word: str) -> dict | None:
    """The best legal ``write`` event for ``word``, or ``None`` when it fits nowhere."""
    found = placements(game, player, word)
    return found[0][1] if found else None


def letters_of(event: dict) -> dict[Square, str]:
    """The squares a write covers, letter by letter (blanks of a phrase left out)."""
    text = normalise(event["text"])
    dr, dc = (0, 1) if event["dir"] == "across" else (1, 0)
    return {Square(event["row"] + i * dr, event["col"] + i * dc): ch for i, ch in enumerate(text) if ch != " "}
