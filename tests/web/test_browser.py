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
        ben.fill("#square", "9,6")                             # not a square name: the page says how to name it
        ben.click("#send")
        ben.wait_for_selector("#msg:has-text('as printed')")
        ben.click("#tapboard button[data-square='G10']")       # row 9, column 6 as the printed margins name it
        assert ben.input_value("#square") == "G10"
        ben.check("input[name=dir][value=across]")
        ben.click("#send")
        ben.wait_for_selector("#msg:has-text('MARKET')")
        board.wait_for_function("document.querySelectorAll('#board div.last').length == 6")
        assert board.text_content("tr[data-player='Ben'] td.total") == "21"
        assert session.journal.entries("web-test")[-1].source == "seat:Ben"
    finally:
        ben.close()
        board.close()


PHONE = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True}

#: emulates a phone's network: every clock message and the buzz request take LATENCY ms one way
NETWORK = """(() => {
  const L = %d;
  const f = window.fetch;
  window.fetch = (url, opts) => new Promise(res => setTimeout(() => res(f(url, opts)),
                                                             String(url).includes('/api/seat/buzz') ? L : 0));
  const WS = window.WebSocket;
  window.WebSocket = function (url, protocols) {
    const ws = new WS(url, protocols);
    if (!String(url).includes('/ws/clock')) return ws;
    const send = ws.send.bind(ws);
    ws.send = (data) => setTimeout(() => send(data), L);
    let handler = null;
    Object.defineProperty(ws, 'onmessage', { set(h) { handler = h; }, get() { return handler; } });
    ws.addEventListener('message', (m) => setTimeout(() => handler && handler(m), L));
    return ws;
  };
})();"""


def phone(browser, url, latency_ms):
    context = browser.new_context(**PHONE)
    context.add_init_script(NETWORK % latency_ms)
    page = context.new_page()
    page.goto(url)
    return page


def test_two_phones_buzz_and_the_earlier_press_wins_though_it_arrives_later(tmp_path, browser):
    """Cai's phone is slow (250 ms each way) and presses 80 ms before Ben's fast phone (10 ms):
    Cai's press arrives 160 ms after Ben's, and still comes first."""
    import time

    from tabletop.session.clock import TableClock
    from tabletop.web import WebServer
    from tests.web.conftest import make_session

    session = make_session(tmp_path, clock=TableClock())           # a real clock, running
    served = WebServer(session).start()
    for event in [{"type": "clue", "player": "Ann", "answer": "market", "definition": "stalls"},
                  {"type": "clue_read", "player": "Ann"}]:
        session.submit(event)
    phones = {}
    try:
        for seat, latency in (("Ben", 10), ("Cai", 250)):
            phones[seat] = phone(browser, f"{served.url}/seat?token={session.tokens['seats'][seat]}", latency)
        for page in phones.values():
            page.wait_for_selector("#buzz:not([hidden])")
            page.wait_for_function("window.__clock && window.__clock.samples >= 4")   # the clock is estimated
            offset = page.evaluate("window.__clock.offset_ms")
            now_page = page.evaluate("(performance.now() + window.__clock.offset_ms) / 1000")
            assert abs(now_page - session.clock.now()) < 0.05, offset                 # within 50 ms of the table
        table_phones = served.app.state.phones                  # the table has timed each phone too
        deadline = time.monotonic() + 10
        while any(table_phones.trips[s].allowance() is None for s in phones) and time.monotonic() < deadline:
            time.sleep(0.05)
        phones["Cai"].evaluate("document.getElementById('buzz').dispatchEvent(new PointerEvent('pointerdown'))")
        time.sleep(0.08)
        phones["Ben"].evaluate("document.getElementById('buzz').dispatchEvent(new PointerEvent('pointerdown'))")
        deadline = time.monotonic() + 5
        while len(session.game.turn.hands) < 2 and time.monotonic() < deadline:
            time.sleep(0.05)
        assert session.game.turn.hands == ["Cai", "Ben"]
        phones["Ben"].wait_for_selector("#handup:has-text('2 in the queue')")
        assert phones["Ben"].evaluate("document.documentElement.scrollWidth") <= 390   # nothing overflows the phone
    finally:
        for page in phones.values():
            page.context.close()
        served.stop()
        session.journal.close()
