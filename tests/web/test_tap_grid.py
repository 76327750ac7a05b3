"""The tap grid of the phones (static/board.js) on a 390 px wide phone: the board as printed
(values, Chance marks, stars, diamonds, margin labels), squares of at least 36 px in a box that
pans, the word previewed on its squares before it is sent, and the child's page of Level 1 where
a word is sent by taps only."""

from __future__ import annotations

import json
import tomllib
import urllib.request

import pytest

from rules.game import GameSetup
from rules.lexicon import Lexicon
from tabletop.decks import picture_deck
from tabletop.lexicons import builtin_lexicon
from tabletop.resources import BOARDS, load_board
from tabletop.session import Journal, Session, SimClock
from tabletop.web import WebServer

pytestmark = [pytest.mark.browser]

PHONE = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True}
SIGNS = {"!": "!", "*": "★", "D": "◆", ".": ""}


def printed_file(name):
    """The board file's layers, read straight from the TOML (not through the code under test)."""
    with open(BOARDS / f"{name}.toml", "rb") as handle:
        return tomllib.load(handle)["layers"]


def square(page, name, part):
    return page.text_content(f"#tapboard button[data-square='{name}'] .{part}")


def square_sizes(page, box="#tapboard"):
    return page.evaluate(f"""[...document.querySelectorAll('{box} button.sq')].map(b => {{
        const r = b.getBoundingClientRect(); return Math.min(r.width, r.height); }})""")


def pans(page, box="#tapboard"):
    return page.evaluate(f"""(() => {{ const s = document.querySelector('{box} .gridscroll');
        return {{ inner: s.scrollWidth, outer: s.clientWidth, page: document.documentElement.scrollWidth }}; }})()""")


def name_of(row, col):
    return f"{chr(65 + col)}{row + 1}"


def open_seat(browser, server, session, seat, query=""):
    page = browser.new_context(**PHONE).new_page()
    page.set_default_timeout(10_000)
    page.goto(f"{server.url}/seat?token={session.tokens['seats'][seat]}{query}")
    return page


@pytest.fixture
def speed(tmp_path):
    """eXtraDICTION Speed on the 13x13 board: Ann writes first, at once."""
    session = Session.create(Journal(tmp_path / "j.sqlite"), GameSetup("extradiction", ("Ann", "Ben"), variant="speed"),
                             "extradiction", lexicon=Lexicon(["tea", "cat", "ate", "eat"]), clock=SimClock(),
                             game_id="speed")
    server = WebServer(session).start()
    yield session, server
    server.stop()
    session.journal.close()


def test_the_seat_grid_is_the_printed_board_in_squares_a_finger_can_tap(speed, browser):
    session, server = speed
    page = open_seat(browser, server, session, "Ann")
    try:
        page.wait_for_selector("#where:not([hidden]) #tapboard button[data-square='M13']")
        layers = printed_file("extradiction")
        for row in range(13):
            for col in range(13):
                value, mark = layers["values"][row][col], layers["marks"][row][col]
                name = name_of(row, col)
                assert square(page, name, "val") == ("" if value == "0" else value), name
                assert square(page, name, "mark") == SIGNS[mark], name
        assert square(page, "A1", "val") == "5" and square(page, "G1", "mark") == "!"
        labels = page.eval_on_selector_all("#tapboard .label", "ls => ls.map(l => l.textContent)")
        assert labels[:13] == [chr(65 + c) for c in range(13)] and labels[13:] == [str(r) for r in range(1, 14)]
        assert min(square_sizes(page)) >= 36
        box = pans(page)
        assert box["inner"] > box["outer"] and box["inner"] > 390 and box["page"] <= 390, box
        assert page.get_attribute("#square", "placeholder") == "for example G7"     # a square of this board
        assert page.text_content("#score") == "0 points"
        page.click("#tapboard button[data-zoom='in']")
        assert min(square_sizes(page)) > 44
        page.click("#tapboard button[data-zoom='out']")
        page.click("#tapboard button[data-zoom='out']")
        assert min(square_sizes(page)) >= 36
        assert page.is_disabled("#tapboard button[data-zoom='out']")          # never smaller than 36 px
    finally:
        page.context.close()


