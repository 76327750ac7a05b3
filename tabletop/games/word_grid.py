"""The word grid at the table: the tray shaken (typed by the host, or shaken by the table from its
own dice), the sand timer on the GPIO LED bar and the scoreboard, every seat's words sealed on
its phone until the sand runs out, then the reveal (:mod:`tabletop.games.word_grid_reveal`).
Registers the game with :mod:`tabletop.games`.

A camera over the tray reads it once the dice lie still (the ``plain-dice`` kind of piece,
:mod:`tabletop.pieces.plain_dice`); a read it cannot trust is left to the host, who types the tray
(docs/games/word-grid.md).
"""

from __future__ import annotations

import random
from typing import Any, Callable, Iterator

from rules.word_grid import Phase, WordGridGame, min_letters
from rules.word_grid_solver import words_in
from tabletop.games import Demo, GameSpec, register
from tabletop.games.table import TableGame, Window
from tabletop.games.word_grid_reveal import reveal
from tabletop.players.synthetic import Action


class WordGridTable(TableGame[WordGridGame]):
    """Each seat types the words it finds on its own page while the sand runs; nobody sees another's."""

    uses_sand_timer = True

    def windows(self, game: WordGridGame) -> list[Window]:
        if game.phase is not Phase.FINDING or game.round is None:
            return []
        deadline = game.deadlines()[0].ends if game.deadlines() else None
        fewest = min_letters(game.round.tray.size)
        return [Window(f"tray-{game.round.number}-{seat}", "found", (seat,), deadline,
                       prompt=f"Round {game.round.number}: type each word you find, {fewest} letters or more "
                              f"({game.entries_count(seat)} so far).")
                for seat in game.setup.players]

    def entry_event(self, game: WordGridGame, window: Window, seat: str,
                    entry: dict[str, Any]) -> dict[str, Any]:
        if window.purpose != "found":
            return super().entry_event(game, window, seat, entry)
        return {"type": "word", "player": seat, "word": str(entry["text"])}

    def speech(self, game: WordGridGame, event: dict[str, Any], message: str) -> list[str]:
        kind = event.get("type")
        if kind == "tray":
            return ["The tray is ready.", "Turn the sand timer!"]      # the announcer says them in the game's language
        if kind == "end_round":
            return [message]
        return []                                  # words are sealed: nothing said aloud

    def status(self, game: WordGridGame) -> str:
        if game.over:
            return "The game is over."
        if game.phase is Phase.FINDING and game.round is not None:
            counts = ", ".join(f"{p} {game.entries_count(p)}" for p in game.setup.players)
            return f"Round {game.round.number}: the sand is running. Words so far: {counts}."
        return f"Round {len(game.scored) + 1}: shake the tray."

    def summary(self, game: WordGridGame) -> dict[str, Any]:
        """The tray while the sand runs, how many words each seat has, and the reveal."""
        finding = game.phase is Phase.FINDING and game.round is not None
        return {"phase": game.phase.value, "tray": game.round.tray.rows() if finding and game.round else None,
                "counts": {p: game.entries_count(p) for p in game.setup.players}, "reveal": reveal(game),
                "round": len(game.scored) + (1 if finding else 0)}

    def seat_view(self, game: WordGridGame, seat: str) -> dict[str, Any]:
        """The tray, and the seat's own words this round (no other seat's)."""
        finding = game.phase is Phase.FINDING and game.round is not None
        return {"tray": game.round.tray.rows() if finding and game.round else None, "found": game.words_of(seat)}


#: how many rounds the demo plays before the host ends the game
DEMO_ROUNDS = 2


def demo_script(get_game: Callable[[], Any], deck: Any, seed: int = 0) -> Iterator[Action]:
    """Players at the table: the host shakes the tray (the table's dice), each player finds words
    the tray holds (now and then the same as another's, a word that is not in the tray, or a
    non-word), the sand runs out; after two rounds the host ends the game."""
    rng = random.Random(seed)
    for _ in range(DEMO_ROUNDS):
        yield Action("event", event={"type": "tray"}, note="the host shakes the tray (the table's dice)")
        game = get_game()
        tray, players = game.round.tray, game.setup.players
        likely = _likely_words(game, tray)
        for k in range(len(players) * 4):
            player = players[k % len(players)]
            yield Action("wait", 5.0 + rng.random() * 8)
            if rng.random() < 0.08 or not likely:
                word = "".join(rng.choice(tray.faces) for _ in range(4)).replace("*", "E")   # a guess
            else:
                word = rng.choice(likely)                          # now and then the same as another's
            yield Action("event", event={"type": "word", "player": player, "word": word}, source=f"seat:{player}")
        game = get_game()
        left = game.deadlines()[0].ends - (game.last_time or 0.0) if game.deadlines() else 0.0
        yield Action("wait", max(0.0, left) + 1, note="the sand runs out")
    yield Action("event", event={"type": "end"}, note="the host ends the game")


def _likely_words(game: WordGridGame, tray: Any) -> list[str]:
    """The words people would find: the tray's commonest words (any length), thirty of them."""
    from tabletop.lexicons import word_frequencies

    frequency = word_frequencies(game.setup.language) or (lambda word: 0.0)
    found = words_in(tray, game.lexicon, min_letters(tray.size), game.setup.language)
    return sorted(found, key=lambda w: (-frequency(w), w))[:30]


register(GameSpec(
    "word-grid", WordGridTable(),
    "a tray of 16, 25 or 36 letter dice and a sand timer: words chained through touching dice, "
    "unique words score (English, Ukrainian)",
    demo=Demo(("Ann", "Ben", "Cai"), demo_script, options=(("pieces", "virtual"),)), board=None, pieces="plain-dice",
    languages=("en", "uk")))
