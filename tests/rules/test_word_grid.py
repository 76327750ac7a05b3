"""The word grid: every rule of docs/games/word-grid.md, each setting, both languages."""

from __future__ import annotations

import pytest

from rules import errors
from rules.game import GameSetup
from rules.games import new_game
from rules.lexicon import Lexicon
from rules.word_grid import NoRound, points
from rules.word_grid_dice import DICE
from rules.word_grid_solver import best_words
from rules.word_grid_tray import BadTray, Tray

EN = Lexicon(["soap", "soaps", "taps", "apron", "aprons", "prison", "quid", "quids", "pat", "tap", "sap",
              "stapler", "pastor", "patois", "rose", "roses", "ire", "pirates"])
UK = Lexicon(["м'ята", "коти", "ліс", "рано", "ніс", "сон"])
TRAY = ["TAPE", "SORL", ["N", "I", "QU", "D"], "EDCH"]


def game(players=("Ann", "Ben", "Cai"), lexicon=EN, language="en", rounds=None, **options):
    return new_game(GameSetup("word-grid", tuple(players), language=language, rounds=rounds, options=options),
                    None, lexicon)


def word(player, text):
    return {"type": "word", "player": player, "word": text}


def play_round(g, grid, words):
    g.apply({"type": "tray", "grid": grid})
    for w in words:
        g.apply(word(*w))
    return [(d.player, d.word, d.score, d.reason) for d in g.apply({"type": "end_round"}).details]


def test_a_unique_word_chained_through_touching_dice_scores_by_its_length():
    scores = play_round(game(), TRAY, [("Ann", "soap"), ("Ann", "apron"), ("Ben", "prison"), ("Cai", "stapler")])
    assert scores == [("Ann", "SOAP", 1, ""), ("Ann", "APRON", 2, ""), ("Ben", "PRISON", 3, ""),
                      ("Cai", "STAPLER", 5, "")]


def test_points_by_letters():
    assert [points(n) for n in (3, 4, 5, 6, 7, 8, 12)] == [1, 1, 2, 3, 5, 11, 11]


def test_dice_touch_across_down_and_diagonally_and_each_is_used_once():
    tray = Tray.parse(TRAY, "en")
    assert tray.chain("SOAP") == (4, 5, 1, 2)               # S O across, O-A diagonal, A P across
    assert tray.chain("TAPS") is None                      # P and S do not touch
    assert tray.chain("TAT") is None                       # one T: a die is read once a word
    assert Tray.parse(["ABCD", "EFGH", "IJKL", "MNOP"], "en").chain("AFKP") == (0, 5, 10, 15)


def test_a_word_written_by_two_or_more_players_scores_0_for_all_of_them():
    scores = play_round(game(), TRAY, [("Ann", "soap"), ("Ben", "SOAP"), ("Cai", "soap"), ("Cai", "pat")])
    assert scores[:3] == [("Ann", "SOAP", 0, "also written by Ben, Cai"), ("Ben", "SOAP", 0, "also written by Ann, Cai"),
                          ("Cai", "SOAP", 0, "also written by Ann, Ben")]
    assert scores[3] == ("Cai", "PAT", 1, "")


def test_a_players_own_second_copy_counts_once():
    g = game()
    g.apply({"type": "tray", "grid": TRAY})
    g.apply(word("Ann", "soap"))
    assert "already" in g.apply(word("Ann", "Soap")).message
    scores = [(d.word, d.score, d.reason) for d in g.apply({"type": "end_round"}).details]
    assert scores == [("SOAP", 1, ""), ("SOAP", 0, "written twice by Ann: it counts once")]


def test_words_not_in_the_tray_too_short_or_not_words_are_kept_and_score_0_with_the_reason():
    scores = play_round(game(), TRAY, [("Ann", "taps"), ("Ann", "so"), ("Ann", "soar"), ("Ben", "taps")])
    assert scores == [("Ann", "TAPS", 0, "not in the tray: no chain of touching dice, each once, reads it"),
                      ("Ann", "SO", 0, "shorter than 3 letters"), ("Ann", "SOAR", 0, "not in the dictionary"),
                      ("Ben", "TAPS", 0, "not in the tray: no chain of touching dice, each once, reads it")]


