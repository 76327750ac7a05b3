"""Whole games played from the pages alone, in Chromium at a phone's size: the host console and
the seat pages, no keyboard at the table, no buttons, no camera.

The players know what they wrote and where; the test plays them: it reads the card's answer as
the asker does (the host's draw button names it) and picks a legal square for the word with the
project's planner, the way a player looks at the board.
"""

from __future__ import annotations

import time

import pytest

from rules.game import GameSetup
from tabletop.decks import builtin_deck
from tabletop.lexicons import builtin_lexicon
from tabletop.session import Journal, Session, TableClock
from tabletop.players.planner import best_placement
from tabletop.web import WebServer

pytestmark = [pytest.mark.browser, pytest.mark.slow]

PHONE = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True}
LAPTOP = {"viewport": {"width": 1280, "height": 800}}


def table(tmp_path, variant, players, rounds):
    session = Session.create(Journal(tmp_path / "j.sqlite"), GameSetup("extradiction-sp", players, variant=variant,
                             seed=3, rounds=rounds), "extradiction-sp", lexicon=builtin_lexicon("en"),
                             clock=TableClock(), deck=builtin_deck("en").shuffled(3), game_id="pages")
    return session, WebServer(session).start()


def open_pages(browser, server, session):
    host = browser.new_context(**LAPTOP).new_page()
    host.goto(f"{server.url}/host?token={session.tokens['host']}")
    host.wait_for_selector("#console:not([hidden])")
    seats = {}
    for seat, token in session.tokens["seats"].items():
        page = browser.new_context(**PHONE).new_page()
        page.goto(f"{server.url}/seat?token={token}")
        page.wait_for_selector("#seat:has-text('%s')" % seat)
        seats[seat] = page
    return host, seats


def wait_until(condition, what, timeout=10.0):
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out waiting for {what}")
        time.sleep(0.05)


def write_from_the_page(page, session, player, word):
    """The writer types the word, taps its first square on the page's board, picks the direction."""
    spot = best_placement(session.game, player, word)
    assert spot is not None, word
    page.wait_for_selector("#where:not([hidden])")
    page.fill("#text", spot["text"])
    name = f"{chr(65 + spot['col'])}{spot['row'] + 1}"
    page.click(f"#tapboard button[data-square='{name}']")
    page.check(f"input[name=dir][value={spot['dir']}]")
    before = len(session.game.turns)
    page.click("#send")
    try:
        wait_until(lambda: len(session.game.turns) > before, f"{player}'s {word} on the board")
    except AssertionError as error:
        raise AssertionError(f"{error}; the page said: {page.inner_text('#msg')!r}") from None


def close_all(host, seats, server, session):
    for page in [host, *seats.values()]:
        page.context.close()
    server.stop()
    session.journal.close()


def test_a_whole_sp_classic_game_from_the_pages(tmp_path, browser):
    session, server = table(tmp_path, "classic", ("Ann", "Ben", "Cai"), rounds=1)
    host, seats = open_pages(browser, server, session)
    try:
        for turn in range(3):
            game = session.game
            asker = game.clue_asker()
            host.click("#actions button[data-key^='clue:'] >> nth=0")           # the asker picks the card's 1st clue
            wait_until(lambda: session.game.turn.phase == "reading", "the clue being read")
            answer = session.game.turn.answer
            host.click("#actions button[data-key='clue-read']")
            answerer = [p for p in ("Ann", "Ben", "Cai") if p != asker][turn % 2]
            seats[answerer].wait_for_selector("#buzz:not([hidden])")
            seats[answerer].dispatch_event("#buzz", "pointerdown")               # a phone as a buzzer
            wait_until(lambda: answerer in session.game.turn.hands, f"{answerer}'s hand")
            host.click("#actions button[data-key='recognise']")
            seats[answerer].wait_for_selector("#form:not([hidden])")
            seats[answerer].wait_for_selector("#clue:not([hidden])")            # the clue is shown to the answerer
            seats[answerer].fill("#text", answer.lower())
            seats[answerer].click("#send")
            wait_until(lambda: session.game.turn.writer == answerer, f"{answerer} writing")
            word = best_placement(session.game, answerer, answer) and answer
            if word:
                write_from_the_page(seats[answerer], session, answerer, answer)
            else:
                seats[answerer].wait_for_selector("#form:not([hidden])")
                host.click("#actions button[data-key='pass']")
        wait_until(lambda: session.game.over, "the end of the game")
        host.wait_for_selector("#status:has-text('Game over')")
        for page in seats.values():
            page.wait_for_selector("#prompt:has-text('The game is over')")
        assert sum(session.game.totals.values()) > 0
        assert all(e.source in ("host", "seat:Ann", "seat:Ben", "seat:Cai", "phone")
                   for e in session.journal.entries("pages") if e.kind == "event")
    finally:
        close_all(host, seats, server, session)


def test_a_whole_sp_speed_game_from_the_pages(tmp_path, browser):
    session, server = table(tmp_path, "speed", ("Ann", "Ben"), rounds=2)
    host, seats = open_pages(browser, server, session)
    words = iter(["MARKET", "TEAM", "STAR", "MEAT", "RATE", "TEAR", "STEM", "MATE"])
    try:
        while not session.game.over:
            player = session.game.whose_turn()
            page = seats[player]
            page.wait_for_selector("#form:not([hidden])")
            assert page.text_content("#prompt").startswith("Type the answer")
            for word in words:
                if best_placement(session.game, player, word):
                    write_from_the_page(page, session, player, word)
                    break
            other = [p for p in seats if p != player][0]
            if not session.game.over:
                seats[other].wait_for_selector("#form:not([hidden])")           # the next player's page opens at once
        host.wait_for_selector("#status:has-text('Game over')")
        assert len(session.game.turns) == 4 and all(t.score > 0 for t in session.game.turns)
    finally:
        close_all(host, seats, server, session)
