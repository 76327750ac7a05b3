"""Random letter-dice games played by the table's virtual dice: they always end after their
rounds, totals are the rows' scores, and a game is rebuilt from its record."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from rules import errors
from rules.game import GameSetup
from rules.games import new_game
from rules.letter_dice import best_words
from rules.record import record_of, replay
from tests.rules.playouts import LETTER_DICE_WORDS

WORDS = LETTER_DICE_WORDS


@settings(max_examples=60, deadline=None)
@given(st.integers(2, 5), st.integers(0, 10_000), st.lists(st.integers(0, 100), min_size=40, max_size=200))
def test_random_virtual_games(n_players, seed, choices):
    players = tuple(f"P{i}" for i in range(n_players))
    game = new_game(GameSetup("letter-dice", players, seed=seed, options={"pieces": "virtual"}), None, WORDS)
    pick = iter(choices * 10)
    while not game.over:
        game.apply({"type": "roll"})
        for player in players:
            for _ in range(next(pick) % (game.quota + 2)):           # too few, enough, or extra words
                free = game.free_rows(player)
                if not free:
                    break
                row = free[next(pick) % len(free)]
                length = game.sheet[row - 1][0]
                options = best_words(WORDS, game.round.faces, length) + [None, "x" * length]
                try:
                    game.apply({"type": "word", "player": player, "row": row, "word": options[next(pick) % len(options)]})
                except errors.Rejection:
                    raise AssertionError("a free row and a word of its length must be taken")
        game.apply({"type": "end_round"})
    assert len(game.scored) == game.rounds_total
    for player in players:
        rows = [w.score for details in game.scored for w in details if w.player == player]
        assert game.totals[player] == sum(rows)
        assert len(game.free_rows(player)) == len(game.sheet) - len(game.used_rows[player])
    assert game.winner is None or game.winner in players
    again = replay(record_of(game, ""), None, WORDS)
    assert again == game and again.result_json() == game.result_json()