def test_four_letters_at_least_on_a_5x5_or_6x6_tray():
    big = ["SOAPX", "TAPEX", "ROSEX", "XXXXX", "XXXXX"]
    scores = play_round(game(), big, [("Ann", "sap"), ("Ann", "soap")])
    assert scores == [("Ann", "SAP", 0, "shorter than 4 letters"), ("Ann", "SOAP", 1, "")]
    six = game()
    six.apply({"type": "tray", "grid": [r + "X" for r in big] + ["XXXXXX"]})
    assert six.fault("SAP", six.round.tray) == "shorter than 4 letters"


def test_a_two_letter_face_gives_both_letters_and_counts_two():
    scores = play_round(game(), TRAY, [("Ann", "quid"), ("Ben", "quids")])
    assert scores[0] == ("Ann", "QUID", 1, "")
    assert Tray.parse(TRAY, "en").chain("QID") is None      # no Q alone on a QU face


def test_a_wild_face_stands_for_any_one_letter():
    scores = play_round(game(), ["S*AP", "XXXX", "XXXX", "XXXX"], [("Ann", "soap"), ("Ben", "soaps")])
    assert scores == [("Ann", "SOAP", 1, ""), ("Ben", "SOAPS", 0, "not in the tray: no chain of touching dice, "
                                                                 "each once, reads it")]


def test_a_tray_is_a_square_of_4_5_or_6_rows_of_the_languages_letters():
    g = game()
    for grid, says in [(["ABC", "DEF", "GHI"], "4, 5 or 6 rows"), (["ABCD", "EFG", "HIJK", "LMNO"], "Row 2"),
                       (["ABCD", "EFGH", "IJKL", ["M", "N", "OPQ", "R"]], "'OPQ'"),
                       (["ABCD", "EFGH", "IJKL", "MNO1"], "'1'"), (["КОТИ", "EFGH", "IJKL", "MNOP"], "'К'")]:
        with pytest.raises(BadTray, match=says):
            g.apply({"type": "tray", "grid": grid})
    assert g.events == []
    g.apply({"type": "tray", "grid": ["abcd", "efgh", "ijkl", ["m", "n", "qu", "*"]]})
    assert g.round.tray.rows()[3] == ["M", "N", "QU", "*"]


def test_words_outside_a_round_are_refused_privately_naming_the_word():
    g = game()
    with pytest.raises(NoRound, match="Ann wrote SOAP, but no round is under way") as refused:
        g.apply(word("Ann", "soap"))
    assert refused.value.private_to == "Ann"
    with pytest.raises(errors.BadText) as refused:
        play_round(g, TRAY, [("Ben", "123")])
    assert refused.value.private_to == "Ben"


def test_a_tray_while_the_sand_runs_and_an_end_without_a_round_are_refused():
    g = game()
    with pytest.raises(NoRound):
        g.apply({"type": "end_round"})
    g.apply({"type": "tray", "grid": TRAY})
    with pytest.raises(errors.WrongPhase):
        g.apply({"type": "tray", "grid": TRAY})


def test_words_stay_sealed_until_the_sand_runs_out():
    g = game()
    g.apply({"type": "tray", "grid": TRAY})
    g.apply(word("Ann", "soap"))
    assert g.words_of("Ann") == ["SOAP"] and g.words_of("Ben") == [] and g.entries_count("Ann") == 1
    assert g.turns == [] and g.result_json()["rounds"] == []


def test_the_sand_is_a_deadline_from_the_rounds_minutes_that_ends_the_round():
    g = game()
    g.apply({"type": "tray", "grid": TRAY, "t": 10.0})
    [sand] = g.deadlines()
    assert sand.ends == 190.0 and g.due(189.0) == [] and g.due(190.5) == [{"type": "end_round"}]
    quick = game(minutes=1.5)
    quick.apply({"type": "tray", "grid": TRAY, "t": 0.0})
    assert quick.deadlines()[0].ends == 90.0


