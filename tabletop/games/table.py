"""How a game sits at the table: what its devices and pages mean for it.

The session is game-agnostic; a :class:`TableGame` plugs a game's rules into the table. The
rules answer whose turn it is, which deadlines run and what can be done now
(:meth:`rules.game.Game.whose_turn`, :meth:`~rules.game.Game.deadlines`,
:meth:`~rules.game.Game.actions`); the table adapter only *presents* those answers: what a
buzz-in press means, whose hand a word the camera sees belongs to, which private entry windows
the player pages offer, what is said aloud and what extra the scoreboard shows. It never works
a rule out again for itself.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

from rules.game import Action, Game
from rules.squares import Square

#: the rules class a table adapter presents
G = TypeVar("G", bound=Game)


@dataclass(frozen=True)
class Window:
    """A player-page entry window derived from the game: who may type what, until when."""

    id: str
    purpose: str                  # 'answer', 'write' (or 'words' for host-opened windows)
    seats: tuple[str, ...]
    deadline: float | None
    fields: tuple[str, ...] = ("text",)
    prompt: str = ""
    hard: bool = True             # False: the deadline is shown, but a late entry is still taken
    late: str = ""                # what runs out at the deadline, for the refusal of a late entry ("the sand")

    def to_json(self) -> dict[str, Any]:
        return {"id": self.id, "purpose": self.purpose, "seats": list(self.seats), "deadline": self.deadline,
                "fields": list(self.fields), "prompt": self.prompt, "hard": self.hard}


class EntryError(ValueError):
    """A player-page entry that cannot become an event; the message says what it needs."""


def whole_number(entry: dict[str, Any], key: str, what: str) -> int:
    """``entry[key]`` as a whole number: a JSON integer (or a float with nothing after the point);
    never text, a boolean, a fraction or an overflowing ``1e400``. :class:`EntryError` otherwise.

    >>> whole_number({"row": 4}, "row", "the square's row"), whole_number({"row": 4.0}, "row", "the row")
    (4, 4)
    >>> whole_number({"row": "4"}, "row", "the square's row")
    Traceback (most recent call last):
    ...
    tabletop.games.table.EntryError: The square's row must be a whole number, not '4'.
    """
    if key not in entry:
        raise EntryError(f"This entry needs {key}.")
    value = entry[key]
    if isinstance(value, bool) or not isinstance(value, (int, float)) \
            or (isinstance(value, float) and not (math.isfinite(value) and value.is_integer())):
        shown = repr(value[:20]) if isinstance(value, str) else str(value)[:20]
        raise EntryError(f"{what[:1].upper()}{what[1:]} must be a whole number, not {shown}.")
    return int(value)


def square_entry(entry: dict[str, Any], board: Any) -> tuple[int, int]:
    """The (row, col) of an entry's square, whole numbers on ``board`` (any object with ``rows``,
    ``cols`` and ``label``: :class:`rules.board.Board`); :class:`EntryError` naming the square otherwise."""
    row = whole_number(entry, "row", "the square's row")
    col = whole_number(entry, "col", "the square's column")
    if board is not None and not (0 <= row < board.rows and 0 <= col < board.cols):
        label = board.label(Square(row, col)) if abs(row) < 10**6 and abs(col) < 10**6 else "that square (off the board)"
        raise EntryError(f"There is no such square: {label[:1].upper()}{label[1:]}.")
    return row, col


def write_entry(seat: str, entry: dict[str, Any], board: Any = None) -> dict[str, Any]:
    """The ``write`` event a seat's entry (text, row, col, dir) stands for; the square must be a
    whole number on ``board`` (when given), the text must be there."""
    if "text" not in entry:
        raise EntryError("This entry needs text.")
    row, col = square_entry(entry, board)
    return {"type": "write", "player": seat, "text": entry["text"], "row": row, "col": col,
            "dir": entry.get("dir", "across")}


class TableGame(Generic[G]):
    """Base: no buzzers, no clue deck, words credited to whoever's turn it is.

    A game's adapter names its rules class, ``class QuestiqueTable(TableGame[QuestiqueGame])``,
    so that its methods take that game (with what only that game has) and the type checker
    holds them to it.
    """

    uses_buzzers = False
    uses_clue_deck = False
    uses_sand_timer = False
    #: espeak-ng's words a minute for this game (``None``: the announcer's own)
    speech_rate: int | None = None

    def buzz(self, game: G, player: str) -> dict[str, Any] | None:
        """The event a buzz-in press by ``player`` stands for now (``None``: it means nothing)."""
        return None

    def buzz_opened_at(self, game: G) -> float | None:
        """The table time the current question opened to buzz-ins (``None``: none is open).

        No press may claim to predate it: a phone's stamp earlier than this is not believed.
        """
        return None

    def writer(self, game: G) -> str | None:
        """Who the word the camera sees appear belongs to."""
        return game.whose_turn()

    def windows(self, game: G) -> list[Window]:
        """The entry windows the player pages offer now."""
        return []

    def entry_event(self, game: G, window: Window, seat: str, entry: dict[str, Any]) -> dict[str, Any]:
        """Turn a player-page entry into the rules event it stands for; :class:`EntryError` if it cannot."""
        if window.purpose == "write":
            return write_entry(seat, entry, getattr(game, "board", None))
        if window.purpose == "answer":
            return {"type": "answer", "player": seat, "text": entry["text"]}
        raise EntryError(f"nothing can be entered in a {window.purpose!r} window")

    def closed_entry(self, game: G, seat: str) -> str | None:
        """Why ``seat`` has nothing to enter now, in the game's words (letter dice: the sand ran
        out), or ``None`` for the table's own sentence."""
        return None

    def seat_actions(self, game: G, seat: str) -> list[Action]:
        """The game's actions (:meth:`rules.game.Game.actions`) that ``seat`` may do from its own
        page now, as the rules give them (SP Classic: the asker's); none by default."""
        return []

    def clue_event(self, game: G, player: str, clue: Any, card_id: str | None) -> dict[str, Any]:
        """The ``clue`` event for a card the host drew from the deck."""
        return {"type": "clue", "player": player, "answer": clue.answer, "definition": clue.definition,
                **({"card": card_id} if card_id else {}), **({"picture": clue.picture} if clue.picture else {})}

    def deck_kind(self, game: G) -> str:
        """Which built-in clue deck the game draws from: ``"words"`` (the WordNet deck) or
        ``"pictures"`` (picture cards for children)."""
        return "words"

    def speech(self, game: G, event: dict[str, Any], message: str) -> list[str]:
        """What is said aloud after ``event`` was accepted with ``message``."""
        return [message] if message else []

    def summary(self, game: G) -> dict[str, Any]:
        """Extra public scoreboard fields."""
        return {}

    def seat_view(self, game: G, seat: str) -> dict[str, Any]:
        """What only ``seat``'s own page shows (Sequence Letters: her cards); ``{}`` by default."""
        return {}

    def status(self, game: G) -> str:
        """Where the game stands, in one plain sentence for the scoreboard ('Ben writes the answer.')."""
        if game.over:
            return "The game is over."
        who = game.whose_turn()
        return f"{who} to play." if who else ""


def scores_line(game: Game) -> str:
    """'Scores: Ann 3, Ben 5.'"""
    return "Scores: " + ", ".join(f"{p} {v}" for p, v in game.totals.items()) + "."


def clue_prompt(game: Game, showing: bool) -> str | None:
    """What the asker read aloud for the clue in play (first letter, length, definition; never the answer)."""
    if not showing:
        return None
    clue = next((e for e in reversed(game.events) if e.type == "clue"), None)
    if clue is None or not clue.get("answer") or not clue.get("definition"):
        return None
    from rules.deck import Clue
    from rules.lexicon import normalise
    return Clue(normalise(clue["answer"]), clue["definition"]).prompt()
