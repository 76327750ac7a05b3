"""How the session's parts meet its core: the :class:`Core` they may use, and :class:`Part`.

The session (:class:`tabletop.session.core.Session`) is a core
(:class:`tabletop.session.game_core.GameCore`: the journal, the game, the clock, the lock,
``submit`` and ``publish``) with parts beside it that each own their state and the journal
kinds they write: entry windows, hands, camera reads, clue cards, device status. A part sees the
core only through :class:`Core`, so no part imports the core or another part's module it does
not use, and a new journalled feature is one new part: its state, its kinds, its replayers.

>>> class Notes(Part):
...     kinds = ("note",)
...     def __init__(self, core):
...         super().__init__(core)
...         self.notes = []
...     def replayers(self):
...         return {"note": lambda entry: self.notes.append(entry.body["text"])}
>>> sorted(Notes(None).replayers())
['note']
"""

from __future__ import annotations

import threading
from typing import TYPE_CHECKING, Any, Callable, Mapping, Protocol

if TYPE_CHECKING:
    from rules.board import Board
    from rules.game import Game, GameSetup
    from tabletop.games.table import TableGame
    from tabletop.session.clock import TableClock
    from tabletop.session.journal import Entry, Journal
    from tabletop.session.result import Result

#: what replays one journal entry of a part's kind
Replayer = Callable[["Entry"], None]


class Core(Protocol):
    """What a part may use of the session's core."""

    journal: "Journal"
    game_id: str
    setup: "GameSetup"
    board: "Board | None"
    clock: "TableClock"
    lock: threading.RLock

    @property
    def game(self) -> "Game": ...

    @property
    def table(self) -> "TableGame[Any]": ...

    def submit(self, event: dict[str, Any], source: str | None = "console") -> "Result": ...

    def append(self, kind: str, body: dict[str, Any], source: str | None, t: float | None = None) -> int: ...

    def publish(self, message: dict[str, Any]) -> None: ...


class Part:
    """A part of the session: it owns its state and replays the journal kinds it writes."""

    #: the journal kinds this part writes (and only this part)
    kinds: tuple[str, ...] = ()

    def __init__(self, core: Core):
        self.core = core

    def replayers(self) -> Mapping[str, Replayer]:
        """Each kind of :attr:`kinds` -> what applies one such journal entry again on resume."""
        return {}