def test_what_the_host_can_do_now():
    g = game()
    assert [a.key for a in g.actions()] == ["shake", "end"]
    g.apply(g.actions()[0].event)
    assert [a.key for a in g.actions()] == ["end-round", "end"] and g.whose_turn() is None


def test_rounds_go_on_until_the_end_or_the_records_rounds():
    g = game(rounds=2)
    play_round(g, TRAY, [])
    assert not g.over
    play_round(g, TRAY, [("Ann", "soap")])
    assert g.over and g.winner == "Ann"
    with pytest.raises(errors.GameOver):
        g.apply({"type": "tray", "grid": TRAY})
    free = game()
    for _ in range(5):
        play_round(free, TRAY, [])
    free.apply({"type": "end"})
    assert free.over and free.winner is None                 # a tie is nobody's


def test_totals_turns_and_the_replay_json():
    g = game(players=("Ann", "Ben"))
    play_round(g, TRAY, [("Ann", "soap"), ("Ben", "soap"), ("Ben", "prison")])
    result = g.result_json()
    assert result["rounds"] == [{"Ann": [{"word": "SOAP", "score": 0, "reason": "also written by Ben"}],
                                 "Ben": [{"word": "SOAP", "score": 0, "reason": "also written by Ann"},
                                         {"word": "PRISON", "score": 3}]}]
    assert result["totals"] == {"Ann": 0, "Ben": 3} and result["winner"] == "Ben"
    assert [t["player"] for t in result["turns"]] == ["Ann", "Ben"]


def test_the_table_shakes_its_own_dice_from_the_seed():
    g, again = game(language="uk", lexicon=UK), game(language="uk", lexicon=UK)
    for one in (g, again):
        one.apply({"type": "tray"})
    assert g.round.tray == again.round.tray and g.round.tray.size == 4
    assert sorted(f for f in g.round.tray.faces if not any(f in die for die in DICE["uk"])) == []
    big = game(size=6)
    big.apply({"type": "tray"})
    assert big.round.tray.size == 6


def test_ukrainian_apostrophes_alike_and_cyrillic_faces():
    scores = play_round(game(language="uk", lexicon=UK), ["КОТИ", "РАНЯ", "ЛІСМ", "ВЕДУ"],
                        [("Ann", "м’ята"), ("Ben", "мʼята"), ("Cai", "коти")])
    assert scores == [("Ann", "М'ЯТА", 0, "also written by Ben"), ("Ben", "М'ЯТА", 0, "also written by Ann"),
                      ("Cai", "КОТИ", 1, "")]


def test_bad_settings_are_named():
    for options, says in [({"minutes": 0}, "'minutes'"), ({"minutes": "3"}, "'minutes'"), ({"size": 7}, "'size'"),
                          ({"colour": "red"}, "no set-up option 'colour'")]:
        with pytest.raises(errors.RecordFormatError, match=says):
            game(**options)
    with pytest.raises(errors.RecordFormatError, match="played in en, uk"):
        game(language="fr")


def test_the_best_words_the_tray_held():
    tray = Tray.parse(TRAY, "en")
    found = best_words(tray, EN, 3, "en", limit=50)
    assert found[0] == "STAPLER" and "TAPS" not in found and "QUID" in found
    assert found == sorted(found, key=lambda w: (-len(w), w))


def test_a_chain_too_long_to_search_scores_0_and_never_blocks_the_end_of_the_round(monkeypatch):
    import rules.word_grid as word_grid
    import rules.word_grid_tray as word_grid_tray

    monkeypatch.setattr(word_grid_tray, "SEARCH_STEPS", 5)
    monkeypatch.setattr(word_grid, "SEARCH_STEPS", 5)
    scores = play_round(game(), ["AAAA"] * 4, [("Ann", "a" * 12)])
    assert scores == [("Ann", "A" * 12, 0, "too long to check: no chain found in 5 steps")]
