"""Questique: every rule of questique.txt and each variant, refusals that name the square and
the rule, and records on someone else's board file."""

from __future__ import annotations

import pytest

from rules import errors
from rules.board import parse_board
from rules.game import GameSetup
from rules.lexicon import Lexicon
from rules.questique import NotInRack, NotOnTheme, NotYourCrossword, QuestiqueGame, TooClose, WrongStart
from rules.questique_layout import LAYERS, QuestiqueLayout, standard_board
from rules.questique_tiles import TILES, TileSupply
from rules.squares import Square
from tests.helpers import POCKET_QUESTIQUE, write

BOARD = standard_board()
SMALL = parse_board(POCKET_QUESTIQUE, "pocket.toml", required=LAYERS)
WORDS = Lexicon("cat cats act at as ask asks scat stab tea eat ate to toe tab bat sea teas oat oats "
                "tar rat art arts star stars bar bars tee tat".split(), name="test words")


def game(players=("Ann", "Ben"), board=BOARD, variant=None, seed=0, **options):
    return QuestiqueGame(GameSetup("questique", players, variant=variant, seed=seed, options=options), board, WORDS)


def play(g, *events):
    for event in events:
        g.apply(event)
    return g


def passes(*players):
    return [{"type": "pass", "player": p} for p in players]


# -- the board ------------------------------------------------------------------------------------
def test_builtin_board_has_four_star_quadrants_with_corner_stars_and_diamond_starts():
    layout = QuestiqueLayout(BOARD)
    assert len(layout.all_stars) == 16
    assert [layout.centre[k].name for k in range(4)] == ["E5", "O5", "O15", "E15"]
    assert all(len(d) == 5 for d in layout.diamonds)
    assert [s.name for s in layout.outer_stars(3)] == ["A11", "A19", "I19"]


@pytest.mark.parametrize("change, message", [
    (lambda t: t.replace('"1111.2222", "1111.2222", "1111.2222", "1111.2222"', '"1111.1111", "1111.1111", "1111.1111", "1111.1111"'),
     "four star quadrants, not 3"),
    (lambda t: t.replace('marks = ["*..*.*..*"', 'marks = ["...*.*..*"'), "a star square at each of its four corners"),
    (lambda t: t.replace('".DD...DD.", ".DD...DD.", "*..*.*..*", "........."', '".DD......", ".DD......", "*..*.*..*", "........."'),
     "no diamond start squares"),
])
def test_a_board_that_is_not_a_questique_board_is_refused_with_the_reason(change, message):
    text = SMALL.to_toml()
    text = change(text.replace(",\n  ", ", ").replace("[\n  ", "[").replace(",\n]", "]"))
    with pytest.raises(errors.BoardFormatError, match=message):
        QuestiqueLayout(parse_board(text, "theirs.toml", required=LAYERS))


# -- the tiles ------------------------------------------------------------------------------------
@pytest.mark.parametrize("language", ["en", "uk"])
def test_a_set_has_150_tiles_with_3_blanks(language):
    assert sum(TILES[language].values()) == 150 and TILES[language]["?"] == 3


def test_racks_of_seven_are_refilled_after_each_move_from_a_seeded_bag():
    g = game(pieces="virtual", first="Ann")
    assert {len(r) for r in g.supply.racks.values()} == {7}
    rack = g.supply.racks["Ann"]
    word = next(w for w in ("CAT", "TEA", "EAT", "ATE", "ACT", "SEA") if not g.supply.missing("Ann", list(w)))  \
        if any(not g.supply.missing("Ann", list(w)) for w in ("CAT", "TEA", "EAT", "ATE", "ACT", "SEA")) else None
    if word is None:   # this seed's rack spells none of them: give it one through an exchange-free rack
        g.supply.racks["Ann"] = list("CATSEAX")
        word = "CAT"
    before = g.supply.in_hand()
    g.apply(write("Ann", word, 4, 3))
    assert len(g.supply.racks["Ann"]) == 7 and g.supply.in_hand() == before - 3
    assert rack is not g.supply.racks["Ann"]


