"""The table's outbox: every message for the room is written here (SQLite, committed) before a
background thread sends it, and deleted only when the broker has acknowledged it (QoS 1).

So nothing is lost while the broker or the Wi-Fi is away, or when the table is killed: the next
run sends what is left. The outbox lives beside the journal (``JOURNAL.room-outbox``). Messages
go out in the order they were written; a retained summary (state, health) keeps only its latest.

>>> box = Outbox(":memory:")
>>> box.put("t/entries", b"1"); box.put("t/state", b"a", retain=True); box.put("t/state", b"b", retain=True)
>>> [(m.topic, m.payload) for m in box.waiting()]
[('t/entries', b'1'), ('t/state', b'b')]
>>> box.done(box.waiting()[0].id); len(box)
1
"""

from __future__ import annotations

import os
import sqlite3
import threading
from dataclasses import dataclass
from typing import Sequence

SCHEMA = """
CREATE TABLE IF NOT EXISTS outbox (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    topic TEXT NOT NULL,
    payload BLOB NOT NULL,
    retain INTEGER NOT NULL DEFAULT 0
);
CREATE TABLE IF NOT EXISTS sent (
    game_id TEXT PRIMARY KEY,
    seq INTEGER NOT NULL
);
"""


@dataclass(frozen=True)
class Outgoing:
    """One message waiting in the outbox."""

    id: int
    topic: str
    payload: bytes
    retain: bool


class Outbox:
    """The SQLite outbox (thread-safe: one connection behind a lock)."""

    def __init__(self, path: str | os.PathLike):
        self.path = str(path)
        self._lock = threading.Lock()
        self._db = sqlite3.connect(self.path, check_same_thread=False, isolation_level=None, timeout=30)
        self._db.execute("PRAGMA journal_mode=WAL")
        self._db.execute("PRAGMA synchronous=FULL")
        self._db.executescript(SCHEMA)

    def put(self, topic: str, payload: bytes, retain: bool = False) -> None:
        """Keep ``payload`` for ``topic`` until it is sent (a retained one replaces its waiting
        older self, in its place: a hello stays ahead of the entries put after it)."""
        with self._lock:
            self._db.execute("BEGIN IMMEDIATE")
            if retain:
                self._put_retained(topic, payload)
            else:
                self._db.execute("INSERT INTO outbox (topic, payload, retain) VALUES (?, ?, 0)", (topic, payload))
            self._db.execute("COMMIT")

    def put_entries(self, game_id: str, topic: str, messages: list[tuple[int, bytes]],
                    retained: Sequence[tuple[str, bytes]] = ()) -> None:
        """Keep the entries ``messages`` (``(seq, payload)``, in order) and remember the last seq
        put, then the ``retained`` messages (``(topic, payload)``: the state, the health), all in
        one transaction (one disk write), so an entry is put once and only once."""
        if not messages and not retained:
            return
        with self._lock:
            self._db.execute("BEGIN IMMEDIATE")
            self._db.executemany("INSERT INTO outbox (topic, payload, retain) VALUES (?, ?, 0)",
                                 [(topic, payload) for _, payload in messages])
            if messages:
                self._db.execute("INSERT INTO sent (game_id, seq) VALUES (?, ?) ON CONFLICT(game_id) "
                                 "DO UPDATE SET seq = MAX(seq, excluded.seq)", (game_id, messages[-1][0]))
            for retained_topic, payload in retained:
                self._put_retained(retained_topic, payload)
            self._db.execute("COMMIT")

    def _put_retained(self, topic: str, payload: bytes) -> None:
        if not self._db.execute("UPDATE outbox SET payload = ? WHERE topic = ? AND retain = 1",
                                (payload, topic)).rowcount:
            self._db.execute("INSERT INTO outbox (topic, payload, retain) VALUES (?, ?, 1)", (topic, payload))

    def last_put(self, game_id: str) -> int:
        """The last entry seq of ``game_id`` put in the outbox (0: none)."""
        with self._lock:
            row = self._db.execute("SELECT seq FROM sent WHERE game_id = ?", (game_id,)).fetchone()
        return int(row[0]) if row else 0

    def waiting(self, limit: int = 500) -> list[Outgoing]:
        """The oldest ``limit`` messages not yet acknowledged."""
        with self._lock:
            rows = self._db.execute("SELECT id, topic, payload, retain FROM outbox ORDER BY id LIMIT ?",
                                    (limit,)).fetchall()
        return [Outgoing(int(r[0]), str(r[1]), bytes(r[2]), bool(r[3])) for r in rows]

    def done(self, *message_ids: int) -> None:
        """The broker acknowledged ``message_ids``: forget them (in one transaction). A crash
        before this is written sends them again: a duplicate, which the room drops."""
        if not message_ids:
            return
        with self._lock:
            self._db.execute("BEGIN IMMEDIATE")
            self._db.executemany("DELETE FROM outbox WHERE id = ?", [(i,) for i in message_ids])
            self._db.execute("COMMIT")

    def __len__(self) -> int:
        with self._lock:
            (n,) = self._db.execute("SELECT COUNT(*) FROM outbox").fetchone()
        return int(n)

    def close(self) -> None:
        with self._lock:
            self._db.close()
