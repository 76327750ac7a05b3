"""The room service: it subscribes to every table of the room, checks each message
(:mod:`tabletop.room.messages`), keeps what it believes in its own journal
(:mod:`tabletop.room.received`), rebuilds each table's game (:mod:`tabletop.room.tables`), asks a
table again for what it missed, and publishes the room's commands.

Restartable at any time: on start it rebuilds every table from its journal, then the broker
hands it what came while it was away (its subscription is persistent, QoS 1) and the tables
resend whatever the broker could not keep; an entry already journalled is never counted again.
A message that fails a check is refused and logged, never used; nothing a table sends can stop
the room.
"""

from __future__ import annotations

import collections
import logging
import queue
import threading
import time
from dataclasses import dataclass, field
from typing import Any, Callable

from tabletop.room import duplicate, pairings
from tabletop.room.address import RoomAddress
from tabletop.room.commands import Command
from tabletop.room.export import write_export
from tabletop.room.messages import (EntryMessage, HealthMessage, Hello, Refused, StateMessage, StatusMessage,
                                    VERSION, encode, parse)
from tabletop.room.mqtt import Client, Credentials
from tabletop.room.received import Received
from tabletop.room.standings import Standing, leaderboard
from tabletop.room.tables import ReplicaError, TableReplica
from tabletop.room.topics import Topics

log = logging.getLogger(__name__)

#: how long a table may stay behind its own last seq before the room asks it again (seconds)
GAP_PATIENCE = 1.5
#: the most messages waiting for the room's worker; beyond, the broker's redelivery and the
#: tables' resends bring them again
MAX_QUEUE = 50_000
#: the most entries the room holds while it waits for their game's hello
MAX_ORPHANS = 20_000


@dataclass
class TableInfo:
    """What the room knows of a table apart from its game."""

    table: str
    game_id: str | None = None
    online: bool = False
    health: dict[str, str] = field(default_factory=dict)
    state: StateMessage | None = None
    last_seen: float = 0.0
    asked: float = 0.0                 # when the room last asked it to resend
    asked_after: int = -1
    behind_since: tuple[int, float] | None = None   # (the room's last contiguous seq, since when)