def test_a_virtual_write_needs_the_tiles_on_the_players_rack():
    g = game(pieces="virtual", first="Ann")
    g.supply.racks["Ann"] = list("QQQQQQQ")
    with pytest.raises(NotInRack, match="rack has no C A T"):
        g.apply(write("Ann", "CAT", 4, 3))


def test_nearest_to_a_begins_and_equal_draws_draw_again():
    g = game(("Ann", "Ben", "Cai"), pieces="virtual", first="Ann")
    g.supply.bag = list("MBA") + list("ZZZ")
    assert g._draw_for_first() == "Cai"
    g.supply.bag = list("AAB") + list("?E")          # Ann and Ben tie on A, then Ben's E beats Ann's blank
    assert g._draw_for_first() == "Ben"


def test_the_first_player_is_drawn_nearest_to_a_with_virtual_tiles_and_named_with_real_ones():
    firsts = {game(("Ann", "Ben", "Cai"), pieces="virtual", seed=s).order[0] for s in range(12)}
    assert firsts == {"Ann", "Ben", "Cai"}
    assert game(("Ann", "Ben"), first="Ben").whose_turn() == "Ben"
    with pytest.raises(errors.RecordFormatError, match="'first' names 'Zed'"):
        game(first="Zed")


# -- the start ------------------------------------------------------------------------------------
def test_a_first_word_covers_as_many_diamonds_as_its_length_allows():
    g = game()
    with pytest.raises(WrongStart, match="CAT can cover 3, but at E5 across it covers 2"):
        g.apply(write("Ann", "CAT", 4, 4))
    g.apply(write("Ann", "CAT", 4, 3))
    assert g.starts == {"Ann": 0}


def test_a_two_letter_first_word_may_cover_two_diamonds():
    assert game().apply(write("Ann", "AT", 4, 4)).message.startswith("Ann starts at the top left diamond")


def test_a_first_word_off_the_diamonds_is_refused():
    with pytest.raises(WrongStart, match="must start on a diamond start square"):
        game().apply(write("Ann", "CAT", 7, 0))


def test_a_start_already_taken_is_refused():
    g = play(game(("Ann", "Ben", "Cai")), write("Ann", "CAT", 4, 3))
    with pytest.raises(WrongStart, match="Ann has started at the top left diamond already"):
        g.apply(write("Ben", "AT", 5, 4))


def test_two_players_start_diagonally_opposite():
    g = play(game(), write("Ann", "CAT", 3, 14, "down"))
    with pytest.raises(WrongStart, match="starts at the bottom left diamond, not the top left"):
        g.apply(write("Ben", "CAT", 4, 3))
    g.apply(write("Ben", "CAT", 14, 3))


# -- words ----------------------------------------------------------------------------------------
@pytest.mark.parametrize("text", ["ICE CREAM", "CAN'T", "X-RAY", "C4T"])
def test_words_are_letters_only(text):
    with pytest.raises(errors.BadText, match="letters only"):
        game().apply(write("Ann", text, 4, 3))


def test_words_must_be_in_the_dictionary_and_so_must_every_word_a_move_forms():
    g = game()
    with pytest.raises(errors.NotAWord, match="CAX"):
        g.apply(write("Ann", "CAX", 4, 3))
    play(g, write("Ann", "CAT", 4, 3), write("Ben", "CAT", 14, 13))
    with pytest.raises(errors.NotAWord, match="makes"):
        g.apply(write("Ann", "TEA", 3, 2))     # T E A above C A T: TC, EA and AT down


def test_a_later_word_must_join_the_players_own_crossword():
    g = play(game(), write("Ann", "CAT", 4, 3), write("Ben", "CAT", 14, 13))
    with pytest.raises(NotYourCrossword, match="does not join Ann's crossword"):
        g.apply(write("Ann", "TEA", 7, 0))
    g.apply(write("Ann", "TEA", 4, 5, "down"))


def test_letters_are_never_added_to_another_players_crossword():
    g = play(game(("Ann", "Ben", "Cai", "Dee")), write("Ann", "CAT", 4, 3), write("Ben", "CAT", 4, 13))
    with pytest.raises(NotYourCrossword, match="which is Ann's"):
        g.apply(write("Cai", "CATS", 4, 3))


