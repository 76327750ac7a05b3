"""Seat entries' rows and columns are whole numbers on the board, at the one place entries
become events; anything else is a sentence (400), never an OverflowError or a silent 4, 1 or 2."""

from __future__ import annotations

import json
import re

import pytest
from hypothesis import given, strategies as st

from rules.game import GameSetup
from rules.lexicon import Lexicon
from rules.questique import QuestiqueGame
from rules.questique_layout import standard_board
from tabletop.games import spec
from tabletop.games.table import EntryError
from tabletop.session import Journal, Session, SimClock
from tabletop.session.core import BadEntry

NOT_WHOLE = [(float("inf"), "inf"), (json.loads("1e400"), "inf"), (True, "True"), ("4", "'4'"), (2.9, "2.9"),
             (None, "None"), ([4], "[4]")]
SP_WRITES = [{"type": "clue", "player": "Ann", "answer": "market", "definition": "stalls"},
             {"type": "clue_read", "player": "Ann"}, {"type": "hand", "player": "Ben"},
             {"type": "recognise", "player": "Ann", "target": "Ben"}, {"type": "answer", "player": "Ben", "text": "market"}]


@pytest.fixture
def sp_writer():
    session = Session.create(Journal(":memory:"), GameSetup("extradiction-sp", ("Ann", "Ben", "Cai"), variant="classic"),
                             "extradiction-sp", lexicon=Lexicon(["market"]), clock=SimClock(), game_id="sp")
    for event in SP_WRITES:
        result = session.submit(event)
        assert result.accepted, result.message
    [window] = [w for w in session.windows() if w.purpose == "write"]
    assert window.seats == ("Ben",)
    return session


@pytest.fixture
def dice():
    session = Session.create(Journal(":memory:"), GameSetup("letter-dice", ("Ann", "Ben"), options={"sand_seconds": 60}),
                             "", lexicon=Lexicon(["cat"]), clock=SimClock(), game_id="dice")
    session.submit({"type": "roll", "faces": ["C", "A", "T", "E", "S", "R", "N", "*"]})
    return session


@pytest.mark.parametrize("value, shown", NOT_WHOLE)
@pytest.mark.parametrize("field", ["row", "col"])
def test_the_sp_writer_window_takes_only_whole_numbers(sp_writer, field, value, shown):
    entry = {"text": "market", "row": 9, "col": 6, "dir": "across", field: value}
    events = len(sp_writer.game.events)
    with pytest.raises(BadEntry) as refused:
        sp_writer.enter("Ben", entry)
    what = "row" if field == "row" else "column"
    assert str(refused.value) == f"The square's {what} must be a whole number, not {shown}."
    assert len(sp_writer.game.events) == events


@pytest.mark.parametrize("row, col, says", [
    (99, 99, "There is no such square: Row 100, column 100 (off the board, whose squares run from A1 to S19)."),
    (-1, 0, "There is no such square: Row 0, column 1 (off the board, whose squares run from A1 to S19)."),
    (10**30, 0, "There is no such square: That square (off the board)."),
])
def test_a_square_off_the_board_is_named_as_off_it(sp_writer, row, col, says):
    with pytest.raises(BadEntry) as refused:
        sp_writer.enter("Ben", {"text": "market", "row": row, "col": col, "dir": "across"})
    assert str(refused.value) == says and "[" not in says and "CV" not in says


def test_a_whole_float_is_the_number_it_says(sp_writer):
    result = sp_writer.enter("Ben", {"text": "market", "row": 9.0, "col": 6, "dir": "across"})
    assert result.accepted, result.message


@pytest.mark.parametrize("value, shown", NOT_WHOLE)
def test_letter_dice_rows_are_whole_numbers_on_the_sheet(dice, value, shown):
    events = len(dice.game.events)
    with pytest.raises(BadEntry, match=re.escape(f"The row (a number printed on the sheet) must be a whole number, "
                                                 f"not {shown}.")):
        dice.enter("Ann", {"text": "cat", "row": value})
    assert len(dice.game.events) == events


@pytest.mark.parametrize("row", [0, -3, 99, 10**40])
def test_letter_dice_rows_off_the_sheet_are_refused_with_the_sheet_s_rows(dice, row):
    with pytest.raises(BadEntry, match=r"on the sheet: its rows run from 1 to \d+\.$"):
        dice.enter("Ann", {"text": "cat", "row": row})


def test_questique_individual_letter_squares_are_whole_numbers_on_the_board():
    table = spec("questique").table
    game = QuestiqueGame(GameSetup("questique", ("Ann", "Ben", "Cai"), variant="extra"), standard_board(),
                         Lexicon(["cat"]))
    [window] = table.windows(game)
    assert window.purpose == "place"
    for value, shown in NOT_WHOLE:
        with pytest.raises(EntryError, match=re.escape(f"must be a whole number, not {shown}.")):
            table.entry_event(game, window, "Ann", {"text": "r", "row": value, "col": 3})
    with pytest.raises(EntryError, match=r"Row 20, column 4 \(off the board"):
        table.entry_event(game, window, "Ann", {"text": "r", "row": 19, "col": 3})


@given(st.one_of(st.integers(), st.floats(allow_nan=True), st.booleans(), st.text(max_size=5), st.none()),
       st.one_of(st.integers(), st.floats(allow_nan=True), st.booleans(), st.text(max_size=5), st.none()))
def test_any_row_and_col_become_a_write_on_the_board_or_a_sentence(row, col):
    from rules.board import Board
    from rules.squares import Square
    from tabletop.games.table import write_entry

    board = Board("b", 15, 15, Square(7, 7), {})
    try:
        event = write_entry("Ann", {"text": "cat", "row": row, "col": col}, board)
    except EntryError as error:
        assert str(error).endswith(".") and "Traceback" not in str(error)
    else:
        assert (event["row"], event["col"]) in board and type(event["row"]) is int and type(event["col"]) is int