class RoomService:
    """One room: ``start()``, then read :meth:`snapshot`, send commands, ``close()``."""

    def __init__(self, address: RoomAddress, journal: str, *, credentials: Credentials = Credentials(),
                 roster: set[str] | None = None, export_dir: str | None = None, room_unique: bool = False):
        self.address = address
        self.topics = Topics(address.room)
        self.store = Received(journal)
        self.roster = roster
        self.export_dir = export_dir
        self.room_unique = room_unique      #: score duplicate rounds' words across the whole room too
        self.replicas: dict[tuple[str, str], TableReplica] = {}
        self.tables: dict[str, TableInfo] = {}
        self.lock = threading.RLock()
        self.duplicates = 0
        self.refused = 0
        self.changed = threading.Event()
        self.version = 0
        self._applied_at: list[float] = []      # the table's journal time of entries applied since the last page update
        self.latencies: collections.deque[float] = collections.deque(maxlen=200_000)
        self._inbox: queue.Queue[tuple[str, bytes] | None] = queue.Queue(MAX_QUEUE)
        self._stop = threading.Event()
        self.listeners: list[Callable[[], None]] = []
        self._orphans: dict[tuple[str, str], list[tuple[str, EntryMessage]]] = {}   # entries before their hello
        self._refusals: collections.deque[dict[str, Any]] = collections.deque(self.store.refusals(10), maxlen=10)
        self._rolls: list[list[str]] = [c["faces"] for c in self.store.commands() if c.get("command") == "roll"]
        self.client = Client(address, f"tabletop-{address.room}-room", credentials=credentials, clean_session=False,
                             will=(self.topics.room_status, encode({"v": VERSION, "status": "offline"})),
                             on_message=self._received, on_connect=self._connected)
        self._threads = [threading.Thread(target=self._work, name="room-worker", daemon=True),
                         threading.Thread(target=self._watch_gaps, name="room-gaps", daemon=True)]
        self._load()

    # -- starting -------------------------------------------------------------------------------
    def _load(self) -> None:
        """Rebuild every table from the room's own journal."""
        for table, game_id, hello in self.store.hellos():
            try:
                replica = TableReplica(table, game_id, hello["setup"])
            except ReplicaError as error:
                log.warning("%s", error)
                continue
            self.replicas[(table, game_id)] = replica
            self.tables.setdefault(table, TableInfo(table)).game_id = game_id
            for entry in self.store.entries(table, game_id):
                replica.offer(entry)

    def start(self) -> "RoomService":
        for thread in self._threads:
            thread.start()
        self.client.connect()
        return self

    def close(self) -> None:
        self._stop.set()
        try:
            self._inbox.put_nowait(None)
        except queue.Full:
            pass
        if self.client.connected.is_set():
            self.client.publish(self.topics.room_status, encode({"v": VERSION, "status": "offline"}), retain=True)
        self.client.close()
        for thread in self._threads:
            if thread.is_alive():
                thread.join(timeout=3)
        self.store.close()

    def _connected(self) -> None:
        self.client.subscribe(self.topics.all_tables)
        self.client.publish(self.topics.room_status, encode({"v": VERSION, "status": "online"}), retain=True)

    # -- receiving -------------------------------------------------------------------------------
    def _received(self, topic: str, payload: bytes) -> None:
        try:
            self._inbox.put_nowait((topic, payload))
        except queue.Full:
            log.warning("the room is %d messages behind; %s dropped (a table will resend it)", MAX_QUEUE, topic)

    def _work(self) -> None:
        """Handle what came, a batch at a time: one journal transaction for everything waiting."""
        while not self._stop.is_set():
            batch = [self._inbox.get()]
            while len(batch) < 500:
                try:
                    batch.append(self._inbox.get_nowait())
                except queue.Empty:
                    break
            # the journal's lock, then the room's for each message (never the other way round: the
            # page reads the room under its lock alone, and is not kept waiting for the disk)
            with self.store.transaction():
                for item in batch:
                    if item is None:
                        return
                    try:
                        self.handle(*item)
                    except Exception:             # never: but a bug here must not stop the room
                        log.exception("the room could not handle a message on %s", item[0][:200])

    def refuse(self, topic: str, reason: str) -> None:
        """Log a refused message; it changes nothing else."""
        self.refused += 1
        log.warning("refused a message on %s: %s", topic[:200], reason)
        self.store.refuse(topic, reason)
        self._refusals.appendleft({"at": time.time(), "topic": topic[:200], "reason": reason[:300]})
        self._changed()

    def handle(self, topic: str, payload: bytes) -> None:
        """One message from the broker: checked, journalled, applied; or refused and logged."""
        where = self.topics.parse_table_topic(topic)
        if where is None:
            self.refuse(topic, "not a table topic of this room")
            return
        table, kind = where
        if self.roster is not None and table not in self.roster:
            self.refuse(topic, f"table {table} is not one of this room's tables")
            return
        try:
            message = parse(table, kind, payload)
        except Refused as refusal:
            self.refuse(topic, str(refusal))
            return
        except (TypeError, ValueError, KeyError, AttributeError) as error:     # a check that missed a shape
            log.exception("a message on %s broke a check", topic[:200])
            self.refuse(topic, f"the message could not be read ({type(error).__name__})")
            return
        with self.lock:
            info = self.tables.setdefault(table, TableInfo(table))
            info.last_seen = time.time()
            if isinstance(message, Hello):
                self._hello(topic, info, message)
            elif isinstance(message, EntryMessage):
                self._entry(topic, message)
            elif isinstance(message, StateMessage):
                info.state = message
            elif isinstance(message, HealthMessage):
                info.health = message.devices
            elif isinstance(message, StatusMessage):
                info.online = message.online
        self._changed()

    def _hello(self, topic: str, info: TableInfo, hello: Hello) -> None:
        key = (hello.table, hello.game_id)
        if key not in self.replicas:
            try:
                replica = TableReplica(hello.table, hello.game_id, hello.setup)
            except ReplicaError as error:
                self.refuse(topic, str(error))
                return
            self.store.add_hello(hello.table, hello.game_id, {"setup": hello.setup, "title": hello.title})
            self.replicas[key] = replica
        info.game_id = hello.game_id
        for orphan_topic, entry in self._orphans.pop(key, []):
            self._entry(orphan_topic, entry)

    def _entry(self, topic: str, entry: EntryMessage) -> None:
        replica = self.replicas.get((entry.table, entry.game_id))
        if replica is None:
            # its hello may be on its way (a retained hello comes after what the broker queued):
            # held, never counted, until it comes; beyond MAX_ORPHANS, refused (the table resends)
            held = sum(len(waiting) for waiting in self._orphans.values())
            if held >= MAX_ORPHANS:
                self.refuse(topic, f"table {entry.table} has not said which game {entry.game_id[:40]!r} is")
            else:
                self._orphans.setdefault((entry.table, entry.game_id), []).append((topic, entry))
            return
        data = entry.to_json()
        if not self.store.add_entry(entry.table, entry.game_id, entry.seq, data):
            kept = self.store.entry(entry.table, entry.game_id, entry.seq)
            if kept is not None and (kept["kind"], kept["body"], kept["t"]) != (entry.kind, entry.body, entry.t):
                self.refuse(topic, f"entry {entry.seq} of table {entry.table} came again with a different content; "
                                   "the first one stands")
            else:
                self.duplicates += 1
            return
        try:
            applied = replica.offer(data)
        except ValueError as error:
            self.refuse(topic, str(error))
            return
        if applied:
            self._applied_at.extend([replica.last_at] * applied)

    def _changed(self) -> None:
        self.version += 1
        self.changed.set()
        for listener in list(self.listeners):
            try:
                listener()
            except Exception:
                log.exception("a room listener failed")

    def page_updated(self) -> None:
        """The room page has just shown everything applied so far: measure how long each entry
        took from its table's journal to here."""
        with self.lock:
            stamps, self._applied_at = self._applied_at, []
        now = time.time()
        self.latencies.extend(now - at for at in stamps if at > 0)

    # -- gaps ------------------------------------------------------------------------------------
    def _watch_gaps(self) -> None:
        while not self._stop.wait(0.5):
            try:
                self.ask_for_gaps()
            except Exception:
                log.exception("checking the tables for gaps failed")

    def ask_for_gaps(self, now: float | None = None) -> list[str]:
        """Ask each table that is behind (its own last seq, or entries waiting past a gap) to send
        again from the room's last contiguous entry; the tables asked."""
        now = time.time() if now is None else now
        asked: list[str] = []
        due: list[tuple[TableInfo, str, int]] = []
        with self.lock:
            for info in self.tables.values():
                replica = self.replicas.get((info.table, info.game_id or ""))
                if replica is None:
                    continue
                last = info.state.last_seq if info.state and info.state.game_id == replica.game_id else 0
                if max(last, replica.ahead) <= replica.applied_seq:
                    info.behind_since = None
                    continue
                if info.behind_since is None or info.behind_since[0] != replica.applied_seq:
                    info.behind_since = (replica.applied_seq, now)     # QoS 1 may still bring it: wait a little
                    continue
                if now - info.behind_since[1] < GAP_PATIENCE / 3:
                    continue
                if info.asked_after == replica.applied_seq and now - info.asked < GAP_PATIENCE:
                    continue
                due.append((info, replica.game_id, replica.applied_seq))
        for info, game_id, after in due:              # the room's lock is never held while journalling
            try:
                self.send("resend", table=info.table, game_id=game_id, after=after)
            except Refused:                           # not connected: asked again once it is
                continue
            with self.lock:
                info.asked, info.asked_after = now, after
            asked.append(info.table)
        return asked

    # -- commands --------------------------------------------------------------------------------
    def send(self, name: str, table: str | None = None, **args: Any) -> Command:
        """Publish the command ``name`` to every table (or to ``table``); journalled and numbered."""
        Command.make(0, name, **args)                # check before numbering
        if not self.client.connected.is_set():
            raise Refused(f"the room is not connected to the broker {self.address.host}:{self.address.port} "
                          "now; nothing was sent (try again when the page says connected)")
        number = self.store.next_command_id({"command": name, "table": table, **args})
        command = Command.make(number, name, **args)
        self.client.publish(self.topics.command_for(table) if table else self.topics.command_all, command.encode())
        if name == "roll":
            self._rolls.append(list(args["faces"]))
        return command

    def rolls(self) -> list[list[str]]:
        """The duplicate rolls the room has dealt, in order."""
        return [list(faces) for faces in self._rolls]

    def roll_everywhere(self, language: str = "en") -> list[str]:
        """Deal the room's next roll to every table (the same letters everywhere)."""
        faces = duplicate.room_roll(self.address.room, len(self.rolls()) + 1, language)
        self.send("roll", faces=faces, round=len(self.rolls()) + 1)
        return faces

    def board(self, room_unique: bool = False) -> dict[str, list[Standing]]:
        """The leaderboard per game (``room_unique``: with the room-wide score of duplicate rounds)."""
        with self.lock:
            replicas = list(self.replicas.values())
            extra = duplicate.room_unique_points(replicas, self.rolls()) if room_unique else None
            return leaderboard(replicas, extra)

    def seating(self, kind: str, size: int, seed: int | None = None) -> dict[str, list[str]]:
        """Next round's seats (``swiss`` from the standings, or ``random``), sent to the tables."""
        with self.lock:
            board = self.board()
            ranked = [s.player for lines in board.values() for s in lines]
            ranked = list(dict.fromkeys(ranked))
            met = {(a, b) for r in self.replicas.values() for a in r.setup.get("players", [])
                   for b in r.setup.get("players", []) if a != b}
        tables = pairings.swiss(ranked, size, met) if kind == "swiss" else pairings.random_seats(ranked, size, seed)
        seating = {str(n): players for n, players in enumerate(tables, start=1)}
        self.send("seats", seating=seating)
        return seating

    def end(self, folder: str | None = None) -> list[str]:
        """End every table's game and export every record and the standings (CSV and JSON)."""
        self.send("end")
        folder = folder or self.export_dir or f"room-{self.address.room}-export"
        with self.lock:                  # every game every table played in this room
            return write_export(folder, list(self.replicas.values()), self.board(room_unique=self.room_unique))

    # -- what the page shows ---------------------------------------------------------------------
    def snapshot(self) -> dict[str, Any]:
        """The room page's data: the tables, the leaderboard, who is connected, what was refused."""
        with self.lock:
            tables = []
            for info in sorted(self.tables.values(), key=lambda i: (len(i.table), i.table)):
                replica = self.replicas.get((info.table, info.game_id or ""))
                line: dict[str, Any] = {"table": info.table, "online": info.online, "health": info.health,
                                        "last_seen": info.last_seen,
                                        "status": info.state.status if info.state else "",
                                        "paused": bool(info.state and info.state.paused),
                                        "table_seq": info.state.last_seq if info.state else 0}
                if replica is not None:
                    line.update(replica.summary())
                tables.append(line)
            board = self.board(room_unique=self.room_unique)
            return {"room": self.address.room, "broker": f"{self.address.host}:{self.address.port}",
                    "connected": self.client.connected.is_set(), "tables": tables,
                    "leaderboard": {g: [s.to_json() for s in lines] for g, lines in board.items()},
                    "counted": sum(r.counted for r in self.replicas.values()), "duplicates": self.duplicates,
                    "refused": self.refused, "refusals": list(self._refusals), "rolls": self.rolls(),
                    "room_unique": self.room_unique,
                    "version": self.version}
