import numpy as np
import pytest

from vision.letters import ALPHABET
from vision.words import LexiconIndex, decode, verify

pytestmark = pytest.mark.vision


def logp_for(text, p=0.6, confusions=None):
    probs = np.full((len(text), 26), (1 - p) / 25)
    for i, ch in enumerate(text):
        probs[i, ALPHABET.index(ch)] = p
    for i, (ch, q) in (confusions or {}).items():
        probs[i] *= (1 - q) / (1 - probs[i, ALPHABET.index(ch)])
        probs[i, ALPHABET.index(ch)] = q
    return np.log(probs)


def test_lexicon_fixes_one_misread_letter():
    index = LexiconIndex(["MARKET", "MARKED", "BASKET"])
    d = decode(logp_for("MARKET", confusions={3: ("R", 0.5)}), index)  # K read as R
    assert d.raw == "MARRET" and d.text == "MARKET" and d.in_lexicon


def test_unknown_word_is_kept_raw_and_flagged():
    d = decode(logp_for("QZX", p=0.9999), LexiconIndex(["CAT", "DOG"]))
    assert d.text == "QZX" and not d.in_lexicon and d.needs_confirmation
    # less clearly written: the closest dictionary word, but never without asking
    assert decode(logp_for("QZX", p=0.9), LexiconIndex(["CAT", "DOG"])).needs_confirmation


def test_ambiguous_reading_asks_for_confirmation():
    index = LexiconIndex(["CAT", "COT"])
    d = decode(logp_for("CAT", confusions={1: ("O", 0.45)}), index)
    assert d.needs_confirmation


def test_fixed_letters_from_a_crossing_word():
    index = LexiconIndex(["CAT", "COT"])
    d = decode(logp_for("CAT"), index, fixed={1: ALPHABET.index("O")})
    assert d.text == "COT"


def test_verify_expected_answer():
    index = LexiconIndex(["MARKET", "BASKET", "MARKED"])
    good = verify(logp_for("MARKET", p=0.8), "market", index)
    assert good.matches and good.confidence > 0.9 and not good.needs_confirmation
    bad = verify(logp_for("BASKET", p=0.8), "MARKET", index)
    assert not bad.matches and bad.confidence < 0.1
    assert not verify(logp_for("CAT"), "MARKET", index).matches


@pytest.mark.slow
def test_reader_verifies_the_expected_answer(small_board):
    from rules.squares import Square
    from vision.reader import BoardReader
    from vision.synth.scene import make_scene

    squares = [Square(4, 3 + k) for k in range(4)]
    frame = make_scene(small_board, dict(zip(squares, "TENT")), seed=8, tilt_deg=15, glare=False).frame
    reader = BoardReader(small_board, ["TENT", "TEXT", "RENT", "DENT"])
    read = reader.read(frame)
    assert reader.verify(read, squares, "TENT").matches
    assert not reader.verify(read, squares, "DOGS").matches


def test_common_word_wins_a_close_call_but_not_clear_writing():
    frequency = {"BEACHES": 2e-5, "BENCHES": 1e-6}.get
    plain, weighted = LexiconIndex(["BEACHES", "BENCHES"]), LexiconIndex(["BEACHES", "BENCHES"], frequency=frequency)
    close = logp_for("BENCHES", confusions={2: ("A", 0.3)})  # N (0.43) a little likelier than A
    assert decode(close, plain).text == "BENCHES"
    assert decode(close, weighted).text == "BEACHES"
    clear = logp_for("BENCHES", p=0.95)
    assert decode(clear, weighted).text == "BENCHES" and not decode(clear, weighted).needs_confirmation


def test_word_prior_follows_the_words_a_crossing_letter_leaves():
    frequency = {"COT": 1e-3, "CAT": 1e-7}.get  # COT far more common here; only CAT fits the crossing A
    index = LexiconIndex(["CAT", "COT", "DOG"], frequency=frequency)
    d = decode(logp_for("CAT", p=0.3), index, fixed={1: ALPHABET.index("A")})
    assert d.text == "CAT"


def test_no_frequency_or_zero_weight_means_a_flat_prior():
    assert LexiconIndex(["CAT", "COT"]).log_prior(3).tolist() == [0.0, 0.0]
    assert LexiconIndex(["CAT", "COT"], frequency={"CAT": 0.1}.get, weight=0).log_prior(3).tolist() == [0.0, 0.0]
    prior = LexiconIndex(["CAT", "COT", "ZZZ"], frequency={"CAT": 1e-3, "COT": 1e-5}.get).log_prior(3)
    assert prior[0] > prior[1] > prior[2] == 0.0
