"""`tabletop bench vision --quick --json` runs end to end and its numbers hang together."""

from __future__ import annotations

import argparse
import json

import pytest

from tabletop.benchmarks import vision as bench

pytestmark = [pytest.mark.slow, pytest.mark.vision, pytest.mark.timeout(300)]


def test_quick_benchmark_prints_measured_numbers(capsys):
    assert bench.run(argparse.Namespace(quick=True, json=True)) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["writes_with_hand"] == 0
    assert out["board_found_rate"] >= 0.99
    assert 0 < out["ms_per_steady_frame"] < 1000 and 0 < out["ms_per_full_read_15x15"] < 10_000
    if "letter_accuracy" not in out:  # the UNIPEN strokes are not on this machine
        assert out["real_handwriting"].startswith("not measured")
        return
    for name in ("letter_accuracy", "outsider_letter_accuracy", "word_accuracy", "everyday_word_accuracy", "empty_ink_accuracy"):
        low, high = out[f"{name}_95ci"]
        assert low <= out[name] <= high, name
    assert out["letter_accuracy"] > 0.5  # a broken reader or model falls far below this
    # read by the network that never learnt from these writers, with the acceptance fitted for it
    assert "letters-heldout.onnx" in out["real_handwriting"]
    assert out["acceptance"].endswith("letters-heldout.accept.json")
    assert 0 <= out["letters_recorded_as_one_bar"] < out["letters_read"]
    assert 0.5 < out["letter_accuracy_without_one_bar_recordings"] <= 1
    assert out["empty_ink_errors"]["false"] == 0
    assert out["outsider_letters_read"] == 20 and out["outsider_errors"]["false"] == 0
    far = out["far"]  # never inventing: no letter on an empty square of a far board judged readable
    assert far["letters_on_empty_readable"] == 0 and far["readable_with_letters"] == 0
    assert far["readable"] + sum(far["refused"].values()) + far["not_found"] == far["scenes"]
    taps = out["taps"]
    assert taps["words"] + taps["words_refused"] == 28 and 0 <= taps["asked"] <= taps["words"] and taps["taken"] == taps["words"] - taps["asked"]
    assert taps["seconds_per_game"] == taps["taps_per_game"] * 5.0
    assert [t for t, *_ in out["everyday_tradeoff"]] == sorted(t for t, *_ in out["everyday_tradeoff"])


def test_wilson_interval_is_wide_for_few_cases_and_narrow_for_many():
    low, high = bench.wilson(9, 10)
    assert low < 0.6 < 0.9 < high
    low, high = bench.wilson(9000, 10000)
    assert high - low < 0.015
    assert bench.wilson(0, 0) == (0.0, 1.0)


def test_quick_benchmark_has_the_dice_lines(capsys):
    from tabletop.benchmarks import dice

    assert dice.run(argparse.Namespace(quick=True, json=True)) == 0
    out = json.loads(capsys.readouterr().out)
    assert [r["language"] for r in out["dice"]] == ["en", "uk"]
    for r in out["dice"]:
        assert r["rolls_from_hand_or_moving"] == 0
        assert r["per_die"] >= 0.9 and 0 <= r["per_roll"] <= r["per_die"]
        assert r["rolls_at_rest"] == r["sequences"]
        assert 0 < r["ms_per_read"] < 1000
    plain = out["plain"]
    if "skipped" not in plain:              # the real photos of plain dice are beside the checkout
        assert set(plain["splits"]) == {"val", "test"}
        for part in plain["splits"].values():
            s = part["summary"]
            assert s["photos"] == len(part["photos"]) > 0
            assert 0.9 <= s["recall"] <= 1 and s["faces_right"] + s["faces_unsure"] <= 1


def test_quick_benchmark_has_the_chips_lines(capsys):
    from tabletop.benchmarks import chips

    assert chips.run(argparse.Namespace(quick=True, json=True)) == 0
    out = json.loads(capsys.readouterr().out)["chips"]
    assert out["changes_from_hand_frames"] == 0 and out["changes_right"] == out["sequences"]
    assert out["per_square"] >= 0.99 and out["board_not_found"] == 0
    assert 0 < out["ms_per_steady_frame"] < out["ms_per_read"] < 10_000


