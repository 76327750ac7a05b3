"""A table's link to its room: every journal entry, the state summary and the devices' health,
published under ``tabletop/ROOM/tables/TABLE/`` from the outbox; the room's commands obeyed.

The link is a subscriber of the session (:meth:`tabletop.session.core.Session.subscribe`): on
every message the session publishes, the entries journalled since the last one are written to the
outbox, *in the session's thread* (a local SQLite commit, never the network), and a background
thread sends them at QoS 1, deleting each once the broker has acknowledged it. The table never
waits for the network: offline, it plays on, and the outbox catches up when the link returns.
When the room asks for a gap (``resend``), the journal itself answers.

>>> from tabletop.room.address import RoomAddress
>>> summary_of(None, 0)["totals"]
{}
"""

from __future__ import annotations

import logging
import queue
import threading
import time
from typing import TYPE_CHECKING, Any, Callable

from tabletop.room.address import RoomAddress, check_name
from tabletop.room.commands import Command
from tabletop.room.messages import VERSION, Refused, encode, entry_message
from tabletop.room.mqtt import Client, Credentials
from tabletop.room.outbox import Outbox
from tabletop.room.topics import Topics

if TYPE_CHECKING:
    from tabletop.session.core import Session

log = logging.getLogger(__name__)

#: the set-up fields a table tells its room (never the tokens of its pages)
PUBLIC_SETUP = ("game", "variant", "players", "seed", "language", "rounds", "board", "lexicon", "options", "deck")


def for_the_room(entry: dict[str, Any]) -> dict[str, Any]:
    """A journal entry as the room gets it: a hand lesson without its images (the room never
    reads handwriting, and a player's hand stays at the table).

    >>> for_the_room({"kind": "hand-lesson", "body": {"player": "Ann", "letters": "AB", "images": ["x", "y"]}})["body"]
    {'player': 'Ann', 'letters': 'AB', 'images_left_out': 2}
    """
    if entry.get("kind") == "hand-lesson" and isinstance(entry.get("body"), dict) and "images" in entry["body"]:
        body = {k: v for k, v in entry["body"].items() if k != "images"}
        body["images_left_out"] = len(entry["body"]["images"] or [])
        return {**entry, "body": body}
    return entry


def summary_of(session: "Session | None", last_seq: int) -> dict[str, Any]:
    """The state summary the room shows for a table (``session`` ``None``: nothing yet)."""
    if session is None:
        return {"totals": {}, "over": False, "status": "", "paused": False, "last_seq": last_seq}
    game = session.game
    try:
        status = session.table.status(game)
    except Exception:                  # a summary must never stop the table
        status = ""
    return {"totals": dict(game.totals), "over": bool(game.over), "status": status, "paused": session.paused,
            "last_seq": last_seq}


