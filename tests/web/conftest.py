"""Fixtures for the web tests: a served session on a simulated clock (the headless Chromium is
the root conftest's, one for the whole run: a second sync Playwright could not start beside it)."""

from __future__ import annotations

import pytest

from rules.game import GameSetup
from rules.lexicon import Lexicon
from tabletop.decks import builtin_deck
from tabletop.session import Journal, Session, SimClock
from tabletop.web import WebServer

WORDS = ["market", "penetrate", "thermostat", "invisible", "apple", "star", "rat"]
from tests.conftest import CHROMIUM, CHROMIUM_ARGS  # noqa: E402,F401  (where the pages' tests find them)


def make_session(tmp_path, game="extradiction-sp", variant="classic", players=("Ann", "Ben", "Cai"), clock=None):
    journal = Journal(tmp_path / "journal.sqlite")
    return Session.create(journal, GameSetup(game, players, variant=variant, seed=1), game,
                          lexicon=Lexicon(WORDS), clock=clock or SimClock(), game_id="web-test",
                          deck=builtin_deck("en").shuffled(1))


#: the letter-dice tables' word list
DICE_WORDS = Lexicon(["cat", "act", "tea", "east", "seat", "crate", "trace", "react"])


#: the Ukrainian letter-dice tables' word list
DICE_WORDS_UK = Lexicon(["кіт", "кит", "рак", "рік", "ток", "кора", "тато", "карта"])


def _dice_table(tmp_path, language: str, words: Lexicon):
    session = Session.create(Journal(tmp_path / "j.sqlite"), GameSetup("letter-dice", ("Ann", "Ben", "Cai"),
                             language=language, options={"sand_seconds": 60}), "", lexicon=words, clock=SimClock(),
                             game_id="dice")
    server = WebServer(session).start()
    yield session, server
    server.stop()
    session.journal.close()


@pytest.fixture
def dice_table(tmp_path):
    """Three letter-dice seats with a minute of sand, served."""
    yield from _dice_table(tmp_path, "en", DICE_WORDS)


@pytest.fixture
def dice_table_uk(tmp_path):
    """The same table playing in Ukrainian (``--language uk``): its pages default to Ukrainian."""
    yield from _dice_table(tmp_path, "uk", DICE_WORDS_UK)


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
