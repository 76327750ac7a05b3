"""What a table sends its room, and the checks the room makes before it believes any of it.

Every message is one JSON object (UTF-8, at most :data:`MAX_PAYLOAD` bytes, nested at most
:data:`MAX_DEPTH` deep, no ``NaN``) with ``"v": 1`` and the ``table`` of its topic. A message
that fails a check is a :class:`Refused` with a sentence; the room logs it and carries on.

>>> m = entry_message("3", "g1", {"seq": 1, "kind": "event", "t": 0.5, "source": "seat:Ann",
...                               "body": {"type": "pass", "player": "Ann", "t": 0.5},
...                               "status": "accepted", "result": {"message": "Ann passes."}}, at=1.0)
>>> parse("3", "entries", encode(m)).seq
1
>>> parse("4", "entries", encode(m))
Traceback (most recent call last):
...
tabletop.room.messages.Refused: a message on table 4's topic says it is from table '3'
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass
from typing import Any, Mapping

#: the largest message the room reads (a hand lesson's images fit; a 1 MB payload does not)
MAX_PAYLOAD = 256 * 1024
#: JSON nested deeper than this is refused
MAX_DEPTH = 32
VERSION = 1
#: the journal kinds a table may send (the session's kinds)
ENTRY_KINDS = frozenset({"event", "undo", "pause", "resume", "window", "entry", "hand-lesson", "hand-reset"})
ENTRY_STATUSES = frozenset({"pending", "accepted", "rejected", "done"})
#: the set-up fields a hello may carry (never the web tokens)
SETUP_FIELDS = frozenset({"game", "variant", "players", "seed", "language", "rounds", "board", "lexicon",
                          "options", "deck"})


class Refused(ValueError):
    """A message the room will not use; the sentence says why."""


@dataclass(frozen=True)
class Hello:
    """A table's game: its id and set-up (retained, so a restarted room knows it at once)."""

    table: str
    game_id: str
    setup: dict[str, Any]
    title: str


@dataclass(frozen=True)
class EntryMessage:
    """One journal entry of a table's game, with the table's wall time when it was journalled."""

    table: str
    game_id: str
    seq: int
    kind: str
    t: float | None
    source: str | None
    body: dict[str, Any]
    status: str
    result: dict[str, Any] | None
    at: float

    def same_entry(self, other: "EntryMessage") -> bool:
        """Whether ``other`` is this entry again (a duplicate), not a different one with its seq."""
        return (self.kind, self.body, self.t) == (other.kind, other.body, other.t)

    def to_json(self) -> dict[str, Any]:
        return {"v": VERSION, "table": self.table, "game_id": self.game_id, "seq": self.seq, "kind": self.kind,
                "t": self.t, "source": self.source, "body": self.body, "status": self.status,
                "result": self.result, "at": self.at}


@dataclass(frozen=True)
class StateMessage:
    """A table's summary: the last seq it journalled, the totals, whether the game is over."""

    table: str
    game_id: str
    last_seq: int
    totals: dict[str, int]
    over: bool
    status: str
    paused: bool
    at: float


@dataclass(frozen=True)
class HealthMessage:
    """What a table's devices report (``{"camera": "ok", ...}``)."""

    table: str
    devices: dict[str, str]
    at: float


@dataclass(frozen=True)
class StatusMessage:
    """``online`` (the table's link is up) or ``offline`` (the broker's will for a dropped table)."""

    table: str
    online: bool


Message = Hello | EntryMessage | StateMessage | HealthMessage | StatusMessage


def encode(message: Mapping[str, Any]) -> bytes:
    """A message as the wire carries it."""
    return json.dumps(message, ensure_ascii=False, allow_nan=False, separators=(",", ":")).encode()


def entry_message(table: str, game_id: str, entry: Mapping[str, Any], at: float) -> dict[str, Any]:
    """The wire form of a journal entry (``entry``: :meth:`tabletop.session.journal.Entry.to_json`)."""
    return {"v": VERSION, "table": table, "game_id": game_id, "seq": entry["seq"], "kind": entry["kind"],
            "t": entry["t"], "source": entry["source"], "body": entry["body"], "status": entry["status"],
            "result": entry["result"], "at": at}


def _no_constant(name: str) -> float:
    raise Refused(f"{name} is not a number JSON allows")


def _depth(value: Any, depth: int = 0) -> int:
    if depth > MAX_DEPTH:
        return depth
    if isinstance(value, dict):
        return max([_depth(v, depth + 1) for v in value.values()] or [depth + 1])
    if isinstance(value, list):
        return max([_depth(v, depth + 1) for v in value] or [depth + 1])
    return depth


