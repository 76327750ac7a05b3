"""The journal: every table input appended to SQLite before the rules see it.

One database file can hold many games. Each game has a row in ``games`` (its set-up, board and
lexicon references, the tokens of its web pages) and its inputs in ``entries``, numbered by
``seq`` from 1:

* ``kind = 'event'``: a rules event (the JSON the rules get, with its ``t``). It is written with
  ``status = 'pending'`` in its own committed transaction *before* :meth:`rules.game.Game.apply`
  runs, then marked ``accepted`` (with the outcome) or ``rejected`` (with the reason). A crash
  between the two leaves it ``pending``; resuming applies it again, which is safe because the
  rules are deterministic.
* ``kind = 'undo'``: the host took back the accepted event ``body.seq``.
* ``kind = 'pause'`` / ``'resume'``: the host stopped or restarted the table clock.

The database runs in WAL mode with ``synchronous=FULL``: a committed entry survives a power cut.
The table clock is checkpointed in ``games.clock`` so a resumed game continues its time.

>>> j = Journal(":memory:")
>>> gid = j.create_game({"game": "extradiction", "players": ["Ann"]}, game_id="g1")
>>> seq = j.append(gid, "event", {"type": "pass", "player": "Ann", "t": 1.0}, t=1.0, source="test")
>>> j.settle(gid, seq, "accepted", {"message": "Ann passes."})
>>> [(e.seq, e.status, e.body["type"]) for e in j.entries(gid)]
[(1, 'accepted', 'pass')]
"""

from __future__ import annotations

import datetime as _dt
import json
import os
import pathlib
import secrets
import sqlite3
import threading
from dataclasses import dataclass
from typing import Any

SCHEMA = """
CREATE TABLE IF NOT EXISTS games (
    id TEXT PRIMARY KEY,
    created TEXT NOT NULL,
    setup TEXT NOT NULL,
    clock REAL NOT NULL DEFAULT 0,
    status TEXT NOT NULL DEFAULT 'playing'
);
CREATE TABLE IF NOT EXISTS entries (
    game_id TEXT NOT NULL REFERENCES games(id),
    seq INTEGER NOT NULL,
    kind TEXT NOT NULL,
    t REAL,
    source TEXT,
    body TEXT NOT NULL,
    status TEXT NOT NULL DEFAULT 'pending',
    result TEXT,
    PRIMARY KEY (game_id, seq)
);
"""


@dataclass(frozen=True)
class Entry:
    """One journal row."""

    game_id: str
    seq: int
    kind: str
    t: float | None
    source: str | None
    body: dict
    status: str
    result: dict | None

    def to_json(self) -> dict:
        return {"seq": self.seq, "kind": self.kind, "t": self.t, "source": self.source, "body": self.body,
                "status": self.status, "result": self.result}


@dataclass(frozen=True)
class GameInfo:
    id: str
    created: str
    setup: dict
    clock: float
    status: str


def default_path() -> pathlib.Path:
    """``$TABLETOP_JOURNAL``, else ``~/.local/share/tabletop/journal.sqlite``."""
    env = os.environ.get("TABLETOP_JOURNAL")
    if env:
        return pathlib.Path(env)
    base = pathlib.Path(os.environ.get("XDG_DATA_HOME") or pathlib.Path.home() / ".local" / "share")
    return base / "tabletop" / "journal.sqlite"


def new_game_id() -> str:
    """A short, readable, unique game id: ``20261122-0412-k3f9``."""
    stamp = _dt.datetime.now().strftime("%Y%m%d-%H%M%S")
    return f"{stamp}-{secrets.token_hex(2)}"