def test_quick_benchmark_has_the_tiles_lines(capsys):
    from tabletop.benchmarks import tiles

    assert tiles.run(argparse.Namespace(quick=True, json=True)) == 0
    out = json.loads(capsys.readouterr().out)["tiles"]
    for style in ("printed", "boxed"):
        m = out[style]
        assert m["board_not_found"] == 0 and m["tiles"] > 100
        assert 0.8 < m["per_tile"] <= 1 and m["per_square"] <= m["empty_or_tile"]   # a square right is right about a tile
        assert m["empty_or_tile"] >= 0.99 and m["boards_right"] <= m["photos"]
        assert m["tesseract_tiles"] == 40 and 0 <= m["tesseract_per_tile"] <= 1
        assert 0 < m["ms_per_read"] < 10_000


def test_the_ukrainian_letter_lines_are_measured_on_held_out_writers(capsys):
    from tabletop.benchmarks import ukrainian
    from tabletop.benchmarks.scenes import board_15
    from tabletop.resources import load_board
    from vision.synth.cyrillic import COMNIST_PATH

    out = ukrainian.measure_letters([load_board("extradiction"), board_15()], True, print)
    if not COMNIST_PATH.is_file():
        assert out["not_measured"].startswith("no CoMNIST data")
        return
    assert out["language"] == "uk" and out["scenes_not_read"] == 0
    assert out["letters_read"] == out["comnist_letters_read"] + out["constructed_letters_read"] == 120
    assert out["letter_accuracy"] > 0.6  # a broken reader or a Latin model reading Cyrillic falls far below this
    assert out["as_drawn"]["letters_read"] == 120 and out["as_drawn"]["letter_accuracy"] > 0.6
    assert out["empty_read_written"] == 0 and out["as_drawn"]["empty_read_written"] == 0
    assert out["empty_squares_of_readable_boards"] > 0
    ukrainian.print_lines(out)
    printed = capsys.readouterr().out
    assert "letters (uk) per square, all 33 (120)" in printed and "target >= 0.95" in printed
    assert "all 33 as drawn, CoMNIST's thin lines (120)" in printed


def test_the_ukrainian_word_lines_count_words_asked_and_taken(capsys):
    from tabletop.benchmarks import ukrainian
    from tabletop.benchmarks.scenes import board_15
    from vision.synth.cyrillic import COMNIST_PATH

    words = ukrainian.measure_words(board_15(), True, print, scenes=2)
    if "not_measured" in words:
        assert not COMNIST_PATH.is_file() or "frequencies" in words["not_measured"]
        return
    assert words["words_read"] + words["words_refused"] == 14
    assert 0 <= words["words_asked"] <= words["words_read"]
    assert words["word_accuracy"] > 0.5  # a Latin network or no dictionary reads almost none of them
    assert len(words["accepted_wrong_words"]) == words["accepted_words_wrong"]  # each wrong word taken is named
    low, high = words["accepted_words_right_95ci"]
    assert low <= words["accepted_words_right"] <= high
    ukrainian.print_word_lines(words)
    ukrainian.print_done_means({"letters_read": 1, "letter_accuracy": 1.0, "empty_read_written": 0,
                                "as_drawn": {"empty_read_written": 0}, "words": words})
    printed = capsys.readouterr().out
    assert "taken without asking and right" in printed and "uk: words asked about" in printed


def test_word_scenes_count_the_letters_as_the_board_was_read():
    """``letters_read`` counts every written square of the reads taken, and a square is right when
    the grid as read (after the dictionary) has the letter written: never fewer than the words read
    right hold."""
    import numpy as np

    from tabletop.benchmarks.scenes import board_15, word_scenes
    from tabletop.lexicons import builtin_lexicon, reading_index
    from vision.synth.realdata import load_handwriting

    held = load_handwriting().of(["uji"])
    if not len(held):
        pytest.skip("no UJI handwriting on this machine")
    index = reading_index(builtin_lexicon("en"), "en")
    words = ["CAT", "HOUSE", "GARDEN", "RIVER", "STONE"]
    seen: list[tuple[str, bool]] = []

    def each(reader, read, word, squares) -> None:
        seen.append((word, "".join(read.rows[sq.row][sq.col] for sq in squares) == word))

    letters, refused = [0, 0], [0]
    right, *_ = word_scenes(board_15(), held, words, 2, np.random.default_rng(7), index, print, each=each,
                            refused=refused, letters_read=letters)
    assert letters[1] == sum(len(word) for word, _ in seen)
    assert sum(len(word) for word, ok in seen if ok) <= letters[0] <= letters[1]
    assert len(seen) + refused[0] == 14
