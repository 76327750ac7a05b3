"""Words a roll allows, found by signature, are exactly those a plain reading of the dictionary
finds (each die once, a Joker any letter), with the fewest Jokers each needs."""

from __future__ import annotations

from collections import Counter

from hypothesis import given, settings
from hypothesis import strategies as st

from rules.letter_dice import fits_dice
from rules.lexicon import Lexicon
from rules.roll_words import words_from_roll

WORDS = ["cat", "act", "tac", "cot", "coat", "taco", "octa", "eat", "tea", "ate", "seat", "east", "teas", "aa",
         "zzz", "stoat", "toast", "cats", "scat", "oats", "stoa", "taxes", "ґанок", "ганок", "кіт", "м'ята", "ті"]
LEXICON = Lexicon(WORDS)
FACES = st.lists(st.sampled_from(list("CATOESXZ*") + ["Ґ", "Г", "А", "Н", "О", "К", "І", "Т"]), min_size=0, max_size=9)


def jokers_needed(word: str, faces: list[str]) -> int:
    have = Counter(f for f in faces if f != "*")
    return sum(max(0, n - have.get(ch, 0)) for ch, n in Counter(word).items())


@settings(max_examples=300, deadline=None)
@given(FACES, st.integers(2, 6))
def test_signature_lookup_matches_reading_every_word(faces, length):
    found = words_from_roll(LEXICON, faces, length)
    expected = {w: jokers_needed(w, faces) for w in LEXICON.words_of_length(length)
                if w.isalpha() and fits_dice(w, faces)}
    assert found == expected


def test_ghe_and_ghe_with_upturn_are_different_letters():
    assert set(words_from_roll(LEXICON, ["Ґ", "А", "Н", "О", "К"], 5)) == {"ҐАНОК"}
    assert set(words_from_roll(LEXICON, ["Г", "А", "Н", "О", "К", "*"], 5)) == {"ГАНОК", "ҐАНОК"}
