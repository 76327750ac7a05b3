"""The topics of a room, all under ``tabletop/ROOM/``.

A table writes only under its own ``tables/TABLE/``; only the room service writes ``commands``
(the broker's ACL says so, :mod:`tabletop.room.broker`).

>>> t = Topics("club")
>>> t.entries("3"), t.command_for("3")
('tabletop/club/tables/3/entries', 'tabletop/club/commands/3')
>>> t.parse_table_topic("tabletop/club/tables/3/state")
('3', 'state')
>>> t.parse_table_topic("tabletop/other/tables/3/state") is None
True
"""

from __future__ import annotations

from dataclasses import dataclass

from tabletop.room.address import NAME

#: what a table publishes under ``tables/TABLE/``
TABLE_KINDS = ("hello", "entries", "state", "health", "status")


@dataclass(frozen=True)
class Topics:
    """Topic names of the room ``room``."""

    room: str

    @property
    def base(self) -> str:
        return f"tabletop/{self.room}"

    def table(self, table: str, kind: str) -> str:
        return f"{self.base}/tables/{table}/{kind}"

    def hello(self, table: str) -> str:
        """Retained: the table's game and players (never its tokens)."""
        return self.table(table, "hello")

    def entries(self, table: str) -> str:
        """Every journal entry, with its ``seq`` (QoS 1)."""
        return self.table(table, "entries")

    def state(self, table: str) -> str:
        """Retained: the table's state summary (scores, phase, last seq)."""
        return self.table(table, "state")

    def health(self, table: str) -> str:
        """Retained: what the table's devices report."""
        return self.table(table, "health")

    def status(self, table: str) -> str:
        """Retained: ``online``, or the broker's will ``offline`` when the table drops."""
        return self.table(table, "status")

    @property
    def all_tables(self) -> str:
        return f"{self.base}/tables/+/+"

    @property
    def command_all(self) -> str:
        """The room's commands to every table."""
        return f"{self.base}/commands/all"

    def command_for(self, table: str) -> str:
        """The room's commands to one table (e.g. ``resend``)."""
        return f"{self.base}/commands/{table}"

    @property
    def room_status(self) -> str:
        """Retained: the room service's ``online`` / ``offline``."""
        return f"{self.base}/room/status"

    def parse_table_topic(self, topic: str) -> tuple[str, str] | None:
        """``(table, kind)`` of a table's topic of this room; ``None`` for anything else."""
        parts = topic.split("/")
        if len(parts) != 5 or parts[0] != "tabletop" or parts[1] != self.room or parts[2] != "tables":
            return None
        if not NAME.match(parts[3]) or parts[4] not in TABLE_KINDS:
            return None
        return parts[3], parts[4]