def test_the_word_is_drawn_on_its_squares_before_it_is_sent(speed, browser):
    session, server = speed
    assert session.submit({"type": "write", "player": "Ann", "text": "TEA", "row": 6, "col": 6, "dir": "across"}).accepted
    page = open_seat(browser, server, session, "Ben")
    try:
        page.wait_for_selector("#tapboard button[data-square='G7'].written")
        assert [square(page, n, "ch") for n in ("G7", "H7", "I7")] == ["T", "E", "A"]
        page.fill("#text", "cat")
        page.click("#tapboard button[data-square='F7']")
        preview = {n: page.get_attribute(f"#tapboard button[data-square='{n}']", "class") for n in ("F7", "G7", "H7")}
        assert [page.get_attribute(f"#tapboard button[data-square='{n}']", "data-preview") for n in preview] == list("CAT")
        assert "new" in preview["F7"] and "clash" in preview["G7"] and "clash" in preview["H7"]
        assert page.text_content("#tapboard .gridnote") == "2 letters do not match the squares they fall on (marked red)."
        page.click("#tapboard button[data-square='L2']")                     # L2, M2, then off the edge
        assert page.text_content("#tapboard .gridnote") == "One letter runs off the board."
        page.fill("#text", "ate")
        page.click("#tapboard button[data-square='I7']")
        page.check("input[name=dir][value=down]")
        cells = [page.get_attribute(f"#tapboard button[data-square='{n}']", "class") for n in ("I7", "I8", "I9")]
        assert "same" in cells[0] and "new" in cells[1] and "new" in cells[2]
        assert square(page, "H7", "ch") == "E" and page.get_attribute("#tapboard button[data-square='H7']", "data-preview") is None
        assert page.text_content("#tapboard .gridnote") == "ATE fits down from I7."
        page.click("#send")
        page.wait_for_selector("#msg.ok")
        assert session.game.turns[-1].text == "ATE" and session.game.turns[-1].player == "Ben"
    finally:
        page.context.close()


def test_a_nineteen_square_board_pans_on_a_phone_with_its_stars_and_diamonds(tmp_path, browser):
    from .test_questique_page import session_for
    session = session_for(tmp_path, ("Ann", "Ben"), pieces="virtual", first="Ann")
    server = WebServer(session).start()
    page = open_seat(browser, server, session, "Ann")
    try:
        page.wait_for_selector("#where:not([hidden]) #tapboard button[data-square='S19']")
        marks = printed_file("questique")["marks"]
        assert marks[0][0] == "*" and marks[3][4] == "D"
        assert square(page, "A1", "mark") == "★" and square(page, "E4", "mark") == "◆" and square(page, "B1", "mark") == ""
        assert page.get_attribute("#square", "placeholder") == "for example J10"
        assert min(square_sizes(page)) >= 36
        box = pans(page)
        assert box["inner"] >= 19 * 36 and box["inner"] > box["outer"] and box["page"] <= 390, box
        page.fill("#text", "cat")
        page.click("#tapboard button[data-square='S4']")          # the last column: A and T run off
        assert page.text_content("#tapboard .gridnote") == "2 letters run off the board."
    finally:
        page.context.close()
        server.stop()
        session.journal.close()


