"""Whose turn it is when players simply take turns (the Speed variants).

>>> order = TurnOrder(("Ann", "Ben"))
>>> order.current, order.advance(), order.current, order.turns_taken
('Ann', 'Ben', 'Ben', 1)
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from rules import errors
from rules.snapshot import KEPT, Saving


@dataclass
class TurnOrder:
    """Players in seat order; ``turns_taken`` counts finished turns."""

    #: what a turn changes (:mod:`rules.snapshot`)
    changes: ClassVar[dict[str, Saving]] = {"turns_taken": KEPT}

    players: tuple[str, ...]
    turns_taken: int = 0

    @property
    def current(self) -> str:
        return self.players[self.turns_taken % len(self.players)]

    @property
    def round(self) -> int:
        """The round being played, from 1."""
        return self.turns_taken // len(self.players) + 1

    def advance(self) -> str:
        self.turns_taken += 1
        return self.current

    def check(self, player: str, action: str = "write") -> None:
        if player != self.current:
            raise errors.NotYourTurn(f"It is {self.current}'s turn to {action}, not {player}'s.")
