"""No private word or rack on the scoreboard, in Chromium: the scoreboard at a laptop's size
(1366x768) and a rival's phone (390x844) stay open while a player's private things are on the
table — sealed words (letter dice, the word grid) accepted and refused, a rack (Questique with the
table's tiles), a hand of cards (Sequence Letters with the table's cards) — and neither page ever
holds them, in what it shows or in its DOM; the owner's own phone shows them.
(``test_private_state.py`` checks the same through the API and the voice.)"""

from __future__ import annotations

import pytest

from rules.game import GameSetup
from rules.games import game_class
from rules.lexicon import Lexicon
from tabletop.resources import load_board
from tabletop.session import Journal, Session, SimClock
from tabletop.web import WebServer

pytestmark = [pytest.mark.browser]

PHONE = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True}
LAPTOP = {"viewport": {"width": 1366, "height": 768}}
WORDS = Lexicon(["cat", "cats", "crane", "cranes", "ant", "tan", "soap", "taps", "pat", "apron"])


@pytest.fixture
def serve(tmp_path):
    made = []

    def start(game, players, board=None, **options):
        session = Session.create(Journal(tmp_path / f"{game}.sqlite"), GameSetup(game, players, options=options, seed=3),
                                 board or "", lexicon=WORDS, clock=SimClock(), game_id=game,
                                 board=load_board(board, required=game_class(game).board_layers) if board else None)
        server = WebServer(session).start()
        made.append((session, server))
        return session, server

    yield start
    for session, server in made:
        server.stop()
        session.journal.close()


def open_pages(browser, server, session, owner, rival):
    board = browser.new_context(**LAPTOP).new_page()
    board.goto(server.url + "/")
    seats = {}
    for seat in (owner, rival):
        page = browser.new_context(**PHONE).new_page()
        page.goto(f"{server.url}/seat?token={session.tokens['seats'][seat]}")
        page.wait_for_selector(f"#seat:has-text('{seat}')")
        seats[seat] = page
    return board, seats[owner], seats[rival]


def settled(page, events):
    """``page`` once it has drawn the table after its ``events``-th event."""
    page.wait_for_function(f"() => +(document.body.dataset.events || 0) >= {events} || !!window.__seatState")
    page.wait_for_timeout(600)          # a live update in flight lands
    return page.content().upper()


def player_and_rival(session):
    """Whose turn it is, and the other player (a two-player game)."""
    player = session.game.whose_turn()
    return player, next(p for p in session.setup.players if p != player)


def close(*pages):
    for page in pages:
        page.context.close()


def assert_hidden(board, rival, secrets, events):
    for page in (board, rival):
        html = settled(page, events)
        for secret in secrets:
            assert secret.upper() not in html, (page.url, secret)


def test_letter_dice_sealed_words_and_their_refusals(serve, browser):
    session, server = serve("letter-dice", ("Ann", "Ben"), sand_seconds=60)
    session.submit({"type": "roll", "faces": ["C", "R", "A", "N", "E", "S", "T", "*"]})
    board, ann, ben = open_pages(browser, server, session, "Ann", "Ben")
    try:
        ann.wait_for_selector("#form:not([hidden])")
        rows = {n: squares for n, (squares, _points) in enumerate(session.game.sheet, start=1)}
        short = next(n for n, squares in rows.items() if squares == 3)
        ann.select_option("#row", str(short))
        ann.fill("#text", "cranes")                              # too long for the row: refused, privately
        ann.click("#send")
        ann.wait_for_selector("#msg:has-text('CRANES')")
        ann.select_option("#row", str(short))
        ann.fill("#text", "cat")                                 # accepted, sealed until the sand runs out
        ann.click("#send")
        ann.wait_for_selector("#mywords li")
        assert "CRANES" in ann.inner_text("#private") and "CAT" in ann.inner_text("#mywords")
        assert_hidden(board, ben, ["CRANES", ">CAT<", " CAT "], session.view()["events"])
    finally:
        close(board, ann, ben)


def test_word_grid_sealed_words(serve, browser):
    session, server = serve("word-grid", ("Ann", "Ben"), minutes=1)
    session.submit({"type": "tray", "grid": ["TAPE", "SORL", "NIQD", "EDCH"]})
    board, ann, ben = open_pages(browser, server, session, "Ann", "Ben")
    try:
        ann.wait_for_selector("#form:not([hidden])")
        for word in ("soap", "apron"):
            ann.fill("#text", word)
            ann.click("#send")
        ann.wait_for_selector("#found:has-text('APRON')")
        assert_hidden(board, ben, ["SOAP", "APRON"], session.view()["events"])
    finally:
        close(board, ann, ben)


def test_questique_rack(serve, browser):
    session, server = serve("questique", ("Ann", "Ben"), board="questique", pieces="virtual")
    player, rival = player_and_rival(session)
    rack = session.game.supply.racks[player]
    board, mine, theirs = open_pages(browser, server, session, player, rival)
    try:
        mine.wait_for_selector("#rack:not([hidden])")
        assert [t.get_attribute("data-tile") for t in mine.locator("#rack span").all()] == list(rack)
        result = session.submit({"type": "exchange", "player": player, "tiles": "QQQQ"})    # refused: shows the rack
        assert result.status == "rejected" and " ".join(rack) in result.message
        mine.wait_for_selector(f"#private li:has-text('{' '.join(rack)}')")
        assert_hidden(board, theirs, [" ".join(rack)], session.view()["events"])
        assert theirs.locator("#rack span[data-tile]").count() == len(session.game.supply.racks[rival])
    finally:
        close(board, mine, theirs)


def test_sequence_letters_hand_of_cards(serve, browser):
    session, server = serve("sequence-letters", ("Ann", "Ben"), board="sequence-letters", pieces="virtual")
    player, rival = player_and_rival(session)
    hand = " ".join(session.game.hands[player])
    missing = next(c for c in "ABCDEFGHIJKLMNOPRSTUVW" if c not in session.game.hands[player])
    square = next((r, c) for r, row in enumerate(session.board.layers["letters"]) for c, ch in enumerate(row)
                  if ch == missing)
    board, mine, theirs = open_pages(browser, server, session, player, rival)
    try:
        result = session.submit({"type": "play", "player": player, "card": missing, "row": square[0], "col": square[1]})
        assert result.status == "rejected" and hand in result.message
        mine.wait_for_selector(f"#private li:has-text('{hand}')")
        assert_hidden(board, theirs, [f"{player}'s cards: {hand}"], session.view()["events"])
    finally:
        close(board, mine, theirs)