class TableLink:
    """Publish ``session`` to the room at ``address`` as table ``table`` (see the module docstring)."""

    def __init__(self, session: "Session", address: RoomAddress, table: str, *, outbox_path: str | None = None,
                 credentials: Credentials = Credentials(), say: Callable[[str], None] | None = None,
                 clock: Callable[[], float] = time.time):
        self.session = session
        self.address = address
        self.table = check_name("table", table)
        self.topics = Topics(address.room)
        self.say = say or (lambda text: None)
        self.clock = clock
        journal_path = session.journal.path
        self.outbox = Outbox(outbox_path or (":memory:" if journal_path == ":memory:"
                                             else f"{journal_path}.room-outbox"))
        self._lock = threading.Lock()        # putting entries: one writer at a time
        self._inflight: dict[int, int] = {}  # paho message id -> outbox id
        self._early: dict[int, float] = {}   # acks that came before publish() returned -> when
        self._inflight_lock = threading.Lock()
        self._acked_ids: list[int] = []        # acknowledged, to be deleted from the outbox in one go
        self._wake = threading.Event()
        self._announce = threading.Event()       # connected again: say hello and the state again
        self._stop = threading.Event()
        self._commands: queue.Queue[Command] = queue.Queue()
        self._seen_commands: set[int] = set()
        self._health: dict[str, str] | None = None
        self.commands_done = 0
        self.client = Client(address, f"tabletop-{address.room}-table-{table}", credentials=credentials,
                             will=(self.topics.status(table), encode({"v": VERSION, "table": table,
                                                                     "status": "offline"})),
                             on_message=self._received, on_connect=self._connected,
                             on_disconnect=self._disconnected, on_acked=self._acked)
        self._threads = [threading.Thread(target=self._send_loop, name="room-link-send", daemon=True),
                         threading.Thread(target=self._command_loop, name="room-link-commands", daemon=True)]
        self._unsubscribe: Callable[[], None] | None = None

    # -- starting and stopping ------------------------------------------------------------------
    def start(self) -> "TableLink":
        """Catch up with the journal, say hello, and start sending (the broker may be away)."""
        with self.session.lock:
            self._unsubscribe = self.session.subscribe(self._session_message)
            self.announce()
        self.client.connect()
        for thread in self._threads:
            thread.start()
        return self

    def close(self, drain_seconds: float = 3.0) -> None:
        """Stop, after up to ``drain_seconds`` for the outbox to empty (what is left goes next run)."""
        if self._unsubscribe:
            self._unsubscribe()
        deadline = time.monotonic() + drain_seconds
        while len(self.outbox) and self.client.connected.is_set() and time.monotonic() < deadline:
            self._wake.set()
            time.sleep(0.05)
        self._stop.set()
        self._wake.set()
        self._commands.put(Command(-1, "stop"))
        for thread in self._threads:
            if thread.is_alive():
                thread.join(timeout=2)
        with self._inflight_lock:
            acked, self._acked_ids = self._acked_ids, []
        self.outbox.done(*acked)
        if self.client.connected.is_set():
            self.client.publish(self.topics.status(self.table),
                                encode({"v": VERSION, "table": self.table, "status": "offline"}), retain=True)
        self.client.close()
        self.outbox.close()

    # -- the session's side: write the outbox, in the session's thread ----------------------------
    def announce(self) -> None:
        """Put the hello, the entries not yet put and the state in the outbox (at the start and on
        every connection: a broker that restarted has forgotten its retained messages).
        Called with the session's lock held."""
        setup = {k: v for k, v in self.session.setup_data.items() if k in PUBLIC_SETUP}
        self.outbox.put(self.topics.hello(self.table), encode({"v": VERSION, "table": self.table,
                                                               "game_id": self.session.game_id, "setup": setup,
                                                               "title": self.session.title()}), retain=True)
        self._health = None
        self.collect(state=True)

    def _session_message(self, message: dict[str, Any]) -> None:
        self.collect()

    def collect(self, state: bool = False) -> int:
        """Put the entries journalled since the last call (and the state, and health when it
        changed; ``state``: the state in any case) in the outbox; how many entries. Called with
        the session's lock held."""
        game_id = self.session.game_id
        with self._lock:
            last = self.outbox.last_put(game_id)
            entries = self.session.journal.entries(game_id, after=last)
            now = self.clock()
            retained: list[tuple[str, bytes]] = []
            if entries or state:
                last = entries[-1].seq if entries else last
                retained.append((self.topics.state(self.table),
                                 encode({"v": VERSION, "table": self.table, "game_id": game_id, "at": now,
                                         **summary_of(self.session, last)})))
            devices = dict(self.session.devices)
            if devices != self._health:
                self._health = devices
                retained.append((self.topics.health(self.table),
                                 encode({"v": VERSION, "table": self.table, "devices": devices, "at": now})))
            self.outbox.put_entries(game_id, self.topics.entries(self.table),
                                    [(e.seq, encode(entry_message(self.table, game_id, for_the_room(e.to_json()), now)))
                                     for e in entries], retained)
        if entries:
            self._wake.set()
        return len(entries)

    # -- the network's side ----------------------------------------------------------------------
    def _connected(self) -> None:
        self.client.subscribe(self.topics.command_all, self.topics.command_for(self.table))
        self.client.publish(self.topics.status(self.table),
                            encode({"v": VERSION, "table": self.table, "status": "online"}), retain=True)
        self._announce.set()
        self._wake.set()

    def _disconnected(self) -> None:
        with self._inflight_lock:
            self._inflight.clear()           # sent again from the outbox once connected
            self._early.clear()

    def _acked(self, mid: int) -> None:
        with self._inflight_lock:
            outbox_id = self._inflight.pop(mid, None)
            if outbox_id is None:            # publish() has not returned yet (or a stale ack: it expires)
                self._early[mid] = time.monotonic()
                return
            self._acked_ids.append(outbox_id)
        self._wake.set()

    def _send_loop(self) -> None:
        last_sweep = time.monotonic()
        while not self._stop.is_set():
            self._wake.wait(0.5)
            self._wake.clear()
            if time.monotonic() - last_sweep > 1.0 or self._announce.is_set():
                last_sweep = time.monotonic()              # entries no session message announced
                if self.session.lock.acquire(timeout=0.2):
                    try:
                        if self._announce.is_set():
                            self._announce.clear()
                            self.announce()
                        else:
                            self.collect()
                    except Exception:
                        log.exception("room link: reading the journal failed")
                    finally:
                        self.session.lock.release()
            if not self.client.connected.is_set():
                continue
            try:
                self._send_waiting()
            except Exception:
                log.exception("room link: sending failed; the outbox keeps the messages")

    def _send_waiting(self) -> None:
        with self._inflight_lock:
            acked, self._acked_ids = self._acked_ids, []
        self.outbox.done(*acked)                       # one disk write for every ack since the last time
        with self._inflight_lock:
            busy = set(self._inflight.values()) | set(self._acked_ids)
            room = 100 - len(self._inflight)
            now = time.monotonic()
            for stale in [m for m, when in self._early.items() if now - when > 2.0]:
                del self._early[stale]
        if room <= 0:
            return
        for message in self.outbox.waiting(limit=len(busy) + room):
            if message.id in busy:
                continue
            mid = self.client.publish(message.topic, message.payload, retain=message.retain)
            if mid is None:
                return
            with self._inflight_lock:
                # an ack seen just before publish() returned is this message's; an old one (paho
                # resending after a reconnect) is not, and message ids wrap at 65535
                if time.monotonic() - self._early.pop(mid, float("-inf")) < 2.0:
                    self._acked_ids.append(message.id)
                else:
                    self._inflight[mid] = message.id

    # -- the room's commands ----------------------------------------------------------------------
    def _received(self, topic: str, payload: bytes) -> None:
        try:
            command = Command.parse(payload)
        except Refused as refusal:
            log.warning("room link: a command on %s was refused: %s", topic, refusal)
            return
        if command.id in self._seen_commands:
            return
        self._seen_commands.add(command.id)
        self._commands.put(command)            # never on the network's thread: it reads and writes files

    def _resend(self, game_id: str, after: int) -> None:
        """The room misses entries of ``game_id`` after ``after``: the journal has them all (an
        earlier game of this table's journal too: a table that has left answers when it is back)."""
        if game_id != self.session.game_id and self.session.journal.game(game_id) is None:
            return
        entries = self.session.journal.entries(game_id, after=after)[:500]
        now = self.clock()
        for entry in entries:
            self.outbox.put(self.topics.entries(self.table),
                            encode(entry_message(self.table, game_id, for_the_room(entry.to_json()), now)))
        self._wake.set()

    def _command_loop(self) -> None:
        while not self._stop.is_set():
            command = self._commands.get()
            if command.name == "stop":
                return
            try:
                if command.name == "resend":
                    self._resend(command.args["game_id"], command.args["after"])
                    continue
                self.obey(command)
                self.commands_done += 1
            except Exception as error:           # a command the table cannot carry out now
                self.say(f"room: {command.name} could not be done here: {error}")

    def obey(self, command: Command) -> None:
        """Carry out one of the room's commands at this table."""
        session = self.session
        name = command.name
        if name == "next":
            from tabletop.session.host_commands import HOST_BUTTONS
            for key in HOST_BUTTONS["next"]:
                if session.host_action(key, source="room") is not None:
                    self.say(f"room: next round ({key})")
                    return
        elif name == "pause":
            session.pause("room")
            self.say("room: paused")
        elif name == "resume":
            session.unpause("room")
            self.say("room: play on")
        elif name == "message":
            self.say(f"room: {command.args['text']}")
            session.core.publish({"kind": "room-message", "text": command.args["text"]})
        elif name == "roll":
            with session.lock:
                if any(a.key == "roll" for a in session.game.actions()):
                    session.submit({"type": "roll", "faces": list(command.args["faces"])}, source="room")
                    self.say("room: the room's roll, the same at every table: " + " ".join(command.args["faces"]))
                else:
                    self.say("room: the room rolled, but this table is not waiting for a roll now")
        elif name == "deck":
            if session.table.uses_clue_deck:
                from tabletop.decks import deck_of_kind
                kind = session.table.deck_kind(session.game)
                session.deck = deck_of_kind(kind, session.setup.language).shuffled(command.args["seed"])
                self.say(f"room: the room's clue cards (the same order at every table, seed {command.args['seed']})")
        elif name == "end":
            session.host_action("end", source="room")
            self.say("room: the session is over")
        elif name == "seats":
            mine = command.args["seating"].get(self.table)
            if mine:
                self.say("room: next round at this table: " + ", ".join(str(p) for p in mine))
