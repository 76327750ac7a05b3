"""The original eXtraDICTION: levels, scoring, Chance cards, clue cards and Speed."""

import pytest

from rules import errors
from rules.chance import STANDARD_CARDS, ChanceCard, ChanceDeck
from rules.squares import Square
from tests.helpers import board_from, make_game, write

# 7x7 board, stars: row 3 is "1210121"; '!' on C4 and E4; zones: centre 'c', ring 'r', rest 'o'
VALUES = ["0000000", "0000000", "0000000", "1210121", "0000000", "0000000", "0000000"]
ZONES = ["ooooooo", "ooooooo", "oorrroo", "oorcroo", "oorrroo", "ooooooo", "ooooooo"]
MARKS = [".......", ".......", ".......", "..!.!..", ".......", ".......", "......."]


@pytest.fixture
def board():
    return board_from(VALUES, ZONES, MARKS)


@pytest.fixture
def plain_board():
    return board_from(VALUES, ZONES)


def test_level3_scores_stars_times_zones(plain_board, lexicon):
    game = make_game("extradiction", plain_board, lexicon, variant="level3")
    turn = game.apply(write("Ann", "CAT", 3, 2)).turn
    assert (turn.words[0].value_sum, len(turn.words[0].zones), turn.score) == (2, 2, 4)


def test_level3_touching_scores_formed_words(plain_board, lexicon):
    game = make_game("extradiction", plain_board, lexicon, variant="level3")
    game.apply(write("Ann", "CAT", 3, 2))
    turn = game.apply(write("Ben", "TA", 4, 3)).turn    # under A and T of CAT: forms AT and TA down
    assert [w.word for w in turn.words] == ["TA", "AT", "TA"]
    assert turn.kind == "touching"


def test_level1_words_go_across_only(plain_board, lexicon):
    game = make_game("extradiction", plain_board, lexicon, variant="level1")
    with pytest.raises(errors.WrongDirection) as caught:
        game.apply(write("Ann", "CAT", 0, 0, "down"))
    assert "across" in str(caught.value) and "A1" in str(caught.value)


def test_level1_anywhere_stars_only(plain_board, lexicon):
    game = make_game("extradiction", plain_board, lexicon, variant="level2")
    outcome = game.apply(write("Ann", "CAT", 3, 0))            # 1+2+1 stars, no zone multiplier
    assert outcome.turn.score == 4
    assert outcome.message == "Ann wrote CAT: 4 stars!"           # for children: no scoring words


def test_level_word_must_be_the_cards_word(plain_board, lexicon):
    game = make_game("extradiction", plain_board, lexicon, variant="level1")
    game.apply({"type": "clue", "player": "Ben", "answer": "cat"})
    with pytest.raises(errors.WrongAnswer) as caught:
        game.apply(write("Ann", "BAT", 3, 0))
    assert "The card's word is CAT" in str(caught.value)
    assert game.apply(write("Ann", "CAT", 3, 0)).turn.score == 4


def test_wrong_guess_puts_the_card_aside(plain_board, lexicon):
    game = make_game("extradiction", plain_board, lexicon, variant="level3")
    game.apply({"type": "clue", "player": "Ben", "answer": "cat"})
    game.apply({"type": "answer", "player": "Ann", "text": "dog"})
    with pytest.raises(errors.WrongPhase):
        game.apply({"type": "answer", "player": "Ann", "text": "cat"})
    assert game.cards_used == 1 and not game.card_in_play


def test_the_guesser_writes(plain_board, lexicon):
    game = make_game("extradiction", plain_board, lexicon, variant="level3")
    game.apply({"type": "clue", "player": "Ben", "answer": "cat"})
    game.apply({"type": "answer", "player": "Ann", "text": "cat"})
    with pytest.raises(errors.NotYourTurn):
        game.apply(write("Ben", "CAT", 3, 2))


def test_game_ends_after_ten_clue_cards(plain_board, lexicon):
    game = make_game("extradiction", plain_board, lexicon, variant="level3")
    for _ in range(10):
        game.apply({"type": "clue", "player": "Ben", "answer": "cat"})
        game.apply({"type": "answer", "player": "Ann", "correct": False})
    assert game.over
    with pytest.raises(errors.GameOver) as caught:
        game.apply({"type": "clue", "player": "Ben"})
    assert "10 clue cards" in str(caught.value)


def test_chance_card_for_each_new_letter_on_a_chance_square(board, lexicon):
    game = make_game("extradiction", board, lexicon, variant="level3", seed=3)
    turn = game.apply(write("Ann", "CAT", 3, 2)).turn     # C on '!' C4, T on '!' E4
    expected = list(ChanceDeck.standard(3).remaining()[:2])
    assert list(turn.chance) == expected
    assert turn.score == sum(w.score for w in turn.words) + turn.chance_delta


def test_no_chance_card_for_squares_of_the_word_being_modified(board, lexicon):
    game = make_game("extradiction", board, lexicon, variant="level3", seed=3)
    game.apply(write("Ann", "CAT", 3, 2))
    turn = game.apply(write("Ben", "TEA", 3, 4, "down")).turn   # crosses at T on the '!' square E4
    assert turn.chance == ()


