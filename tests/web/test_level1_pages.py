"""A Level 1 turn for a child learning letters, from picture card to stars, with no typing:
the helper draws a picture card on the host page, the scoreboard shows it big, the helper
says the child is right, the child writes on the board, the helper taps where it starts."""

from __future__ import annotations

import pytest

from rules.game import GameSetup
from tabletop.decks import picture_deck
from tabletop.lexicons import builtin_lexicon
from tabletop.session import Journal, Session, SimClock
from tabletop.web import WebServer

pytestmark = [pytest.mark.browser]


def test_a_level1_turn_from_picture_card_to_stars_without_typing(tmp_path, browser):
    session = Session.create(Journal(tmp_path / "j.sqlite"), GameSetup("extradiction", ("Mia",), variant="level1"),
                             "extradiction", lexicon=builtin_lexicon("en"), clock=SimClock(),
                             deck=picture_deck("en").shuffled(2), game_id="level1")
    server = WebServer(session).start()
    host = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True).new_page()
    board = browser.new_context(viewport={"width": 1280, "height": 800}).new_page()
    try:
        board.goto(server.url + "/")
        host.goto(f"{server.url}/host?token={session.tokens['host']}")
        host.click("#actions button[data-key^='clue:']")                  # the helper draws a picture card
        board.wait_for_selector("#card:not([hidden])")
        word = session.game.events[-1]["answer"].upper()
        picture = session.game.events[-1]["picture"]
        assert board.text_content("#cardword") == word and board.text_content("#picture") == picture
        host.click("#actions button[data-key='answer-right']")           # "Mia, say it with me: cat!"
        host.wait_for_selector("#confirm:not([hidden])")
        assert f"Mia writes {word} across" in host.text_content("#confirmtext")
        assert host.text_content("#hostboard button[data-square='G1'] .mark") == "!"   # the board as printed
        assert host.text_content("#hostboard button[data-square='A1'] .val") == "5"
        assert host.is_disabled("#confirmwrite")                            # nothing tapped yet
        sizes = host.eval_on_selector_all("#hostboard button.sq", "bs => bs.map(b => b.getBoundingClientRect().width)")
        assert len(sizes) == 13 * 13 and min(sizes) >= 36
        host.click("#hostboard button[data-square='C5']")                 # the helper taps the first letter
        for k, letter in enumerate(word):                                  # ... sees the word on its squares
            assert host.get_attribute(f"#hostboard button[data-square='{chr(ord('C') + k)}5']", "data-preview") == letter
        host.click("#confirmwrite")                                        # ... and confirms
        board.wait_for_function("document.querySelector(\"tr[data-player='Mia'] td.total\").textContent != '0'")
        stars = session.game.totals["Mia"]
        assert stars > 0 and board.text_content("tr[data-player='Mia'] td.total") == str(stars)
        assert session.game.turns[-1].text == word and session.game.turns[-1].new_squares[0] == (4, 2)
        assert f"Mia wrote {word}: {stars} star" in board.text_content("#log")
        assert "floating" not in board.text_content("#log")
    finally:
        host.context.close()
        board.context.close()
        server.stop()
        session.journal.close()
