"""Random playouts (hypothesis): invariants that hold whatever the players do.

* totals equal the sum of turn scores;
* written letters never change, unless a challenge (or the host) removes a whole answer;
* ``replay(record(game)) == game``.
"""

from __future__ import annotations

import functools

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rules import errors
from rules.game import GameSetup
from rules.games import new_game
from rules.lexicon import Lexicon
from rules.record import Record, record_of, replay
from tabletop.lexicons import builtin_lexicon
from tabletop.resources import load_board


@functools.lru_cache(maxsize=1)
def short_words() -> tuple[str, ...]:
    """Every 2-5 letter word of the built-in English dictionary (plenty of crossings and touches)."""
    return tuple(sorted(w for w in builtin_lexicon("en").words() if 2 <= len(w) <= 5 and w.isalpha()))


@functools.lru_cache(maxsize=1)
def short_lexicon() -> Lexicon:
    return Lexicon(short_words(), name="short words")


GAMES = [("extradiction", "level3"), ("extradiction", "speed"), ("extradiction", "level1"),
         ("extradiction-sp", "classic"), ("extradiction-sp", "speed")]

attempt = st.tuples(
    st.sampled_from(["write", "write", "write", "write", "pass", "remove", "challenge"]),
    st.integers(0, 10 ** 6),      # word index
    st.integers(-1, 19),          # row
    st.integers(-1, 19),          # col
    st.sampled_from(["across", "down"]),
    st.integers(0, 3),            # player index
)


def event_for(game, kind, word_i, row, col, direction, player_i):
    players = game.setup.players
    player = players[player_i % len(players)]
    if game.setup.variant == "speed":
        player = game.next_player
    if kind == "write":
        words = short_words()
        if not game.turns and player_i % 2 == 0:      # help the first word find the centre
            row, col = game.board.center
        return {"type": "write", "player": player, "text": words[word_i % len(words)], "row": row, "col": col,
                "dir": direction}
    if kind == "challenge":
        return {"type": "challenge", "player": player, "reason": "not_a_word"}
    if kind == "remove":
        return {"type": "remove"}
    return {"type": "pass", "player": player}


@pytest.mark.slow
@pytest.mark.parametrize("game_id, variant", GAMES)
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
