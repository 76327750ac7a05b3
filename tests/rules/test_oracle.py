"""Differential test: the rules core against a naive, independent scorer on random boards.

The oracle knows nothing of :mod:`rules.placement`: it keeps the board as lists of
characters, writes the entry, and rebuilds every word through each square the move inked by
walking outwards. Random boards use random zone names (``'.'`` for none) and values; the
games are random legal-or-not moves in Speed (players take turns). For every accepted move
the words found, their order and their scores must match.
"""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import event as note_event
from hypothesis import strategies as st

from rules import errors
from rules.board import parse_board
from rules.game import GameSetup
from rules.games import new_game
from rules.lexicon import Lexicon

WORDS = ["AT", "TA", "TO", "OX", "AX", "XI", "QI", "IT", "IS", "SO", "AS", "OS", "TAX", "SAX", "TOX", "SIT",
         "ITS", "TIS", "OAT", "OATS", "TAXI", "TAXIS", "STOAT", "IOTA", "IOTAS", "QAT", "QATS", "AXIS", "OXO"]


def oracle_words(grid, values, zones, entry_squares, new_squares, dr, dc, floating):
    """[(word, score)] for the entry (whole run along its direction), then each perpendicular word."""
    rows, cols = len(grid), len(grid[0])

    def run(r, c, sr, sc):
        while 0 <= r - sr < rows and 0 <= c - sc < cols and grid[r - sr][c - sc] != ".":
            r, c = r - sr, c - sc
        squares = []
        while 0 <= r < rows and 0 <= c < cols and grid[r][c] != ".":
            squares.append((r, c))
            r, c = r + sr, c + sc
        return squares

    def score(squares, multiply=True):
        total = sum(int(values[r][c]) for r, c in squares)
        named = {zones[r][c] for r, c in squares} - {"."}
        return total * len(named) if multiply else total

    main = "".join(grid[r][c] for r, c in entry_squares)
    found = [(main, score(entry_squares, not floating))]
    for r, c in new_squares:
        cross = run(r, c, dc, dr)
        if len(cross) >= 2:
            found.append(("".join(grid[a][b] for a, b in cross), score(cross)))
    return found


@st.composite
def boards(draw):
    rows, cols = draw(st.integers(5, 9)), draw(st.integers(5, 9))
    zone_names = draw(st.lists(st.sampled_from(list("abcXYZ§7.")), min_size=1, max_size=5))
    values = ["".join(str(draw(st.integers(0, 9))) for _ in range(cols)) for _ in range(rows)]
    zones = ["".join(draw(st.sampled_from(zone_names)) for _ in range(cols)) for _ in range(rows)]
    text = (f"rows = {rows}\ncols = {cols}\n[layers]\nvalues = {values!r}\nzones = {zones!r}\n"
            .replace("'", '"'))
    return parse_board(text, "random board"), values, zones


move = st.tuples(st.sampled_from(WORDS), st.integers(0, 8), st.integers(0, 8), st.sampled_from(["across", "down"]))


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(board_data=boards(), moves=st.lists(move, min_size=10, max_size=80),
       game_id=st.sampled_from(["extradiction-sp", "extradiction"]))
def test_rules_core_matches_the_naive_oracle(board_data, moves, game_id):
    board, values, zones = board_data
    game = new_game(GameSetup(game_id, ("A", "B"), variant="speed"), board, Lexicon(WORDS))
    grid = [["."] * board.cols for _ in range(board.rows)]
    accepted = 0
    for index, (word, row, col, direction) in enumerate(moves):
        if not game.grid:                       # aim the first word at the centre
            row, col = board.center
        event = {"type": "write", "player": game.next_player, "text": word, "row": row, "col": col, "dir": direction}
        try:
            outcome = game.apply(event)
        except errors.Rejection:
            continue
        accepted += 1
        dr, dc = (0, 1) if direction == "across" else (1, 0)
        entry = [(row + dr * i, col + dc * i) for i in range(len(word))]
        new = [(r, c) for r, c in entry if grid[r][c] == "."]
        was_empty = all(ch == "." for line in grid for ch in line)
        touches = any(
            0 <= r + a < board.rows and 0 <= c + b < board.cols and grid[r + a][b + c] != "."
            for r, c in new for a, b in ((dc, dr), (-dc, -dr)))
        floating = not was_empty and len(new) == len(entry) and not touches
        for (r, c), ch in zip(entry, word):
            grid[r][c] = ch
        expected = oracle_words(grid, values, zones, entry, new, dr, dc, floating)
        got = [(w["word"], w["score"]) for w in outcome.turn.to_json()["words"]]
        assert got == expected, (index, event)
        assert game.grid.rows_text() == ["".join(line) for line in grid]
    note_event(f"accepted moves: {min(accepted, 5)}{'+' if accepted >= 5 else ''}")
    totals = {"A": 0, "B": 0}
    for turn in game.turns:
        totals[turn.player] += turn.score
    assert game.totals == totals
