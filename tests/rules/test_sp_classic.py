"""eXtraDICTION SP Classic: the turn flow and each timing rule, driven by timestamped events."""

import pytest

from rules import errors
from tests.helpers import board_from, make_game, write


@pytest.fixture
def board():
    return board_from(["111111111"] * 9, ["aaaabcccc"] * 9)


@pytest.fixture
def game(board, lexicon):
    return make_game("extradiction-sp", board, lexicon, players=("Ann", "Ben", "Cai"), variant="classic")


def ev(kind, player=None, t=None, **fields):
    event = {"type": kind, **fields}
    if player is not None:
        event["player"] = player
    if t is not None:
        event["t"] = t
    return event


def ask(game, asker="Ann", answer="cat", t0=0.0, read_at=3.0):
    game.apply(ev("clue", asker, t0, answer=answer))
    game.apply(ev("clue_read", asker, read_at))


def test_only_the_asker_in_seat_order_asks(game):
    with pytest.raises(errors.NotYourTurn) as caught:
        game.apply(ev("clue", "Ben", 0, answer="cat"))
    assert "Ann's turn to ask" in str(caught.value)


def test_hands_before_the_clue_is_read_do_not_count(game):
    game.apply(ev("clue", "Ann", 0, answer="cat"))
    with pytest.raises(errors.WrongPhase) as caught:
        game.apply(ev("hand", "Ben", 1))
    assert "before the clue was finished" in str(caught.value)


def test_window_of_30_seconds_starts_when_the_clue_is_read(game):
    ask(game, t0=0, read_at=10)
    game.apply(ev("hand", "Ben", 39.5))          # 29.5 s after reading: still open
    assert game.turn.hands == ["Ben"]


def test_window_shared_by_all_closes_after_30_seconds(game):
    ask(game, read_at=3)
    game.apply(ev("hand", "Ben", 10))
    with pytest.raises(errors.TooLate):
        game.apply(ev("hand", "Cai", 33.5))
    assert game.turn.phase == "answering"         # the rejected event changed nothing
    outcome = game.apply(ev("time", t=40))
    assert game.turn.phase == "writing" and game.turn.writer == "Ann"
    assert "nobody answered right" in outcome.message


def test_asker_recognises_hands_in_the_order_they_went_up(game):
    ask(game)
    game.apply(ev("hand", "Cai", 4))
    game.apply(ev("hand", "Ben", 4.2))
    with pytest.raises(errors.NotYourTurn) as caught:
        game.apply(ev("recognise", "Ann", 5, target="Ben"))
    assert "Cai raised a hand first" in str(caught.value)
    game.apply(ev("recognise", "Ann", 5, target="Cai"))
    assert game.turn.current == "Cai"


def test_five_seconds_to_answer_once_recognised(game):
    ask(game)
    game.apply(ev("hand", "Ben", 4))
    game.apply(ev("hand", "Cai", 4.5))
    game.apply(ev("recognise", "Ann", 6, target="Ben"))
    outcome = game.apply(ev("answer", "Ben", 11.5, text="cat"))     # right, but 5.5 s after
    assert "5 seconds were up" in outcome.message
    assert game.turn.phase == "answering" and "Ben" in game.turn.done
    game.apply(ev("recognise", "Ann", 12, target="Cai"))
    game.apply(ev("answer", "Cai", 13, text="cat"))
    assert game.turn.writer == "Cai"


def test_a_right_answer_in_time_lets_the_player_write(game):
    ask(game)
    game.apply(ev("hand", "Ben", 4))
    game.apply(ev("recognise", "Ann", 5, target="Ben"))
    game.apply(ev("answer", "Ben", 9.9, text="CAT"))
    assert (game.turn.phase, game.turn.writer) == ("writing", "Ben")


def test_only_the_first_answer_counts(game):
    ask(game)
    game.apply(ev("hand", "Ben", 4))
    game.apply(ev("recognise", "Ann", 5, target="Ben"))
    game.apply(ev("answer", "Ben", 6, text="dog"))
    outcome = game.apply(ev("answer", "Ben", 7, text="cat"))
    assert outcome.ignored and "only the first answer counts" in outcome.message
    assert game.turn.writer is None


