"""The dictionaries: English and Ukrainian from Debian's data, and house word lists."""

import pytest

from tabletop.errors import UserError
from tabletop.lexicons import builtin_lexicon, load_wordlist


@pytest.fixture(scope="module")
def english():
    return builtin_lexicon("en")


@pytest.mark.parametrize("word", ["APPLES", "MA", "AT", "THERMOSTAT", "PENETRATE", "INVISIBLE", "market",
                                  "RATS", "WRITTEN", "ice cream", "HMM", "SHH", "NTH", "OX"])
def test_english_words_and_inflections_pass(english, word):
    assert word in english or english.accepts_entry(word)


@pytest.mark.parametrize("word", ["APPLEZ", "XQWV", "THERMOSTATIC APPLEZ", "OKSANA", "TC", "GM", "KG", "LTD"])
def test_invented_words_and_proper_names_fail(english, word):
    assert not english.accepts_entry(word)


def test_ukrainian_inflected_forms_pass():
    ukrainian = builtin_lexicon("uk")
    for word in ("ЯБЛУКО", "ЯБЛУКА", "ринок", "М\u2019ЯТА", "м'ята"):
        assert word in ukrainian, word
    assert "ЯБЛУКОЗ" not in ukrainian


def test_unknown_language_is_a_readable_error():
    with pytest.raises(UserError) as caught:
        builtin_lexicon("xx")
    assert "no built-in dictionary for language 'xx'" in str(caught.value)


def test_house_word_list(tmp_path):
    path = tmp_path / "house.txt"
    path.write_text("\ufeff# tournament words\nqi\n\nZA\n  xu  \n", encoding="utf-8")
    house = load_wordlist(path)
    assert {"QI", "ZA", "XU"} == set(house.words())
    assert "APPLE" not in house


@pytest.mark.parametrize("content, message", [(None, "no such word list"), (b"\xff\xfe\x00bad", "not UTF-8"),
                                              (b"# only a comment\n", "has no words")])
def test_bad_house_word_lists(tmp_path, content, message):
    path = tmp_path / "house.txt"
    if content is not None:
        path.write_bytes(content)
    with pytest.raises(UserError) as caught:
        load_wordlist(path)
    assert message in str(caught.value)


@pytest.mark.parametrize("prefix, length", [("QU", 5), ("XYL", 9), ("ZZQ", 4), ("", 3), ("CAT", 3), ("STAPLE", 8)])
def test_a_prefix_lookup_in_the_trie_agrees_with_the_words_of_a_length(english, prefix, length):
    words = english.words_of_length(length)
    assert english.has_prefix(prefix, length) == any(w.startswith(prefix) for w in words)
    amended = english.amended(remove=[w for w in words if w.startswith(prefix)][:3])
    assert amended.has_prefix(prefix, length) == any(w.startswith(prefix) for w in amended.words_of_length(length))