def four_on_small():
    """Ann's CATS on B2-E2 (E2 in the gap between the top quadrants), Ben's AT on G2-H2."""
    return play(game(("Ann", "Ben", "Cai", "Dee"), SMALL), write("Ann", "CAT", 1, 1), write("Ben", "AT", 1, 6),
                *passes("Cai", "Dee"), write("Ann", "CATS", 1, 1), write("Ben", "AT", 1, 6, "down"),
                *passes("Cai", "Dee"))


def test_crosswords_keep_one_empty_square_between_them():
    g = four_on_small()
    with pytest.raises(TooClose, match="The A on F2 would touch Ann's crossword at E2: crosswords keep one empty square"):
        play(g, {"type": "pass", "player": "Ann"}, write("Ben", "TAB", 0, 5, "down"))


def test_crosswords_may_touch_corner_to_corner():
    g = four_on_small()
    play(g, {"type": "pass", "player": "Ann"}, write("Ben", "AT", 2, 5))      # Ben's A on F3 meets Ann's S on E2 at a corner
    assert g.owner[Square(2, 5)] == "Ben" and g.owner[Square(1, 4)] == "Ann"


def test_a_player_may_only_move_on_their_turn_except_in_speed_play():
    g = game()
    with pytest.raises(errors.NotYourTurn, match="It is Ann's turn, not Ben's"):
        g.apply(write("Ben", "CAT", 14, 13))
    fast = game(variant="speed")
    play(fast, write("Ben", "CAT", 14, 13), write("Ben", "CATS", 14, 13), write("Ann", "CAT", 4, 3))
    assert fast.whose_turn() is None and len(fast.turns) == 3


# -- exclusion blanks ------------------------------------------------------------------------------
def test_four_players_play_for_every_star():
    g = play(game(("Ann", "Ben", "Cai", "Dee")), write("Ann", "CAT", 4, 3))
    assert g.excluded == frozenset()


def test_three_players_exclude_the_outer_stars_of_the_unused_quadrant_once_all_have_started():
    g = play(game(("Ann", "Ben", "Cai")), write("Ann", "CAT", 4, 3), write("Ben", "CAT", 14, 13))
    assert g.excluded == frozenset()
    g.apply(write("Cai", "CAT", 14, 3))
    assert sorted(s.name for s in g.excluded) == ["K1", "S1", "S9"]    # top right unused; J10-side star K9 stays


def test_two_players_exclude_the_back_four_stars_on_each_side():
    g = play(game(), write("Ann", "CAT", 4, 3))
    assert sorted(s.name for s in g.excluded) == sorted(["A1", "I1", "K1", "S1", "A19", "I19", "K19", "S19"])
    assert game(excluded=[[0, 0]]).excluded == frozenset({Square(0, 0)})


def test_a_tile_on_an_excluded_star_is_refused():
    g = play(game(("Ann", "Ben"), SMALL, excluded=[[3, 3]]), write("Ann", "CAT", 1, 1), *passes("Ben"))
    with pytest.raises(errors.NotPlayable, match="D4 is an excluded star square"):
        g.apply(write("Ann", "TOE", 1, 3, "down"))


def test_excluded_must_name_star_squares_and_at_most_eight():
    with pytest.raises(errors.RecordFormatError, match="B2, which is not a star square"):
        game(excluded=[[1, 1]])
    with pytest.raises(errors.RecordFormatError, match="8 exclusion blanks, not 9"):
        game(excluded=[[0, 0]] * 9)


# -- blanks, exchanges, passes ---------------------------------------------------------------------
def test_a_lowercase_letter_is_a_blank_and_a_set_has_three():
    g = play(game(), write("Ann", "cAT", 4, 3))
    assert g.blanks == {Square(4, 3)} and g.grid[Square(4, 3)] == "C"
    play(g, write("Ben", "caT", 14, 13))
    with pytest.raises(NotInRack, match="3 blank tiles, and this would put 4"):
        g.apply(write("Ann", "CATs", 4, 3))


