"""The shipped English clue deck, and reading deck files from disk."""

import pathlib
import tomllib

import pytest

from rules.deck import LEVELS, mentions_answer, parse_deck
from tabletop.decks import DECKS, builtin_deck, builtin_decks, load_deck
from tabletop.errors import UserError
from tabletop.lexicons import builtin_lexicon


@pytest.fixture(scope="module")
def deck():
    return builtin_deck("en")


def test_the_shipped_deck_parses_and_is_big_enough(deck):
    assert "en" in builtin_decks()
    assert (deck.name, deck.language) == ("Default English deck", "en")
    assert len(deck) >= 300
    assert sum(len(card.clues) for card in deck) >= 900
    assert builtin_deck("en") is deck  # cached


def test_every_level_is_present_and_cards_are_sp_style(deck):
    counts = deck.counts()
    for level in LEVELS:
        cards, clues = counts[level]
        assert cards >= 50, level
        assert clues == 3 * cards, level
    for card in deck:
        assert card.id[0] == card.level[0]
        assert len({clue.first_letter for clue in card.clues}) == len(card.clues), card.id


def test_every_answer_is_in_the_built_in_lexicon(deck):
    lexicon = builtin_lexicon("en")
    missing = [clue.answer for _, clue in deck.clues() if not lexicon.accepts_entry(clue.answer)]
    assert missing == []


def test_no_definition_gives_its_answer_away(deck):
    for card, clue in deck.clues():
        assert mentions_answer(clue.definition, clue.answer) is None, (card.id, clue)
        assert clue.answer.lower() not in clue.definition.lower().split(), (card.id, clue)


def test_answers_and_definitions_are_unique_and_card_sized(deck):
    answers = [clue.answer for _, clue in deck.clues()]
    definitions = [clue.definition for _, clue in deck.clues()]
    assert len(set(answers)) == len(answers)
    assert len(set(definitions)) == len(definitions)
    for answer in answers:
        assert all(3 <= len(word) <= 12 for word in answer.split(" ")), answer


def test_the_file_is_plain_toml_with_the_documented_fields():
    data = tomllib.loads((DECKS / "en.toml").read_text(encoding="utf-8"))
    assert set(data) == {"name", "language", "description", "cards"}
    assert all(set(card) == {"id", "level", "clues"} for card in data["cards"])


def test_unknown_language_is_a_user_error():
    with pytest.raises(UserError, match="no built-in clue deck for language 'xx'"):
        builtin_deck("xx")


def test_load_deck_reads_a_file_of_ones_own(tmp_path: pathlib.Path):
    path = tmp_path / "mine.toml"
    path.write_text(
        'name = "Mine"\nlanguage = "en"\n[[cards]]\nid = "a"\nlevel = "blue"\n'
        'clues = [{ answer = "kite", definition = "a toy that flies on a string" }]\n',
        encoding="utf-8",
    )
    deck = load_deck(path)
    assert deck.find("KITE").prompt() == "4-letter word beginning with 'k': a toy that flies on a string"
    assert deck == parse_deck(path.read_text(encoding="utf-8"), str(path))


def test_load_deck_errors_are_readable(tmp_path: pathlib.Path):
    with pytest.raises(UserError, match="deck file not found: .*nope.toml"):
        load_deck(tmp_path / "nope.toml")
    with pytest.raises(UserError, match="is a directory"):
        load_deck(tmp_path)
    binary = tmp_path / "binary.toml"
    binary.write_bytes(b"name = \"\xff\xfe\"\n")
    with pytest.raises(UserError, match="binary.toml is not UTF-8 text"):
        load_deck(binary)
    bad = tmp_path / "bad.toml"
    bad.write_text('name = "x"\nlanguage = "en"\n[[cards]]\nid = "a"\nlevel = "pink"\nclues = []\n', encoding="utf-8")
    with pytest.raises(UserError) as info:
        load_deck(bad)
    assert str(info.value) == f"bad deck file: {bad}: card 'a' (line 4): level must be one of green, blue, red, not 'pink'"
    assert info.value.exit_code == 2