def test_one_answer_per_player_per_turn_so_no_second_hand(game):
    ask(game)
    game.apply(ev("hand", "Ben", 4))
    game.apply(ev("recognise", "Ann", 5, target="Ben"))
    game.apply(ev("answer", "Ben", 6, text="dog"))
    outcome = game.apply(ev("hand", "Ben", 8))
    assert outcome.ignored and game.turn.hands == []


def test_answering_out_of_turn_is_ignored_and_costs_the_turn_to_answer(game):
    ask(game)
    game.apply(ev("hand", "Ben", 4))
    game.apply(ev("hand", "Cai", 4.1))
    game.apply(ev("recognise", "Ann", 5, target="Ben"))
    outcome = game.apply(ev("answer", "Cai", 5.5, text="cat"))
    assert outcome.ignored and "loses her turn" in outcome.message
    assert "Cai" in game.turn.done and game.turn.hands == []
    assert game.turn.writer is None


def test_an_ignored_answer_may_be_used_by_another_player(game):
    ask(game)
    game.apply(ev("hand", "Ben", 4))
    game.apply(ev("answer", "Cai", 4.5, text="cat"))         # out of turn: ignored
    game.apply(ev("recognise", "Ann", 5, target="Ben"))
    game.apply(ev("answer", "Ben", 6, text="cat"))
    assert game.turn.writer == "Ben"


def test_a_wrong_answer_passes_to_the_next_hand(game):
    ask(game)
    game.apply(ev("hand", "Ben", 4))
    game.apply(ev("hand", "Cai", 4.1))
    game.apply(ev("recognise", "Ann", 5, target="Ben"))
    outcome = game.apply(ev("answer", "Ben", 6, text="dog"))
    assert "Next: Cai" in outcome.message


def test_nobody_right_means_the_asker_writes_and_scores(game):
    ask(game)
    for who, t in (("Ben", 4), ("Cai", 5)):
        game.apply(ev("hand", who, t))
    game.apply(ev("recognise", "Ann", 6, target="Ben"))
    game.apply(ev("answer", "Ben", 7, text="dog"))
    game.apply(ev("recognise", "Ann", 8, target="Cai"))
    outcome = game.apply(ev("answer", "Cai", 9, text="bat"))
    assert "Ann writes" in outcome.message
    turn = game.apply(write("Ann", "CAT", 4, 3, t=20)).turn
    assert turn.player == "Ann" and game.totals["Ann"] == turn.score > 0


def test_the_asker_does_not_answer(game):
    ask(game)
    with pytest.raises(errors.WrongPhase):
        game.apply(ev("hand", "Ann", 4))
    with pytest.raises(errors.WrongPhase):
        game.apply(ev("answer", "Ann", 4, text="cat"))


def test_nobody_writes_before_a_right_answer(game):
    ask(game)
    with pytest.raises(errors.WrongPhase):
        game.apply(write("Ben", "CAT", 4, 3, t=5))


def right_answer_by_ben(game, answer="cat"):
    ask(game, answer=answer)
    game.apply(ev("hand", "Ben", 4))
    game.apply(ev("recognise", "Ann", 5, target="Ben"))
    game.apply(ev("answer", "Ben", 6, text=answer))


def test_thirty_seconds_to_write_a_late_answer_can_be_challenged(game):
    right_answer_by_ben(game)
    outcome = game.apply(write("Ben", "CAT", 4, 3, t=36.5))
    assert "may be challenged" in outcome.message
    challenge = game.apply(ev("challenge", "Cai", 37, reason="late"))
    assert "removed" in challenge.message
    assert game.totals["Ben"] == 0 and len(game.grid) == 0


def test_an_answer_written_in_time_cannot_be_challenged_as_late(game):
    right_answer_by_ben(game)
    game.apply(write("Ben", "CAT", 4, 3, t=35.9))
    with pytest.raises(errors.ChallengeFails):
        game.apply(ev("challenge", "Cai", 37, reason="late"))
    assert game.totals["Ben"] > 0


def test_a_misspelt_answer_can_be_challenged_and_removed(game):
    right_answer_by_ben(game)
    game.apply(write("Ben", "CATS", 4, 3, t=20))
    game.apply(ev("challenge", "Ann", 21))
    assert game.totals["Ben"] == 0 and game.turns[-1].removed
    assert game.grid.rows_text()[4] == "........."


def test_challenges_come_before_the_next_turn_starts(game):
    right_answer_by_ben(game)
    game.apply(write("Ben", "CATS", 4, 3, t=20))
    game.apply(ev("clue", "Ben", 30, answer="dog"))
    with pytest.raises(errors.WrongPhase):
        game.apply(ev("challenge", "Ann", 31))