def test_any_player_on_their_turn_takes_back_a_blank_by_putting_down_its_letter():
    g = play(game(), write("Ann", "cAT", 4, 3))
    out = g.apply({"type": "take_blank", "player": "Ben", "row": 4, "col": 3})
    assert "puts down the C on D5 and takes back the blank" in out.message
    assert g.blanks == set() and g.owner[Square(4, 3)] == "Ann" and g.whose_turn() == "Ben"
    with pytest.raises(errors.NotPlayable, match="D5 holds the C tile, not a blank"):
        g.apply({"type": "take_blank", "player": "Ben", "row": 4, "col": 3})


def test_a_virtual_blank_taken_back_needs_the_letter_and_goes_to_the_rack():
    g = game(pieces="virtual", first="Ann")
    g.supply.racks["Ann"] = list("?ATXYZQ")
    g.apply(write("Ann", "cAT", 4, 3))
    g.supply.racks["Ben"] = list("ABDEFGH")
    with pytest.raises(NotInRack, match="Ben needs a C to put down for the blank on D5"):
        g.apply({"type": "take_blank", "player": "Ben", "row": 4, "col": 3})
    g.supply.racks["Ben"] = list("CBDEFGH")
    g.apply({"type": "take_blank", "player": "Ben", "row": 4, "col": 3})
    assert "?" in g.supply.racks["Ben"] and "C" not in g.supply.racks["Ben"]


def test_exchanging_tiles_forfeits_the_turn_and_keeps_every_tile():
    g = game(pieces="virtual", first="Ann")
    before = sorted(g.supply.bag + [t for r in g.supply.racks.values() for t in r])
    rack = "".join(g.supply.racks["Ann"][:3])
    out = g.apply({"type": "exchange", "player": "Ann", "tiles": rack})
    assert "misses the turn" in out.message and g.whose_turn() == "Ben"
    assert sorted(g.supply.bag + [t for r in g.supply.racks.values() for t in r]) == before
    with pytest.raises(NotInRack, match="rack has no"):
        g.apply({"type": "exchange", "player": "Ben", "tiles": "ZZZZZZZZ"})


def test_physical_tiles_cannot_show_more_of_a_letter_than_the_set_has():
    g = play(game(), write("Ann", "CAT", 4, 3))
    g.tile_counts = {**g.tile_counts, "C": 1}
    with pytest.raises(NotInRack, match="A set has 1 C tile, and this would put 2 on the board"):
        g.apply(write("Ben", "CAT", 14, 13))
    g.tile_counts = {**g.tile_counts, "T": 2}
    with pytest.raises(NotInRack, match="A set has 2 T tiles, and this would put 3"):
        g.apply(write("Ben", "TAT", 14, 13))      # two more T in one word


def test_a_full_round_of_passes_ends_the_game():
    g = play(game(), write("Ann", "CATS", 4, 3), *passes("Ben", "Ann"))
    assert g.over and g.winner == "Ann"     # no stars: Ann's S is nearer an open star


# -- winning --------------------------------------------------------------------------------------
ANN_WINS = [write("Ann", "CAT", 1, 1, "down"), write("Ben", "CAT", 6, 6, "down"),
            write("Ann", "STAB", 3, 0), *passes("Ben"), write("Ann", "SCAT", 0, 1, "down"), *passes("Ben"),
            write("Ann", "AS", 0, 0), *passes("Ben"), write("Ann", "ASKS", 0, 0)]


def test_the_first_to_cover_four_stars_wins_at_once():
    g = play(game(board=SMALL, excluded=[]), *ANN_WINS)
    assert g.over and g.winner == "Ann" and g.totals == {"Ann": 4, "Ben": 0}
    assert [s.name for s in g.stars_of("Ann")] == ["A1", "D1", "A4", "D4"]
    with pytest.raises(errors.GameOver, match="Ann won"):
        g.apply(write("Ben", "CATS", 6, 6, "down"))


def test_else_the_most_stars_wins():
    g = play(game(board=SMALL, excluded=[]), *ANN_WINS[:3], {"type": "end"})
    assert g.totals == {"Ann": 2, "Ben": 0} and g.winner == "Ann"


