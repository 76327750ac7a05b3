"""What every part of the session shares: the attributes :class:`tabletop.session.core.Session`
sets up and the two methods its parts call (declared here so that each part type-checks alone).
"""

from __future__ import annotations

import threading
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from rules.board import Board
    from rules.game import Game, GameSetup
    from rules.lexicon import Lexicon
    from tabletop.games.table import TableGame
    from tabletop.session.clock import TableClock
    from tabletop.session.core import Result
    from tabletop.session.entry_windows import HostWindow
    from tabletop.session.journal import Journal


class SessionBase:
    """The session's shared state; each part (clue cards, camera reads, windows, views) reads it."""

    journal: "Journal"
    game_id: str
    setup: "GameSetup"
    setup_data: dict[str, Any]
    game: "Game"
    table: "TableGame"
    board: "Board | None"
    lexicon: "Lexicon"
    clock: "TableClock"
    deck: Any
    tokens: dict[str, Any]
    devices: dict[str, str]
    applied: list[int]
    log: list[dict[str, Any]]
    paused: bool
    pending_reads: list[dict[str, Any]]
    _pending_lessons: list[dict[str, Any] | None]  #: beside each pending read, its lesson (or None)
    board_read: list[str] | None
    host_windows: dict[str, "HostWindow"]
    _lock: threading.RLock

    def submit(self, event: dict[str, Any], source: str | None = "console") -> "Result":
        raise NotImplementedError

    def _publish(self, message: dict[str, Any]) -> None:
        raise NotImplementedError

    def teach_hand(self, player: str, lesson: dict[str, Any], source: str | None = "camera") -> None:
        raise NotImplementedError

    # provided by the other parts (entry windows, clue cards), declared for the views
    def windows(self) -> list[Any]:
        raise NotImplementedError

    def entries_for(self, seat: str | None) -> list[dict[str, Any]]:
        raise NotImplementedError

    def next_clue(self) -> Any:
        raise NotImplementedError
