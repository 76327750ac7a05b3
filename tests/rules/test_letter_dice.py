"""The letter-dice game: every rule of letter-dice.txt, each setting, both languages."""

from __future__ import annotations

import pytest

from rules import errors
from rules.game import GameSetup
from rules.games import new_game
from rules.letter_dice import BadRoll, NoRound, RowRejected, best_words, fits_dice
from rules.lexicon import Lexicon

EN = Lexicon(["cat", "act", "tac", "tea", "eat", "ate", "cats", "cast", "acts", "scat", "east", "seat", "teas",
              "cater", "trace", "react", "crate", "scare", "races", "caters", "traces", "nectar", "canter"])
UK = Lexicon(["кіт", "кит", "рак", "ток", "ґанок", "ганок", "м'ята", "корита", "актор", "ріка"])
ROLL = ["C", "A", "T", "E", "S", "R", "N", "*"]


def game(players=("Ann", "Ben", "Cai"), lexicon=EN, language="en", **options):
    return new_game(GameSetup("letter-dice", tuple(players), language=language, options=options), None, lexicon)


def word(player, row, text):
    return {"type": "word", "player": player, "row": row, "word": text}


def play_round(g, faces, words):
    g.apply({"type": "roll", "faces": faces})
    for w in words:
        g.apply(word(*w))
    return {(d.player, d.row): (d.score, d.reason) for d in g.apply({"type": "end_round"}).details}


def test_a_unique_dictionary_word_scores_its_rows_points():
    g = game()
    scores = play_round(g, ROLL, [("Ann", 1, "cat"), ("Ann", 6, "trace"), ("Ann", 9, "canter")])
    assert scores[("Ann", 1)] == (1, "") and scores[("Ann", 6)] == (3, "") and scores[("Ann", 9)] == (5, "")
    assert g.totals["Ann"] == 9


def test_the_same_word_from_two_players_in_a_round_scores_0_for_each():
    scores = play_round(game(), ROLL, [("Ann", 1, "cat"), ("Ben", 2, "CAT"), ("Cai", 1, "act")])
    assert scores[("Ann", 1)] == (0, "also written by Ben") and scores[("Ben", 2)] == (0, "also written by Ann")
    assert scores[("Cai", 1)] == (1, "")


THREES = [[3, 1]] * 12          # a sheet of 3-letter rows: a crossed-out row never gets in the way


def test_a_word_another_player_wrote_earlier_scores_0_now_and_the_earlier_score_stands():
    g = game(sheet=THREES)
    first = play_round(g, ROLL, [("Ann", 1, "cat")])
    second = play_round(g, ROLL, [("Ben", 4, "cat")])
    assert first[("Ann", 1)][0] == 1 and second[("Ben", 4)] == (0, "written by Ann in round 1")
    assert g.result_json()["rounds"][0]["Ann"][0] == {"row": 1, "word": "CAT", "score": 1}


@pytest.mark.parametrize("setting, score", [("score", 1), ("zero", 0)])
def test_repeating_ones_own_earlier_word_is_a_setting(setting, score):
    g = game(own_repeats=setting, sheet=THREES)
    play_round(g, ROLL, [("Ann", 1, "cat")])
    assert play_round(g, ROLL, [("Ann", 4, "cat")])[("Ann", 4)][0] == score


def test_the_joker_is_any_letter_and_each_die_is_used_once_a_word():
    assert fits_dice("CAT", "CAT*") and fits_dice("CAST", "CAT*") and not fits_dice("CASTS", "CAT*")
    scores = play_round(game(), ["C", "A", "T", "E", "S", "O", "N", "*"],
                        [("Ann", 3, "tact"), ("Ben", 3, "teat")])      # TACT: T twice, the Joker is the second
    assert scores[("Ann", 3)] == (0, "not in the dictionary")      # a fit, but no word
    assert scores[("Ben", 3)] == (0, "not in the dictionary")
    scores = play_round(game(), ["X", "Y", "Z", "Q", "W", "V", "K", "*"], [("Ann", 1, "cat")])
    assert scores[("Ann", 1)] == (0, "needs letters the dice do not show")


def test_a_word_fills_its_row_exactly_and_a_row_is_used_once():
    g = game()
    g.apply({"type": "roll", "faces": ROLL})
    with pytest.raises(RowRejected, match="Row 3 has 4 squares, and CAT has 3 letters"):
        g.apply(word("Ann", 3, "cat"))
    g.apply(word("Ann", 1, "cat"))
    with pytest.raises(RowRejected, match="Ann has used row 1 already; ACT must go on a free row"):
        g.apply(word("Ann", 1, "act"))
    with pytest.raises(RowRejected, match="rows 1 to 12, not row 13"):
        g.apply(word("Ann", 13, "act"))


def test_words_outside_a_round_are_refused_naming_row_and_word():
    g = game()
    with pytest.raises(NoRound, match="Ann wrote CAT on row 1, but no round is under way"):
        g.apply(word("Ann", 1, "cat"))
    play_round(g, ROLL, [])
    with pytest.raises(NoRound, match="words wait for the next roll"):
        g.apply(word("Ann", 1, "cat"))