def test_equal_stars_go_to_the_one_closest_to_an_open_star_and_else_nobody():
    closer = play(game(), write("Ann", "CATS", 4, 3), write("Ben", "AT", 14, 13), {"type": "end"})
    assert closer.distance_to_star("Ann") == 6 and closer.distance_to_star("Ben") == 7 and closer.winner == "Ann"
    level = play(game(), write("Ann", "CAT", 4, 3), write("Ben", "CAT", 14, 13), {"type": "end"})
    assert level.winner is None


# -- variants -------------------------------------------------------------------------------------
def test_standard_play_extra_places_individual_letters_where_the_text_says():
    four = game(("Ann", "Ben", "Cai", "Dee"), variant="extra")
    assert {p: [s.name for s in four.standard_individual_squares(p)] for p in four.setup.players} == \
        {"Ann": ["D1"], "Ben": ["N1"], "Cai": ["N11"], "Dee": ["D11"]}
    two = game(variant="extra")
    assert [s.name for s in two.standard_individual_squares("Ann")] == ["O4", "K4"]
    assert [s.name for s in two.standard_individual_squares("Ben")] == ["E14", "A14"]


def test_real_individual_letters_are_placed_first_on_their_squares():
    g = game(("Ann", "Ben", "Cai"), variant="extra")
    with pytest.raises(errors.WrongPhase, match="Ann still places theirs"):
        g.apply(write("Ann", "CAT", 4, 3))
    with pytest.raises(errors.NotPlayable, match="goes on D1, not E1"):
        g.apply({"type": "place", "player": "Ann", "letter": "R", "row": 0, "col": 4})
    play(g, *({"type": "place", "player": p, "letter": "R", "row": r, "col": c}
              for p, (r, c) in (("Ann", (0, 3)), ("Ben", (0, 13)), ("Cai", (10, 13)))))
    assert g.whose_turn() == "Ann" and g.individual[Square(0, 3)] == "Ann"


def test_virtual_individual_letters_are_drawn_from_the_bag():
    g = game(("Ann", "Ben"), variant="extra", pieces="virtual")
    assert sorted(s.name for s in g.individual) == ["A14", "E14", "K4", "O4"]
    assert g.supply.in_hand() + len(g.grid) == 150


def test_standard_individual_letters_fix_each_seats_start():
    g = game(("Ann", "Ben", "Cai"), variant="extra", pieces="virtual", first="Ann")
    with pytest.raises(WrongStart, match="placed for a start at the top left diamond, not the top right one"):
        g.apply(write("Ann", "CAT", 4, 13))


def test_individual_letters_from_the_record_keep_their_distance_and_leave_the_starts_free():
    g = game(("Ann", "Ben", "Cai"), variant="extra", individual=[{"player": "Ben", "letter": "R", "row": 3, "col": 2}])
    with pytest.raises(TooClose, match="touch Ben's individual letter at C4"):
        g.apply(write("Ann", "CATS", 4, 2))    # C on C5, right under Ben's R
    assert "top right" in g.apply(write("Ann", "CAT", 4, 13)).message


def test_questique_elimination_with_two_players_wins():
    g = game(variant="elimination", individual=[{"player": "Ann", "letter": "R", "row": 12, "col": 13}],
             first="Ben")
    out = g.apply(write("Ben", "CAT", 13, 14, "down"))
    assert "Questique! Ben eliminates Ann. Ben wins!" in out.message
    assert g.over and g.winner == "Ben" and g.result_json()["eliminated"] == ["Ann"]


def test_in_standard_extra_a_diagonal_capture_eliminates_nobody():
    g = game(variant="extra", individual=[{"player": "Ann", "letter": "R", "row": 12, "col": 13}], first="Ben")
    g.apply(write("Ben", "CAT", 13, 14, "down"))
    assert not g.eliminated and not g.over


def test_an_eliminated_player_is_skipped_and_the_crossword_stays():
    g = game(("Ann", "Ben", "Cai"), variant="elimination",
             individual=[{"player": "Cai", "letter": "R", "row": 3, "col": 2}])
    play(g, write("Ann", "CAT", 4, 3))
    assert g.eliminated == ["Cai"] and not g.over
    play(g, write("Ben", "CAT", 4, 13))
    assert g.whose_turn() == "Ann" and g.grid[Square(3, 2)] == "R"
    with pytest.raises(errors.NotYourTurn, match="Cai has been eliminated"):
        g.apply(write("Cai", "CAT", 14, 13))


