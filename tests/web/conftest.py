"""Fixtures for the web tests: a served session on a simulated clock, and a headless Chromium."""

from __future__ import annotations

import os
import shutil

import pytest

from rules.game import GameSetup
from rules.lexicon import Lexicon
from tabletop.decks import builtin_deck
from tabletop.session import Journal, Session, SimClock
from tabletop.web import WebServer

WORDS = ["market", "penetrate", "thermostat", "invisible", "apple", "star", "rat"]
CHROMIUM = os.environ.get("TABLETOP_CHROMIUM", "/usr/bin/chromium")
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--no-first-run"]


def make_session(tmp_path, game="extradiction-sp", variant="classic", players=("Ann", "Ben", "Cai"), clock=None):
    journal = Journal(tmp_path / "journal.sqlite")
    return Session.create(journal, GameSetup(game, players, variant=variant, seed=1), game,
                          lexicon=Lexicon(WORDS), clock=clock or SimClock(), game_id="web-test",
                          deck=builtin_deck("en").shuffled(1))


@pytest.fixture
def session(tmp_path):
    s = make_session(tmp_path)
    yield s
    s.journal.close()


@pytest.fixture
def served(session):
    server = WebServer(session).start()
    yield server
    server.stop()


@pytest.fixture(scope="session")
def browser():
    if not shutil.which(CHROMIUM) and not os.path.exists(CHROMIUM):
        pytest.fail(f"Chromium not found at {CHROMIUM}: run ./tabletop.sh setup (it installs Debian's chromium)")
    from playwright.sync_api import sync_playwright
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS, headless=True)
        yield browser
        browser.close()


@pytest.fixture
def page(browser):
    context = browser.new_context()
    page = context.new_page()
    page.set_default_timeout(10_000)
    yield page
    context.close()
