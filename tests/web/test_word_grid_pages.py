"""A whole round of the word grid on phones, in Chromium at a phone's size: the host types the
tray on the console, three seats type the words they find (sealed from every other seat), the
sand runs out on the table's clock, and the reveal strikes the shared word out and scores the rest."""

from __future__ import annotations

import json
import re

import pytest

from rules.game import GameSetup
from rules.lexicon import Lexicon
from tabletop.session import Journal, Session, SimClock
from tabletop.web import WebServer

pytestmark = [pytest.mark.browser]

PHONE = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True}
WORDS = Lexicon(["soap", "apron", "prison", "stapler", "pat", "taps"])
TRAY = ["TAPE", "SORL", ["N", "I", "QU", "D"], "EDCH"]


@pytest.fixture
def grid_table(tmp_path):
    session = Session.create(Journal(tmp_path / "j.sqlite"), GameSetup("word-grid", ("Ann", "Ben", "Cai"),
                             options={"minutes": 1}), "", lexicon=WORDS, clock=SimClock(), game_id="grid")
    server = WebServer(session).start()
    yield session, server
    server.stop()
    session.journal.close()


def phone(browser, url):
    page = browser.new_context(**PHONE).new_page()
    page.set_default_timeout(10_000)
    page.goto(url)
    return page


def test_a_whole_round_on_phones(grid_table, browser):
    session, server = grid_table
    host = phone(browser, f"{server.url}/host?token={session.tokens['host']}")
    pages = {seat: phone(browser, f"{server.url}/seat?token={session.tokens['seats'][seat]}")
             for seat in ("Ann", "Ben", "Cai")}
    board = phone(browser, server.url + "/")
    try:
        host.wait_for_selector("#console:not([hidden])")
        host.click("#advanced summary")                                  # the raw event box is folded away
        host.fill("#raw", json.dumps({"type": "tray", "grid": TRAY}))
        host.click("#send")
        host.wait_for_selector("#msg:has-text('the 4x4 tray is ready')")
        host.wait_for_selector("#actions button[data-key='end-round']")   # the console's next refresh offers it
        assert host.locator("#actions button[data-key='end-round']").count() == 1
        board.wait_for_selector("#tray:not([hidden])")
        assert board.locator("#tray .die").count() == 16 and board.locator("#tray .die.two").inner_text() == "QU"
        found = {"Ann": ["soap", "apron"], "Ben": ["SOAP", "prison"], "Cai": ["stapler", "taps"]}
        for seat, words in found.items():
            page = pages[seat]
            page.wait_for_selector("#form:not([hidden])")
            assert page.locator("#tray .die").count() == 16 and page.locator("#row").is_hidden()
            for n, word in enumerate(words, start=1):
                page.fill("#text", word)
                page.click("#send")
                page.wait_for_selector(f"#msg:has-text('word is in ({n} this round)')")
        for seat, page in pages.items():                              # nobody sees another's words...
            page.reload()
            page.wait_for_selector("#found:not([hidden])")
            assert page.inner_text("#found").endswith(", ".join(w.upper() for w in found[seat]))
            text = page.inner_text("body").upper()
            others = {w.upper() for s, ws in found.items() if s != seat for w in ws} - {"SOAP"}
            assert not any(re.search(rf"\b{w}\b", text) for w in others), seat
        data = json.dumps(session.view()).upper()                     # ...nor does the public scoreboard
        assert not any(w.upper() in data for ws in found.values() for w in ws)
        session.clock.advance(61)                                     # the sand runs out
        session.tick()
        assert session.game.scored and not session.game.finding
        late = pages["Ben"].evaluate("""async () => (await fetch('/api/seat/entry', {method: 'POST',
            headers: {'Content-Type': 'application/json', 'X-Tabletop-Token': new URLSearchParams(location.search).get('token')},
            body: JSON.stringify({text: 'pat'})})).status""")
        assert late == 409                                            # nothing after the sand
        board.wait_for_selector("#reveal:not([hidden])")
        assert board.locator("#reveal tr[data-player='Ann'] td.clash").first.text_content().startswith("SOAP 0")
        assert board.locator("#reveal tr[data-player='Ben'] td.clash").first.text_content().startswith("SOAP 0")
        assert "APRON 2" in board.text_content("#reveal tr[data-player='Ann']")
        assert "PRISON 3" in board.text_content("#reveal tr[data-player='Ben']")
        cai = board.text_content("#reveal tr[data-player='Cai']")
        assert "STAPLER 5" in cai and "TAPS 0 (not in the tray" in cai
        assert board.locator("#reveal .tray .die").count() == 16
        assert "Best words the tray held: 7 letters: STAPLER" in board.text_content("#reveal .best")
        assert [board.text_content(f"#scores tr[data-player='{p}'] .total") for p in ("Ann", "Ben", "Cai")] == \
            ["2", "3", "5"]
    finally:
        for page in [host, *pages.values(), board]:
            page.context.close()
