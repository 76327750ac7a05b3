"""Questique at the table: whose turn it is, each player's crossword in their colour with stars,
exclusion blanks and eliminations on the scoreboard, stars and "Questique!" said aloud, a rack
on each seat's page (the table's own tiles), and the demo's players. Registers the game.

A word typed on a phone is read as letter tiles whatever its case; a blank is typed with a ``?``
before the letter it stands for (:func:`word_with_blanks`). A phone exchanges the rack's tiles
it chose (an entry with ``"exchange": true``).
"""

from __future__ import annotations

import random
from typing import Any, Callable, Iterator

from rules.questique import QuestiqueGame
from rules.questique_tiles import BLANK
from rules.squares import Square
from tabletop.games import Demo, GameSpec, register
from tabletop.games.questique_players import choose_move
from tabletop.games.table import EntryError, TableGame, Window, write_entry
from tabletop.players.synthetic import Action

#: each seat's colour on the scoreboard (seat order)
COLOURS = ("#d22d2d", "#2360be", "#2f9a46", "#c07a12")


class QuestiqueTable(TableGame[QuestiqueGame]):
    """Players write in turn (or any time in speed play); the rules say everything else."""

    def windows(self, game: QuestiqueGame) -> list[Window]:
        if game.over:
            return []
        placing = next((p for p in game.order if game.to_place.get(p)), None)
        if placing is not None:
            squares = " or ".join(s.name for s in game.to_place[placing])
            return [Window(f"place-{len(game.events)}", "place", (placing,), None, ("text", "row", "col"),
                           prompt=f"Type the individual letter you put on {squares}, and its square.")]
        seats = tuple(game.active()) if game.rules.speed else tuple(p for p in (game.whose_turn(),) if p)
        if not seats:
            return []
        return [Window(f"write-{len(game.events)}", "write", seats, None, ("text", "row", "col", "dir"),
                       prompt="Type the word as it reads on the board (a ? before a letter a blank stands for: "
                              "C?AT), its first square and its direction; or choose tiles of your rack to exchange.")]

    def entry_event(self, game: QuestiqueGame, window: Window, seat: str,
                    entry: dict[str, Any]) -> dict[str, Any]:
        """A ``place`` window's entry is the individual letter (typed as the text) and its square."""
        if window.purpose == "write" and entry.get("exchange") is True:
            return {"type": "exchange", "player": seat, "tiles": str(entry.get("text", "")).replace(" ", "").upper()}
        if window.purpose == "write":
            return {**write_entry(seat, entry, game.board), "text": word_with_blanks(str(entry.get("text", "")))}
        if window.purpose != "place":
            return super().entry_event(game, window, seat, entry)
        event = write_entry(seat, entry, game.board)
        return {"type": "place", "player": seat, "letter": event["text"], "row": event["row"], "col": event["col"]}

    def speech(self, game: QuestiqueGame, event: dict[str, Any], message: str) -> list[str]:
        """Stars, eliminations and the winner as the rules said them, then whose turn it is."""
        if not message or event.get("type") == "time":
            return []
        lines = [message]
        player = game.whose_turn()
        if player is not None and event.get("type") in ("write", "exchange", "pass"):
            lines.append(f"{player}, it is your turn.")
        return lines

    def status(self, game: QuestiqueGame) -> str:
        if game.over:
            return f"{game.winner} wins!" if game.winner else "The game is over: a tie."
        placing = next((p for p in game.order if game.to_place.get(p)), None)
        if placing:
            squares = " and ".join(s.name for s in game.to_place[placing])
            return f"{placing} places an individual letter on {squares}."
        player = game.whose_turn()
        return f"{player}'s turn." if player else "Speed play: write whenever you have a word."

    def seat_view(self, game: QuestiqueGame, seat: str) -> dict[str, Any]:
        """With the table's own tiles, the seat's rack (nobody else's)."""
        if game.supply is None or seat not in game.supply.racks:
            return {}
        return {"rack": list(game.supply.racks[seat]), "bag": len(game.supply.bag)}

    def summary(self, game: QuestiqueGame) -> dict[str, Any]:
        """Whose crossword each square belongs to (by seat), blanks, stars, exclusions, eliminations."""
        seat = {p: k for k, p in enumerate(game.setup.players)}
        owners = ["".join(str(seat[game.owner[Square(r, c)]]) if Square(r, c) in game.owner else "."
                          for c in range(game.board.cols)) for r in range(game.board.rows)]
        return {
            "owners": owners,
            "colours": {p: COLOURS[k % len(COLOURS)] for p, k in seat.items()},
            "blanks": [[s.row, s.col] for s in sorted(game.blanks)],
            "individual": [[s.row, s.col] for s in sorted(game.individual)],
            "excluded": [[s.row, s.col] for s in sorted(game.excluded)],
            "stars": {p: [s.name for s in game.stars_of(p)] for p in game.setup.players},
            "eliminated": list(game.eliminated),
            "turn": game.whose_turn(),
        }


