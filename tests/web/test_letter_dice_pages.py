"""Letter dice from the pages, in Chromium at a phone's size: words stay sealed from every other
seat until the sand runs out, nothing is taken after it, and the reveal strikes clashes through."""

from __future__ import annotations

import json
import re

import pytest


pytestmark = [pytest.mark.browser]

PHONE = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True}


def seat_page(browser, server, session, seat):
    page = browser.new_context(**PHONE).new_page()
    page.goto(f"{server.url}/seat?token={session.tokens['seats'][seat]}")
    page.wait_for_selector(f"#seat:has-text('{seat}')")
    return page


def test_sealed_words_no_late_entries_and_the_reveal(dice_table, browser):
    session, server = dice_table
    session.submit({"type": "roll", "faces": ["C", "A", "T", "E", "S", "R", "N", "*"]})
    pages = {seat: seat_page(browser, server, session, seat) for seat in ("Ann", "Ben", "Cai")}
    board = browser.new_context(viewport={"width": 1280, "height": 800}).new_page()
    try:
        board.goto(server.url + "/")
        for seat, row, word in (("Ann", "1", "cat"), ("Ben", "2", "CAT"), ("Cai", "6", "crate")):
            page = pages[seat]
            page.wait_for_selector("#form:not([hidden])")
            assert page.locator(".dice .die").count() == 8
            page.select_option("#row", row)
            page.fill("#text", word)
            page.click("#send")
            page.wait_for_selector("#msg:has-text('is in')")
        pages["Ann"].select_option("#row", "3")
        pages["Ann"].click("#cross")                                  # Ann crosses a row out...
        pages["Ann"].click("#askyes")                                 # ...once she said yes
        pages["Ann"].wait_for_selector("#msg:has-text('cross for row 3 is in')")
        for seat, page in pages.items():                              # nobody sees another's word...
            page.reload()
            page.wait_for_selector("#form:not([hidden])")
            text = page.inner_text("body").upper()
            others = {"Ann": ["CRATE"], "Ben": ["CRATE"], "Cai": ["CAT"]}[seat]
            assert not any(re.search(rf"\b{w}\b", text) for w in others), seat
        public = json.dumps(session.view()).upper()                   # ...and no page's data holds them
        assert "CRATE" not in public and not re.search(r"\bCAT\b", public)
        for seat in pages:                                            # (her own words are on her own page)
            data = pages[seat].evaluate(
                "async () => JSON.stringify(await (await fetch('/api/seat/state?token=' + "
                "new URLSearchParams(location.search).get('token'))).json())").upper()
            others = {"Ann": ["CRATE"], "Ben": ["CRATE"], "Cai": ["CAT"]}[seat]
            assert not any(re.search(rf"\b{w}\b", data) for w in others), seat
        session.clock.advance(61)                                     # the sand runs out
        session.tick()
        assert session.game.scored and not session.game.writing
        late = pages["Ben"].evaluate("""async () => (await fetch('/api/seat/entry', {method: 'POST',
            headers: {'Content-Type': 'application/json', 'X-Tabletop-Token': new URLSearchParams(location.search).get('token')},
            body: JSON.stringify({text: 'tea', row: 1})})).status""")
        assert late == 409                                            # nothing after the sand
        board.wait_for_selector("#reveal:not([hidden])")
        assert board.locator("#reveal tr[data-player='Ann'] td.clash").first.text_content().startswith("CAT 0")
        assert board.locator("#reveal tr[data-player='Ben'] td.clash").first.text_content().startswith("CAT 0")
        assert "CRATE 3" in board.text_content("#reveal tr[data-player='Cai']")
        assert "also written by Ben" in board.text_content("#reveal tr[data-player='Ann']")
        board.screenshot(path=str(server_shot_path()), full_page=True) if server_shot_path() else None
    finally:
        for page in [*pages.values(), board]:
            page.context.close()


def server_shot_path():
    """Where to keep a screenshot of the reveal (TABLETOP_SHOTS, for docs/img), or None."""
    import os
    import pathlib
    folder = os.environ.get("TABLETOP_SHOTS")
    return pathlib.Path(folder) / "page-letter-dice-reveal.png" if folder else None
