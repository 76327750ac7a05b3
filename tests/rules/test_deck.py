"""Clue decks: parsing, every refusal with its message, shuffling by seed, what the asker says."""

import pytest

from rules.deck import LEVELS, Card, Clue, Deck, DeckFormatError, mentions_answer, parse_deck, stem
from rules.errors import RulesError

GOOD = """\
name = "Test deck"
language = "en"
description = "two cards"

[[cards]]
id = "g001"
level = "green"
clues = [
  { answer = "market", definition = "the place with many small stalls selling different goods" },
  { answer = "Ice  Cream", definition = "a frozen   sweet made from milk" },  # a comment
]

[[cards]]
id = "r001"
level = "red"
clues = [ { answer = "thermostat", definition = "a device that keeps a room at a set warmth" } ]
"""

HEADER = 'name = "x"\nlanguage = "en"\n'


def card(body: str, card_id: str = "c1", level: str = "green") -> str:
    return HEADER + f'\n[[cards]]\nid = "{card_id}"\nlevel = "{level}"\n' + body + "\n"


def refused(text: str, source: str = "bad.toml") -> str:
    with pytest.raises(DeckFormatError) as info:
        parse_deck(text, source)
    assert isinstance(info.value, RulesError) and isinstance(info.value, ValueError)
    return str(info.value)


def test_parses_cards_levels_and_normalised_answers():
    deck = parse_deck(GOOD, "test.toml")
    assert (deck.name, deck.language, deck.description, len(deck)) == ("Test deck", "en", "two cards", 2)
    first = deck.cards[0]
    assert (first.id, first.level) == ("g001", "green")
    assert first.answers == ("MARKET", "ICE CREAM")
    assert first.clues[1].definition == "a frozen sweet made from milk"
    assert deck.cards[1].clues == (Clue("THERMOSTAT", "a device that keeps a room at a set warmth"),)
    assert deck.counts() == {"green": (1, 2), "blue": (0, 0), "red": (1, 1)}


def test_find_card_by_level_and_lookup():
    deck = parse_deck(GOOD, "test.toml")
    assert deck.find("ice cream") == deck.cards[0].clues[1]
    assert deck.find("market").definition.startswith("the place")
    assert deck.find("bazaar") is None
    assert deck.card_of("Thermostat").id == "r001"
    assert deck.card("g001") is deck.cards[0] and deck.card("nope") is None
    assert [c.id for c in deck.by_level("red")] == ["r001"]
    assert len(deck.by_level("blue")) == 0
    with pytest.raises(ValueError, match="no level 'pink'"):
        deck.by_level("pink")


def test_clue_first_letter_lengths_and_prompt():
    market = Clue("MARKET", "the place with many small stalls selling different goods")
    assert (market.first_letter, market.length, market.length_label, market.squares) == ("M", 6, "6", 6)
    assert market.prompt() == (
        "6-letter word beginning with 'm': the place with many small stalls selling different goods"
    )
    assert market.card_text() == "m (6) the place with many small stalls selling different goods"
    phrase = Clue("ICE CREAM", "a frozen sweet made from milk")
    assert (phrase.lengths, phrase.length, phrase.length_label, phrase.squares) == ((3, 5), 8, "3,5", 9)
    assert phrase.is_phrase and not market.is_phrase
    assert phrase.prompt() == "2-word phrase of 3,5 letters beginning with 'i': a frozen sweet made from milk"
    assert phrase.card_text() == "i (3,5) a frozen sweet made from milk"


def test_one_clue_cards_like_the_original_extradiction():
    deck = parse_deck(card('clues = [{ answer = "apple", definition = "a round fruit with red or green skin" }]'))
    assert deck.cards[0].clues[0].prompt() == "5-letter word beginning with 'a': a round fruit with red or green skin"


def test_apostrophes_hyphens_and_other_scripts():
    text = (
        'name = "uk"\nlanguage = "uk"\n[[cards]]\nid = "g1"\nlevel = "green"\n'
        'clues = [{ answer = "м’ята", definition = "запашна трав\'яниста рослина" },'
        ' { answer = "yo-yo", definition = "a toy that spins up and down a string" }]\n'
    )
    deck = parse_deck(text, "uk.toml")
    assert deck.cards[0].answers == ("М'ЯТА", "YO-YO")
    assert deck.cards[0].clues[0].length_label == "5"
    assert deck.cards[0].clues[1].prompt().startswith("5-letter word beginning with 'y'")