def test_handicap_targets_change_the_stars_needed():
    g = play(game(board=SMALL, excluded=[], targets={"Ann": 2}), *ANN_WINS[:3])
    assert g.over and g.winner == "Ann" and g.totals["Ann"] == 2
    with pytest.raises(errors.RecordFormatError, match="Ann's target must be 1 to 16 stars"):
        game(targets={"Ann": 0})


def test_themed_play_takes_only_words_on_the_players_theme():
    themes = {"Ann": ["cat", "bat", "rat"], "Ben": ["tea", "sea", "oat"]}
    g = game(variant="themed", themes=themes)
    with pytest.raises(NotOnTheme, match="TEA is not on Ann's theme list"):
        g.apply(write("Ann", "TEA", 3, 4, "down"))
    g.apply(write("Ann", "CAT", 4, 3))
    with pytest.raises(errors.RecordFormatError, match="themed play needs 'themes'"):
        game(variant="themed")


def test_token_play_pays_a_token_a_star_and_the_rest_of_the_pool_to_the_winner():
    g = play(game(board=SMALL, excluded=[], variant="token"), *ANN_WINS)
    assert g.result_json()["tokens"] == {"Ann": 16, "Ben": 0}
    g = play(game(board=SMALL, excluded=[], variant="token"), *ANN_WINS[:3], {"type": "end"})
    assert g.tokens() == {"Ann": 16, "Ben": 0}


def test_partners_start_diagonally_opposite_and_need_seven_stars_together():
    g = game(("Ann", "Ben", "Cai", "Dee"), variant="partner")
    play(g, write("Ann", "CAT", 4, 3), write("Ben", "CAT", 4, 13))
    with pytest.raises(WrongStart, match="Partners start diagonally opposite: Cai starts at the bottom right"):
        g.apply(write("Cai", "CAT", 14, 3))
    assert g.side_target(0) == 7 and g.sides == (("Ann", "Cai"), ("Ben", "Dee"))


def test_in_partner_play_one_partner_eliminated_and_the_other_pair_wins():
    g = game(("Ann", "Ben", "Cai", "Dee"), variant="partner+elimination",
             individual=[{"player": "Ben", "letter": "R", "row": 3, "col": 2}])
    out = g.apply(write("Ann", "CAT", 4, 3))
    assert "Ann+Cai wins" in out.message and g.winner == "Ann+Cai"


def test_solo_play_covers_every_star_and_reports_moves_and_distinct_words():
    g = QuestiqueGame(GameSetup("questique", ("Ann",), variant="solo"), SMALL, WORDS)
    play(g, write("Ann", "CAT", 1, 1, "down"), write("Ann", "STAB", 3, 0))
    result = g.result_json()
    assert result["moves"] == 2 and result["distinct_words"] == 2 and not g.over and g.side_target(0) == 16
    with pytest.raises(errors.RecordFormatError, match="Solo play is for one player, not 2"):
        game(variant="solo")


def test_unknown_variants_and_player_counts_are_refused():
    with pytest.raises(errors.RecordFormatError, match="unknown Questique variant 'chess'"):
        game(variant="chess")
    with pytest.raises(errors.RecordFormatError, match="Partner play is for four players"):
        game(variant="partner")
    with pytest.raises(errors.RecordFormatError, match="2 to 4 players"):
        QuestiqueGame(GameSetup("questique", ("Ann",)), BOARD, WORDS)


def test_a_refused_move_leaves_the_game_as_it_was():
    g = play(game(pieces="virtual", first="Ann"))
    state = g.state()
    with pytest.raises(errors.Rejection):
        g.apply(write("Ann", "QQQ", 4, 3))
    assert g.state() == state


def test_tile_supply_never_creates_or_loses_a_tile():
    supply = TileSupply("uk", seed=3, players=("Оля", "Тарас"))
    assert supply.in_hand() == 150
    supply.exchange("Оля", supply.racks["Оля"][:4])
    assert supply.in_hand() == 150 and len(supply.racks["Оля"]) == 7
