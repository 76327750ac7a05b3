"""What the sand-timer games share (letter dice, the word grid): rounds of words written sealed
while the sand runs, ended by an ``end_round`` the table's clock submits, each round's words
scored per player.

>>> sand_deadline(10.0, 60.0)[0].ends
70.0
>>> sand_deadline(None, 60.0)
()
"""

from __future__ import annotations

from typing import Any, Iterable, Protocol, Sequence

from rules import errors
from rules.game import Deadline


class NoRound(errors.Rejection):
    """A word, or the end of a round, when no round is under way."""

    rule = "no round under way"


class PlayersWord(Protocol):
    """A scored word of a round: whose it is, and how ``replay --json`` writes it."""

    @property
    def player(self) -> str: ...

    def to_json(self) -> dict[str, Any]: ...


def sand_deadline(started: float | None, sand_seconds: float) -> tuple[Deadline, ...]:
    """The sand of a round turned at table time ``started`` (``None``: no sand runs): its end
    submits the ``end_round``."""
    if started is None:
        return ()
    return (Deadline("sand", started + sand_seconds, sand_seconds, None, {"type": "end_round"}),)


def rounds_json(players: Sequence[str], scored: Iterable[Iterable[PlayersWord]]) -> list[dict[str, list[dict[str, Any]]]]:
    """``replay --json``'s ``rounds``: per round, each player's scored words in the order written.

    >>> from dataclasses import dataclass
    >>> @dataclass
    ... class W:
    ...     player: str
    ...     def to_json(self): return {"by": self.player}
    >>> rounds_json(["Ann", "Ben"], [[W("Ben")]])
    [{'Ann': [], 'Ben': [{'by': 'Ben'}]}]
    """
    out = []
    for details in scored:
        rnd: dict[str, list[dict[str, Any]]] = {p: [] for p in players}
        for w in details:
            rnd[w.player].append(w.to_json())
        out.append(rnd)
    return out
