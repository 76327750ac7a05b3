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
* ``kind = 'pause'`` and ``kind = 'resume'``: the host stopped or restarted the table clock.

Those four are the session core's (:mod:`tabletop.session.game_core`); each other kind belongs
to the part of the session that writes and replays it (:mod:`tabletop.session.parts`):

* ``kind = 'window'``: the host opened a private entry window (``id``, ``seats``, ``deadline``,
  ``prompt``; :mod:`tabletop.session.entry_windows`).
* ``kind = 'entry'``: a seat's entry in such a window (``window``, ``seat``, ``text``).
* ``kind = 'hand-lesson'``: the letters of a confirmed camera read and their images, which teach
  the writer's hand (``player``, ``letters``, ``images``; :mod:`tabletop.session.hands`).
* ``kind = 'hand-reset'``: the host made the reader forget ``player``'s hand.
* ``kind = 'camera-read'``: a move the camera was unsure of, waiting for the host (``event``,
  credited to its player, and its ``lesson``; :mod:`tabletop.session.camera_reads`).
* ``kind = 'camera-settled'``: the host confirmed or discarded the waiting read ``read`` (its seq).

Every kind but ``event`` is stored ``done``. Resuming replays each entry through its kind's
replayer; an entry of a kind the table does not know is skipped and reported.

The database runs in WAL mode with ``synchronous=FULL``: a committed entry survives a power cut.
The table clock is checkpointed in ``games.clock`` so a resumed game continues its time. The
file is created private (0600): it holds every seat's token. A damaged file is reported as a
:class:`JournalDamaged` error that says what can still be done, never as a traceback; an entry
whose text cannot be read is skipped and listed in :attr:`Journal.unreadable`. One process plays
a game at a time: :meth:`Journal.lock_game`.

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
from typing import Any, Callable, TypeVar

from tabletop.errors import UserError

T = TypeVar("T")


class JournalDamaged(UserError):
    """The journal file cannot be read (not a database, damaged, unreadable); ``reason`` is SQLite's word."""

    def __init__(self, message: str, reason: str = ""):
        super().__init__(message)
        self.reason = reason


class GameLocked(UserError):
    """Another process is playing this game."""

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


def _create_private(path: pathlib.Path) -> None:
    """Create ``path`` (and its folder) readable by its owner only, if it does not exist yet."""
    path.parent.mkdir(parents=True, exist_ok=True)
    try:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    except FileExistsError:
        return
    os.close(fd)


