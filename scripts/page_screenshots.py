"""Screenshots of the pages for docs/img: the scoreboard, the host console and a seat page, at a
phone's size (390x844) and a laptop's (1280x800), in the middle of an SP Classic game; then, on a
phone, the tap grid of a seat writing a word on the 19x19 board and a child's page at Level 1; and a
letter-dice round in Ukrainian (a seat's phone while the sand runs, the scoreboard's reveal).

    .venv/bin/python scripts/page_screenshots.py [OUT_DIR]     (default docs/img)
"""

from __future__ import annotations

import pathlib
import sys
import tempfile

from playwright.sync_api import sync_playwright

from rules.game import GameSetup
from tabletop.decks import builtin_deck, picture_deck
from tabletop.lexicons import builtin_lexicon
from tabletop.session import Journal, Session, SimClock
from tabletop.web import WebServer

CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--no-first-run"]
SIZES = {"phone": {"width": 390, "height": 844}, "laptop": {"width": 1280, "height": 800}}


def mid_game() -> Session:
    journal = Journal(pathlib.Path(tempfile.mkdtemp()) / "j.sqlite")
    session = Session.create(journal, GameSetup("extradiction-sp", ("Ann", "Ben", "Cai"), variant="classic", seed=3),
                             "extradiction-sp", lexicon=builtin_lexicon("en"), clock=SimClock(),
                             deck=builtin_deck("en").shuffled(3), game_id="screens")
    for event in [{"type": "write", "player": "Ann", "text": "MARKET", "row": 9, "col": 6, "dir": "across"},
                  {"type": "write", "player": "Ben", "text": "PENETRATE", "row": 8, "col": 10, "dir": "down"},
                  {"type": "clue", "player": "Cai", "answer": "thermostat",
                   "definition": "a regulator for automatically maintaining temperature"},
                  {"type": "clue_read", "player": "Cai"}, {"type": "hand", "player": "Ben"},
                  {"type": "hand", "player": "Ann"}]:
        session.submit(event)
    session.clock.advance(4)
    return session


def main(out: pathlib.Path) -> int:
    session = mid_game()
    server = WebServer(session).start()
    pages = {"scoreboard": "/", "host": f"/host?token={session.tokens['host']}",
             "seat": f"/seat?token={session.tokens['seats']['Ann']}"}
    try:
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path="/usr/bin/chromium", args=CHROMIUM_ARGS)
            grid_shots(browser, out)
            ukrainian_shots(browser, out)
            for size, viewport in SIZES.items():
                context = browser.new_context(viewport=viewport, is_mobile=size == "phone")
                for name, path in pages.items():
                    page = context.new_page()
                    page.goto(server.url + path)
                    page.wait_for_timeout(1200)
                    target = out / f"page-{name}-{size}.png"
                    page.screenshot(path=str(target), full_page=True)
                    print(f"wrote {target}")
                context.close()
            browser.close()
    finally:
        server.stop()
    return 0


def grid_shots(browser, out: pathlib.Path) -> None:
    """On a phone: Cai's tap grid with THERMOSTAT previewed on the 19x19 board, and Mia's page at
    Level 1 with the card's word spelled on the letter buttons and its first square tapped."""
    phone = {"viewport": SIZES["phone"], "is_mobile": True, "has_touch": True}
    session = mid_game()
    for event in [{"type": "recognise", "player": "Cai", "target": "Ben"},
                  {"type": "answer", "player": "Ben", "text": "thermostat"}]:
        session.submit(event)
    child = Session.create(Journal(pathlib.Path(tempfile.mkdtemp()) / "j.sqlite"),
                           GameSetup("extradiction", ("Mia",), variant="level1"), "extradiction",
                           lexicon=builtin_lexicon("en"), clock=SimClock(), deck=picture_deck("en").shuffled(2),
                           game_id="child")
    child.submit({"type": "clue", "player": "Mia", "answer": "cat", "picture": "🐈"})
    child.submit({"type": "answer", "player": "Mia", "correct": True})
    servers = [WebServer(session).start(), WebServer(child).start()]
    try:
        for server, table, seat, word, square, name in [
                (servers[0], session, "Ben", "thermostat", "H11", "page-seat-grid-phone.png"),
                (servers[1], child, "Mia", "CAT", "E4", "page-child-phone.png")]:
            page = browser.new_context(**phone).new_page()
            page.goto(f"{server.url}/seat?token={table.tokens['seats'][seat]}")
            page.wait_for_selector("#where:not([hidden])")
            if table is child:
                for letter in word:
                    page.click(f"#childpad button[data-letter='{letter}']")
            else:
                page.fill("#text", word)
            page.click(f"#tapboard button[data-square='{square}']")
            page.wait_for_timeout(300)
            page.screenshot(path=str(out / name), full_page=True)
            print(f"wrote {out / name}")
            page.context.close()
    finally:
        for server in servers:
            server.stop()


def ukrainian_shots(browser, out: pathlib.Path) -> None:
    """Letter dice with ``--language uk``: Ann's phone after her first word, then the scoreboard's
    reveal once the sand has run out (the pages in the game's language, Ukrainian)."""
    session = Session.create(Journal(pathlib.Path(tempfile.mkdtemp()) / "j.sqlite"),
                             GameSetup("letter-dice", ("Ann", "Ben", "Cai"), language="uk",
                                       options={"sand_seconds": 60}),
                             "", lexicon=builtin_lexicon("uk"), clock=SimClock(), game_id="dice-uk")
    session.submit({"type": "roll", "faces": ["К", "І", "Т", "Р", "А", "К", "*", "О"]})
    server = WebServer(session).start()
    try:
        seat = browser.new_context(viewport=SIZES["phone"], is_mobile=True, has_touch=True).new_page()
        seat.goto(f"{server.url}/seat?token={session.tokens['seats']['Ann']}")
        seat.wait_for_selector("#form:not([hidden])")
        seat.select_option("#row", "1")
        seat.fill("#text", "кіт")
        seat.click("#send")
        seat.wait_for_selector("#mywords li")
        for player, row, word in [("Ben", 2, "рак"), ("Cai", 1, "тато"), ("Ben", 1, "кіт")]:
            session.submit({"type": "word", "player": player, "row": row, "word": word})
        seat.wait_for_timeout(800)
        seat.screenshot(path=str(out / "page-seat-uk-phone.png"), full_page=True)
        print(f"wrote {out / 'page-seat-uk-phone.png'}")
        session.clock.advance(61)
        session.tick()
        board = browser.new_context(viewport={"width": 1280, "height": 800}).new_page()
        board.goto(server.url + "/")
        board.wait_for_selector("#reveal:not([hidden])")
        board.screenshot(path=str(out / "page-scoreboard-uk-laptop.png"), full_page=True)
        print(f"wrote {out / 'page-scoreboard-uk-laptop.png'}")
        seat.context.close()
        board.context.close()
    finally:
        server.stop()


if __name__ == "__main__":
    sys.exit(main(pathlib.Path(sys.argv[1] if len(sys.argv) > 1 else "docs/img")))
