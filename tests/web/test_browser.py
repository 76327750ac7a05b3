"""The pages in a real headless Chromium (Debian's, driven by Playwright)."""

from __future__ import annotations

import pytest

pytestmark = [pytest.mark.browser]


def test_scoreboard_updates_live(served, session, page):
    page.goto(served.url + "/")
    page.wait_for_selector("tr[data-player='Ann']")
    assert page.text_content("tr[data-player='Ann'] td.total") == "0"
    clock = session.clock
    for event in [{"type": "clue", "player": "Ann", "answer": "market", "definition": "stalls"},
                  {"type": "clue_read", "player": "Ann"}]:
        session.submit(event)
    clock.advance(1)
    session.buzz("Ben")
    session.buzz("Cai")
    page.wait_for_function("document.querySelectorAll('#hands li').length == 2")
    assert page.text_content("#hands li:first-child") == "Ben"
    assert "answers" in page.text_content("#timers")          # the 30 s window counts down
    for event in [{"type": "recognise", "player": "Ann", "target": "Ben"},
                  {"type": "answer", "player": "Ben", "text": "market"}]:
        session.submit(event)
    session.submit({"type": "write", "player": "Ben", "text": "MARKET", "row": 9, "col": 6, "dir": "across"})
    page.wait_for_function("document.querySelector(\"tr[data-player='Ben'] td.total\").textContent != '0'")
    assert int(page.text_content("tr[data-player='Ben'] td.total")) == session.game.totals["Ben"] > 0
    assert page.text_content("#board div.last") == "M"          # the last word is highlighted
    assert page.locator("#board div.last").count() == 6
    assert "MARKET" in page.text_content("#log")


def test_host_console_refuses_a_wrong_token(served, session, page):
    page.goto(served.url + "/host?token=not-the-token")
    page.wait_for_selector("#loginmsg:has-text('token')")
    assert page.is_hidden("#console")
    # the API itself refuses, whatever the page does
    status = page.evaluate("""async () => (await fetch('/api/host/event', {method: 'POST',
        headers: {'Content-Type': 'application/json', 'X-Tabletop-Token': 'nope'},
        body: JSON.stringify({event: {type: 'end'}})})).status""")
    assert status == 403
    assert not session.game.over and len(session.game.events) == 0
    # the right token opens the console and its buttons act
    page.fill("#token", session.tokens["host"])
    page.click("#enter")
    page.wait_for_selector("#console:not([hidden])")
    page.click("#actions button:has-text('reads card') >> nth=1")      # the asker picks the card's 2nd clue
    page.wait_for_function("document.querySelector('#msg').textContent.includes('asks a question')")
    assert session.game.turn.phase == "reading"
    clue = session.game.events[-1]
    assert clue.get("answer").upper() == session.deck.cards[0].clues[1].answer


def test_player_page_hides_other_seats_until_the_deadline_and_refuses_late_entries(served, session, browser):
    window = session.open_window(None, 60, "Write as many words as you can")
    ann = browser.new_page()
    ben = browser.new_page()
    try:
        ann.goto(f"{served.url}/seat?token={session.tokens['seats']['Ann']}")
        ben.goto(f"{served.url}/seat?token={session.tokens['seats']['Ben']}")
        ann.wait_for_selector("#form:not([hidden])")
        ann.fill("#text", "secret")
        ann.click("#send")
        ann.wait_for_selector("#msg:has-text('hidden until')")
        ben.fill("#text", "other")
        ben.click("#send")
        ben.wait_for_selector("#msg:has-text('hidden until')")
        ben.reload()
        ben.wait_for_selector(f"[data-window='{window.id}']")
        assert "secret" not in ben.content()                     # Ann's word is not on Ben's page
        peek = ben.evaluate("""async (t) => await (await fetch('/api/seat/state',
            {headers: {'X-Tabletop-Token': t}})).text()""", session.tokens["seats"]["Ben"])
        assert "secret" not in peek and "other" in peek          # nor anywhere in what the server sends Ben
        session.clock.advance(61)                                 # the time runs out (server side)
        ben.fill("#text", "toolate")
        ben.click("#send")
        ben.wait_for_selector("#msg:has-text('Too late')")
        assert "toolate" not in str(session.entries_for(None))
        ben.reload()
        ben.wait_for_selector("li[data-seat='Ann']")
        assert "secret" in ben.text_content("li[data-seat='Ann']")   # revealed after the deadline
    finally:
        ann.close()
        ben.close()


def test_a_player_types_the_word_she_wrote_when_no_camera_is_used(served, session, browser):
    for event in [{"type": "clue", "player": "Ann", "answer": "market", "definition": "stalls"},
                  {"type": "clue_read", "player": "Ann"}, {"type": "hand", "player": "Ben"},
                  {"type": "recognise", "player": "Ann", "target": "Ben"}]:
        session.submit(event)
    ben = browser.new_page()
    board = browser.new_page()
    try:
        board.goto(served.url + "/")
        board.wait_for_selector("#clue:has-text('6-letter word')")
        ben.goto(f"{served.url}/seat?token={session.tokens['seats']['Ben']}")
        ben.wait_for_selector("#form:not([hidden])")
        assert ben.is_hidden("#where")                         # an answer: just the word
        ben.fill("#text", "market")
        ben.click("#send")
        ben.wait_for_selector("#msg:has-text('is right')")
        ben.wait_for_selector("#where:not([hidden])")          # now the word written, its square, direction
        ben.fill("#text", "MARKET")
        ben.fill("#square", "9,6")
        ben.select_option("#dir", "across")
        ben.click("#send")
        ben.wait_for_selector("#msg:has-text('MARKET')")
        board.wait_for_function("document.querySelectorAll('#board div.last').length == 6")
        assert board.text_content("tr[data-player='Ben'] td.total") == "21"
        assert session.journal.entries("web-test")[-1].source == "seat:Ben"
    finally:
        ben.close()
        board.close()
