"""What the seat and host views say of the board for the tap grids: the board as printed (values,
marks, zone outlines, a legend of its marks), the letters on it, and the child's page of
eXtraDICTION Levels 1-2 (the alphabet's buttons, the card's word when the table knows it)."""

from __future__ import annotations

import json
import tomllib

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rules.board import parse_board
from rules.game import GameSetup
from rules.lexicon import Lexicon
from rules.word_grid_dice import ALPHABETS
from tabletop.decks import picture_deck
from tabletop.resources import BOARDS, load_board
from tabletop.session import Journal, Session, SimClock, views


def level_session(tmp_path, level, language="en"):
    return Session.create(Journal(tmp_path / "j.sqlite"),
                          GameSetup("extradiction", ("Mia", "Leo"), variant=level, language=language),
                          "extradiction", lexicon=Lexicon(["cat", "dog", "sun"]), clock=SimClock(),
                          deck=picture_deck("en").shuffled(2), game_id=level)


def test_the_seat_and_host_see_the_board_file_as_printed_and_the_letters_written(tmp_path):
    session = level_session(tmp_path, "level1")
    layers = tomllib.loads((BOARDS / "extradiction.toml").read_text())["layers"]
    assert session.submit({"type": "clue", "player": "Leo", "answer": "cat"}).accepted
    assert session.submit({"type": "answer", "player": "Mia", "correct": True}).accepted
    assert session.submit({"type": "write", "player": "Mia", "text": "CAT", "row": 1, "col": 0, "dir": "across"}).accepted
    for board in (views.seat(session, "Mia", buzzers=False, scan=False)["board"], views.host(session)["board"]):
        assert (board["rows"], board["cols"]) == (13, 13)
        assert board["values"] == layers["values"] and board["marks"] == layers["marks"]
        assert board["zones"] == layers["zones"] and board["legend"] == {"!": "chance"}
        assert board["letters"][1].startswith("CAT.") and board["letters"][0] == "." * 13
    session.journal.close()


def test_a_board_without_values_or_marks_is_printed_plain():
    board = parse_board('rows = 2\ncols = 2\n[layers]\nletters = ["AB", "CD"]', required=())
    printed = views.printed_board(board, ["A.", "x"])             # a grid of another size is not the board's letters
    assert printed["values"] == ["00", "00"] and printed["marks"] == ["..", ".."]
    assert printed["zones"] is None and printed["legend"] == {} and printed["letters"] is None
    assert views.printed_board(None) is None


@given(st.lists(st.text("0123456789", min_size=3, max_size=3), min_size=1, max_size=4),
       st.lists(st.sampled_from(".!*D#"), min_size=3, max_size=3))
def test_the_legend_names_exactly_the_marks_printed(values, first_marks):
    rows = len(values)
    marks = ["".join(first_marks)] + ["..."] * (rows - 1)
    text = (f"rows = {rows}\ncols = 3\n[layers]\nvalues = {values!r}\nzones = {['aaa'] * rows!r}\nmarks = {marks!r}")
    printed = views.printed_board(parse_board(text.replace("'", '"')))
    assert set(printed["legend"]) == set(first_marks) - {"."}
    assert printed["values"] == values and printed["marks"] == marks


@pytest.mark.parametrize("level, guess_word, write_word", [("level1", "CAT", "CAT"), ("level2", None, "CAT")])
def test_the_childs_page_offers_the_cards_word_only_when_the_table_knows_it(tmp_path, level, guess_word, write_word):
    session = level_session(tmp_path, level)
    child = lambda seat: views.seat(session, seat, buzzers=False, scan=False)["child"]   # noqa: E731
    assert child("Mia")["word"] is None and child("Mia")["directions"] == ["across"]    # no card yet
    assert views.seat(session, "Mia", buzzers=False, scan=False)["alphabet"] == ALPHABETS["en"]
    assert session.submit({"type": "clue", "player": "Leo", "answer": "cat"}).accepted
    assert child("Mia")["word"] == guess_word and child("Leo")["word"] is None    # Level 2: she guesses it first
    assert session.submit({"type": "answer", "player": "Mia", "correct": True}).accepted
    assert child("Mia")["word"] == write_word and child("Leo")["word"] is None
    session.journal.close()


def test_older_players_have_no_childs_page_and_a_ukrainian_game_has_its_own_letters(tmp_path):
    session = level_session(tmp_path, "level3", language="uk")
    view = views.seat(session, "Mia", buzzers=False, scan=False)
    assert "child" not in view and view["alphabet"] == ALPHABETS["uk"]
    session.journal.close()


def test_a_nineteen_square_board_as_printed_is_a_small_payload():
    board = load_board("extradiction-sp")
    printed = views.printed_board(board, ["." * 19] * 19)
    assert len(json.dumps(printed)) < 2500                 # four layers of 19 strings: sent on every refresh