def test_shuffle_is_fixed_by_the_seed_and_keeps_every_card():
    cards = tuple(Card(f"c{i:02d}", LEVELS[i % 3], (Clue(f"WORD{'A' * (i + 1)}", "some clue text"),))
                  for i in range(30))
    deck = Deck("d", "en", cards)
    one, again, other = deck.shuffled(7), deck.shuffled(7), deck.shuffled(8)
    assert [c.id for c in one] == [c.id for c in again]
    assert [c.id for c in one] != [c.id for c in other]
    assert [c.id for c in one] != [c.id for c in deck]
    assert sorted(c.id for c in one) == sorted(c.id for c in deck)
    assert [c.id for c in deck] == [f"c{i:02d}" for i in range(30)]  # the original is untouched
    assert (one.name, one.language) == ("d", "en")
    assert [c.id for c in deck.by_level("green").shuffled(3)] == [c.id for c in deck.by_level("green").shuffled(3)]


def test_round_trips_through_to_toml():
    deck = parse_deck(GOOD, "test.toml")
    text = deck.to_toml(notes={"MARKET": "noun, zipf 5.29"})
    assert "# noun, zipf 5.29" in text
    assert parse_deck(text, "again.toml") == deck


def test_rejects_invalid_toml_naming_the_file_and_line():
    message = refused(HEADER + "[[cards]\n")
    assert message.startswith("bad.toml: not valid TOML") and "line 3" in message


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ('language = "en"\n[[cards]]\nid = "a"\nlevel = "green"\nclues = []\n', "bad.toml: missing 'name'"),
        ('name = "x"\n', "bad.toml: missing 'language'"),
        ('name = ""\nlanguage = "en"\n', "bad.toml: 'name' must be a non-empty string, not ''"),
        ('name = "x"\nlanguage = 3\n', "bad.toml: 'language' must be a non-empty string, not 3"),
        (HEADER, "bad.toml: no cards: add at least one [[cards]] table"),
        (HEADER + "cards = []\n", "bad.toml: no cards: add at least one [[cards]] table"),
        (HEADER + 'colour = "green"\n', "bad.toml: unknown key(s) colour; a deck has cards, description, language, name"),
    ],
)
def test_rejects_bad_deck_headers(text, expected):
    assert refused(text) == expected


