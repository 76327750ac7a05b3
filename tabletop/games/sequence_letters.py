"""Sequence Letters at the table: whose turn it is, the board with its chips for the scoreboard,
the letter and picture of every play said aloud, and the demo's young players (virtual cards).
Registers the game with :mod:`tabletop.games`.
"""

from __future__ import annotations

import random
from typing import Any, Callable, Iterator

from rules.sequence_letters import SequenceLettersGame, letter_cards
from rules.squares import Square
from tabletop.games import Demo, GameSpec, register
from tabletop.games.table import EntryError, TableGame, Window, square_entry
from tabletop.players.synthetic import Action

COLOUR_NAMES = {"r": "red", "b": "blue", "g": "green", "y": "yellow", "o": "orange", "p": "purple"}


class SequenceLettersTable(TableGame[SequenceLettersGame]):
    """Chips go on pictures in seat order; the table says each play aloud, slowly and simply."""

    speech_rate = 120

    def writer(self, game: SequenceLettersGame) -> str | None:
        return game.whose_turn()

    def windows(self, game: SequenceLettersGame) -> list[Window]:
        """The player whose turn it is plays from her page: she taps a picture (her card's letter,
        or a Z or X card she chose), or turns a dead card in."""
        player = game.whose_turn()
        if player is None:
            return []
        return [Window(f"play-{game.turn}", "play", (player,), None, ("text", "row", "col"),
                       prompt="Tap a picture for one of your cards.")]

    def entry_event(self, game: SequenceLettersGame, window: Window, seat: str,
                    entry: dict[str, Any]) -> dict[str, Any]:
        """A ``play`` window's entry: the card (its text) and the picture's square; with
        ``"dead": true``, the card turned in as dead (no square).

        >>> from tabletop.games.table import Window
        >>> table, window = SequenceLettersTable(), Window("play-0", "play", ("Ann",), None)
        >>> table.entry_event(None, window, "Ann", {"text": "q", "dead": True})
        {'type': 'dead', 'player': 'Ann', 'card': 'Q'}
        """
        if window.purpose != "play":
            return super().entry_event(game, window, seat, entry)
        card = str(entry.get("text", "")).strip().upper()
        if not (len(card) == 1 and "A" <= card <= "Z"):
            raise EntryError(f"Name the card by its letter (or X, Z), not {card[:20]!r}.")
        if entry.get("dead") is True:
            return {"type": "dead", "player": seat, "card": card}
        row, col = square_entry(entry, game.board)
        return {"type": "play", "player": seat, "card": card, "row": row, "col": col}

    def speech(self, game: SequenceLettersGame, event: dict[str, Any], message: str) -> list[str]:
        """The play, then whose turn it is and, with the table's cards, a dead card to turn in."""
        if event.get("type") not in ("play", "dead") or not message:
            return []
        lines = [message]
        player = game.whose_turn()
        if player is not None and event.get("type") == "play":
            lines.append(f"{player}, it is your turn.")
            dead = game.dead_cards(player)
            if dead:
                lines.append(f"Your {dead[0]} card is dead: both its pictures have chips. Turn it in for a new one.")
        return lines

    def status(self, game: SequenceLettersGame) -> str:
        if game.over:
            return f"{game.winner} made four in a row!" if game.winner else "The game is over."
        player = game.whose_turn() or ""
        colour = COLOUR_NAMES.get(game.chip_colours[game.side_of[player]], game.chip_colours[game.side_of[player]])
        dead = game.dead_cards(player)
        hint = f" The {dead[0]} card is dead: turn it in for a new one." if dead and not game.dead_this_turn else ""
        return f"{player}'s turn ({colour} chips).{hint}"   # her cards are on her own page only

    def seat_view(self, game: SequenceLettersGame, seat: str) -> dict[str, Any]:
        """The seat's chip colour and, with the table's own cards, her hand as picture cards
        (nobody else's)."""
        side = game.side_of.get(seat)
        chips = {} if side is None else {"chips": game.chip_colours[side]}
        if not game.virtual or seat not in game.hands:
            return {**chips, "virtual": False}
        from vision.picture_board import EMOJI

        letters = letter_cards(game.board)
        cards = []
        for c in game.hands[seat]:
            colour, squares = letters.get(c, (None, []))
            pictures = [{"name": game.picture(sq), "emoji": EMOJI.get(game.picture(sq).lower())} for sq in squares]
            cards.append({"card": c, "color": colour, "pictures": pictures, "dead": game.is_dead(c)})
        return {**chips, "virtual": True, "cards": cards}

    def summary(self, game: SequenceLettersGame) -> dict[str, Any]:
        """The board as the scoreboard draws it: every square's letter, picture, colour and chip."""
        from vision.picture_board import EMOJI

        board = game.board
        squares = [[{"letter": board.cell("letters", Square(r, c)), "picture": game.picture(Square(r, c)),
                     "color": board.cell("colors", Square(r, c)), "emoji": EMOJI.get(game.picture(Square(r, c)).lower())}
                    for c in range(board.cols)] for r in range(board.rows)]
        return {"grid": game.grid_rows(), "squares": squares, "turn": game.whose_turn(),
                "sides": [{"players": list(side), "chips": game.chip_colours[k]} for k, side in enumerate(game.sides)],
                "sequence": [[sq.row, sq.col] for sq in game.sequence], "winner": game.winner}


