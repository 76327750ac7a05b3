"""The room's own journal: every table's hello and entries as received, the refusals, the
commands sent (SQLite, WAL, ``synchronous=FULL``).

An entry is keyed by ``(table, game_id, seq)`` and inserted once: a duplicate (QoS 1 delivers at
least once; a table resends after a gap) is dropped, so a restarted room counts nothing twice;
what it has kept it never loses.

>>> store = Received(":memory:")
>>> store.add_entry("3", "g1", 1, {"seq": 1, "kind": "event"})
True
>>> store.add_entry("3", "g1", 1, {"seq": 1, "kind": "event"})
False
>>> store.contiguous("3", "g1")
1
"""

from __future__ import annotations

import contextlib
import json
import os
import sqlite3
import threading
import time
from typing import Any, Iterator

SCHEMA = """
CREATE TABLE IF NOT EXISTS tables (
    table_name TEXT NOT NULL,
    game_id TEXT NOT NULL,
    hello TEXT NOT NULL,
    first_seen REAL NOT NULL,
    PRIMARY KEY (table_name, game_id)
);
CREATE TABLE IF NOT EXISTS entries (
    table_name TEXT NOT NULL,
    game_id TEXT NOT NULL,
    seq INTEGER NOT NULL,
    message TEXT NOT NULL,
    received REAL NOT NULL,
    PRIMARY KEY (table_name, game_id, seq)
);
CREATE TABLE IF NOT EXISTS refusals (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    at REAL NOT NULL,
    topic TEXT NOT NULL,
    reason TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS commands (
    id INTEGER PRIMARY KEY,
    at REAL NOT NULL,
    command TEXT NOT NULL
);
"""


class Received:
    """The room's SQLite journal (thread-safe: one connection behind a lock)."""

    def __init__(self, path: str | os.PathLike):
        self.path = str(path)
        self._lock = threading.RLock()
        self._db = sqlite3.connect(self.path, check_same_thread=False, isolation_level=None, timeout=30)
        self._db.execute("PRAGMA journal_mode=WAL")
        self._db.execute("PRAGMA synchronous=FULL")
        self._db.executescript(SCHEMA)

    @contextlib.contextmanager
    def transaction(self) -> Iterator[None]:
        """Make every write inside one transaction (one disk write for a batch of messages)."""
        with self._lock:
            self._db.execute("BEGIN IMMEDIATE")
            try:
                yield
            except BaseException:
                self._db.execute("ROLLBACK")
                raise
            self._db.execute("COMMIT")

    def add_hello(self, table: str, game_id: str, hello: dict[str, Any]) -> bool:
        """Keep a table's hello for its game; ``False`` when it was known already."""
        with self._lock:
            cursor = self._db.execute("INSERT OR IGNORE INTO tables VALUES (?, ?, ?, ?)",
                                      (table, game_id, json.dumps(hello, ensure_ascii=False), time.time()))
        return cursor.rowcount == 1

    def hellos(self) -> list[tuple[str, str, dict[str, Any]]]:
        """Every ``(table, game_id, hello)`` in the order they came."""
        with self._lock:
            rows = self._db.execute("SELECT table_name, game_id, hello FROM tables ORDER BY first_seen").fetchall()
        return [(str(r[0]), str(r[1]), json.loads(r[2])) for r in rows]

    def add_entry(self, table: str, game_id: str, seq: int, message: dict[str, Any]) -> bool:
        """Keep an entry; ``False`` when it was there already (a duplicate, dropped)."""
        with self._lock:
            cursor = self._db.execute("INSERT OR IGNORE INTO entries VALUES (?, ?, ?, ?, ?)",
                                      (table, game_id, seq, json.dumps(message, ensure_ascii=False), time.time()))
        return cursor.rowcount == 1

    def entry(self, table: str, game_id: str, seq: int) -> dict[str, Any] | None:
        with self._lock:
            row = self._db.execute("SELECT message FROM entries WHERE table_name = ? AND game_id = ? AND seq = ?",
                                   (table, game_id, seq)).fetchone()
        return None if row is None else json.loads(row[0])

    def entries(self, table: str, game_id: str) -> list[dict[str, Any]]:
        with self._lock:
            rows = self._db.execute("SELECT message FROM entries WHERE table_name = ? AND game_id = ? ORDER BY seq",
                                    (table, game_id)).fetchall()
        return [json.loads(r[0]) for r in rows]

    def contiguous(self, table: str, game_id: str) -> int:
        """The last seq up to which the room has every entry of the game (0: none)."""
        with self._lock:
            rows = self._db.execute("SELECT seq FROM entries WHERE table_name = ? AND game_id = ? ORDER BY seq",
                                    (table, game_id)).fetchall()
        last = 0
        for (seq,) in rows:
            if seq != last + 1:
                break
            last = seq
        return last

    def refuse(self, topic: str, reason: str) -> None:
        """Log a refused message (the topic and why; never its payload)."""
        with self._lock:
            self._db.execute("INSERT INTO refusals (at, topic, reason) VALUES (?, ?, ?)",
                             (time.time(), topic[:200], reason[:300]))
            self._db.execute("DELETE FROM refusals WHERE id <= (SELECT MAX(id) FROM refusals) - 1000")

    def refusals(self, limit: int = 50) -> list[dict[str, Any]]:
        with self._lock:
            rows = self._db.execute("SELECT at, topic, reason FROM refusals ORDER BY id DESC LIMIT ?",
                                    (limit,)).fetchall()
        return [{"at": r[0], "topic": r[1], "reason": r[2]} for r in rows]

    def refusal_count(self) -> int:
        with self._lock:
            (n,) = self._db.execute("SELECT COUNT(*) FROM refusals").fetchone()
        return int(n)

    def next_command_id(self, command: dict[str, Any]) -> int:
        """Number a command (numbers only grow, across restarts) and keep it."""
        with self._lock:
            (last,) = self._db.execute("SELECT COALESCE(MAX(id), 0) FROM commands").fetchone()
            number = int(last) + 1
            self._db.execute("INSERT INTO commands VALUES (?, ?, ?)", (number, time.time(), json.dumps(command)))
        return number

    def commands(self) -> list[dict[str, Any]]:
        with self._lock:
            rows = self._db.execute("SELECT id, at, command FROM commands ORDER BY id").fetchall()
        return [{"id": r[0], "at": r[1], **json.loads(r[2])} for r in rows]

    def close(self) -> None:
        with self._lock:
            self._db.close()