def decode(payload: bytes) -> dict[str, Any]:
    """``payload`` as a JSON object, or :class:`Refused` (too large, not UTF-8, not JSON, too deep).

    >>> decode(b'{"v": 1}')
    {'v': 1}
    >>> decode(b"x" * (MAX_PAYLOAD + 1))
    Traceback (most recent call last):
    ...
    tabletop.room.messages.Refused: a message is at most 262144 bytes, not 262145
    """
    if len(payload) > MAX_PAYLOAD:
        raise Refused(f"a message is at most {MAX_PAYLOAD} bytes, not {len(payload)}")
    try:
        data = json.loads(payload.decode("utf-8"), parse_constant=_no_constant)
    except UnicodeDecodeError:
        raise Refused("a message is UTF-8 text") from None
    except RecursionError:
        raise Refused(f"a message is nested at most {MAX_DEPTH} deep") from None
    except ValueError as error:
        if isinstance(error, Refused):
            raise
        raise Refused(f"a message is one JSON object ({str(error)[:80]})") from None
    if not isinstance(data, dict):
        raise Refused("a message is one JSON object")
    if _depth(data) > MAX_DEPTH:
        raise Refused(f"a message is nested at most {MAX_DEPTH} deep")
    return data


def _text(data: Mapping[str, Any], key: str, limit: int = 200, optional: bool = False) -> Any:
    value = data.get(key)
    if value is None and optional:
        return None
    if not isinstance(value, str) or not value or len(value) > limit:
        raise Refused(f"{key!r} must be text of 1 to {limit} characters")
    return value


def _number(data: Mapping[str, Any], key: str, optional: bool = False) -> float | None:
    value = data.get(key)
    if value is None and optional:
        return None
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value):
        raise Refused(f"{key!r} must be a finite number")
    return float(value)


def _seq(data: Mapping[str, Any], key: str, low: int) -> int:
    value = data.get(key)
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= 10**9:
        raise Refused(f"{key!r} must be a whole number from {low} to 10^9")
    return value


def parse(table: str, kind: str, payload: bytes) -> Message:
    """The message ``payload`` on table ``table``'s topic ``kind``, checked; else :class:`Refused`."""
    data = decode(payload)
    if data.get("v") != VERSION:
        raise Refused(f"a message says \"v\": {VERSION}")
    if data.get("table") != table:
        raise Refused(f"a message on table {table}'s topic says it is from table {str(data.get('table'))[:40]!r}")
    if kind == "hello":
        setup = data.get("setup")
        if not isinstance(setup, dict) or set(setup) - SETUP_FIELDS:
            raise Refused(f"a hello's 'setup' is an object of {', '.join(sorted(SETUP_FIELDS))}")
        _text(setup, "game", 60)
        players = setup.get("players")
        if not isinstance(players, list) or not 1 <= len(players) <= 12 or \
                not all(isinstance(p, str) and 0 < len(p) <= 60 for p in players):
            raise Refused("a hello's players are 1 to 12 names")
        return Hello(table, _text(data, "game_id", 80), setup, str(_text(data, "title", 200, optional=True) or ""))
    if kind == "entries":
        entry_kind = _text(data, "kind", 40)
        if entry_kind not in ENTRY_KINDS:
            raise Refused(f"{entry_kind[:40]!r} is not a journal kind a table writes")
        status = data.get("status")
        if not isinstance(status, str) or status not in ENTRY_STATUSES:
            raise Refused(f"an entry's status is one of {', '.join(sorted(ENTRY_STATUSES))}")
        body, result = data.get("body"), data.get("result")
        if not isinstance(body, dict):
            raise Refused("an entry's body is an object")
        if result is not None and not isinstance(result, dict):
            raise Refused("an entry's result is an object or null")
        if entry_kind == "undo" and (isinstance(body.get("seq"), bool) or not isinstance(body.get("seq"), int)):
            raise Refused("an undo names the seq it takes back")
        source = data.get("source")
        if source is not None and (not isinstance(source, str) or len(source) > 200):
            raise Refused("an entry's source is text or null")
        return EntryMessage(table, _text(data, "game_id", 80), _seq(data, "seq", 1), entry_kind,
                            _number(data, "t", optional=True), source, body, status, result,
                            _number(data, "at") or 0.0)
    if kind == "state":
        totals = data.get("totals")
        if not isinstance(totals, dict) or not all(isinstance(k, str) and isinstance(v, int)
                                                   and not isinstance(v, bool) for k, v in totals.items()):
            raise Refused("a state's totals are player -> whole number")
        return StateMessage(table, _text(data, "game_id", 80), _seq(data, "last_seq", 0), totals,
                            bool(data.get("over")), str(data.get("status") or "")[:300], bool(data.get("paused")),
                            _number(data, "at") or 0.0)
    if kind == "health":
        devices = data.get("devices")
        if not isinstance(devices, dict) or len(devices) > 32 or \
                not all(isinstance(k, str) and isinstance(v, str) for k, v in devices.items()):
            raise Refused("a health message's devices are name -> text")
        return HealthMessage(table, {k[:40]: v[:200] for k, v in devices.items()}, _number(data, "at") or 0.0)
    if kind == "status":
        if data.get("status") not in ("online", "offline"):
            raise Refused("a status is online or offline")
        return StatusMessage(table, data["status"] == "online")
    raise Refused(f"{kind[:40]!r} is not a table's topic")
