"""Sequence Letters on the scoreboard, in Chromium: the pictures with their letters, every chip
where the camera (or the host) put it, and the winning line marked."""

from __future__ import annotations

import json
import os
import pathlib

import pytest

from rules.game import GameSetup
from rules.lexicon import Lexicon
from tabletop.resources import load_board
from tabletop.session import Journal, Session, SimClock
from tabletop.web import WebServer

pytestmark = [pytest.mark.browser]


def test_the_board_shows_pictures_chips_and_the_line(tmp_path, browser):
    board = load_board("sequence-letters", required=("letters", "colors"))
    session = Session.create(Journal(tmp_path / "j.sqlite"), GameSetup("sequence-letters", ("Ann", "Ben")),
                             "sequence-letters", board=board, lexicon=Lexicon([]), clock=SimClock(), game_id="seq")
    server = WebServer(session).start()
    page = browser.new_context(viewport={"width": 1280, "height": 900}).new_page()
    try:
        for k, (player, card, row, col) in enumerate([("Ann", "A", 0, 0), ("Ben", "N", 3, 0), ("Ann", "J", 1, 1),
                                                      ("Ben", "T", 3, 1), ("Ann", "S", 2, 2), ("Ben", "U", 3, 2)]):
            assert session.submit({"type": "play", "player": player, "card": card, "row": row, "col": col}).accepted
        page.goto(server.url + "/")
        page.wait_for_selector("#board .pic[data-square='0,0'] .chip")
        assert page.locator("#board .pic").count() == 48
        apple = page.locator("#board .pic[data-square='0,0']")
        assert apple.get_attribute("data-chip") == "r" and apple.get_attribute("title") == "apple"
        assert page.locator("#board .pic[data-square='3,0']").get_attribute("data-chip") == "b"
        assert page.locator("#board .pic[data-square='0,1'] .chip").count() == 0
        assert "🍎" in apple.inner_text() and "A" in apple.locator(".tag").inner_text()
        assert session.submit({"type": "play", "player": "Ann", "card": "D", "row": 3, "col": 3}).accepted
        page.wait_for_selector("#over:has-text('Ann wins')")
        assert page.locator("#board .pic.last").count() == 4
        folder = os.environ.get("TABLETOP_SHOTS")
        if folder:
            page.screenshot(path=str(pathlib.Path(folder) / "page-sequence-scoreboard.png"), full_page=True)
    finally:
        page.context.close()
        server.stop()
        session.journal.close()


def test_each_seat_sees_its_own_picture_cards_and_nobody_elses(tmp_path, browser):
    board = load_board("sequence-letters", required=("letters", "colors"))
    session = Session.create(Journal(tmp_path / "j.sqlite"), GameSetup("sequence-letters", ("Ann", "Ben"), seed=4,
                             options={"pieces": "virtual"}), "sequence-letters", board=board, lexicon=Lexicon([]),
                             clock=SimClock(), game_id="seqv")
    server = WebServer(session).start()
    page = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True).new_page()
    try:
        page.goto(f"{server.url}/seat?token={session.tokens['seats']['Ann']}")
        page.wait_for_selector("#cards .pcard")
        shown = [page.locator("#cards .pcard").nth(k).get_attribute("data-card") for k in range(5)]
        assert shown == session.game.hands["Ann"]
        public = json.loads(page.evaluate("async () => JSON.stringify(await (await fetch('/api/state')).json())"))
        assert "cards" not in public and "Cards" not in public["status"]            # the scoreboard shows no hand
        letter = next(c for c in shown if c not in ("X", "Z"))
        assert "dead" not in page.locator(f"#cards .pcard[data-card='{letter}']").first.get_attribute("class")
    finally:
        page.context.close()
        server.stop()
        session.journal.close()
