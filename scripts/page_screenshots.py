"""Screenshots of the pages for docs/img: the scoreboard, the host console and a seat page, at a
phone's size (390x844) and a laptop's (1280x800), in the middle of an SP Classic game.

    .venv/bin/python scripts/page_screenshots.py [OUT_DIR]     (default docs/img)
"""

from __future__ import annotations

import pathlib
import sys
import tempfile

from playwright.sync_api import sync_playwright

from rules.game import GameSetup
from tabletop.decks import builtin_deck
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


if __name__ == "__main__":
    sys.exit(main(pathlib.Path(sys.argv[1] if len(sys.argv) > 1 else "docs/img")))
