"""Random playouts (hypothesis): invariants that hold whatever the players do.

* totals equal the sum of turn scores;
* written letters never change, unless a challenge (or the host) removes a whole answer;
* ``replay(record(game)) == game``.
"""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rules import errors
from rules.game import GameSetup
from rules.games import new_game
from rules.record import Record, record_of, replay
from tabletop.resources import load_board
from tests.rules.playouts import CROSSWORD_GAMES, attempt, event_for, short_lexicon


@pytest.mark.slow
@pytest.mark.parametrize("game_id, variant", CROSSWORD_GAMES)
@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(attempts=st.lists(attempt, min_size=5, max_size=60), seed=st.integers(0, 1000))
def test_random_playouts_keep_the_invariants(game_id, variant, attempts, seed):
    board = load_board(game_id)
    game = new_game(GameSetup(game_id, ("Ann", "Ben", "Cai"), variant=variant, seed=seed), board, short_lexicon())
    for kind, word_i, row, col, direction, player_i in attempts:
        if game.over:
            break
        before = dict(game.grid.items())
        turns_before = len(game.turns)
        removed_before = [t.removed for t in game.turns]
        try:
            game.apply(event_for(game, kind, word_i, row, col, direction, player_i))
        except errors.Rejection:
            assert dict(game.grid.items()) == before
            continue
        after = dict(game.grid.items())
        newly_removed = [t for t, was in zip(game.turns, removed_before) if t.removed and not was]
        if newly_removed:
            (turn,) = newly_removed
            assert set(before) - set(after) == set(turn.new_squares)
            assert all(after[s] == before[s] for s in after)
        else:
            assert all(after.get(s) == letter for s, letter in before.items()), "a written letter changed"
            assert len(game.turns) in (turns_before, turns_before + 1)
        totals = {p: 0 for p in game.setup.players}
        for turn in game.turns:
            totals[turn.player] += turn.score
        assert game.totals == totals
    record = Record.from_json(record_of(game, board=game_id).to_json())
    assert replay(record, board, short_lexicon()) == game