def test_a_child_sends_her_word_at_level_1_by_taps_alone(tmp_path, browser):
    session = Session.create(Journal(tmp_path / "j.sqlite"), GameSetup("extradiction", ("Mia",), variant="level1"),
                             "extradiction", lexicon=builtin_lexicon("en"), clock=SimClock(),
                             deck=picture_deck("en").shuffled(2), game_id="level1")
    server = WebServer(session).start()
    page = open_seat(browser, server, session, "Mia")
    try:
        request = urllib.request.Request(f"{server.url}/api/host/draw", data=json.dumps({"clue": 0}).encode(),
                                         headers={"Content-Type": "application/json",
                                                  "X-Tabletop-Token": session.tokens["host"]})
        assert json.load(urllib.request.urlopen(request))["status"] == "accepted"
        word = session.game.events[-1]["answer"].upper()
        # the card shows the word: one big button says it, nothing is typed
        page.wait_for_selector("#cardword:not([hidden])")
        assert page.text_content("#cardword") == word
        assert page.get_attribute("#text", "readonly") is not None and page.get_attribute("#text", "inputmode") == "none"
        assert page.is_visible("#childpad button[data-letter='Z']")
        page.click("#cardword")
        page.click("#send")
        page.wait_for_selector("#where:not([hidden])")
        assert session.game.guesser == "Mia"
        # she spells it on the letter buttons (one slip taken back), taps where it starts, sees it there
        page.click("#childpad button[data-letter='Q']")
        page.click("#childpad button[data-letter='back']")
        for letter in word:
            page.click(f"#childpad button[data-letter='{letter}']")
        assert page.input_value("#text") == word
        assert page.is_hidden(".dirs label[data-dir='down']") and page.is_hidden("#squarebox")   # Level 1: across only
        start = (1, 0)                                                  # A2: a row with no Chance square
        page.click(f"#tapboard button[data-square='{name_of(*start)}']")
        for k, letter in enumerate(word):
            at = name_of(start[0], start[1] + k)
            assert page.get_attribute(f"#tapboard button[data-square='{at}']", "data-preview") == letter, at
        assert page.text_content("#tapboard .gridnote") == f"{word} fits across from A2."
        assert min(square_sizes(page)) >= 36
        page.click("#send")
        page.wait_for_selector("#msg.ok")
        turn = session.game.turns[-1]
        assert turn.player == "Mia" and turn.text == word and turn.new_squares[0] == start
        values = load_board("extradiction").layers["values"]
        stars = sum(int(values[start[0]][start[1] + k]) for k in range(len(word)))
        assert turn.score == stars and session.game.totals["Mia"] == stars
        page.wait_for_function(f"document.querySelector('#score').textContent.startsWith('{stars} star')")
    finally:
        page.context.close()
        server.stop()
        session.journal.close()


def test_easy_1_gives_any_seat_the_letter_buttons(speed, browser):
    session, server = speed
    page = open_seat(browser, server, session, "Ann", "&easy=1")
    try:
        page.wait_for_selector("#childpad:not([hidden])")
        assert page.is_visible(".dirs label[data-dir='down']") and page.is_hidden("#cardword")   # Speed: both ways
        for letter in "TEA":
            page.click(f"#childpad button[data-letter='{letter}']")
        page.click("#tapboard button[data-square='G6']")
        page.check("input[name=dir][value=down]")
        assert page.text_content("#tapboard .gridnote") == "TEA fits down from G6."
        page.click("#send")
        page.wait_for_selector("#msg.ok")
        assert session.game.turns[-1].text == "TEA" and session.game.turns[-1].new_squares[0] == (5, 6)
    finally:
        page.context.close()


def test_easy_0_gives_an_older_child_at_level_1_the_typing_page(tmp_path, browser):
    session = Session.create(Journal(tmp_path / "j.sqlite"), GameSetup("extradiction", ("Mia",), variant="level1"),
                             "extradiction", lexicon=builtin_lexicon("en"), clock=SimClock(), game_id="older")
    assert session.submit({"type": "clue", "player": "Mia", "answer": "cat"}).accepted
    server = WebServer(session).start()
    page = open_seat(browser, server, session, "Mia", "&easy=0")
    try:
        page.wait_for_selector("#form:not([hidden])")
        assert page.is_hidden("#childpad") and page.is_hidden("#cardword")
        assert page.get_attribute("#text", "readonly") is None
        page.fill("#text", "cat")
        page.click("#send")
        page.wait_for_selector("#where:not([hidden])")
        assert page.is_visible("#squarebox") and page.is_hidden("#childpad")
    finally:
        page.context.close()
        server.stop()
        session.journal.close()