def test_extra_words_are_disqualified_in_the_order_given_and_missing_rows_are_crossed_out():
    g = game()
    scores = play_round(g, ROLL, [("Ann", 1, "cat"), ("Ann", 3, "cast"), ("Ann", 6, "trace"), ("Ann", 9, "canter"),
                                  ("Ben", 4, "east")])
    assert scores[("Ann", 9)] == (0, "an extra word: 3 count a round")
    assert scores[("Ben", 4)] == (2, "")
    crossed = sorted(row for (p, row), (s, why) in scores.items() if p == "Ben" and why == "no word: crossed out")
    assert crossed == [1, 2]                                          # the lowest-scoring free rows
    assert crossed == sorted(set(range(1, 13)) - set(g.free_rows("Ben")) - {4})
    assert sorted(r for (p, r), (s, why) in scores.items() if p == "Cai") == [1, 2, 3]


def test_which_rows_a_short_player_crosses_out_is_a_setting():
    g = game(cross_out="highest")
    scores = play_round(g, ROLL, [])
    assert sorted(r for (p, r) in scores if p == "Ann") == [10, 11, 12]


@pytest.mark.parametrize("block, ben", [(False, 1), (True, 0)])
def test_whether_a_wrong_word_blocks_others_is_a_setting(block, ben):
    g = game(invalid_words_block=block, sheet=THREES)
    play_round(g, ["X", "Y", "Z", "Q", "W", "V", "K", "*"], [("Ann", 1, "cat")])    # CAT: not on these dice
    assert play_round(g, ROLL, [("Ben", 4, "cat")])[("Ben", 4)][0] == ben


def test_four_rounds_of_three_words_or_three_of_four_with_two_players():
    g = game()
    for _ in range(4):
        play_round(g, ROLL, [])
    assert g.over
    with pytest.raises(errors.GameOver):
        g.apply({"type": "roll", "faces": ROLL})
    two = game(players=("Ann", "Ben"))
    assert two.rounds_total == 3 and two.quota == 4


def test_a_tie_goes_to_the_best_final_round():
    g = game(players=("Ann", "Ben"), sheet=[[3, 2], [3, 1]] * 6)
    play_round(g, ROLL, [("Ann", 1, "cat"), ("Ann", 3, "act")])  # Ann 4
    play_round(g, ROLL, [("Ben", 9, "tea")])                     # Ben 2
    play_round(g, ROLL, [("Ben", 5, "eat")])                     # Ben 2: 4 all, Ben's final round is better
    assert g.totals == {"Ann": 4, "Ben": 4} and g.winner == "Ben"
    even = game(players=("Ann", "Ben"), sheet=[[3, 2], [3, 1]] * 6)
    play_round(even, ROLL, [])
    play_round(even, ROLL, [])
    play_round(even, ROLL, [("Ann", 5, "cat"), ("Ben", 7, "act")])
    assert even.winner is None


def test_ukrainian_apostrophes_alike_and_ghe_with_upturn_is_its_own_letter():
    g = game(lexicon=UK, language="uk")
    scores = play_round(g, ["М", "Я", "Т", "А", "Ґ", "Н", "О", "К"],
                        [("Ann", 3, "м’ята"), ("Ben", 4, "мʼята"), ("Cai", 6, "ґанок")])
    assert scores[("Ann", 3)] == (0, "also written by Ben")      # the same word, apostrophes alike
    assert scores[("Cai", 6)] == (3, "")
    scores = play_round(g, ["Г", "А", "Н", "О", "К", "Т", "І", "*"], [("Ann", 6, "ганок")])
    assert scores[("Ann", 6)] == (3, "")                         # ГАНОК is not ҐАНОК: no earlier word


def test_virtual_pieces_roll_from_the_seed_with_the_languages_dice():
    from rules.letter_dice_sets import DICE
    g = game(language="uk", lexicon=UK)
    g.apply({"type": "roll"})
    again = game(language="uk", lexicon=UK)
    again.apply({"type": "roll"})
    assert g.round.faces == again.round.faces and all(f in die for f, die in zip(g.round.faces, DICE["uk"]))


def test_a_roll_is_letters_or_the_joker():
    g = game()
    with pytest.raises(BadRoll, match="one letter or the Joker"):
        g.apply({"type": "roll", "faces": ["C", "AB", "T"]})
    g.apply({"type": "roll", "faces": ["c", "joker", "t"]})
    assert g.round.faces == ("C", "*", "T")


def test_the_sand_timer_is_a_deadline_that_ends_the_round():
    g = game(sand_seconds=60)
    g.apply({"type": "roll", "faces": ROLL, "t": 10.0})
    [sand] = g.deadlines()
    assert sand.ends == 70.0 and g.due(69.0) == [] and g.due(70.5) == [{"type": "end_round"}]


def test_bad_settings_are_named():
    for options, message in [({"sheet": [[3, 1]]}, "too few"), ({"sand_seconds": 1e9}, "sand_seconds"),
                             ({"own_repeats": "maybe"}, "own_repeats"), ({"sheet": [["a", 1]]}, "sheet row 1")]:
        with pytest.raises(errors.RecordFormatError, match=message):
            game(**options)
    with pytest.raises(errors.RecordFormatError, match="2 to 8 players, not 1"):
        game(players=("Ann",))


def test_best_words_for_a_roll():
    assert best_words(EN, ROLL, 5, limit=3) == ["CATER", "CRATE", "RACES"]
    assert "TRACES" in best_words(EN, ROLL, 6)


def test_words_stay_sealed_until_the_sand_runs_out():
    g = game()
    g.apply({"type": "roll", "faces": ROLL})
    g.apply(word("Ann", 1, "cat"))
    assert g.entries_count("Ann") == 1 and g.result_json()["rounds"] == [] and g.turns == []