class GameLock:
    """An exclusive lock on one game of a journal, held while a process plays it.

    An ``flock`` on a file beside the journal: the kernel releases it when the holder dies, so a
    crashed process's lock is taken over safely by the next ``resume``.
    """

    def __init__(self, path: pathlib.Path, game_id: str):
        import fcntl

        self.path = path
        _create_private(path)
        self._file = open(path, "r+", encoding="utf-8")
        try:
            fcntl.flock(self._file, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            holder = self._file.read().strip() or "another process"
            self._file.close()
            raise GameLocked(f"game {game_id} is being played by {holder}; stop it first "
                             f"(a second table on the same game would lose events)") from None
        self._file.seek(0)
        self._file.truncate()
        self._file.write(f"process {os.getpid()}")
        self._file.flush()

    def release(self) -> None:
        if not self._file.closed:
            self._file.close()


class Journal:
    """The SQLite journal (thread-safe: one connection behind a lock)."""

    def __init__(self, path: str | os.PathLike, *, create: bool = True):
        self.path = str(path)
        self.unreadable: list[str] = []      # entries skipped because their text could not be read
        if self.path != ":memory:":
            file = pathlib.Path(self.path)
            if not create and not file.exists():
                raise UserError(f"no journal at {file}")
            if file.exists() and not file.is_dir() and not file.is_file():
                raise UserError(f"{file} is not a regular file, so it cannot be a journal")
            if file.is_dir():
                raise UserError(f"the journal {file} is a folder; give a file, e.g. {file / 'journal.sqlite'}")
            try:
                _create_private(file)
            except OSError as error:
                raise UserError(f"cannot create the journal {file}: {error.strerror}") from None
        self._lock = threading.RLock()
        try:
            self._db = sqlite3.connect(self.path, check_same_thread=False, isolation_level=None, timeout=30)
            self._db.execute("PRAGMA journal_mode=WAL")
            self._db.execute("PRAGMA synchronous=FULL")
            self._db.executescript(SCHEMA)
        except sqlite3.DatabaseError as error:
            raise JournalDamaged(f"the journal {self.path} cannot be used: {error} "
                                 f"(is it a Tabletop journal? `tabletop doctor --journal {self.path}` checks it)") from None

    def _guard(self, what: Callable[[], T]) -> T:
        """Run a read or write; a damaged database becomes a :class:`JournalDamaged` error."""
        try:
            return what()
        except sqlite3.DatabaseError as error:
            raise JournalDamaged(f"the journal {self.path} is damaged ({error}); `tabletop export --journal "
                                 f"{self.path} --list` shows what can still be read", str(error)) from None

    def quick_check(self) -> list[str]:
        """SQLite's ``PRAGMA quick_check``: ``[]`` when the file is sound, else what is wrong."""
        try:
            with self._lock:
                rows = self._db.execute("PRAGMA quick_check").fetchall()
        except sqlite3.DatabaseError as error:
            return [str(error)]
        problems = [str(r[0]) for r in rows if r[0] != "ok"]
        return problems

    def lock_game(self, game_id: str) -> GameLock | None:
        """Hold ``game_id`` for this process (``None`` for an in-memory journal); see :class:`GameLock`."""
        if self.path == ":memory:":
            return None
        return GameLock(pathlib.Path(f"{self.path}.{game_id}.lock"), game_id)

    def close(self) -> None:
        with self._lock:
            self._db.close()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def _write(self, sql: str, args: tuple) -> sqlite3.Cursor:
        def write() -> sqlite3.Cursor:
            with self._lock:
                self._db.execute("BEGIN IMMEDIATE")
                try:
                    cursor = self._db.execute(sql, args)
                except BaseException:
                    self._db.execute("ROLLBACK")
                    raise
                self._db.execute("COMMIT")
                return cursor
        return self._guard(write)

    # -- games ----------------------------------------------------------------------------------
    def create_game(self, setup: dict, game_id: str | None = None) -> str:
        game_id = game_id or new_game_id()
        self._write("INSERT INTO games (id, created, setup) VALUES (?, ?, ?)",
                    (game_id, _dt.datetime.now(_dt.timezone.utc).isoformat(timespec="seconds"),
                     json.dumps(setup, ensure_ascii=False, allow_nan=False)))
        return game_id

    def delete_game(self, game_id: str) -> None:
        """Take a game that never started (its table failed to start) out of the journal."""
        self._write("DELETE FROM entries WHERE game_id = ?", (game_id,))
        self._write("DELETE FROM games WHERE id = ?", (game_id,))

    def game(self, game_id: str) -> GameInfo | None:
        return next((g for g in self.games() if g.id == game_id), None)

    def games(self) -> list[GameInfo]:
        """Every game whose set-up can be read (others are listed in :attr:`unreadable`)."""
        def read() -> list[Any]:
            with self._lock:
                return self._db.execute("SELECT id, created, setup, clock, status FROM games ORDER BY created, id").fetchall()
        out = []
        for r in self._guard(read):
            try:
                setup = json.loads(r[2])
                if not isinstance(setup, dict):
                    raise ValueError("not an object")
                out.append(GameInfo(str(r[0]), str(r[1]), setup, float(r[3] or 0), str(r[4])))
            except (TypeError, ValueError):
                self._note(f"game {r[0]!r}: its set-up cannot be read")
        return out

    def _note(self, problem: str) -> None:
        if problem not in self.unreadable:
            self.unreadable.append(problem)

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
        text = json.dumps(body, ensure_ascii=False, sort_keys=True, allow_nan=False)

        def append() -> int:
            with self._lock:
                self._db.execute("BEGIN IMMEDIATE")
                try:
                    (last,) = self._db.execute("SELECT COALESCE(MAX(seq), 0) FROM entries WHERE game_id = ?",
                                               (game_id,)).fetchone()
                    seq = int(last) + 1
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
        return self._guard(append)

    def settle(self, game_id: str, seq: int, status: str, result: dict | None) -> None:
        """Record what the rules made of entry ``seq``: ``accepted`` or ``rejected``."""
        self._write("UPDATE entries SET status = ?, result = ? WHERE game_id = ? AND seq = ?",
                    (status, None if result is None else json.dumps(result, ensure_ascii=False), game_id, seq))

    def entries(self, game_id: str, kind: str | None = None, after: int = 0) -> list[Entry]:
        """The game's entries in ``seq`` order (only those of ``kind``; only those after seq ``after``)."""
        sql = "SELECT game_id, seq, kind, t, source, body, status, result FROM entries WHERE game_id = ? AND seq > ?"
        args: tuple[Any, ...] = (game_id, after)
        if kind is not None:
            sql += " AND kind = ?"
            args += (kind,)
        def read() -> list[Any]:
            with self._lock:
                return self._db.execute(sql + " ORDER BY seq", args).fetchall()
        out = []
        for r in self._guard(read):
            try:
                body = json.loads(r[5])
                result = None if r[7] is None else json.loads(r[7])
                if not isinstance(body, dict) or not isinstance(body.get("type", ""), str):
                    raise ValueError("not an event")
                out.append(Entry(str(r[0]), int(r[1]), str(r[2]), r[3], r[4], body, str(r[6]), result))
            except (TypeError, ValueError):
                self._note(f"game {game_id}, entry {r[1]}: its text cannot be read; skipped")
        return out

    def count(self, game_id: str) -> int:
        def read() -> int:
            with self._lock:
                (n,) = self._db.execute("SELECT COUNT(*) FROM entries WHERE game_id = ?", (game_id,)).fetchone()
            return int(n)
        return self._guard(read)