def test_no_chance_card_for_a_floating_word(lexicon):
    marks = ["!......", ".......", ".......", ".......", ".......", ".......", "......."]
    game = make_game("extradiction", board_from(VALUES, ZONES, marks), lexicon, variant="level3")
    game.apply(write("Ann", "CAT", 3, 2))
    turn = game.apply(write("Ben", "DOG", 0, 0)).turn
    assert turn.kind == "floating" and turn.chance == ()


@pytest.mark.parametrize("level", ["level1", "level2"])
def test_at_levels_1_and_2_every_word_draws_its_chance_cards(level, lexicon):
    """The rule text (Levels 1 and 2): "for each letter that occupies a Chance square, let the
    player pick a card" -- words there go anywhere, so a word on its own still draws."""
    marks = ["!......", ".......", ".......", ".......", ".......", ".......", "......."]
    game = make_game("extradiction", board_from(VALUES, ZONES, marks), lexicon, variant=level, seed=5)
    game.apply(write("Ann", "CAT", 3, 2))
    outcome = game.apply(write("Ben", "DOG", 0, 0))                     # D on the '!' square A1
    assert outcome.turn.kind == "floating" and list(outcome.turn.chance) == [ChanceDeck.standard(5).remaining()[0]]
    assert outcome.message.endswith("and 1 Chance card!")


def test_rats_never_take_more_stars_than_a_player_has(board, lexicon):
    for seed in range(40):
        game = make_game("extradiction", board, lexicon, variant="level3", seed=seed)
        game.apply(write("Ann", "CAT", 3, 2))
        assert game.totals["Ann"] >= 0
        assert game.totals["Ann"] == sum(t.score for t in game.turns)


def test_chance_deck_is_seeded_and_has_stars_and_rats():
    assert ChanceDeck.standard(5).remaining() == ChanceDeck.standard(5).remaining()
    assert ChanceDeck.standard(5).remaining() != ChanceDeck.standard(6).remaining()
    assert any(c.rats for c in STANDARD_CARDS) and any(c.stars for c in STANDARD_CARDS)
    deck = ChanceDeck((ChanceCard(stars=1),))
    assert deck.draw() == ChanceCard(stars=1) and deck.draw() is None


def test_speed_players_take_turns(plain_board, lexicon):
    game = make_game("extradiction", plain_board, lexicon, variant="speed")
    with pytest.raises(errors.NotYourTurn) as caught:
        game.apply(write("Ben", "CAT", 3, 2))
    assert "Ann's turn" in str(caught.value)
    game.apply(write("Ann", "CAT", 3, 2))
    game.apply({"type": "pass", "player": "Ben"})
    game.apply(write("Ann", "DOG", 0, 0))


def test_speed_a_word_only_once(plain_board, lexicon):
    game = make_game("extradiction", plain_board, lexicon, variant="speed")
    game.apply(write("Ann", "CAT", 3, 2))
    with pytest.raises(errors.WordAlreadyUsed) as caught:
        game.apply(write("Ben", "CAT", 0, 0))
    assert "only once" in str(caught.value) and "CAT" in str(caught.value)


def test_speed_has_no_clue_cards(plain_board, lexicon):
    game = make_game("extradiction", plain_board, lexicon, variant="speed")
    with pytest.raises(errors.WrongPhase):
        game.apply({"type": "clue", "player": "Ann"})


def test_game_ends_when_no_square_is_left(lexicon):
    board = board_from(["111"], ["aaa"], center=(0, 1))
    game = make_game("extradiction", board, lexicon, variant="speed")
    game.apply(write("Ann", "CAT", 0, 0))
    assert game.over
    with pytest.raises(errors.GameOver) as caught:
        game.apply({"type": "pass", "player": "Ben"})
    assert "no square is left" in str(caught.value)


def test_unknown_variant_is_refused(plain_board, lexicon):
    with pytest.raises(errors.RecordFormatError):
        make_game("extradiction", plain_board, lexicon, variant="level9")


def test_unknown_player_is_refused(plain_board, lexicon):
    game = make_game("extradiction", plain_board, lexicon)
    with pytest.raises(errors.UnknownPlayer) as caught:
        game.apply(write("Zed", "CAT", 3, 2))
    assert "'Zed' is not playing" in str(caught.value)


def test_rejection_leaves_the_game_unchanged(plain_board, lexicon):
    game = make_game("extradiction", plain_board, lexicon, variant="level3")
    game.apply(write("Ann", "CAT", 3, 2))
    before = game.state()
    with pytest.raises(errors.LetterConflict):
        game.apply(write("Ben", "DOG", 1, 3, "down"))
    assert game.state() == before and len(game.events) == 1


def test_chance_square_positions_on_builtin_board_are_off_the_rulebook_words():
    from tabletop.resources import load_board

    board = load_board("extradiction")
    for r, c in [(6, 2), (6, 3), (6, 4), (6, 5), (6, 6), (6, 7), (7, 7), (8, 7), (9, 7), (0, 1), (0, 2), (0, 3)]:
        assert not board.is_chance(Square(r, c))


def test_the_clue_cards_answer_is_awaited_until_it_is_written(plain_board, lexicon):
    game = make_game("extradiction", plain_board, lexicon, variant="level1")
    assert game.awaited_word() is None
    game.apply({"type": "clue", "player": "Ben", "answer": "cat"})
    assert game.awaited_word() == "CAT"
    game.apply(write("Ann", "CAT", 3, 0))
    assert game.awaited_word() is None
