"""Questique's synthetic players (the demo, and random playouts in the tests): which word to
put down, from the rack and a list of common words.

A move is found from the rack's letters: every sub-multiset of the rack, with one letter
already in the player's crossword, is looked up in an anagram index of common words; each
placement of such a word through that letter is valued (a star covered counts most, then
coming nearer an open star, then length) and the best are tried with
:meth:`rules.game.Game.trial` until the rules accept one.

>>> from rules.game import GameSetup
>>> from rules.lexicon import Lexicon
>>> from rules.questique import QuestiqueGame
>>> from rules.questique_layout import standard_board
>>> lexicon = Lexicon(["cat", "act", "at", "ta", "tact"])
>>> g = QuestiqueGame(GameSetup("questique", ("Ann", "Ben"), options={"pieces": "virtual", "first": "Ann"}),
...                   standard_board(), lexicon)
>>> g.supply.racks["Ann"] = list("CATXQZJ")
>>> move = choose_move(g, "Ann", random.Random(0), words=["cat", "act", "at"])
>>> move["type"], move["text"] in ("CAT", "ACT")
('write', True)
"""

from __future__ import annotations

import functools
import itertools
import random
from collections import defaultdict
from typing import Any, Iterable

from rules import errors
from rules.questique import QuestiqueGame
from rules.questique_tiles import BLANK
from rules.squares import Direction, Square

#: placements tried with the rules per move, best valued first
TRIES = 200
#: how many common words of each length the demo's players know
VOCABULARY = 4000


@functools.lru_cache(maxsize=4)
def common_words(language: str) -> tuple[str, ...]:
    """Common dictionary words of 2-8 letters, the commonest first (the demo's vocabulary)."""
    from tabletop.lexicons import builtin_lexicon, word_frequencies

    lexicon, freq = builtin_lexicon(language), word_frequencies(language)
    chosen: list[str] = []
    for n in range(2, 9):
        words = [w for w in lexicon.words_of_length(n) if w.isalpha()]
        if freq is not None:
            words.sort(key=lambda w: -freq(w))
        chosen += words[:VOCABULARY]
    return tuple(chosen)


@functools.lru_cache(maxsize=8)
def _anagrams(words: tuple[str, ...]) -> dict[str, tuple[str, ...]]:
    index: dict[str, list[str]] = defaultdict(list)
    for word in words:
        index["".join(sorted(word))].append(word)
    return {k: tuple(v) for k, v in index.items()}


def _spellable(rack: list[str], extra: str = "") -> Iterable[str]:
    """Sorted letter keys of every sub-multiset of the rack's letters (blanks kept back) plus ``extra``."""
    letters = sorted(t for t in rack if t != BLANK)
    seen: set[str] = set()
    for size in range(1, len(letters) + 1):
        for combo in itertools.combinations(letters, size):
            key = "".join(sorted(combo + ((extra,) if extra else ())))
            if key not in seen and len(key) >= 2:
                seen.add(key)
                yield key


def _value(game: QuestiqueGame, player: str, squares: list[Square], rng: random.Random) -> float:
    """Stars covered count most; in elimination play, another player's individual letter taken
    (Questique!) counts more still; then the nearest open star, then length."""
    stars = game.layout.all_stars
    open_stars = game.open_stars()
    covered = sum(1 for s in squares if s in stars and s not in game.excluded)
    nearest = min((abs(s.row - t.row) + abs(s.col - t.col) for s in open_stars for t in squares), default=99)
    value = 100.0 * covered - nearest + 0.1 * len(squares) + rng.random()
    if game.rules.elimination:
        prey = [s for s, owner in game.individual.items()
                if game.side_of[owner] != game.side_of[player] and owner not in game.eliminated]
        if prey:
            value += 150.0 * any(abs(s.row - t.row) == 1 and abs(s.col - t.col) == 1 for s in prey for t in squares)
            value -= 0.5 * min(abs(s.row - t.row) + abs(s.col - t.col) for s in prey for t in squares)
    return value


def _placements(game: QuestiqueGame, player: str, words: tuple[str, ...]) -> list[tuple[str, Square, Direction]]:
    index = _anagrams(words)
    rack = game.supply.racks[player] if game.supply is not None else list(game.alphabet[:7])
    found: list[tuple[str, Square, Direction]] = []
    if not game.crossword[player]:
        for key in _spellable(rack):
            for word in index.get(key, ()):
                for quadrant in range(4):
                    centre = game.layout.centre[quadrant]
                    for k in range(len(word)):
                        found.append((word, Square(centre.row, centre.col - k), Direction.ACROSS))
                        found.append((word, Square(centre.row - k, centre.col), Direction.DOWN))
        return found
    for anchor in sorted(game.crossword[player]):
        letter = game.grid.get(anchor)
        if letter is None:
            continue
        for key in _spellable(rack, letter):
            for word in index.get(key, ()):
                for k, ch in enumerate(word):
                    if ch == letter:
                        found.append((word, Square(anchor.row, anchor.col - k), Direction.ACROSS))
                        found.append((word, Square(anchor.row - k, anchor.col), Direction.DOWN))
    return found


def _fits(game: QuestiqueGame, player: str, word: str, squares: list[Square]) -> bool:
    """A quick look before asking the rules: on the board, free squares or the player's own
    matching letters, at least one new tile, a first word on as many diamonds as it can cover."""
    new = 0
    for square, ch in zip(squares, word):
        if square not in game.board or square in game.excluded:
            return False
        there = game.grid.get(square)
        if there is None:
            new += 1
        elif there != ch or game.owner.get(square) != player:
            return False
    if not new:
        return False
    if not game.crossword[player]:
        quadrant = game.layout.quadrant_of(squares[len(squares) // 2])
        if quadrant is None:
            return False
        covered = sum(1 for s in squares if s in game.layout.diamonds[quadrant])
        return covered == game.layout.most_diamonds(len(word), quadrant)
    return True


def choose_move(game: QuestiqueGame, player: str, rng: random.Random,
                words: Iterable[str] | None = None) -> dict[str, Any]:
    """The event ``player`` makes now: the best ``write`` the rules accept, else an exchange of
    the whole rack (while the bag has the tiles), else a pass."""
    vocabulary = tuple(w.upper() for w in words) if words is not None else common_words(game.setup.language)
    valued = []
    for word, start, direction in _placements(game, player, vocabulary):
        squares = [start.step(direction, k) for k in range(len(word))]
        if _fits(game, player, word, squares):
            valued.append((_value(game, player, squares, rng), word, start, direction))
    valued.sort(key=lambda v: -v[0])
    for _, word, start, direction in valued[:TRIES]:
        event = {"type": "write", "player": player, "text": word, "row": start.row, "col": start.col,
                 "dir": direction.value}
        try:
            game.trial(event)
        except errors.Rejection:
            continue
        return event
    supply = game.supply
    if supply is not None and supply.racks[player] and len(supply.bag) >= len(supply.racks[player]) \
            and rng.random() < 0.7:
        return {"type": "exchange", "player": player, "tiles": "".join(supply.racks[player])}
    return {"type": "pass", "player": player}
