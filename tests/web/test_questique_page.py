"""Questique on the scoreboard and the seat pages, in Chromium: each player's crossword in their
colour, stars and exclusion blanks, an eliminated player struck out, a seat's own rack."""

from __future__ import annotations

import os
import pathlib

import pytest

from rules.game import GameSetup
from rules.lexicon import Lexicon
from tabletop.resources import load_board
from tabletop.session import Journal, Session, SimClock
from tabletop.web import WebServer

pytestmark = [pytest.mark.browser]
WORDS = Lexicon(["cat", "cats", "at"])


def session_for(tmp_path, players, variant=None, **options):
    board = load_board("questique", required=("marks", "quadrants"))
    return Session.create(Journal(tmp_path / "j.sqlite"), GameSetup("questique", players, variant=variant, seed=2,
                          options=options), "questique", board=board, lexicon=WORDS, clock=SimClock(), game_id="q")


def test_crosswords_in_their_colours_stars_exclusions_and_an_elimination(tmp_path, browser):
    session = session_for(tmp_path, ("Ann", "Ben", "Cai"), "elimination",
                          individual=[{"player": "Cai", "letter": "R", "row": 3, "col": 2}])
    server = WebServer(session).start()
    page = browser.new_context(viewport={"width": 1280, "height": 900}).new_page()
    try:
        assert session.submit({"type": "write", "player": "Ann", "text": "CAT", "row": 4, "col": 3, "dir": "across"}).accepted
        assert session.submit({"type": "write", "player": "Ben", "text": "cAT", "row": 4, "col": 13, "dir": "across"}).accepted
        page.goto(server.url + "/")
        page.wait_for_selector("#board div.sq[data-square='4,13'][data-owner='Ben']")
        ann = page.locator("#board div.sq[data-square='4,3']")
        assert ann.get_attribute("data-owner") == "Ann" and ann.inner_text() == "C"
        assert "blank" in page.locator("#board div.sq[data-square='4,13']").get_attribute("class")
        assert page.locator("#board div.sq.star").count() == 16 and page.locator("#board div.sq.diamond").count() == 20
        assert page.locator("#scores tr.eliminated[data-player='Cai']").count() == 1
        assert "Questique! Ann eliminates Cai" in page.locator("#log").inner_text()
        folder = os.environ.get("TABLETOP_SHOTS")
        if folder:
            page.screenshot(path=str(pathlib.Path(folder) / "page-questique-scoreboard.png"), full_page=True)
    finally:
        page.context.close()
        server.stop()
        session.journal.close()


def tiles(page):
    """The rack a seat page shows, a blank as ``?``."""
    return page.locator("#rack span").evaluate_all("els => els.map(e => e.dataset.tile).join('')")


def test_two_players_see_the_excluded_stars_and_each_seat_only_its_own_rack(tmp_path, browser):
    session = session_for(tmp_path, ("Ann", "Ben"), pieces="virtual", first="Ann")
    session.game.supply.racks["Ann"] = list("CATXYZQ")
    server = WebServer(session).start()
    page = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True).new_page()
    try:
        page.goto(f"{server.url}/seat?token={session.tokens['seats']['Ann']}")
        page.wait_for_selector("#rack span")
        assert tiles(page) == "".join(session.game.supply.racks["Ann"])
        assert session.submit({"type": "write", "player": "Ann", "text": "CAT", "row": 4, "col": 3, "dir": "across"}).accepted
        page.goto(server.url + "/")
        page.wait_for_selector("#board div.sq.excluded")
        assert page.locator("#board div.sq.excluded").count() == 8
        ben = session.game.supply.racks["Ben"]
        page.goto(f"{server.url}/seat?token={session.tokens['seats']['Ben']}")
        page.wait_for_selector("#rack span")
        assert tiles(page) == "".join(ben)
    finally:
        page.context.close()
        server.stop()
        session.journal.close()
