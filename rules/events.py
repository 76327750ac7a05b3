"""Events: everything that happens at the table, as JSON-serialisable data.

Each event is a dict with a ``type``; most name a ``player``; ``t`` is the time in seconds on
the table's clock when it happened (the rules never read a clock: time arrives here). The
event types and their fields are listed in :data:`SCHEMAS` and documented in docs/events.md.

>>> e = parse_event({"type": "write", "player": "Ann", "text": "market", "row": 9, "col": 8, "dir": "across"})
>>> e.type, e.player, e["text"], e.square, e.direction.value
('write', 'Ann', 'market', Square(row=9, col=8), 'across')
>>> parse_event({"type": "write", "player": "Ann"})
Traceback (most recent call last):
...
rules.errors.EventFormatError: a 'write' event needs 'text' (text)
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Mapping

from rules.errors import EventFormatError
from rules.squares import Direction, Square

_TEXT, _INT, _BOOL, _NUM = "text", "whole number", "true/false", "number"

#: type -> (required fields, optional fields), each field -> kind. Every event may carry ``t``.
SCHEMAS: dict[str, tuple[dict[str, str], dict[str, str]]] = {
    "write": ({"player": _TEXT, "text": _TEXT, "row": _INT, "col": _INT, "dir": _TEXT}, {"confidence": _NUM}),
    "pass": ({"player": _TEXT}, {}),
    "clue": ({"player": _TEXT}, {"answer": _TEXT, "definition": _TEXT, "card": _TEXT}),
    "clue_read": ({"player": _TEXT}, {}),
    "hand": ({"player": _TEXT}, {}),
    "recognise": ({"player": _TEXT, "target": _TEXT}, {}),
    "answer": ({"player": _TEXT}, {"text": _TEXT, "correct": _BOOL}),
    "challenge": ({"player": _TEXT}, {"reason": _TEXT}),
    "remove": ({}, {"player": _TEXT}),
    "time": ({}, {}),
    "end": ({}, {"player": _TEXT}),
}
EVENT_TYPES = tuple(SCHEMAS)


def _kind_ok(kind: str, value: Any) -> bool:
    if kind == _TEXT:
        return isinstance(value, str)
    if kind == _INT:
        return isinstance(value, int) and not isinstance(value, bool)
    if kind == _BOOL:
        return isinstance(value, bool)
    return isinstance(value, (int, float)) and not isinstance(value, bool)


@dataclass(frozen=True)
class Event:
    """One validated event. ``data`` keeps every field (unknown extra fields too) for the record."""

    type: str
    player: str | None
    t: float | None
    data: Mapping[str, Any] = field(repr=False, compare=True)

    def __getitem__(self, key: str) -> Any:
        return self.data[key]

    def get(self, key: str, default: Any = None) -> Any:
        return self.data.get(key, default)

    @property
    def square(self) -> Square:
        """The start square of a ``write``."""
        return Square(self.data["row"], self.data["col"])

    @property
    def direction(self) -> Direction:
        """The direction of a ``write``."""
        return Direction.parse(self.data["dir"])

    def to_json(self) -> dict:
        return dict(self.data)


def parse_event(raw: Mapping[str, Any]) -> Event:
    """Validate an event dict and return it as an :class:`Event`; raise :class:`EventFormatError` if malformed."""
    if not isinstance(raw, Mapping):
        raise EventFormatError(f"an event must be a JSON object, not {type(raw).__name__}")
    kind = raw.get("type")
    if kind not in SCHEMAS:
        raise EventFormatError(f"unknown event type {kind!r}; the types are: {', '.join(EVENT_TYPES)}")
    required, optional = SCHEMAS[kind]
    for name, expected in required.items():
        if name not in raw:
            raise EventFormatError(f"a {kind!r} event needs {name!r} ({expected})")
    for name, expected in {**required, **optional}.items():
        if name in raw and not _kind_ok(expected, raw[name]):
            raise EventFormatError(f"in a {kind!r} event, {name!r} must be a {expected}, not {raw[name]!r}")
    if "t" in raw and raw["t"] is not None and not _kind_ok(_NUM, raw["t"]):
        raise EventFormatError(f"'t' must be a number of seconds, not {raw['t']!r}")
    if kind == "write":
        try:
            Direction.parse(raw["dir"])
        except ValueError as error:
            raise EventFormatError(str(error)) from None
    player = raw.get("player")
    return Event(kind, player, raw.get("t"), dict(raw))