class Journal:
    """The SQLite journal (thread-safe: one connection behind a lock)."""

    def __init__(self, path: str | os.PathLike):
        self.path = str(path)
        if self.path != ":memory:":
            pathlib.Path(self.path).parent.mkdir(parents=True, exist_ok=True)
        self._lock = threading.RLock()
        self._db = sqlite3.connect(self.path, check_same_thread=False, isolation_level=None, timeout=30)
        self._db.execute("PRAGMA journal_mode=WAL")
        self._db.execute("PRAGMA synchronous=FULL")
        self._db.executescript(SCHEMA)

    def close(self) -> None:
        with self._lock:
            self._db.close()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def _write(self, sql: str, args: tuple) -> sqlite3.Cursor:
        with self._lock:
            self._db.execute("BEGIN IMMEDIATE")
            try:
                cursor = self._db.execute(sql, args)
            except BaseException:
                self._db.execute("ROLLBACK")
                raise
            self._db.execute("COMMIT")
            return cursor

    # -- games ----------------------------------------------------------------------------------
    def create_game(self, setup: dict, game_id: str | None = None) -> str:
        game_id = game_id or new_game_id()
        self._write("INSERT INTO games (id, created, setup) VALUES (?, ?, ?)",
                    (game_id, _dt.datetime.now(_dt.timezone.utc).isoformat(timespec="seconds"),
                     json.dumps(setup, ensure_ascii=False)))
        return game_id

    def game(self, game_id: str) -> GameInfo | None:
        with self._lock:
            row = self._db.execute("SELECT id, created, setup, clock, status FROM games WHERE id = ?",
                                   (game_id,)).fetchone()
        return None if row is None else GameInfo(row[0], row[1], json.loads(row[2]), row[3], row[4])

    def games(self) -> list[GameInfo]:
        with self._lock:
            rows = self._db.execute("SELECT id, created, setup, clock, status FROM games ORDER BY created, id").fetchall()
        return [GameInfo(r[0], r[1], json.loads(r[2]), r[3], r[4]) for r in rows]

    def latest_unfinished(self) -> GameInfo | None:
        playing = [g for g in self.games() if g.status == "playing"]
        return playing[-1] if playing else None

    def set_status(self, game_id: str, status: str) -> None:
        self._write("UPDATE games SET status = ? WHERE id = ?", (status, game_id))

    def checkpoint_clock(self, game_id: str, t: float) -> None:
        """Remember the table clock (only ever moves forward)."""
        self._write("UPDATE games SET clock = MAX(clock, ?) WHERE id = ?", (float(t), game_id))

    # -- entries --------------------------------------------------------------------------------
    def append(self, game_id: str, kind: str, body: dict, *, t: float | None, source: str | None) -> int:
        """Append an entry in its own committed transaction; return its ``seq``."""
        text = json.dumps(body, ensure_ascii=False, sort_keys=True)
        with self._lock:
            self._db.execute("BEGIN IMMEDIATE")
            try:
                (last,) = self._db.execute("SELECT COALESCE(MAX(seq), 0) FROM entries WHERE game_id = ?",
                                           (game_id,)).fetchone()
                seq = last + 1
                self._db.execute(
                    "INSERT INTO entries (game_id, seq, kind, t, source, body, status) VALUES (?, ?, ?, ?, ?, ?, ?)",
                    (game_id, seq, kind, t, source, text, "pending" if kind == "event" else "done"))
                if t is not None:
                    self._db.execute("UPDATE games SET clock = MAX(clock, ?) WHERE id = ?", (float(t), game_id))
            except BaseException:
                self._db.execute("ROLLBACK")
                raise
            self._db.execute("COMMIT")
        return seq

    def settle(self, game_id: str, seq: int, status: str, result: dict | None) -> None:
        """Record what the rules made of entry ``seq``: ``accepted`` or ``rejected``."""
        self._write("UPDATE entries SET status = ?, result = ? WHERE game_id = ? AND seq = ?",
                    (status, None if result is None else json.dumps(result, ensure_ascii=False), game_id, seq))

    def entries(self, game_id: str, kind: str | None = None) -> list[Entry]:
        sql = "SELECT game_id, seq, kind, t, source, body, status, result FROM entries WHERE game_id = ?"
        args: tuple[Any, ...] = (game_id,)
        if kind is not None:
            sql += " AND kind = ?"
            args += (kind,)
        with self._lock:
            rows = self._db.execute(sql + " ORDER BY seq", args).fetchall()
        return [Entry(r[0], r[1], r[2], r[3], r[4], json.loads(r[5]), r[6], None if r[7] is None else json.loads(r[7]))
                for r in rows]

    def count(self, game_id: str) -> int:
        with self._lock:
            (n,) = self._db.execute("SELECT COUNT(*) FROM entries WHERE game_id = ?", (game_id,)).fetchone()
        return n
