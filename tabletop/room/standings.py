"""The leaderboard across tables, per game: each player's points, games won and games played,
added up from the room's copies of the tables' games (:mod:`tabletop.room.tables`).

>>> from types import SimpleNamespace as NS
>>> a = NS(table="1", setup={"game": "letter-dice"},
...        summary=lambda: {"totals": {"Ann": 9, "Ben": 4}, "over": True, "winner": "Ann"})
>>> b = NS(table="2", setup={"game": "letter-dice"},
...        summary=lambda: {"totals": {"Ann": 3, "Cai": 5}, "over": False, "winner": None})
>>> [(r.player, r.points, r.wins, r.games) for r in leaderboard([a, b])["letter-dice"]]
[('Ann', 12, 1, 2), ('Cai', 5, 0, 1), ('Ben', 4, 0, 1)]
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Any, Iterable, Protocol


class Replica(Protocol):
    """A table's game as the room keeps it (:class:`tabletop.room.tables.TableReplica`)."""

    table: str
    setup: dict[str, Any]

    def summary(self) -> dict[str, Any]: ...


@dataclass
class Standing:
    """One player's line on one game's leaderboard."""

    player: str
    points: int = 0
    wins: int = 0
    games: int = 0
    tables: list[str] = field(default_factory=list)
    extra: int = 0            #: the room-wide score of duplicate rounds, when the room keeps it

    def to_json(self) -> dict[str, Any]:
        return asdict(self)


def leaderboard(replicas: Iterable[Replica], extra: dict[tuple[str, str], int] | None = None) -> dict[str, list[Standing]]:
    """game -> its players' standings, best first (wins, then points, then name).

    ``extra``: ``(table, player) -> points`` scored room-wide (duplicate rounds' uniqueness)."""
    boards: dict[str, dict[str, Standing]] = {}
    for replica in replicas:
        game = str(replica.setup.get("game"))
        lines = boards.setdefault(game, {})
        summary = replica.summary()
        winner = summary["winner"] if summary["over"] else None
        for player, points in summary["totals"].items():
            line = lines.setdefault(player, Standing(player))
            line.points += points
            line.games += 1
            line.tables.append(replica.table)
            if winner == player:
                line.wins += 1
            if extra:
                line.extra += extra.get((replica.table, player), 0)
    return {game: sorted(lines.values(), key=lambda s: (-s.wins, -s.points, s.player))
            for game, lines in sorted(boards.items())}