GOOD_CLUE = 'clues = [{ answer = "cat", definition = "a small furry pet that purrs" }]'


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        (card(GOOD_CLUE, level="pink"),
         "bad.toml: card 'c1' (line 5): level must be one of green, blue, red, not 'pink'"),
        (card(""), "bad.toml: card 'c1' (line 5): no clues: a card needs 'clues = [ { answer = ..., definition = ... } ]'"),
        (card("clues = []"), "bad.toml: card 'c1' (line 5): no clues: a card needs 'clues = [ { answer = ..., definition = ... } ]'"),
        (card(GOOD_CLUE + '\npicture = "cat.png"'),
         "bad.toml: card 'c1' (line 5): unknown key(s) picture; a card has id, level and clues"),
        (card(GOOD_CLUE, card_id="c 1"),
         "bad.toml: card 'c 1' (line 5): id must be letters, digits, '-', '_' or '.', not 'c 1'"),
        (HEADER + '[[cards]]\nlevel = "green"\n' + GOOD_CLUE + "\n", "bad.toml: card '#1': missing 'id'"),
        (HEADER + '[[cards]]\nid = 7\nlevel = "green"\n' + GOOD_CLUE + "\n",
         "bad.toml: card '#1': id must be letters, digits, '-', '_' or '.', not 7"),
        (card('clues = ["cat"]'),
         "bad.toml: card 'c1' (line 5): clue 1 must be a table { answer = ..., definition = ... }, not 'cat'"),
        (card('clues = [{ answer = "cat" }]'), "bad.toml: card 'c1' (line 5): clue 1 has no definition"),
        (card('clues = [{ definition = "a small pet" }]'), "bad.toml: card 'c1' (line 5): clue 1 has no answer"),
        (card('clues = [{ answer = "cat", definiton = "a small pet" }]'),
         "bad.toml: card 'c1' (line 5): clue 1 has unknown key(s) definiton; a clue has answer, definition and picture"),
        (card('clues = [{ answer = " ", definition = "a small pet" }]'),
         "bad.toml: card 'c1' (line 5): clue 1's answer must be a non-empty string, not ' '"),
        (card('clues = [{ answer = "cat", definition = 5 }]'),
         "bad.toml: card 'c1' (line 5): clue 1's definition must be a non-empty string, not 5"),
        (card('clues = [{ answer = "c4t", definition = "a small pet" }]'),
         "bad.toml: card 'c1' (line 5): clue 1's answer 'C4T' must be letters (a hyphen or apostrophe inside "
         "a word, single spaces between a phrase's words)"),
        (card('clues = [{ answer = "-cat", definition = "a small pet" }]'),
         "bad.toml: card 'c1' (line 5): clue 1's answer '-CAT' must be letters (a hyphen or apostrophe inside "
         "a word, single spaces between a phrase's words)"),
        (card('clues = [{ answer = "cat", definition = "' + "very " * 41 + '" }]'),
         "bad.toml: card 'c1' (line 5): clue 1's definition is 204 characters long; at most 200"),
        (card('clues = [{ answer = "dog", definition = "a pet that barks" },'
              ' { answer = "market", definition = "where things are marketed" }]'),
         "bad.toml: card 'c1' (line 5): clue 2's definition gives the answer MARKET away ('marketed')"),
        (card('clues = [{ answer = "cat", definition = "a pet; not a dog" }, { answer = "Cat", definition = "a pet" }]'),
         "bad.toml: card 'c1' (line 5): clue 2's answer CAT is already on card 'c1'"),
    ],
)
def test_rejects_bad_cards_naming_file_card_line_and_clue(text, expected):
    assert refused(text) == expected


def test_rejects_duplicate_ids_and_answers_across_cards():
    two = HEADER + (
        '\n[[cards]]\nid = "a"\nlevel = "green"\n' + GOOD_CLUE +
        '\n\n[[cards]]\nid = "a"\nlevel = "blue"\nclues = [{ answer = "dog", definition = "a pet that barks" }]\n'
    )
    assert refused(two) == "bad.toml: card 'a' (line 10): duplicate id: card 1 has it too"
    again = two.replace('id = "a"\nlevel = "blue"', 'id = "b"\nlevel = "blue"').replace('"dog"', '"cat"')
    assert refused(again) == "bad.toml: card 'b' (line 10): clue 1's answer CAT is already on card 'a'"


def test_error_carries_its_parts():
    with pytest.raises(DeckFormatError) as info:
        parse_deck(card(GOOD_CLUE, level="gold"), "mine.toml")
    assert (info.value.source, info.value.card, info.value.line) == ("mine.toml", "c1", 5)


@pytest.mark.parametrize(
    ("definition", "answer", "giveaway"),
    [
        ("a place where goods are marketed", "market", "marketed"),
        ("a big marketplace", "market", "marketplace"),
        ("Markets, stalls and shops", "market", "Markets"),
        ("moving like a dancer", "dance", "dancer"),
        ("the state of happiness", "happy", "happiness"),
        ("the act of removing", "removal", "removing"),
        ("going on running feet", "run", "running"),
        ("a frozen dessert of cream", "ice cream", "cream"),
        ("the place with many small stalls selling different goods", "market", None),
        ("a sky body that goes round a star", "planet", None),
        ("a small flying insect", "ant", None),
        ("a cold dessert", "ice cream", None),
    ],
)
def test_mentions_answer(definition, answer, giveaway):
    assert mentions_answer(definition, answer) == giveaway


def test_stem_only_applies_english_rules_to_english():
    assert stem("stories") == stem("story") == "STOR"
    assert mentions_answer("мʼятна рослина", "м'ята", language="uk") is None
    assert mentions_answer("солодка ягода, як малина", "малина", language="uk") == "малина"