def _run_after(game: SequenceLettersGame, square: Square, side: int) -> int:
    """The longest line of ``side``'s chips through ``square`` if a chip of ``side`` went there."""
    return max(len(run) for run in game.run_through(square, side))


def choose_play(game: SequenceLettersGame, player: str, rng: random.Random) -> dict[str, Any] | None:
    """A young player's move: the card and picture that make the longest line of her side's
    chips, or that break the other side's longest; ``None`` with no card to play."""
    side = game.side_of[player]
    options: list[tuple[float, dict[str, Any]]] = []
    for card in dict.fromkeys(game.hands[player]):
        if card == "X":
            for sq, owner in game.chips.items():
                if owner != side:
                    options.append((_run_after(game, sq, owner) - 0.5, {"card": "X", "row": sq.row, "col": sq.col}))
            continue
        for sq in game.open_pictures(card):
            mine = _run_after(game, sq, side)
            theirs = max((_run_after(game, sq, other) for other in range(len(game.sides)) if other != side), default=0)
            value = max(mine, theirs - 0.25) - (0.3 if card == "Z" else 0.0) + rng.random() * 0.2
            options.append((value, {"card": card, "row": sq.row, "col": sq.col}))
    return max(options, key=lambda o: o[0])[1] if options else None


def demo_script(get_game: Callable[[], Any], deck: Any, seed: int = 0) -> Iterator[Action]:
    """Children at the table with the table's own cards: each turns in a dead card when she has
    one, then puts a chip where it makes (or blocks) the longest line."""
    rng = random.Random(seed)
    while True:
        game: SequenceLettersGame = get_game()
        player = game.whose_turn()
        if game.over or player is None:
            return
        yield Action("wait", 3.0 + rng.random() * 4)
        dead = game.dead_cards(player)
        if dead and not game.dead_this_turn:
            yield Action("event", event={"type": "dead", "player": player, "card": dead[0]}, source="host",
                         note=f"{player}'s {dead[0]} card is dead")
            continue
        play = choose_play(game, player, rng)
        if play is None:
            yield Action("event", event={"type": "end"}, source="host", note="nobody can play: the game ends")
            return
        yield Action("write", player=player, write={"type": "play", "player": player, **play}, source=f"seat:{player}")


register(GameSpec(
    "sequence-letters", SequenceLettersTable(),
    "a letter game for children of 4-7: chips on pictures that start with the card's letter, four in a row wins",
    demo=Demo(("Ann", "Ben"), demo_script, options=(("pieces", "virtual"),)), board="sequence-letters",
    pieces="chips", languages=("en",)))
