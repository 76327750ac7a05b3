"""Random word-grid games checked against a brute-force reading of the tray written here (every
simple path of touching dice, enumerated), independent of the rules' own chain search and of
the best-words search: adjacency, scoring, the words the tray holds; fuzzed events are taken or
refused with a rules error, and a refusal changes nothing; a game is rebuilt from its record."""

from __future__ import annotations

import functools
import itertools

from hypothesis import given, settings
from hypothesis import strategies as st

from rules import errors
from rules.game import GameSetup
from rules.games import new_game
from rules.lexicon import Lexicon
from rules.record import record_of, replay
from rules.word_grid_solver import words_in
from rules.word_grid_tray import Tray

LETTERS = "ABET"
FACES = st.sampled_from(list(LETTERS) + ["QU", "*"])
#: every string of 1-4 of LETTERS (and a few with QU), a third of them "words"
ALL = ["".join(p) for n in range(1, 5) for p in itertools.product(LETTERS, repeat=n)] + ["QUAT", "QUE", "TQUE"]
WORDS = Lexicon(ALL[::3])
MAX_DICE = 4
#: what a wild face may stand for, as far as these words go
SPELLABLE = tuple(LETTERS + "QU")


def paths(size: int, most: int):
    """Every simple path of 1 to ``most`` dice where each next die touches the last (|dr|, |dc| <= 1)."""
    cells = [(r, c) for r in range(size) for c in range(size)]

    def grow(path):
        yield path
        if len(path) < most:
            r, c = path[-1]
            for cell in cells:
                if cell not in path and max(abs(cell[0] - r), abs(cell[1] - c)) == 1:
                    yield from grow(path + [cell])

    for cell in cells:
        yield from grow([cell])


@functools.lru_cache(maxsize=64)
def everything_read(faces: tuple[str, ...], size: int) -> frozenset[str]:
    """Brute force: every string some path's faces spell, read in order (``*`` any letter a test
    word may have)."""
    out = set()
    for path in paths(size, MAX_DICE):
        pieces = [SPELLABLE if faces[r * size + c] == "*" else (faces[r * size + c],) for r, c in path]
        out.update("".join(choice) for choice in itertools.product(*pieces))
    return frozenset(out)


def readable(faces, size: int, word: str) -> bool:
    return word in everything_read(tuple(faces), size)


def expected_points(n: int) -> int:
    return {3: 1, 4: 1, 5: 2, 6: 3, 7: 5}.get(n, 11 if n >= 8 else 0)


TRAYS = st.lists(FACES, min_size=16, max_size=16)


@settings(max_examples=40, deadline=None)
@given(TRAYS, st.lists(st.tuples(st.sampled_from(["Ann", "Ben", "Cai"]), st.sampled_from(ALL)), max_size=12))
def test_scores_and_adjacency_match_a_brute_force_reading(faces, written):
    game = new_game(GameSetup("word-grid", ("Ann", "Ben", "Cai")), None, WORDS)
    game.apply({"type": "tray", "grid": [faces[r * 4:(r + 1) * 4] for r in range(4)]})
    for player, word in written:
        game.apply({"type": "word", "player": player, "word": word})
    details = game.apply({"type": "end_round"}).details
    good = {w for _, w in written if len(w) >= 3 and w in WORDS and readable(faces, 4, w)}
    by = {w: {p for p, x in written if x == w} for _, w in written}
    seen = set()
    for (player, word), d in zip(written, details):
        assert (d.player, d.word) == (player, word)
        want = expected_points(len(word)) if word in good and by[word] == {player} and (player, word) not in seen else 0
        assert d.score == want, (faces, player, word, d)
        seen.add((player, word))
        if len(word) >= 3 and (game.round.tray.chain(word) is None) == readable(faces, 4, word):
            raise AssertionError(f"the chain search and the brute force differ on {word} in {faces}")
    assert game.totals == {p: sum(d.score for d in details if d.player == p) for p in ("Ann", "Ben", "Cai")}
    assert replay(record_of(game, ""), None, WORDS) == game


@settings(max_examples=40, deadline=None)
@given(TRAYS)
def test_the_best_words_search_finds_exactly_what_the_brute_force_reads(faces):
    tray = Tray(4, tuple(faces))
    short = Lexicon([w for w in ALL[::3] if len(w) <= MAX_DICE])      # words no longer than a brute-force path
    expected = {w for w in short.words() if len(w) >= 3 and readable(faces, 4, w)}
    found = words_in(tray, short, 3, "en")
    assert {w for w in found if len(w) <= MAX_DICE} == expected


EVENTS = st.one_of(
    st.fixed_dictionaries({"type": st.just("tray"), "grid": st.one_of(
        st.lists(st.text("ABQU*1 ", max_size=5), max_size=6),
        st.lists(st.lists(FACES, min_size=4, max_size=4), min_size=4, max_size=4))}),
    st.fixed_dictionaries({"type": st.just("tray")}),
    st.fixed_dictionaries({"type": st.just("word"), "player": st.sampled_from(["Ann", "Ben", "Zed"]),
                           "word": st.one_of(st.sampled_from(ALL), st.text(max_size=6))}),
    st.fixed_dictionaries({"type": st.sampled_from(["end_round", "end", "time", "write", "roll"])}),
    st.dictionaries(st.sampled_from(["type", "player", "word", "grid"]), st.integers() | st.none(), max_size=3),
)


@settings(max_examples=60, deadline=None)
@given(st.lists(EVENTS, max_size=25))
def test_fuzzed_events_are_taken_or_refused_and_a_refusal_changes_nothing(events):
    game = new_game(GameSetup("word-grid", ("Ann", "Ben"), options={"size": 4}), None, WORDS)
    for event in events:
        before, count = game.state(), len(game.events)
        try:
            game.apply(event)
        except (errors.Rejection, errors.EventFormatError):
            assert game.state() == before and len(game.events) == count
    again = replay(record_of(game, ""), None, WORDS)
    assert again == game and again.result_json() == game.result_json()