#: typed before a letter on a phone: that letter is a blank tile standing for it
BLANK_MARK = "?"


def word_with_blanks(typed: str) -> str:
    """A word as a phone types it, as the rules read it: every letter is a letter tile, whatever
    its case (phones capitalise as they like); a blank is marked by a ``?`` typed before the
    letter it stands for, and becomes that letter in lowercase (the rules' and the records' way
    of writing a blank). :class:`~tabletop.games.table.EntryError` for a ``?`` before no letter.

    >>> word_with_blanks("cat"), word_with_blanks("c?at"), word_with_blanks("Кіт")
    ('CAT', 'CaT', 'КІТ')
    >>> word_with_blanks("cat?")
    Traceback (most recent call last):
    ...
    tabletop.games.table.EntryError: A ? goes before the letter the blank stands for (C?AT: the A is a blank), not after the last one.
    """
    out, blank = [], False
    for ch in typed.strip():
        if ch == BLANK_MARK:
            if blank:
                raise EntryError("One ? is enough before a blank's letter (C?AT: the A is a blank).")
            blank = True
            continue
        if blank and not ch.isalpha():
            raise EntryError("A ? goes before the letter the blank stands for (C?AT: the A is a blank).")
        out.append(ch.lower() if blank else ch.upper())
        blank = False
    if blank:
        raise EntryError("A ? goes before the letter the blank stands for (C?AT: the A is a blank), not after the "
                         "last one.")
    return "".join(out)


def demo_script(get_game: Callable[[], Any], deck: Any, seed: int = 0) -> Iterator[Action]:
    """Players at the table with the table's own tiles: each writes the word that covers a star,
    or brings the crossword nearest an open star; with nothing to write, exchanges or passes."""
    rng = random.Random(seed)
    while True:
        game: QuestiqueGame = get_game()
        player = game.whose_turn()
        if game.over or player is None:
            return
        yield Action("wait", 5.0 + rng.random() * 10)
        move = choose_move(game, player, rng)
        if move["type"] == "write":
            yield Action("write", player=player, write=move, source=f"seat:{player}")
        else:
            note = "nothing fits the rack" if move["type"] == "exchange" else "nothing fits: a pass"
            yield Action("event", event=move, source=f"seat:{player}", note=f"{player}: {note}")


def rack_text(game: QuestiqueGame, player: str) -> str:
    """A rack for people: ``'A E ? R T'``."""
    rack = game.supply.racks.get(player, []) if game.supply is not None else []
    return " ".join("blank" if t == BLANK else t for t in rack)


register(GameSpec(
    "questique", QuestiqueTable(),
    "each player grows a crossword from a diamond start to cover four star squares (English, Ukrainian)",
    demo=Demo(("Ann", "Ben"), demo_script, options=(("pieces", "virtual"),)), board="questique",
    pieces="tiles", languages=("en", "uk"),
    legend=("Stars: star squares (cover four to win). Diamonds: the start positions. Thick lines: the star quadrants.",
            "Play with letter tiles (tabletop print-tiles questique en|uk prints a set).",
            "Keep the four black-and-white corner markers visible to the camera.")))