def test_a_player_cannot_challenge_her_own_answer(game):
    right_answer_by_ben(game)
    game.apply(write("Ben", "CATS", 4, 3, t=20))
    with pytest.raises(errors.WrongPhase):
        game.apply(ev("challenge", "Ben", 21))


@pytest.mark.parametrize("players, rounds", [(2, 10), (3, 7), (4, 5)])
def test_rounds_by_number_of_players(board, lexicon, players, rounds):
    names = tuple(f"P{i}" for i in range(players))
    game = make_game("extradiction-sp", board, lexicon, players=names, variant="classic")
    assert game.total_turns == rounds * players
    for n in range(rounds * players):
        game.apply(ev("clue", names[n % players], n * 100.0, answer="cat"))
        game.apply(ev("pass", names[n % players], n * 100.0 + 1))
    assert game.over
    with pytest.raises(errors.GameOver) as caught:
        game.apply(ev("clue", names[0], 1e6))
    assert f"all {rounds} rounds" in str(caught.value)


def test_an_agreed_number_of_rounds(board, lexicon):
    game = make_game("extradiction-sp", board, lexicon, players=("Ann", "Ben"), variant="classic", rounds=1)
    game.apply(write("Ann", "CAT", 4, 3))
    game.apply(write("Ben", "DOG", 0, 0))
    assert game.over


def test_a_record_of_writes_only_is_a_turn_each(board, lexicon):
    game = make_game("extradiction-sp", board, lexicon, players=("Ann", "Ben"), variant="classic")
    game.apply(write("Ann", "CAT", 4, 3))
    game.apply(write("Ann", "DOG", 0, 0))      # the answerer may write in someone else's turn
    assert [t.player for t in game.turns] == ["Ann", "Ann"] and game.turns_started == 2


def test_speed_variant_players_take_turns_and_may_pass(board, lexicon):
    game = make_game("extradiction-sp", board, lexicon, players=("Ann", "Ben"), variant="speed")
    game.apply(write("Ann", "CAT", 4, 3))
    with pytest.raises(errors.NotYourTurn):
        game.apply(write("Ann", "DOG", 0, 0))
    game.apply(ev("pass", "Ben"))
    game.apply(write("Ann", "CAT", 0, 0))       # SP Speed allows a word again
    with pytest.raises(errors.WrongPhase):
        game.apply(ev("clue", "Ben"))


def test_remove_after_a_rejected_event_still_takes_the_points(board, lexicon):
    """Regression: a rejection's rollback once split the removed answer from its scored turn."""
    game = make_game("extradiction-sp", board, lexicon, players=("Ann", "Ben"), variant="speed")
    game.apply(write("Ann", "CAT", 4, 3))
    with pytest.raises(errors.NothingNew):
        game.apply(write("Ben", "CAT", 4, 3))
    game.apply(ev("remove"))
    assert game.totals == {"Ann": 0, "Ben": 0} and len(game.grid) == 0


@pytest.mark.parametrize("players", [1, 5, 9])
def test_sp_is_for_two_to_four_players(board, lexicon, players):
    with pytest.raises(errors.RecordFormatError, match=f"eXtraDICTION SP is played by 2 to 4 players, not {players}"):
        make_game("extradiction-sp", board, lexicon, players=tuple(f"P{i}" for i in range(players)))


def test_speed_names_the_next_player_right_after_a_write(board, lexicon):
    game = make_game("extradiction-sp", board, lexicon, players=("Ann", "Ben", "Cai"), variant="speed")
    assert game.whose_turn() == "Ann"
    game.apply(ev("pass", "Ann", 1.0))
    assert game.whose_turn() == "Ben"
    assert [a.event for a in game.actions() if a.key == "pass"] == [{"type": "pass", "player": "Ben"}]
    game.apply(ev("pass", "Ben", 2.0))
    assert game.whose_turn() == "Cai"


def test_the_cards_answer_is_awaited_only_while_it_is_written(game):
    ask(game)
    assert game.awaited_word() is None                 # hands up: nothing to write yet
    game.apply(ev("hand", "Ben", 4))
    game.apply(ev("recognise", "Ann", 5, target="Ben"))
    game.apply(ev("answer", "Ben", 9.9, text="CAT"))
    assert game.awaited_word() == "CAT"
