"""Levels 1-2 in Ukrainian have their picture cards, and a game whose clue deck cannot be had is
refused before anything is journalled (no dead end at the table)."""

from __future__ import annotations

import subprocess
import sys

from rules.game import GameSetup
from rules.lexicon import normalise
from tabletop.decks import deck_of_kind, picture_deck
from tabletop.lexicons import builtin_lexicon
from tabletop.resources import load_board
from tabletop.session import Journal, Session, SimClock


def test_every_ukrainian_picture_card_is_a_ukrainian_word_with_a_picture():
    deck = picture_deck("uk")
    assert len(deck) >= 40
    lexicon = builtin_lexicon("uk")
    for card in deck:
        clue = card.clues[0]
        assert clue.picture and clue.definition and normalise(clue.answer).isalpha()
        assert normalise(clue.answer) in lexicon, clue.answer


def test_a_level_1_game_in_ukrainian_draws_a_picture_card():
    session = Session.create(Journal(":memory:"), GameSetup("extradiction", ("Оля", "Тарас"), variant="level1",
                                                            language="uk"),
                             "extradiction", board=load_board("extradiction"), lexicon=builtin_lexicon("uk"),
                             clock=SimClock(), deck=deck_of_kind("pictures", "uk").shuffled(1))
    result = session.host_action("clue")
    assert result is not None and result.accepted and result.event.get("picture")


def test_a_missing_deck_is_refused_before_the_game_is_journalled(tmp_path):
    journal = tmp_path / "j.sqlite"
    done = subprocess.run([sys.executable, "-m", "tabletop", "play", "extradiction", "--players", "Ann,Ben",
                           "--level", "1", "--deck", str(tmp_path / "none.toml"), "--journal", str(journal),
                           "--no-voice", "--port", "0", "--host", "127.0.0.1"],
                          input="quit\n", capture_output=True, text=True, timeout=120)
    assert done.returncode != 0 and "deck file not found" in done.stderr and "--deck FILE.toml" in done.stderr
    assert not journal.exists() or Journal(journal).games() == []
