"""Fixtures for the session tests: a small house lexicon (fast to load in subprocesses) and scripts."""

from __future__ import annotations

import json
import pathlib

import pytest

from rules.game import GameSetup
from tabletop.decks import builtin_deck
from tabletop.session import Journal, Session, SimClock
from tabletop.table.runner import run_script
from tabletop.games import spec


@pytest.fixture(scope="session")
def deck():
    return builtin_deck("en").shuffled(5)


@pytest.fixture(scope="session")
def house_words(deck, tmp_path_factory):
    """Every single-word answer of the deck: a word list small enough to load in milliseconds."""
    words = sorted({clue.answer for card in deck for clue in card.clues if clue.answer.isalpha()})
    path = tmp_path_factory.mktemp("lexicon") / "words.txt"
    path.write_text("\n".join(words) + "\n", encoding="utf-8")
    return path


def play_in_memory(game: str, variant: str, players, deck, lexicon_path, seed=5, rounds=None):
    """Play a whole simulated game in memory; return the session."""
    from tabletop.lexicons import load_wordlist
    lexicon = load_wordlist(lexicon_path)
    session = Session.create(Journal(":memory:"), GameSetup(game, tuple(players), variant=variant, seed=seed,
                                                            rounds=rounds),
                             game, str(lexicon_path), lexicon=lexicon, clock=SimClock(), deck=deck, game_id="ref")
    run_script(session, spec(game).demo.script(lambda: session.game, deck, seed=seed))
    return session


@pytest.fixture(scope="session")
def sp_script(deck, house_words, tmp_path_factory) -> pathlib.Path:
    """A whole SP Classic game (3 players) as driver steps, with an undo and a re-submission in it."""
    session = play_in_memory("extradiction-sp", "classic", ("Ann", "Ben", "Cai"), deck, house_words)
    steps = []
    for entry in session.journal.entries(session.game_id):
        assert entry.kind == "event"
        steps.append({"kind": "event", "event": entry.body, "source": entry.source})
    # the host takes back the 3rd accepted write and it is written again
    writes = [i for i, s in enumerate(steps) if s["event"]["type"] == "write"]
    k = writes[2]
    steps[k + 1:k + 1] = [{"kind": "undo"}, steps[k]]
    setup = dict(session.setup_data)
    path = tmp_path_factory.mktemp("script") / "sp.json"
    path.write_text(json.dumps({"game_id": "kill-test", "setup": setup, "steps": steps}), encoding="utf-8")
    return path
